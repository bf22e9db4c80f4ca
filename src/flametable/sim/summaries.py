"""What the lab keeps of each match beyond its result: each game's own collector and summary, found in the
game registry (:mod:`flametable.core.registry`); a game without them keeps nothing more."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flametable.core import registry
from flametable.core.protocol import Action, GameState

Collector = Callable[[GameState[Any, Any], int, Action], Any]


def collector(game: str) -> Collector | None:
    """What the lab records after each step of a match of ``game`` (None: nothing)."""
    collect: Collector | None = registry.get(game).piece("collect")
    return collect


def summarize(game: str, state: GameState[Any, Any], trace: list[tuple[int, Action, Any]]) -> dict[str, Any]:
    """The ``summary`` of a result line: what the game's own summary makes of the final state and the trace."""
    make = registry.get(game).piece("summarize")
    if make is None:
        return {}
    summary: dict[str, Any] = make(state, trace)
    return summary
