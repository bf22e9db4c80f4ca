"""Flamecraft Duals: the tile-laying game (rulings D1-D11), everything about it in one folder. The engine
(``board``, ``pattern``, ``data``, ``actions``, ``rules``, ``state``, ``view``, ``determinize``, ``game``) imports
only :mod:`flametable.core`; ``entry.py`` is its registry entry."""
