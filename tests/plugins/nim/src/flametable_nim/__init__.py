"""Nim, the smallest game of the core protocol: a plug-in that ``flametable`` finds through its entry point.

Two players take turns removing 1 to ``max_take`` stones from one heap; whoever takes the last stone wins.
Options: ``{"heap": N}`` (default 15). The seed decides who starts (seed even: seat 0). An explicit setup
``{"heap": N, "to_act": seat}`` replaces the seeded one. Notation: ``take N``.

It brings no determiniser, texts or table: flametable plays it with bot:random, in plain notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from flametable.core.errors import IllegalAction
from flametable.core.outcome import Outcome

RULES_VERSION = "nim-1"


class NimReason(StrEnum):
    LAST_STONE = "last_stone"


@dataclass(frozen=True)
class NimAction:
    take: int

    @property
    def id(self) -> int:
        return self.take - 1

    def text(self) -> str:
        return f"take {self.take}"


@dataclass(frozen=True)
class NimView:
    """Nim hides nothing: every seat (and a spectator) sees the heap and whose turn it is."""

    seat: int | None
    heap: int
    to_act: int | None
    max_take: int
    legal: tuple[NimAction, ...]
    outcome: Outcome | None


class NimState:
    def __init__(self, heap: int, to_act: int, max_take: int) -> None:
        self.heap = heap
        self._to_act: int | None = to_act
        self.max_take = max_take
        self._outcome: Outcome | None = None

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> list[NimAction]:
        if self._to_act is None:
            return []
        return [NimAction(k) for k in range(1, min(self.max_take, self.heap) + 1)]

    def apply(self, action: NimAction) -> None:
        seat = self._to_act
        if seat is None:
            raise IllegalAction("The match is over.")
        if not 1 <= action.take <= min(self.max_take, self.heap):
            raise IllegalAction("You may take 1 to {most} stones now, not {take}.",
                                most=min(self.max_take, self.heap), take=action.take)
        self.heap -= action.take
        if self.heap == 0:
            self._to_act = None
            self._outcome = Outcome(seat, NimReason.LAST_STONE, (1, 0) if seat == 0 else (0, 1))
        else:
            self._to_act = 1 - seat

    def view(self, seat: int | None) -> NimView:
        return NimView(seat, self.heap, self._to_act, self.max_take, tuple(self.legal_actions()), self._outcome)

    def clone(self) -> NimState:
        copy = NimState(self.heap, 0, self.max_take)
        copy._to_act = self._to_act
        copy._outcome = self._outcome
        return copy


class NimGame:
    name = "nim"
    rules_version = RULES_VERSION

    def __init__(self, max_take: int = 3) -> None:
        self.max_take = max_take
        self.num_actions = max_take

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> NimState:
        heap = (setup or options or {}).get("heap", 15)
        if not isinstance(heap, int) or isinstance(heap, bool) or heap < 1:
            raise IllegalAction("The heap must be a whole number of stones, at least 1, not {heap!r}.", heap=heap)
        to_act = (setup or {}).get("to_act", seed % 2)
        return NimState(heap, to_act, self.max_take)

    def action_from_text(self, text: str) -> NimAction:
        word, _, count = text.strip().partition(" ")
        if word != "take" or not count.strip().isdigit():
            raise IllegalAction("Cannot read the action {text!r}.", text=text)
        return NimAction(int(count))

    def action_from_id(self, action_id: int) -> NimAction:
        if not 0 <= action_id < self.num_actions:
            raise IllegalAction("No action has id {id} (ids are 0 to {last}).", id=action_id, last=self.num_actions - 1)
        return NimAction(action_id + 1)

    def content_id(self) -> tuple[str, str]:
        return "nim", f"take-1-to-{self.max_take}"
