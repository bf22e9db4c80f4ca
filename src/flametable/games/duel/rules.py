"""Flame Duel options, phases and outcome reasons."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from flametable.core import outcome
from flametable.core.errors import RecordError
from flametable.core.i18n import N_, Phrase
from flametable.games.duel.cards import Deck, parse_deck

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


SHARED_MODE, DECKS_MODE = Mode
RANDOM_PICK, DRAFT_PICK = Pick  # aliases, as the phases' below


class Phase(IntEnum):
    DRAFT = 0
    LINEUP = 1
    CHAMPION = 2  # R14: picking among tied most-charming characters
    STAT = 3  # R5: the chooser picks the round's stat
    PLAY = 4  # R6: turns of plays and passes
    CHOICE = 5  # R10: a table effect waits for its player's choice
    OVER = 6


# The members as module globals for the engine's hot paths (issue 26): on Python 3.11 reading `Phase.X` is a
# lookup through the enum's metaclass, several times slower than reading a global.
DRAFT_PHASE, LINEUP_PHASE, CHAMPION_PHASE, STAT_PHASE, PLAY_PHASE, CHOICE_PHASE, OVER_PHASE = Phase


PHASE_TEXT = {  # what the seat to act is expected to do (a phrase inside messages, e.g. an IllegalAction's)
    Phase.DRAFT: Phrase(N_("pick a character")),
    Phase.LINEUP: Phrase(N_("line up your characters")),
    Phase.CHAMPION: Phrase(N_("choose your tie-break character")),
    Phase.STAT: Phrase(N_("choose the round's stat")),
    Phase.PLAY: Phrase(N_("play a card, trigger your ability or pass")),
    Phase.CHOICE: Phrase(N_("choose a card for the effect")),
    Phase.OVER: Phrase(N_("the match is over")),
}


class Reason(outcome.Reason):
    """Why the match ended (R14)."""

    TWO_WINS = "two_round_wins", N_("two round wins")  # a player reached 2 round wins
    MORE_WINS = "more_round_wins", N_("more round wins after three rounds")  # after round 3, more round wins
    TIEBREAK = "tiebreak_round", N_("won the tie-break round")  # the tie-break round was won
    TIED_MATCH = "tied_match", N_("the tie-break round was drawn")  # the tie-break round was drawn


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
            raise RecordError(N_("options must be an object, got {value!r}"), value=data)
        unknown = set(data) - {"mode", "pick", "decks"}
        if unknown:
            raise RecordError(N_("options: unknown field(s) {fields}"), fields=", ".join(sorted(unknown)))
        try:
            mode = Mode(data.get("mode", "shared"))
        except ValueError:
            raise RecordError(N_("{field} must be {choices}, got {value!r}"), field="options.mode",
                              choices="shared, decks", value=data.get("mode")) from None
        try:
            pick = Pick(data.get("pick", "random"))
        except ValueError:
            raise RecordError(N_("{field} must be {choices}, got {value!r}"), field="options.pick",
                              choices="random, draft", value=data.get("pick")) from None
        raw = data.get("decks") or [None, None]
        if not isinstance(raw, list) or len(raw) != 2:
            raise RecordError(N_("{field} must be a list of two decks (or nulls)"), field="options.decks")
        decks = tuple(None if d is None else parse_deck(d, f"options.decks[{i}]") for i, d in enumerate(raw))
        if mode is Mode.SHARED and any(decks):
            raise RecordError(N_("{field} is only for the mode {mode!r}"), field="options.decks", mode="decks")
        if mode is Mode.DECKS and pick is Pick.DRAFT:
            raise RecordError(N_("own decks bring their characters: the pick {pick!r} is only for the mode {mode!r}"),
                              pick="draft", mode="shared")
        return DuelOptions(mode, pick, (decks[0], decks[1]))
