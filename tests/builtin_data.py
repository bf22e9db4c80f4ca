"""The built-in games' data files, where they lie in the source tree (each in its game's ``data/`` folder)."""

from __future__ import annotations

from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "src" / "flametable" / "games"
DUEL_CARDS = GAMES / "duel" / "data" / "cards.toml"
"""Flame Duel's built-in card set, *flametable-base*."""
DUALS_DATA = GAMES / "duals" / "data" / "duals.toml"
"""Flamecraft Duals' built-in board, tokens and shop deck."""
