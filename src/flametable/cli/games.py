"""The interface's door to the game registry (:mod:`flametable.core.registry`): a game found by name (a
record's ``game``, a subcommand) or by the look of a data file (its entry's ``claims`` piece)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flametable.core import registry
from flametable.core.registry import GameEntry


def lookup(name: str) -> GameEntry | None:
    return registry.find(name)


def detect(data: Mapping[str, Any]) -> GameEntry | None:
    """The game whose data files look like ``data`` (its ``claims`` piece says so); when none or several do,
    the first game that checks data files (whose check then says what is missing); None when no game does."""
    checking = [entry for entry in registry.entries() if entry.has("check")]
    found = [entry for entry in checking if entry.has("claims") and entry.required("claims")(data)]
    if len(found) == 1:
        return found[0]
    return checking[0] if checking else None


def checkable() -> list[str]:
    """The games whose data files ``cards check`` can check."""
    return [entry.name for entry in registry.entries() if entry.has("check")]
