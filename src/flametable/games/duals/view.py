"""What one seat may see of a Flamecraft Duals match (D10), as data: frozen values and their JSON form.

:func:`flametable.games.duals.state.observe` decides what goes in a view; this module only holds it (it imports
nothing from the engine's state).

Public: the board, the reserve, coins, score piles and points, deck and hand sizes, the bag's contents as
a multiset (never its order), the tokens in play (the held token, crystal's drawn tokens), the decision
pending and the first-player draws (D3). Private to a seat: its hand, the cards of it that match now, the
cards it put at the bottom of the deck with their places there (positions count from the bottom, 0 = the
very bottom; cards put back by the opponent since then are counted, as the seat saw them go), and its
legal actions when it is to act. Hidden from everyone: the deck order and the bag's draw order.

The fields that say where the turn stands are all public facts of the table, seen by anyone watching, and
together with the rest they fix what the seat to act may do next (so a view, and nothing else, is enough to
continue the match for a determiniser, and to show the table):

* ``step``: the turn's decision; it differs from ``phase`` only while the coin's cards are put back, and then
  says which decision resumes (everyone saw the ability fired before the coin was spent);
* ``src``: the space of the token firing (everyone sees which token fires);
* ``fired``: the positions (space, level from the bottom, 0-based) of the tokens that fired in this FIRE UP
  chain (a plant cannot use them again, D6; everyone saw them fire, and nothing moves until the chain ends);
* ``iron_dest``: where the iron's first move went (everyone saw the move; the second move may not take that
  token again, and ``done`` is possible only after it);
* ``fire_after``: the token to place may FIRE UP (false for the token crystal kept: everyone saw crystal fire);
* ``fire_optional``: ``skip`` is allowed (false when a plant uses the token: everyone saw the ``use``);
* ``coin_used``, ``bottom_left``: the coin was spent this turn, and how many cards are still to put back.

``fire_after`` and ``fire_optional`` keep their last value outside the steps they are about (PLACE, FIRE).

JSON (:meth:`DualsView.to_json`, :meth:`DualsView.from_json`; schema ``docs/schemas/duals-view.schema.json``)
uses ids and notation, never language: spaces by their board names (``c3``), token kinds by the rules' type
keys (``meat``, ``bread+crystal`` for a dual, ``buddy``), cards by number, actions by their notation
(``move b2 c3``), steps by their names in lower case (``place``), outcome reasons by their values
(``most_vp``); "nothing" is ``null`` (no token held, no token firing). The board lists the spaces that hold
tokens (like an explicit setup's ``board``), the bag the kinds it holds with their counts. Decoding needs the
game's data (the board's names and the token kinds): the built-in data unless another is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flametable.core.outcome import Outcome
from flametable.core.schema import Bool, Int, List, Map, Nullable, Obj, Str, Tuple
from flametable.games.duals.actions import ActionSpace, DualsAction
from flametable.games.duals.data import MAX_CARDS, DualsData, builtin_duals_data
from flametable.games.duals.data import SPACE_PATTERN as _SPACE_PATTERN
from flametable.games.duals.rules import STACK_LIMIT, TYPE_KEYS, Reason, Step


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts about one seat."""

    coins: int
    hand_size: int
    pile: tuple[int, ...]  # scored cards, in the order scored
    points: int  # VP now: scored cards plus coins (0 per coin with STARBURST, D9)

    def to_json(self) -> dict[str, Any]:
        return {"coins": self.coins, "hand_size": self.hand_size, "pile": list(self.pile), "points": self.points}

    @staticmethod
    def from_json(obj: Any) -> SeatInfo:
        return SeatInfo(_int(obj["coins"]), _int(obj["hand_size"]), _ints(obj["pile"]), _int(obj["points"]))


@dataclass(frozen=True, slots=True)
class DualsView:
    """One seat's view (``seat`` None: a spectator). Spaces, token kinds and cards are integer-coded as in
    :mod:`flametable.games.duals.data`; -1 stands for "none" (``held``, ``src``, ``iron_dest``)."""

    seat: int | None
    to_act: int | None
    turn: int  # whose turn it is
    turn_number: int
    phase: Step  # the decision pending
    last_chance: bool  # the turn is the opponent's last chance (D8)
    end_triggered: bool  # D8
    board: tuple[tuple[int, ...], ...]  # token kinds per space, bottom first
    bag: tuple[int, ...]  # how many tokens of each kind are in the bag (D10: a multiset)
    bag_size: int
    reserve: tuple[int, ...]  # token kinds, sorted
    held: int  # the token to place, -1 if none
    drawn: tuple[int, ...]  # crystal: the drawn tokens not kept, sorted
    src: int  # the space of the token firing, -1 if none
    fired: tuple[tuple[int, int], ...]  # (space, level from the bottom) of the tokens fired in this chain, sorted
    iron_dest: int  # where the iron's first move went, -1 if none
    coin_used: bool  # this turn
    bottom_left: int  # cards still to put back after the coin
    deck_size: int
    first_player: int
    first_draws: tuple[tuple[int, int], ...]  # D3: (seat 0's token, seat 1's token) per draw
    seats: tuple[SeatInfo, SeatInfo]
    # private to ``seat``
    hand: tuple[int, ...]
    matching: tuple[int, ...]  # the hand cards that match the board now (D5)
    bottom_known: tuple[tuple[int, int], ...]  # (card, position from the bottom of the deck)
    legal: tuple[DualsAction, ...]  # my legal actions when I am to act, else empty
    outcome: Outcome | None
    # public facts about the decision pending (see the module's docstring)
    step: Step  # the turn's decision (the one the coin's cards interrupt, when putting back)
    fire_after: bool  # the token placed may FIRE UP (not crystal's, D6)
    fire_optional: bool  # ``skip`` is allowed (not when a plant uses the token, D6)
    buddy: bool  # the Buddy variant (D11)
    data: DualsData = field(compare=False, repr=False)  # the game's data: the names the JSON form uses

    def to_json(self) -> dict[str, Any]:
        """This view as JSON values (see the module's docstring): ``from_json`` gives it back exactly."""
        spaces = self.data.board.names
        kinds = self.data.kind_names

        def space(s: int) -> str | None:
            return spaces[s] if s >= 0 else None

        return {
            "seat": self.seat,
            "to_act": self.to_act,
            "turn": self.turn,
            "turn_number": self.turn_number,
            "phase": self.phase.name.lower(),
            "step": self.step.name.lower(),
            "last_chance": self.last_chance,
            "end_triggered": self.end_triggered,
            "board": {spaces[s]: [kinds[k] for k in stack] for s, stack in enumerate(self.board) if stack},
            "bag": {kinds[k]: n for k, n in enumerate(self.bag) if n},
            "bag_size": self.bag_size,
            "reserve": [kinds[k] for k in self.reserve],
            "held": kinds[self.held] if self.held >= 0 else None,
            "drawn": [kinds[k] for k in self.drawn],
            "src": space(self.src),
            "fired": [[spaces[s], level] for s, level in self.fired],
            "iron_dest": space(self.iron_dest),
            "fire_after": self.fire_after,
            "fire_optional": self.fire_optional,
            "coin_used": self.coin_used,
            "bottom_left": self.bottom_left,
            "deck_size": self.deck_size,
            "first_player": self.first_player,
            "first_draws": [[kinds[a], kinds[b]] for a, b in self.first_draws],
            "seats": [info.to_json() for info in self.seats],
            "hand": list(self.hand),
            "matching": list(self.matching),
            "bottom_known": [[card, position] for card, position in self.bottom_known],
            "legal": [action.text() for action in self.legal],
            "outcome": self.outcome.to_json() if self.outcome is not None else None,
            "buddy": self.buddy,
        }

    @staticmethod
    def from_json(obj: Any, data: DualsData | None = None) -> DualsView:
        """The view ``obj`` (made by :meth:`to_json`) describes, in the names of ``data`` (default: the built-in
        data). Raises ``ValueError`` if ``obj`` is not such a view."""
        data = data or builtin_duals_data()
        try:
            return _decode(obj, data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ValueError(f"not a Flamecraft Duals view: {exc!r}") from exc


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _seat(value: Any) -> int | None:
    if value is None:
        return None
    if _int(value) not in (0, 1):
        raise ValueError(f"a seat is 0, 1 or null, got {value!r}")
    return int(value)


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return tuple(_int(v) for v in value)


def _step(value: Any) -> Step:
    if not isinstance(value, str) or not value.islower():
        raise ValueError(f"unknown step {value!r}")
    return Step[value.upper()]


class _Names:
    """One data set's names, for decoding: spaces, token kinds and actions by their notation."""

    def __init__(self, data: DualsData) -> None:
        self.spaces = data.board.index
        self.kinds = {name: k for k, name in enumerate(data.kind_names)}
        self.actions = {a.text(): a for a in ActionSpace(data).actions}


_NAMES: dict[str, _Names] = {}  # data hash -> its names (made once per data set)


def _decode(obj: Any, data: DualsData) -> DualsView:
    if not isinstance(obj, dict):
        raise TypeError(f"expected an object, got {type(obj).__name__}")
    names = _NAMES.get(data.hash)
    if names is None:
        names = _NAMES[data.hash] = _Names(data)
    space_index = names.spaces
    kind_index = names.kinds
    action_index = names.actions

    def space(name: Any) -> int:
        if name is None:
            return -1
        if not isinstance(name, str) or name not in space_index:
            raise ValueError(f"no space {name!r} on the board")
        return space_index[name]

    def kind(name: Any) -> int:
        if not isinstance(name, str) or name not in kind_index:
            raise ValueError(f"unknown token {name!r}")
        return kind_index[name]

    def kinds(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise TypeError(f"expected a list of tokens, got {value!r}")
        return tuple(kind(v) for v in value)

    def action(text: Any) -> DualsAction:
        if not isinstance(text, str) or text not in action_index:
            raise ValueError(f"not an action in notation: {text!r}")
        return action_index[text]

    board: list[tuple[int, ...]] = [()] * data.board.size
    for name, stack in obj["board"].items():
        board[space(name)] = kinds(stack)
    bag = [0] * data.num_kinds
    for name, n in obj["bag"].items():
        bag[kind(name)] = _int(n)
    held = obj["held"]
    outcome = obj["outcome"]
    seats = obj["seats"]
    if not isinstance(seats, list) or len(seats) != 2:
        raise ValueError(f"seats: one object per seat (2), got {seats!r}")
    return DualsView(
        seat=_seat(obj["seat"]),
        to_act=_seat(obj["to_act"]),
        turn=_int(obj["turn"]),
        turn_number=_int(obj["turn_number"]),
        phase=_step(obj["phase"]),
        last_chance=_bool(obj["last_chance"]),
        end_triggered=_bool(obj["end_triggered"]),
        board=tuple(board),
        bag=tuple(bag),
        bag_size=_int(obj["bag_size"]),
        reserve=kinds(obj["reserve"]),
        held=kind(held) if held is not None else -1,
        drawn=kinds(obj["drawn"]),
        src=space(obj["src"]),
        fired=tuple((space(s), _int(level)) for s, level in obj["fired"]),
        iron_dest=space(obj["iron_dest"]),
        coin_used=_bool(obj["coin_used"]),
        bottom_left=_int(obj["bottom_left"]),
        deck_size=_int(obj["deck_size"]),
        first_player=_int(obj["first_player"]),
        first_draws=tuple((kind(a), kind(b)) for a, b in obj["first_draws"]),
        seats=(SeatInfo.from_json(seats[0]), SeatInfo.from_json(seats[1])),
        hand=_ints(obj["hand"]),
        matching=_ints(obj["matching"]),
        bottom_known=tuple((_int(c), _int(pos)) for c, pos in obj["bottom_known"]),
        legal=tuple(action(text) for text in obj["legal"]),
        outcome=None if outcome is None else Outcome(
            _seat(outcome["winner"]), Reason(outcome["reason"]), (_int(outcome["scores"][0]),
                                                                  _int(outcome["scores"][1]))),
        step=_step(obj["step"]),
        fire_after=_bool(obj["fire_after"]),
        fire_optional=_bool(obj["fire_optional"]),
        buddy=_bool(obj["buddy"]),
        data=data,
    )


# ------------------------------------------------------------------ the declared shape (docs/formats.md)
# docs/schemas/duals-view.schema.json is generated from VIEW_SCHEMA (python -m flametable.cli.schemas).

_SEAT = Int(0, 1)
_TYPES = "|".join(TYPE_KEYS)
_SPACE = Str(pattern=_SPACE_PATTERN, max_len=None, description="a space, by its board name")
_SPACE_OR_NULL = Nullable(_SPACE)
_TOKEN = Str(pattern=rf"({_TYPES})(\+({_TYPES}))?|buddy", max_len=None,
             description="a token kind: a type, a dual as 'type+type', or 'buddy'")
_CARD = Int(1, MAX_CARDS, "a shop card's number (D4)")
_STEP = Str(choices=tuple(s.name.lower() for s in Step), max_len=None)
_ACTION = Str(pattern=rf"done|skip|coin|(place|use) {_SPACE_PATTERN}|(move|swap) {_SPACE_PATTERN} {_SPACE_PATTERN}"
                      rf"|fire ({_TYPES})|take ({_TYPES})(\+({_TYPES}))?|take buddy|(score|bottom) K[1-9][0-9]*",
              max_len=None, description="an action in the game's notation (duals/actions.py)")
VIEW_SCHEMA = Obj(required={
    "seat": Nullable(_SEAT, "whose view this is; null: a spectator's"),
    "to_act": Nullable(_SEAT, "the seat to act; null once the match is over"),
    "turn": Int(0, 1, "whose turn it is"),
    "turn_number": Int(0, description="1-based, the last chance included"),
    "phase": Str(choices=_STEP.choices, max_len=None, description="the decision pending"),
    "step": Str(choices=_STEP.choices, max_len=None, description="the turn's decision: the phase, or while the "
                "coin's cards are put back ('bottom') the decision that resumes after"),
    "last_chance": Bool("this turn is the opponent's last chance (D8)"),
    "end_triggered": Bool("a draw emptied the bag or the deck (D8)"),
    "board": Map(_SPACE, List(_TOKEN, min=1, max=STACK_LIMIT),
                 "the spaces holding tokens: their tokens, bottom first (at most 3, D6); other spaces are empty"),
    "bag": Map(_TOKEN, Int(1), "the bag's contents as a multiset (D10): each kind it holds and how many"),
    "bag_size": Int(0),
    "reserve": List(_TOKEN, description="sorted by kind"),
    "held": Nullable(_TOKEN, "the token to place"),
    "drawn": List(_TOKEN, max=3, description="crystal: the drawn tokens not kept, sorted by kind"),
    "src": Nullable(_SPACE, "the space of the token firing"),
    "fired": List(Tuple((_SPACE, Int(0, STACK_LIMIT - 1))),
                  description="the tokens fired in this FIRE UP chain: [space, level from the bottom (0-2)], in board "
                              "order"),
    "iron_dest": Nullable(_SPACE, "where the iron's first move went"),
    "fire_after": Bool("the token to place may FIRE UP (not the one crystal kept)"),
    "fire_optional": Bool("'skip' is allowed (not when a plant uses the token)"),
    "coin_used": Bool("the coin was spent this turn"),
    "bottom_left": Int(0, 2, "the coin's cards still to put back"),
    "deck_size": Int(0),
    "first_player": _SEAT,
    "first_draws": List(Tuple((_TOKEN, _TOKEN)),
                        description="D3: the first-player draws, [seat 0's token, seat 1's token] each"),
    "seats": List(Obj(required={
        "coins": Int(0),
        "hand_size": Int(0),
        "pile": List(_CARD, description="scored cards, in the order scored"),
        "points": Int(0, description="VP now (D9)"),
    }), min=2, max=2),
    "hand": List(_CARD, description="private: the seat's hand, sorted"),
    "matching": List(_CARD, description="private: the hand's cards that match the board now (D5)"),
    "bottom_known": List(Tuple((_CARD, Int(0))), description="private: the cards the seat put at the bottom of the "
                         "deck, [card, position from the bottom]"),
    "legal": List(_ACTION, description="private: the seat's legal actions when it is to act, in id order"),
    "outcome": Nullable(Obj(required={
        "winner": Nullable(_SEAT, "null: a shared victory"),
        "reason": Str(choices=tuple(r.value for r in Reason), max_len=None),
        "scores": List(Int(0), min=2, max=2),
    })),
    "buddy": Bool("the Buddy variant (D11)"),
}, title="Flamecraft Duals view")
