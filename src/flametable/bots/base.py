"""The bot interface: a bot sees one seat's view and that seat's legal actions, never the state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from flametable.core.protocol import Action
from flametable.core.rng import Rng


class Bot(Protocol):
    name: str

    def choose(self, view: Any, legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a bot was asked to act with no legal action")
        return legal[self.rng.below(len(legal))]

