"""The games by name, with optional custom data files (card set, board data)."""

from __future__ import annotations

from typing import Any

GAMES = ("duel", "duals")


def make_game(name: str, data: str | None = None) -> Any:
    """The game ``name`` playing with the data file ``data`` (or its built-in data)."""
    if name == "duel":
        from flametable.duel.cards import load_card_set
        from flametable.duel.game import DuelGame

        return DuelGame(load_card_set(data) if data else None)
    if name == "duals":
        from flametable.duals.game import DualsGame

        return DualsGame(data)
    raise ValueError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
