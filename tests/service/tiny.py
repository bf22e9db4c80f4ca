"""A tiny game for the service's tests, with a hidden action and a view that has its own JSON form.

Secret Nim: each player first makes a secret bid of 1 to 3 (``bid 2``, seat 0 then seat 1: the other player
and spectators only see that a bid was made); then, starting with seat 0, players take 1 or 2 stones in turn
(``take 1``, public) from a pile of 5. Whoever takes the last stone wins; the bids are shown at the end (the
outcome's scores).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self

from flametable.core.errors import IllegalAction
from flametable.core.outcome import Outcome

STONES = 5


class Reason(StrEnum):
    LAST_STONE = "last_stone"


@dataclass(frozen=True, slots=True)
class TinyAction:
    kind: str  # "bid" or "take"
    n: int
    id: int

    def text(self) -> str:
        return f"{self.kind} {self.n}"


ACTIONS = (*(TinyAction("bid", n, n - 1) for n in (1, 2, 3)), *(TinyAction("take", n, n + 2) for n in (1, 2)))
BY_TEXT = {a.text(): a for a in ACTIONS}


def read(text: str) -> TinyAction:
    found = BY_TEXT.get(" ".join(text.lower().split()))
    if found is None:
        raise IllegalAction("Cannot read the action {text!r}.", text=text)
    return found


@dataclass(frozen=True, slots=True)
class TinyView:
    seat: int | None
    to_act: int | None
    pile: int
    bids_made: tuple[bool, bool]
    my_bid: int  # 0: none, or not a seat
    bids: tuple[int, int] | None  # both bids, once the match is over
    legal: tuple[TinyAction, ...]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "to_act": self.to_act, "pile": self.pile, "bids_made": list(self.bids_made),
                "my_bid": self.my_bid, "bids": list(self.bids) if self.bids else None,
                "legal": [a.text() for a in self.legal], "winner": self.winner}

    @staticmethod
    def from_json(data: Any) -> TinyView:
        bids = data["bids"]
        return TinyView(data["seat"], data["to_act"], data["pile"], (data["bids_made"][0], data["bids_made"][1]),
                        data["my_bid"], None if bids is None else (bids[0], bids[1]),
                        tuple(read(t) for t in data["legal"]), data["winner"])


class TinyState:
    def __init__(self) -> None:
        self.pile = STONES
        self.bids = [0, 0]
        self.seat: int | None = 0
        self.winner: int | None = None

    @property
    def to_act(self) -> int | None:
        return self.seat

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        return Outcome(self.winner, Reason.LAST_STONE, (self.bids[0], self.bids[1]))

    def legal_actions(self) -> list[TinyAction]:
        if self.seat is None:
            return []
        if not self.bids[self.seat]:
            return list(ACTIONS[:3])
        return [a for a in ACTIONS[3:] if a.n <= self.pile]

    def apply(self, action: TinyAction) -> None:
        seat = self.seat
        if seat is None:
            raise IllegalAction("The match is over.")
        if action not in self.legal_actions():
            if action.kind == "take" and action.n > self.pile:
                raise IllegalAction("Only {left} stones are left, not {n}.", left=self.pile, n=action.n)
            raise IllegalAction("{action} is not possible now.", action=action.text())
        if action.kind == "bid":
            self.bids[seat] = action.n
            self.seat = 1 if seat == 0 else 0
            return
        self.pile -= action.n
        if self.pile == 0:
            self.winner, self.seat = seat, None
        else:
            self.seat = 1 - seat

    def view(self, seat: int | None) -> TinyView:
        over = self.winner is not None
        return TinyView(seat, self.seat, self.pile, (bool(self.bids[0]), bool(self.bids[1])),
                        self.bids[seat] if seat is not None else 0,
                        (self.bids[0], self.bids[1]) if over else None,
                        tuple(self.legal_actions()) if seat is not None and seat == self.seat else (), self.winner)

    def clone(self) -> Self:
        other = type(self)()
        other.pile, other.bids, other.seat, other.winner = self.pile, self.bids[:], self.seat, self.winner
        return other


class QuietGame:
    """Secret Nim as a plug-in that says nothing about which actions are public."""

    name = "tiny"
    rules_version = "tiny/1"
    num_actions = len(ACTIONS)

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> TinyState:
        return TinyState()

    def action_from_text(self, text: str) -> TinyAction:
        return read(text)

    def action_from_id(self, action_id: int) -> TinyAction:
        if not isinstance(action_id, int) or not 0 <= action_id < len(ACTIONS):
            raise IllegalAction("No action has id {id} (ids are 0 to {last}).", id=action_id, last=len(ACTIONS) - 1)
        return ACTIONS[action_id]

    def content_id(self) -> tuple[str, str]:
        return "tiny", "0"


class TinyGame(QuietGame):
    """Secret Nim declaring its public actions: the takes, not the bids."""

    def public_action(self, action: TinyAction) -> bool:
        return action.kind == "take"
