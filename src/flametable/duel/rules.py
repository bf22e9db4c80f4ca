"""Flame Duel options, phases and outcome reasons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from flametable.core.errors import RecordError
from flametable.duel.cards import Deck, parse_deck

RULES_VERSION = "flame-duel/1"
HAND_SIZE = 3  # R4
MAX_PLAYS = 2  # R6
ABILITY_BONUS = 15  # R11
ROUNDS = 3  # R14


class Mode(StrEnum):
    SHARED = "shared"  # R2: one support deck of all 21 cards
    DECKS = "decks"  # R2: own decks of 3 characters and 8-12 supports


class Pick(StrEnum):
    RANDOM = "random"  # R2: characters dealt at random
    DRAFT = "draft"  # R2: players alternate picking, picks public


class Phase(IntEnum):
    DRAFT = 0
    LINEUP = 1
    CHAMPION = 2  # R14: picking among tied most-charming characters
    STAT = 3  # R5: the chooser picks the round's stat
    PLAY = 4  # R6: turns of plays and passes
    CHOICE = 5  # R10: a table effect waits for its player's choice
    OVER = 6


class Reason(StrEnum):
    """Why the match ended (R14)."""

    TWO_WINS = "two_round_wins"  # a player reached 2 round wins
    MORE_WINS = "more_round_wins"  # after round 3, more round wins
    TIEBREAK = "tiebreak_round"  # the tie-break round was won
    TIED_MATCH = "tied_match"  # the tie-break round was drawn


@dataclass(frozen=True)
class DuelOptions:
    mode: Mode = Mode.SHARED
    pick: Pick = Pick.RANDOM
    decks: tuple[Deck | None, Deck | None] = (None, None)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": str(self.mode),
            "pick": str(self.pick),
            "decks": [d.to_json() if d else None for d in self.decks],
        }

    @staticmethod
    def from_json(data: Any) -> DuelOptions:
        if isinstance(data, DuelOptions):
            return data
        if data is None:
            return DuelOptions()
        if not isinstance(data, Mapping):
            raise RecordError(f"options must be an object, got {data!r}")
        unknown = set(data) - {"mode", "pick", "decks"}
        if unknown:
            raise RecordError(f"options: unknown field(s) {', '.join(sorted(unknown))}")
        try:
            mode = Mode(data.get("mode", "shared"))
        except ValueError:
            raise RecordError(f"options.mode must be shared or decks, got {data.get('mode')!r}") from None
        try:
            pick = Pick(data.get("pick", "random"))
        except ValueError:
            raise RecordError(f"options.pick must be random or draft, got {data.get('pick')!r}") from None
        raw = data.get("decks") or [None, None]
        if not isinstance(raw, list) or len(raw) != 2:
            raise RecordError("options.decks must be a list of two decks (or nulls)")
        decks = tuple(None if d is None else parse_deck(d, f"options.decks[{i}]") for i, d in enumerate(raw))
        if mode is Mode.SHARED and any(decks):
            raise RecordError("options.decks is only for mode 'decks'")
        if mode is Mode.DECKS and pick is Pick.DRAFT:
            raise RecordError("own decks bring their characters: pick 'draft' is only for mode 'shared'")
        return DuelOptions(mode, pick, (decks[0], decks[1]))
