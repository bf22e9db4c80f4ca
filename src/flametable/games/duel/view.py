"""What one seat may see of a Flame Duel match (R15), as data: frozen values and their JSON forms.

This module is data only: it imports nothing from the engine (``duel.state`` builds views with ``observe`` and
imports the value types from here). ``DuelView.to_json()`` / ``DuelView.from_json()`` round-trip exactly; the JSON
holds ids and notation, never language: cards by number (``S7`` only inside action notation), actions as their
notation text, enums by value (``Phase``, ``Stat``, ``EffectKind`` as integers, the end ``reason`` as its string).
Its shape is documented by ``docs/schemas/duel-view.schema.json`` (JSON Schema, draft 2020-12).

Public (R15), in every view, the spectator's (seat ``None``) included: flipped characters, the round's stat and
chooser, every support card played and by whom (``events``, ``seats[*].items``, ``log``), the place and its owner,
both discard piles, hand and draw-pile sizes, cards publicly known to be in a hand (``revealed``: taken back from a
discard pile), ability triggers, effect modifiers and running totals (everything in them is public once the stat
is chosen), round results, passes in a row (R6: they end the round's play; the same count is in ``log``) and the
table effects of the last play still to do (``pending``, R10: printed on a card everybody saw played), the draft
pool and picks (R2: picks are public), the outcome.

Private to ``seat`` (empty in the spectator's view and in the other seat's): its hand, its line-up, its
characters, the top cards of its pile it looked at (``known_top``, top first), in own decks the cards of its deck
still in its draw pile (``my_pile``, sorted: which cards, never their order; the seat knows its deck list and saw
every card leave it), its tie-break pick, its legal actions.

Never in any view: the draw-pile order, the opponent's hand (beyond ``revealed``), the opponent's unflipped
characters (outside the draft, R3) and line-up order, the opponent's tie-break pick. The determiniser
(``duel.determinize``) rebuilds full states from these public and private fields only; no field exists for it
alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flametable.core.errors import IllegalAction, RecordError
from flametable.core.i18n import N_
from flametable.core.outcome import Outcome
from flametable.core.schema import Bool, Const, Int, List, Nullable, Obj, Str
from flametable.games.duel.actions import DuelAction
from flametable.games.duel.cards import NUM_CHARACTERS, NUM_SUPPORTS, EffectKind, Stat
from flametable.games.duel.rules import Phase, Reason

VIEW_FORMAT = "flametable-duel-view/1"
DRAW = -1  # a round's winner when it is drawn


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A finished round, all of it public (R15)."""

    number: int  # 1, 2, 3; 4 for the tie-break round
    chooser: int
    stat: int
    characters: tuple[int, int]
    totals: tuple[int, int]
    winner: int  # seat, or DRAW (-1)
    by_charm: bool  # equal totals settled by printed Charm (R12)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "chooser": self.chooser,
            "stat": self.stat,
            "characters": list(self.characters),
            "totals": list(self.totals),
            "winner": self.winner,
            "by_charm": self.by_charm,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> RoundResult:
        return RoundResult(
            number=data["number"],
            chooser=data["chooser"],
            stat=data["stat"],
            characters=_pair(data["characters"]),
            totals=_pair(data["totals"]),
            winner=data["winner"],
            by_charm=data["by_charm"],
        )


@dataclass(frozen=True, slots=True)
class Played:
    """A public event of the current round: who did what (R15)."""

    seat: int
    action: DuelAction
    auto: bool = False  # a pass (or a choice with one option) the engine made for the player (R6, R10)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action.text(), "auto": self.auto}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Played:
        return Played(data["seat"], DuelAction.from_text(data["action"]), data["auto"])


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts about one seat."""

    flipped: tuple[int, ...]  # characters flipped so far, in line-up order (R3)
    known_characters: tuple[int, ...]  # identities known to the viewer (all of them in the draft)
    character: int  # this round's character, 0 before the flip
    hand_size: int
    revealed: tuple[int, ...]  # cards publicly known to be in this hand (taken back from the discard pile)
    pile_size: int
    discard: tuple[int, ...]
    items: tuple[int, ...]  # items equipped this round
    plays: int
    ability_used: bool
    wins: int
    modifier: int  # effect modifiers on this seat's total this round (boost, sap)
    total: int  # running total this round (0 before the stat is chosen)

    def to_json(self) -> dict[str, Any]:
        return {
            "flipped": list(self.flipped),
            "known_characters": list(self.known_characters),
            "character": self.character,
            "hand_size": self.hand_size,
            "revealed": list(self.revealed),
            "pile_size": self.pile_size,
            "discard": list(self.discard),
            "items": list(self.items),
            "plays": self.plays,
            "ability_used": self.ability_used,
            "wins": self.wins,
            "modifier": self.modifier,
            "total": self.total,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> SeatInfo:
        return SeatInfo(
            flipped=tuple(data["flipped"]),
            known_characters=tuple(data["known_characters"]),
            character=data["character"],
            hand_size=data["hand_size"],
            revealed=tuple(data["revealed"]),
            pile_size=data["pile_size"],
            discard=tuple(data["discard"]),
            items=tuple(data["items"]),
            plays=data["plays"],
            ability_used=data["ability_used"],
            wins=data["wins"],
            modifier=data["modifier"],
            total=data["total"],
        )


@dataclass(frozen=True, slots=True)
class DuelView:
    """One seat's view (``seat`` None: a spectator)."""

    seat: int | None
    phase: Phase
    to_act: int | None
    shared_pile: bool
    draft: bool
    round_number: int  # 1..3, 4 = tie-break
    chooser: int | None
    stat: int  # -1 before it is chosen
    place: int
    place_owner: int | None
    events: tuple[tuple[int, int], ...]  # (seat, support) this round
    log: tuple[Played, ...]  # this round's plays and passes
    passes: int  # passes in a row (two end the round's play, R6)
    pending: tuple[tuple[int, int, int], ...]  # table effects still to do: (seat, EffectKind, n) (R10)
    results: tuple[RoundResult, ...]
    seats: tuple[SeatInfo, SeatInfo]
    # private to ``seat``
    hand: tuple[int, ...]
    lineup: tuple[int, ...]
    my_characters: tuple[int, ...]
    known_top: tuple[int, ...]  # the top cards of my pile I looked at, top first
    my_pile: tuple[int, ...]  # own decks: the cards of my deck still in my draw pile, sorted (never the order)
    champion: int  # my tie-break pick, 0 if none yet
    legal: tuple[DuelAction, ...]  # my legal actions when I am to act, else empty
    draft_pool: tuple[int, ...]  # characters still free to pick
    outcome: Outcome | None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (see the module docstring and ``docs/schemas/duel-view.schema.json``)."""
        out = self.outcome
        return {
            "format": VIEW_FORMAT,
            "seat": self.seat,
            "phase": int(self.phase),
            "to_act": self.to_act,
            "shared_pile": self.shared_pile,
            "draft": self.draft,
            "round_number": self.round_number,
            "chooser": self.chooser,
            "stat": self.stat,
            "place": self.place,
            "place_owner": self.place_owner,
            "events": [{"seat": p, "card": s} for p, s in self.events],
            "log": [e.to_json() for e in self.log],
            "passes": self.passes,
            "pending": [{"seat": p, "effect": k, "n": n} for p, k, n in self.pending],
            "results": [r.to_json() for r in self.results],
            "seats": [self.seats[0].to_json(), self.seats[1].to_json()],
            "hand": list(self.hand),
            "lineup": list(self.lineup),
            "my_characters": list(self.my_characters),
            "known_top": list(self.known_top),
            "my_pile": list(self.my_pile),
            "champion": self.champion,
            "legal": [a.text() for a in self.legal],
            "draft_pool": list(self.draft_pool),
            "outcome": None if out is None else out.to_json(),
        }

    @staticmethod
    def from_json(data: Any) -> DuelView:
        """A view from its JSON form; a :class:`RecordError` says what is wrong with malformed data."""
        if not isinstance(data, Mapping) or data.get("format") != VIEW_FORMAT:
            raise RecordError(N_("not a Flame Duel view ({format}): {value}"), format=VIEW_FORMAT, value=str(data)[:80])
        try:
            seats = data["seats"]
            out = data["outcome"]
            return DuelView(
                seat=data["seat"],
                phase=Phase(data["phase"]),
                to_act=data["to_act"],
                shared_pile=data["shared_pile"],
                draft=data["draft"],
                round_number=data["round_number"],
                chooser=data["chooser"],
                stat=data["stat"],
                place=data["place"],
                place_owner=data["place_owner"],
                events=tuple((e["seat"], e["card"]) for e in data["events"]),
                log=tuple(Played.from_json(e) for e in data["log"]),
                passes=data["passes"],
                pending=tuple((e["seat"], e["effect"], e["n"]) for e in data["pending"]),
                results=tuple(RoundResult.from_json(r) for r in data["results"]),
                seats=(SeatInfo.from_json(seats[0]), SeatInfo.from_json(seats[1])),
                hand=tuple(data["hand"]),
                lineup=tuple(data["lineup"]),
                my_characters=tuple(data["my_characters"]),
                known_top=tuple(data["known_top"]),
                my_pile=tuple(data["my_pile"]),
                champion=data["champion"],
                legal=tuple(DuelAction.from_text(a) for a in data["legal"]),
                draft_pool=tuple(data["draft_pool"]),
                outcome=None if out is None else Outcome(out["winner"], Reason(out["reason"]), _pair(out["scores"])),
            )
        except (KeyError, IndexError, TypeError, ValueError, IllegalAction) as exc:
            raise RecordError(N_("malformed Flame Duel view: {error!r}"), error=exc) from None


def _pair(values: Sequence[int]) -> tuple[int, int]:
    a, b = values
    return (a, b)


# ------------------------------------------------------------------ the declared shape (docs/formats.md)
# docs/schemas/duel-view.schema.json is generated from VIEW_SCHEMA (python -m flametable.cli.schemas).

_SEAT = Int(0, 1)
_SEAT_OR_NULL = Nullable(_SEAT)
_SUPPORT = Int(1, NUM_SUPPORTS, "a support card's number (R1)")
_CHARACTER = Int(1, NUM_CHARACTERS, "a character's number (R1)")
_SUPPORTS = List(_SUPPORT)
_ACTION = Str(pattern=r"pass|stat (spark|heat|charm)|(play|ability|take|swap) S([1-9]|1[0-9]|2[01])"
                      r"|(pick|line|champion) C([1-9]|[12][0-9]|3[0-3])", max_len=None,
              description="an action in the game's notation (duel/actions.py)")
_ROUND_RESULT = Obj(required={
    "number": Int(1, 4),
    "chooser": _SEAT,
    "stat": Int(0, len(Stat) - 1, "0 Spark, 1 Heat, 2 Charm"),
    "characters": List(_CHARACTER, min=2, max=2),
    "totals": List(Int(), min=2, max=2),
    "winner": Int(DRAW, 1, "the seat that won the round, -1 for a draw (R12)"),
    "by_charm": Bool("equal totals settled by printed Charm (R12)"),
})
_SEAT_INFO = Obj(required={
    "flipped": List(_CHARACTER, max=4, description="characters flipped so far, in line-up order (R3)"),
    "known_characters": List(_CHARACTER, max=3,
                             description="this seat's characters whose identity the viewer knows, sorted"),
    "character": Int(0, NUM_CHARACTERS, "this round's character, 0 outside a round"),
    "hand_size": Int(0),
    "revealed": List(_SUPPORT, description="cards publicly known to be in this hand (taken back from the discard "
                                           "pile)"),
    "pile_size": Int(0),
    "discard": _SUPPORTS,
    "items": List(_SUPPORT, description="items equipped this round (R7)"),
    "plays": Int(0, 2),
    "ability_used": Bool(),
    "wins": Int(0, 3),
    "modifier": Int(description="effect modifiers on this seat's total this round (boost, sap)"),
    "total": Int(description="running total this round, 0 before the stat is chosen (R12)"),
})
VIEW_SCHEMA = Obj(required={
    "format": Const(VIEW_FORMAT),
    "seat": Nullable(_SEAT, "the viewer: 0, 1, or null for a spectator"),
    "phase": Int(0, len(Phase) - 1, "0 draft, 1 line-up, 2 tie-break pick, 3 stat choice, 4 plays, 5 effect choice, "
                                    "6 over"),
    "to_act": Nullable(_SEAT, "the seat whose decision it is; null once the match is over"),
    "shared_pile": Bool("true: one shared support deck (R2); false: own decks"),
    "draft": Bool("characters drafted (R2); their identities are then public"),
    "round_number": Int(1, 4, "1 to 3; 4 is the tie-break round (R14)"),
    "chooser": Nullable(_SEAT, "who chooses (or chose) this round's stat (R5); null outside a round"),
    "stat": Int(-1, len(Stat) - 1, "this round's stat, -1 before it is chosen (0 Spark, 1 Heat, 2 Charm)"),
    "place": Int(0, NUM_SUPPORTS, "the place card on the table, 0 for none (R8)"),
    "place_owner": _SEAT_OR_NULL,
    "events": List(Obj(required={"seat": _SEAT, "card": _SUPPORT}),
                   description="events played this round, in order (R9)"),
    "log": List(Obj(required={"seat": _SEAT, "action": _ACTION, "auto": Bool(
        "made by the engine for the player (a forced pass, R6; a choice with one option, R10)")}),
                description="this round's plays, passes and choices, in order (R15)"),
    "passes": Int(0, 2, "passes in a row (two end the round's play, R6)"),
    "pending": List(Obj(required={
        "seat": _SEAT,
        "effect": Int(0, len(EffectKind) - 1, "0 draw, 1 look at the pile, 2 take back, 3 swap a place, 4 clear the "
                                              "place, 5 boost, 6 sap (R10)"),
        "n": Int(0)}), description="table effects of the last play still to do (R10)"),
    "results": List(_ROUND_RESULT, max=4),
    "seats": List(_SEAT_INFO, min=2, max=2),
    "hand": List(_SUPPORT, description="private: the viewer's hand"),
    "lineup": List(_CHARACTER, max=3, description="private: the viewer's line-up, first flipped first (R3)"),
    "my_characters": List(_CHARACTER, max=3, description="private: the viewer's characters, sorted"),
    "known_top": List(_SUPPORT, description="private: the top cards of the viewer's pile it looked at, top first "
                                            "(R10)"),
    "my_pile": List(_SUPPORT, description="private, own decks: the cards of the viewer's deck still in its pile, "
                                          "sorted (never the order)"),
    "champion": Int(0, NUM_CHARACTERS, "private: the viewer's tie-break pick while picks are made (R14), 0 for none"),
    "legal": List(_ACTION, unique=True, description="private: the viewer's legal actions when it is to act"),
    "draft_pool": List(_CHARACTER, description="characters still free to pick (draft, R2)"),
    "outcome": Nullable(Obj(required={
        "winner": Nullable(_SEAT, "null: a tied match"),
        "reason": Str(choices=tuple(r.value for r in Reason), description="why the match ended (R14)"),
        "scores": List(Int(0), min=2, max=2),
    })),
}, title="Flame Duel view")
