"""Flamecraft Duals actions: small immutable values with a text notation and a stable integer id.

A turn is a sequence of small decisions, each one action. Notation (case-insensitive on input, canonical
on output; spaces by their board names, cards as ``K`` + number, tokens by type, ``bread+crystal`` for a dual
(either order on input) and ``buddy``)::

    place c3          put the held token on space c3 (PLAY; also the token drawn by bread or kept by crystal)
    fire meat         FIRE UP the token just placed (or the one a plant uses) with its meat ability; a dual
                      names the one ability it uses (D6)
    skip              do not FIRE UP the token just placed
    take meat         crystal: keep this one of the drawn tokens to place (the others go back to the bag)
    use b2            plant: use the ability of the adjacent top token on b2
    move b2 c3        meat or iron: move the top token of b2 onto c3
    swap a1 e3        potion: swap the top tokens of a1 and e3
    score K12         SCORE: score card 12 from your hand
    coin              spend a coin: draw 2 cards, then put 2 of your hand at the bottom of the deck
    bottom K12        put card 12 of your hand at the bottom of the deck (after ``coin``)
    done              stop: end the SCORE phase (or a last chance), or keep the iron's second move

Ids are laid out kind by kind in the order above, each kind's arguments in board / type / kind / card
order: ``done`` 0, ``skip`` 1, ``coin`` 2, then ``place`` per space (n), ``fire`` per type (6), ``take`` per
token kind (6 artisans, the duals, Buddy), ``use`` per space (n), ``move`` per ordered pair of different
spaces (n(n-1); id = base + from * (n-1) + to, minus 1 when to > from), ``swap`` per unordered pair
(n(n-1)/2, from < to, in lexicographic order), ``score`` per card (m) and ``bottom`` per card (m). The
built-in data (19 spaces, 13 token kinds, 43 cards) has 659 actions. The layout depends on the data, so
the tables live in an :class:`ActionSpace` made from it; actions of two games on the same data are equal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum

from flametable.core.errors import IllegalAction
from flametable.core.i18n import N_
from flametable.games.duals.data import DualsData
from flametable.games.duals.rules import NUM_TYPES, TYPE_KEYS

_CARD_NUMBER = re.compile(r"[0-9]{1,4}")  # ASCII digits only (not K²: isdigit() yet no int(), nor K𝟐𝟓), and few


class Kind(IntEnum):
    DONE = 0
    SKIP = 1
    COIN = 2
    PLACE = 3
    FIRE = 4
    TAKE = 5
    USE = 6
    MOVE = 7
    SWAP = 8
    SCORE = 9
    BOTTOM = 10

    @property
    def word(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class DualsAction:
    """``kind`` with up to two arguments (a space, a type, a token kind or a card number; ``b`` the second
    space of a move or swap). The notation is kept with the action so that ``text()`` needs no data."""

    kind: Kind
    a: int
    b: int
    id: int
    label: str = field(compare=False)

    def text(self) -> str:
        return self.label

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"DualsAction({self.label!r}, id={self.id})"


class ActionSpace:
    """Every action of one data set, by id and by notation, and the tables the engine picks them from."""

    def __init__(self, data: DualsData) -> None:
        board = data.board
        n = board.size
        names = board.names
        m = len(data.cards)
        actions: list[DualsAction] = []
        self.offset: dict[Kind, int] = {}

        def add(kind: Kind, a: int, b: int, label: str) -> DualsAction:
            act = DualsAction(kind, a, b, len(actions), label)
            actions.append(act)
            return act

        self.offset[Kind.DONE] = 0
        self.DONE = add(Kind.DONE, 0, 0, "done")
        self.offset[Kind.SKIP] = len(actions)
        self.SKIP = add(Kind.SKIP, 0, 0, "skip")
        self.offset[Kind.COIN] = len(actions)
        self.COIN = add(Kind.COIN, 0, 0, "coin")
        self.offset[Kind.PLACE] = len(actions)
        self.PLACE = tuple(add(Kind.PLACE, s, 0, f"place {names[s]}") for s in range(n))
        self.offset[Kind.FIRE] = len(actions)
        self.FIRE = tuple(add(Kind.FIRE, t, 0, f"fire {TYPE_KEYS[t]}") for t in range(NUM_TYPES))
        self.offset[Kind.TAKE] = len(actions)
        self.TAKE = tuple(add(Kind.TAKE, k, 0, f"take {data.kind_names[k]}") for k in range(data.num_kinds))
        self.offset[Kind.USE] = len(actions)
        self.USE = tuple(add(Kind.USE, s, 0, f"use {names[s]}") for s in range(n))
        # MOVE[a][b] and SWAP[a][b] (SWAP symmetric); the diagonal holds DONE and is never used.
        self.offset[Kind.MOVE] = len(actions)
        move = [[self.DONE] * n for _ in range(n)]
        for a in range(n):
            for b in range(n):
                if a != b:
                    move[a][b] = add(Kind.MOVE, a, b, f"move {names[a]} {names[b]}")
        self.MOVE = tuple(tuple(row) for row in move)
        self.offset[Kind.SWAP] = len(actions)
        swap = [[self.DONE] * n for _ in range(n)]
        for a in range(n):
            for b in range(a + 1, n):
                swap[a][b] = swap[b][a] = add(Kind.SWAP, a, b, f"swap {names[a]} {names[b]}")
        self.SWAP = tuple(tuple(row) for row in swap)
        # SCORE[c] and BOTTOM[c] by card number (slot 0 holds DONE and is never used).
        self.offset[Kind.SCORE] = len(actions)
        self.SCORE = (self.DONE, *(add(Kind.SCORE, c, 0, f"score K{c}") for c in range(1, m + 1)))
        self.offset[Kind.BOTTOM] = len(actions)
        self.BOTTOM = (self.DONE, *(add(Kind.BOTTOM, c, 0, f"bottom K{c}") for c in range(1, m + 1)))
        self.actions: tuple[DualsAction, ...] = tuple(actions)
        self.num_actions = len(actions)
        self._data = data
        self._by_text = {a.label.lower(): a for a in actions}

    def layout(self) -> list[tuple[str, int, int]]:
        """``(kind, first id, count)`` for each kind, in id order."""
        kinds = list(Kind)
        out = []
        for i, kind in enumerate(kinds):
            end = self.offset[kinds[i + 1]] if i + 1 < len(kinds) else self.num_actions
            out.append((kind.word, self.offset[kind], end - self.offset[kind]))
        return out

    def from_id(self, action_id: int) -> DualsAction:
        if not isinstance(action_id, int) or isinstance(action_id, bool) or not 0 <= action_id < self.num_actions:
            raise IllegalAction(N_("No action has id {id} (ids are 0 to {last})."), id=action_id,
                                last=self.num_actions - 1)
        return self.actions[action_id]

    def from_text(self, text: str) -> DualsAction:
        words = text.strip().lower().split()
        found = self._by_text.get(" ".join(words))
        if found is not None:
            return found
        if not words:
            raise IllegalAction(N_("Cannot read the action {text!r}."), text=text)
        try:
            kind = Kind[words[0].upper()]
        except KeyError:
            raise IllegalAction(N_("Unknown action {word!r} in {text!r}."), word=words[0], text=text) from None
        args = words[1:]
        want = {Kind.MOVE: 2, Kind.SWAP: 2, Kind.DONE: 0, Kind.SKIP: 0, Kind.COIN: 0}.get(kind, 1)
        if len(args) != want:
            raise IllegalAction(N_("{word!r} takes {count} argument(s): {text!r}."), word=kind.word, count=want,
                                text=text)
        data = self._data
        if kind in (Kind.PLACE, Kind.USE, Kind.MOVE, Kind.SWAP):
            spaces = []
            for arg in args:
                if arg not in data.board.index:
                    raise IllegalAction(N_("There is no space {space!r} on the board."), space=arg)
                spaces.append(data.board.index[arg])
            if kind is Kind.PLACE:
                return self.PLACE[spaces[0]]
            if kind is Kind.USE:
                return self.USE[spaces[0]]
            if spaces[0] == spaces[1]:
                raise IllegalAction(N_("{word!r} needs two different spaces."), word=kind.word)
            return (self.MOVE if kind is Kind.MOVE else self.SWAP)[spaces[0]][spaces[1]]
        if kind is Kind.FIRE:
            if args[0] not in TYPE_KEYS:
                raise IllegalAction(N_("Unknown ability {word!r}: use one of {choices}."), word=args[0],
                                    choices=", ".join(TYPE_KEYS))
            return self.FIRE[TYPE_KEYS.index(args[0])]
        if kind is Kind.TAKE:
            k = data.kind_of(args[0])
            if k < 0:
                raise IllegalAction(N_("Unknown token {word!r}."), word=args[0])
            return self.TAKE[k]
        # SCORE, BOTTOM
        arg = args[0]
        digits = arg[1:] if arg.startswith("k") else arg
        m = len(data.cards)
        if not _CARD_NUMBER.fullmatch(digits) or not 1 <= int(digits) <= m:
            raise IllegalAction(N_("{word!r} needs a card K1 to K{last}, got {arg!r}."), word=kind.word, last=m,
                                arg=arg)
        return (self.SCORE if kind is Kind.SCORE else self.BOTTOM)[int(digits)]
