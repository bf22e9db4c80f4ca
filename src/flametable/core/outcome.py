"""The result of a match as a value."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self


class Reason(StrEnum):
    """Why a match ended: a game's own enum of reasons, each member a value (what records and events say) and the
    English words for players, marked with ``N_`` (``TWO_WINS = "two_round_wins", N_("two round wins")``), which
    the texts translate. A game may give any StrEnum instead; its reasons are then shown as their values."""

    text: str

    def __new__(cls, value: str, text: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.text = text or value
        return member


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won (``None`` for a tie / shared victory) and why.

    ``reason`` is the game's own enum (a :class:`StrEnum`); ``scores`` are the game's final
    figures per seat (round wins, victory points), for display and statistics.
    """

    winner: int | None
    reason: StrEnum
    scores: tuple[int, int] = (0, 0)

    @property
    def is_tie(self) -> bool:
        return self.winner is None

    def points(self, seat: int) -> float:
        """1 for a win, 0.5 for a tie, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == seat else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": str(self.reason), "scores": list(self.scores)}
