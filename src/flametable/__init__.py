"""flametable: a digital table for Flame Duel and Flamecraft Duals."""

__version__ = "0.1.0"
