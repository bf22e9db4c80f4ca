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

JSON (:meth:`DualsView.to_json`, :meth:`DualsView.from_json`; schema ``docs/schemas/duals-view.schema.json``, all three
following from each field's declaration, :mod:`flametable.core.jsonform`) uses ids and notation, never language:
spaces by their board names (``c3``), token kinds by the rules' type keys (``meat``, ``bread+crystal`` for a dual,
``buddy``), cards by number, actions by their notation (``move b2 c3``), steps by their names in lower case
(``place``), outcome reasons by their values (``most_vp``); "nothing" is ``null`` (no token held, no token
firing). The board lists the spaces that hold tokens (like an explicit setup's ``board``), the bag the kinds it
holds with their counts. Decoding needs the game's data (the board's names and the token kinds): the built-in
data unless another is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from flametable.core.errors import RecordError
from flametable.core.i18n import N_
from flametable.core.jsonform import JsonForm, Wire, by_name, jsonform, names_of, outcome
from flametable.core.outcome import Outcome
from flametable.core.schema import Bool, Int, List, Map, Nullable, Obj, Str, Tuple
from flametable.games.duals.actions import ActionSpace, DualsAction
from flametable.games.duals.data import MAX_CARDS, DualsData, builtin_duals_data
from flametable.games.duals.data import SPACE_PATTERN as _SPACE_PATTERN
from flametable.games.duals.rules import STACK_LIMIT, TYPE_KEYS, Reason, Step


class _Names:
    """One data set's names, the context of the JSON form: spaces, token kinds and actions by their notation."""

    def __init__(self, data: DualsData) -> None:
        self.data = data
        self.spaces = data.board.names
        self.space_index = data.board.index
        self.kinds = data.kind_names
        self.kind_index = {name: k for k, name in enumerate(data.kind_names)}
        self.actions = {a.text(): a for a in ActionSpace(data).actions}

    def space(self, name: Any) -> int:
        if name is None:
            return -1
        if not isinstance(name, str) or name not in self.space_index:
            raise ValueError(f"no space {name!r} on the board")
        return self.space_index[name]

    def kind(self, name: Any) -> int:
        if not isinstance(name, str) or name not in self.kind_index:
            raise ValueError(f"unknown token {name!r}")
        return self.kind_index[name]

    def kind_list(self, value: Any) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise TypeError(f"expected a list of tokens, got {value!r}")
        return tuple(self.kind(v) for v in value)


_NAMES: dict[str, _Names] = {}  # data hash -> its names (made once per data set)


def _names(data: DualsData) -> _Names:
    names = _NAMES.get(data.hash)
    if names is None:
        names = _NAMES[data.hash] = _Names(data)
    return names


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _pairs(value: Any) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(v, list) and len(v) == 2 for v in value):
        raise TypeError(f"expected a list of pairs, got {value!r}")
    return value


# the codecs of the fields named in the data's words: (value, names) -> JSON, (JSON, names) -> value

def _space_out(s: int, n: _Names) -> str | None:
    return n.spaces[s] if s >= 0 else None


def _space_in(name: Any, n: _Names) -> int:
    return n.space(name)


def _kind_out(k: int, n: _Names) -> str | None:
    return n.kinds[k] if k >= 0 else None


def _kind_in(name: Any, n: _Names) -> int:
    return n.kind(name) if name is not None else -1


def _kinds_out(ks: tuple[int, ...], n: _Names) -> list[str]:
    return [n.kinds[k] for k in ks]


def _kinds_in(value: Any, n: _Names) -> tuple[int, ...]:
    return n.kind_list(value)


def _board_out(board: tuple[tuple[int, ...], ...], n: _Names) -> dict[str, list[str]]:
    kinds = n.kinds
    return {n.spaces[s]: [kinds[k] for k in stack] for s, stack in enumerate(board) if stack}


def _board_in(value: Any, n: _Names) -> tuple[tuple[int, ...], ...]:
    board: list[tuple[int, ...]] = [()] * n.data.board.size
    for name, stack in value.items():
        board[n.space(name)] = n.kind_list(stack)
    return tuple(board)


def _bag_out(bag: tuple[int, ...], n: _Names) -> dict[str, int]:
    return {n.kinds[k]: count for k, count in enumerate(bag) if count}


def _bag_in(value: Any, n: _Names) -> tuple[int, ...]:
    bag = [0] * n.data.num_kinds
    for name, count in value.items():
        bag[n.kind(name)] = _int(count)
    return tuple(bag)


def _fired_out(fired: tuple[tuple[int, int], ...], n: _Names) -> list[list[Any]]:
    return [[n.spaces[s], level] for s, level in fired]


def _fired_in(value: Any, n: _Names) -> tuple[tuple[int, int], ...]:
    return tuple((n.space(s), _int(level)) for s, level in _pairs(value))


def _draws_out(draws: tuple[tuple[int, int], ...], n: _Names) -> list[list[str]]:
    return [[n.kinds[a], n.kinds[b]] for a, b in draws]


def _draws_in(value: Any, n: _Names) -> tuple[tuple[int, int], ...]:
    return tuple((n.kind(a), n.kind(b)) for a, b in _pairs(value))


def _known_out(known: tuple[tuple[int, int], ...], _n: _Names) -> list[list[int]]:
    return [[card, position] for card, position in known]


def _known_in(value: Any, _n: _Names) -> tuple[tuple[int, int], ...]:
    return tuple((_int(c), _int(pos)) for c, pos in _pairs(value))


def _legal_out(legal: tuple[DualsAction, ...], _n: _Names) -> list[str]:
    return [action.text() for action in legal]


def _legal_in(value: Any, n: _Names) -> tuple[DualsAction, ...]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list of actions, got {value!r}")
    for text in value:
        if not isinstance(text, str) or text not in n.actions:
            raise ValueError(f"not an action in notation: {text!r}")
    return tuple(n.actions[text] for text in value)


# ------------------------------------------------------------------ the declared shape (docs/formats.md)
# docs/schemas/duals-view.schema.json is generated from VIEW_SCHEMA (python -m flametable.cli.schemas).

_SEAT = Int(0, 1)
_TYPES = "|".join(TYPE_KEYS)
_SPACE = Str(pattern=_SPACE_PATTERN, max_len=None, description="a space, by its board name")
_SPACE_OR_NULL = Nullable(_SPACE)
_TOKEN = Str(pattern=rf"({_TYPES})(\+({_TYPES}))?|buddy", max_len=None,
             description="a token kind: a type, a dual as 'type+type', or 'buddy'")
_CARD = Int(1, MAX_CARDS, "a shop card's number (D4)")
_STEPS = names_of(Step)
_ACTION = Str(pattern=rf"done|skip|coin|(place|use) {_SPACE_PATTERN}|(move|swap) {_SPACE_PATTERN} {_SPACE_PATTERN}"
                      rf"|fire ({_TYPES})|take ({_TYPES})(\+({_TYPES}))?|take buddy|(score|bottom) K[1-9][0-9]*",
              max_len=None, description="an action in the game's notation (duals/actions.py)")


@jsonform()
@dataclass(frozen=True, slots=True)
class SeatInfo(JsonForm):
    """Public facts about one seat."""

    coins: Annotated[int, Wire(Int(0))]
    hand_size: Annotated[int, Wire(Int(0))]
    pile: Annotated[tuple[int, ...], Wire(List(_CARD, description="scored cards, in the order scored"))]
    # VP now: scored cards plus coins (0 per coin with STARBURST, D9)
    points: Annotated[int, Wire(Int(0, description="VP now (D9)"))]


@jsonform(title="Flamecraft Duals view")
@dataclass(frozen=True, slots=True)
class DualsView(JsonForm):
    """One seat's view (``seat`` None: a spectator). Spaces, token kinds and cards are integer-coded as in
    :mod:`flametable.games.duals.data`; -1 stands for "none" (``held``, ``src``, ``iron_dest``)."""

    seat: Annotated[int | None, Wire(Nullable(_SEAT, "whose view this is; null: a spectator's"))]
    to_act: Annotated[int | None, Wire(Nullable(_SEAT, "the seat to act; null once the match is over"))]
    turn: Annotated[int, Wire(Int(0, 1, "whose turn it is"))]
    turn_number: Annotated[int, Wire(Int(0, description="1-based, the last chance included"))]
    # the decision pending
    phase: Annotated[Step, Wire(Str(choices=_STEPS, max_len=None, description="the decision pending"),
                                *by_name(Step))]
    last_chance: Annotated[bool, Wire(Bool("this turn is the opponent's last chance (D8)"))]  # D8
    end_triggered: Annotated[bool, Wire(Bool("a draw emptied the bag or the deck (D8)"))]  # D8
    # token kinds per space, bottom first
    board: Annotated[tuple[tuple[int, ...], ...], Wire(Map(
        _SPACE, List(_TOKEN, min=1, max=STACK_LIMIT),
        "the spaces holding tokens: their tokens, bottom first (at most 3, D6); other spaces are empty"),
        _board_out, _board_in)]
    # how many tokens of each kind are in the bag (D10: a multiset)
    bag: Annotated[tuple[int, ...], Wire(Map(_TOKEN, Int(1), "the bag's contents as a multiset (D10): each kind it "
                                                             "holds and how many"), _bag_out, _bag_in)]
    bag_size: Annotated[int, Wire(Int(0))]
    # token kinds, sorted
    reserve: Annotated[tuple[int, ...], Wire(List(_TOKEN, description="sorted by kind"), _kinds_out, _kinds_in)]
    # the token to place, -1 if none
    held: Annotated[int, Wire(Nullable(_TOKEN, "the token to place"), _kind_out, _kind_in)]
    # crystal: the drawn tokens not kept, sorted
    drawn: Annotated[tuple[int, ...], Wire(List(_TOKEN, max=3, description="crystal: the drawn tokens not kept, "
                                                                           "sorted by kind"), _kinds_out, _kinds_in)]
    # the space of the token firing, -1 if none
    src: Annotated[int, Wire(Nullable(_SPACE, "the space of the token firing"), _space_out, _space_in)]
    # (space, level from the bottom) of the tokens fired in this chain, sorted
    fired: Annotated[tuple[tuple[int, int], ...], Wire(List(
        Tuple((_SPACE, Int(0, STACK_LIMIT - 1))),
        description="the tokens fired in this FIRE UP chain: [space, level from the bottom (0-2)], in board order"),
        _fired_out, _fired_in)]
    # where the iron's first move went, -1 if none
    iron_dest: Annotated[int, Wire(Nullable(_SPACE, "where the iron's first move went"), _space_out, _space_in)]
    coin_used: Annotated[bool, Wire(Bool("the coin was spent this turn"))]  # this turn
    # cards still to put back after the coin
    bottom_left: Annotated[int, Wire(Int(0, 2, "the coin's cards still to put back"))]
    deck_size: Annotated[int, Wire(Int(0))]
    first_player: Annotated[int, Wire(_SEAT)]
    # D3: (seat 0's token, seat 1's token) per draw
    first_draws: Annotated[tuple[tuple[int, int], ...], Wire(List(
        Tuple((_TOKEN, _TOKEN)), description="D3: the first-player draws, [seat 0's token, seat 1's token] each"),
        _draws_out, _draws_in)]
    seats: Annotated[tuple[SeatInfo, SeatInfo], Wire()]
    # private to ``seat``
    hand: Annotated[tuple[int, ...], Wire(List(_CARD, description="private: the seat's hand, sorted"))]
    # the hand cards that match the board now (D5)
    matching: Annotated[tuple[int, ...], Wire(List(_CARD, description="private: the hand's cards that match the "
                                                                      "board now (D5)"))]
    # (card, position from the bottom of the deck)
    bottom_known: Annotated[tuple[tuple[int, int], ...], Wire(List(
        Tuple((_CARD, Int(0))),
        description="private: the cards the seat put at the bottom of the deck, [card, position from the bottom]"),
        _known_out, _known_in)]
    # my legal actions when I am to act, else empty
    legal: Annotated[tuple[DualsAction, ...], Wire(List(_ACTION, description="private: the seat's legal actions "
                                                                             "when it is to act, in id order"),
                                                   _legal_out, _legal_in)]
    outcome: Annotated[Outcome | None, outcome(Obj(required={
        "winner": Nullable(_SEAT, "null: a shared victory"),
        "reason": Str(choices=tuple(r.value for r in Reason), max_len=None),
        "scores": List(Int(0), min=2, max=2),
    }), Reason)]
    # public facts about the decision pending (see the module's docstring)
    # the turn's decision (the one the coin's cards interrupt, when putting back)
    step: Annotated[Step, Wire(Str(choices=_STEPS, max_len=None, description=(
        "the turn's decision: the phase, or while the coin's cards are put back ('bottom') the decision that "
        "resumes after")), *by_name(Step))]
    # the token placed may FIRE UP (not crystal's, D6)
    fire_after: Annotated[bool, Wire(Bool("the token to place may FIRE UP (not the one crystal kept)"))]
    # ``skip`` is allowed (not when a plant uses the token, D6)
    fire_optional: Annotated[bool, Wire(Bool("'skip' is allowed (not when a plant uses the token)"))]
    buddy: Annotated[bool, Wire(Bool("the Buddy variant (D11)"))]  # the Buddy variant (D11)
    data: DualsData = field(compare=False, repr=False)  # the game's data: the names the JSON form uses (not sent)

    def json_context(self) -> _Names:
        return _names(self.data)

    @classmethod
    def from_json(cls, obj: Any, data: DualsData | None = None) -> DualsView:
        """The view ``obj`` (made by :meth:`to_json`) describes, in the names of ``data`` (default: the built-in
        data). A :class:`RecordError` says what is wrong with data that is not such a view."""
        data = data or builtin_duals_data()
        try:
            view: DualsView = cls.FORM.decode(obj, _names(data), data=data)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RecordError(N_("malformed Flamecraft Duals view: {error!r}"), error=exc) from None
        return view


VIEW_SCHEMA = DualsView.FORM.schema
