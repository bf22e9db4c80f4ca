"""What one seat may see of a Flame Duel match (R15), as data: frozen values and their JSON forms.

This module is data only: it imports nothing from the engine (``duel.state`` builds views with ``observe`` and
imports the value types from here). ``DuelView.to_json()`` / ``DuelView.from_json()`` round-trip exactly; the JSON
holds ids and notation, never language: cards by number (``S7`` only inside action notation), actions as their
notation text, the phase by its name in lower case (``play``), the other enums by value (``Stat``, ``EffectKind``
as integers, the end ``reason`` as its string).
Each field declares its JSON beside its type (:mod:`flametable.core.jsonform`): the JSON form and its schema,
``VIEW_SCHEMA`` (``docs/schemas/duel-view.schema.json``, JSON Schema draft 2020-12), follow from it.

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

from dataclasses import dataclass
from typing import Annotated, Any

from flametable.core.errors import IllegalAction, RecordError
from flametable.core.i18n import N_
from flametable.core.jsonform import JsonForm, Wire, by_name, jsonform, names_of, outcome, rows
from flametable.core.outcome import Outcome
from flametable.core.schema import Bool, Int, List, Nullable, Obj, Str
from flametable.games.duel.actions import DuelAction
from flametable.games.duel.cards import NUM_CHARACTERS, NUM_SUPPORTS, EffectKind, Stat
from flametable.games.duel.rules import Phase, Reason

VIEW_FORMAT = "flametable-duel-view/1"
DRAW = -1  # a round's winner when it is drawn

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


def _text(action: DuelAction, _context: Any) -> str:
    return action.text()


def _action(text: Any, _context: Any) -> DuelAction:
    if not isinstance(text, str):
        raise TypeError(f"expected an action's notation, got {text!r}")
    return DuelAction.from_text(text)


def _texts(actions: tuple[DuelAction, ...], _context: Any) -> list[str]:
    return [a.text() for a in actions]


def _actions(texts: Any, _context: Any) -> tuple[DuelAction, ...]:
    if not isinstance(texts, list):
        raise TypeError(f"expected a list of actions, got {texts!r}")
    return tuple(_action(t, None) for t in texts)


@jsonform()
@dataclass(frozen=True, slots=True)
class RoundResult(JsonForm):
    """A finished round, all of it public (R15)."""

    number: Annotated[int, Wire(Int(1, 4))]  # 1, 2, 3; 4 for the tie-break round
    chooser: Annotated[int, Wire(_SEAT)]
    stat: Annotated[int, Wire(Int(0, len(Stat) - 1, "0 Spark, 1 Heat, 2 Charm"))]
    characters: Annotated[tuple[int, int], Wire(List(_CHARACTER, min=2, max=2))]
    totals: Annotated[tuple[int, int], Wire(List(Int(), min=2, max=2))]
    winner: Annotated[int, Wire(Int(DRAW, 1, "the seat that won the round, -1 for a draw (R12)"))]  # or DRAW
    by_charm: Annotated[bool, Wire(Bool("equal totals settled by printed Charm (R12)"))]


@jsonform()
@dataclass(frozen=True, slots=True)
class Played(JsonForm):
    """A public event of the current round: who did what (R15)."""

    seat: Annotated[int, Wire(_SEAT)]
    action: Annotated[DuelAction, Wire(_ACTION, _text, _action)]
    # a pass (or a choice with one option) the engine made for the player (R6, R10)
    auto: Annotated[bool, Wire(Bool("made by the engine for the player (a forced pass, R6; a choice with one "
                                    "option, R10)"))] = False


@jsonform()
@dataclass(frozen=True, slots=True)
class SeatInfo(JsonForm):
    """Public facts about one seat."""

    flipped: Annotated[tuple[int, ...], Wire(List(_CHARACTER, max=4, description="characters flipped so far, in "
                                                                                  "line-up order (R3)"))]
    known_characters: Annotated[tuple[int, ...], Wire(List(
        _CHARACTER, max=3, description="this seat's characters whose identity the viewer knows, sorted"))]
    character: Annotated[int, Wire(Int(0, NUM_CHARACTERS, "this round's character, 0 outside a round"))]
    hand_size: Annotated[int, Wire(Int(0))]
    revealed: Annotated[tuple[int, ...], Wire(List(_SUPPORT, description="cards publicly known to be in this hand "
                                                                         "(taken back from the discard pile)"))]
    pile_size: Annotated[int, Wire(Int(0))]
    discard: Annotated[tuple[int, ...], Wire(_SUPPORTS)]
    items: Annotated[tuple[int, ...], Wire(List(_SUPPORT, description="items equipped this round (R7)"))]
    plays: Annotated[int, Wire(Int(0, 2))]
    ability_used: Annotated[bool, Wire(Bool())]
    wins: Annotated[int, Wire(Int(0, 3))]
    modifier: Annotated[int, Wire(Int(description="effect modifiers on this seat's total this round (boost, sap)"))]
    total: Annotated[int, Wire(Int(description="running total this round, 0 before the stat is chosen (R12)"))]


@jsonform(title="Flame Duel view", constants={"format": VIEW_FORMAT})
@dataclass(frozen=True, slots=True)
class DuelView(JsonForm):
    """One seat's view (``seat`` None: a spectator)."""

    seat: Annotated[int | None, Wire(Nullable(_SEAT, "the viewer: 0, 1, or null for a spectator"))]
    phase: Annotated[Phase, Wire(Str(choices=names_of(Phase), max_len=None, description=(
        "the phase: draft, lineup, champion (the tie-break pick, R14), stat (its choice, R5), play (plays and "
        "passes, R6), choice (an effect's choice, R10), over")), *by_name(Phase))]
    to_act: Annotated[int | None, Wire(Nullable(_SEAT, "the seat whose decision it is; null once the match is over"))]
    shared_pile: Annotated[bool, Wire(Bool("true: one shared support deck (R2); false: own decks"))]
    draft: Annotated[bool, Wire(Bool("characters drafted (R2); their identities are then public"))]
    round_number: Annotated[int, Wire(Int(1, 4, "1 to 3; 4 is the tie-break round (R14)"))]
    chooser: Annotated[int | None, Wire(Nullable(_SEAT, "who chooses (or chose) this round's stat (R5); null "
                                                        "outside a round"))]
    stat: Annotated[int, Wire(Int(-1, len(Stat) - 1, "this round's stat, -1 before it is chosen (0 Spark, 1 Heat, "
                                                     "2 Charm)"))]
    place: Annotated[int, Wire(Int(0, NUM_SUPPORTS, "the place card on the table, 0 for none (R8)"))]
    place_owner: Annotated[int | None, Wire(_SEAT_OR_NULL)]
    # (seat, support) this round
    events: Annotated[tuple[tuple[int, int], ...], rows(Obj(required={"seat": _SEAT, "card": _SUPPORT}),
                                                         "events played this round, in order (R9)")]
    # this round's plays and passes
    log: Annotated[tuple[Played, ...], Wire(List(Played.FORM.schema, description="this round's plays, passes and "
                                                                                 "choices, in order (R15)"))]
    passes: Annotated[int, Wire(Int(0, 2, "passes in a row (two end the round's play, R6)"))]
    # table effects still to do: (seat, EffectKind, n) (R10)
    pending: Annotated[tuple[tuple[int, int, int], ...], rows(Obj(required={
        "seat": _SEAT,
        "effect": Int(0, len(EffectKind) - 1, "0 draw, 1 look at the pile, 2 take back, 3 swap a place, 4 clear the "
                                              "place, 5 boost, 6 sap (R10)"),
        "n": Int(0)}), "table effects of the last play still to do (R10)")]
    results: Annotated[tuple[RoundResult, ...], Wire(List(RoundResult.FORM.schema, max=4))]
    seats: Annotated[tuple[SeatInfo, SeatInfo], Wire()]
    # private to ``seat``
    hand: Annotated[tuple[int, ...], Wire(List(_SUPPORT, description="private: the viewer's hand"))]
    lineup: Annotated[tuple[int, ...], Wire(List(_CHARACTER, max=3, description="private: the viewer's line-up, "
                                                                                "first flipped first (R3)"))]
    my_characters: Annotated[tuple[int, ...], Wire(List(_CHARACTER, max=3, description="private: the viewer's "
                                                                                       "characters, sorted"))]
    # the top cards of my pile I looked at, top first
    known_top: Annotated[tuple[int, ...], Wire(List(_SUPPORT, description="private: the top cards of the viewer's "
                                                                          "pile it looked at, top first (R10)"))]
    # own decks: the cards of my deck still in my draw pile, sorted (never the order)
    my_pile: Annotated[tuple[int, ...], Wire(List(_SUPPORT, description="private, own decks: the cards of the "
                                                                        "viewer's deck still in its pile, sorted "
                                                                        "(never the order)"))]
    # my tie-break pick, 0 if none yet
    champion: Annotated[int, Wire(Int(0, NUM_CHARACTERS, "private: the viewer's tie-break pick while picks are made "
                                                         "(R14), 0 for none"))]
    # my legal actions when I am to act, else empty
    legal: Annotated[tuple[DuelAction, ...], Wire(List(_ACTION, unique=True, description=(
        "private: the viewer's legal actions when it is to act")), _texts, _actions)]
    draft_pool: Annotated[tuple[int, ...], Wire(List(_CHARACTER, description="characters still free to pick "
                                                                             "(draft, R2)"))]
    outcome: Annotated[Outcome | None, outcome(Obj(required={
        "winner": Nullable(_SEAT, "null: a tied match"),
        "reason": Str(choices=tuple(r.value for r in Reason), description="why the match ended (R14)"),
        "scores": List(Int(0), min=2, max=2),
    }), Reason)]

    @classmethod
    def from_json(cls, data: Any) -> DuelView:
        """A view from its JSON form; a :class:`RecordError` says what is wrong with malformed data."""
        if not isinstance(data, dict) or data.get("format") != VIEW_FORMAT:
            raise RecordError(N_("not a Flame Duel view ({format}): {value}"), format=VIEW_FORMAT, value=str(data)[:80])
        try:
            view: DuelView = cls.FORM.decode(data, None)
        except (KeyError, IndexError, TypeError, ValueError, IllegalAction) as exc:
            raise RecordError(N_("malformed Flame Duel view: {error!r}"), error=exc) from None
        return view


VIEW_SCHEMA = DuelView.FORM.schema
