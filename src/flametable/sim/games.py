"""The games by name, with optional custom data files (card set, board data): the lab's door to the game
registry (:mod:`flametable.core.registry`), which alone knows which games exist."""

from __future__ import annotations

from typing import Any

from flametable.core import registry


def make_game(name: str, data: str | None = None) -> Any:
    """The game ``name`` playing with the data file ``data`` (or its built-in data).

    Raises :class:`~flametable.core.registry.UnknownGame` (a FlametableError) naming the known games."""
    return registry.make_game(name, data)
