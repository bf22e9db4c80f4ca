"""Flamecraft Duals data (D1-D4): board, tokens and shop deck, shipped as TOML, validated on load.

The built-in file is ``src/flametable/games/duals/data/duals.toml``; :func:`load_duals_data` reads it or any other path.
A bad file raises :class:`~flametable.core.errors.DataError` naming the file, the entry and the field: first
against the declared shape :data:`DUALS_DATA` (``docs/schemas/duals-data.schema.json``), then the rules between
fields in code (names and coordinates once, inner spaces on the board, dual pairs, numbers 1..N, variables, room
for the tokens, every pattern fits).

File layout::

    [set]       id, version, name = { en, es }
    [board]     spaces = [ { name = "c3", q = 0, r = 0 }, ... ]  (axial coordinates, D1)
                inner = [ six space names ]                       (the starting spaces, one token of each type)
    [tokens]    fire_up_order = [ the six types, highest first ]  (D3)
                artisans_per_type = 6                             (D2; one goes to the inner ring, one to the
                                                                   reserve, the rest to the bag)
                duals = [ ["bread", "crystal"], ... ]             (D2: one dual token per pair)
                buddy = 1                                         (D11: how many Buddy tokens exist, 0 or 1)
    [[card]]    number = 1..N (all of them, once), vp = 3, starburst = false (D9: coins worth 0),
                name = { en, es } (optional),
                cells = [ { at = [dq, dr], type = "bread" } or { at = [dq, dr], var = "A" }, ... ]

Cells are hex offsets in axial coordinates (``[1, 0]`` is the neighbour to the right, ``[0, 1]`` the one
down-right). A cell asks for a type, or names a variable: cells with the same variable show one common
type, different variables different types (see :mod:`flametable.games.duals.pattern`). Every pattern must fit on
the board in at least one rotation.

Token kinds are integer-coded: the six artisans first (by :class:`~flametable.games.duals.rules.TokenType`), then
the duals in file order, then Buddy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flametable.core.data import COUNT, FILE, content_hash, load_data
from flametable.core.errors import DataError
from flametable.core.i18n import N_
from flametable.core.schema import Bool, Int, List, Obj, Str, Text, Tuple, validate
from flametable.games.duals.board import Board
from flametable.games.duals.pattern import Cell, Matcher
from flametable.games.duals.rules import ALL_TYPES_MASK, NUM_TYPES, STACK_LIMIT, TYPE_KEYS

BUILTIN_DATA = "duals.toml"
# What the game can mean (docs/limits.md): D1's board is 19 spaces within 2 steps of the centre; a data file
# may make it larger, up to 61 spaces (a hexagon of radius 4) within 8 steps, with up to 99 cards: loading,
# checking and playing stay within a few seconds at worst (10,981 spaces took 40 s to check and 1,951 took 25 s
# to play: moves and swaps grow with the square of the spaces, a pattern's placements with spaces x cards).
MAX_COORD = 8  # -8 <= q, r <= 8 (a line of 7 spaces, as a test board has, fits)
MAX_SPACES = 61
MAX_OFFSET = 2 * MAX_COORD  # cell offsets: -16 <= dq, dr <= 16 (farther fits on no board)
MAX_VARIABLES = NUM_TYPES  # different variables show different types: more than 6 can never be met
MAX_CARDS = 99  # D4 has 43; loading grows with cards x spaces (999 cards took 21 s to check)
SPACE_PATTERN = "[a-z]+[0-9]+"  # a space name: lowercase letters then digits (c3)
_VAR_NAME = "[A-Za-z][A-Za-z0-9]*"


@dataclass(frozen=True, slots=True)
class ShopCard:
    number: int
    vp: int
    cells: tuple[Cell, ...]
    starburst: bool = False  # its owner's unspent coins are worth 0 (D9)
    name: dict[str, str] | None = None


@dataclass(frozen=True)
class DualsData:
    """Everything a match of Flamecraft Duals plays with, integer-coded for the engine."""

    id: str
    version: int
    name: dict[str, str]
    board: Board
    fire_up_order: tuple[int, ...]  # token types, highest first (D3)
    artisans_per_type: int
    duals: tuple[tuple[int, int], ...]
    buddy_tokens: int
    cards: tuple[ShopCard, ...]  # index = number - 1
    hash: str
    source: str
    # Token kinds: 0..5 artisans, then duals, then Buddy.
    kind_names: tuple[str, ...] = field(repr=False)
    kind_mask: tuple[int, ...] = field(repr=False)  # the types each kind shows (D5)
    kind_abilities: tuple[tuple[int, ...], ...] = field(repr=False)  # the abilities each has (D6)
    supply: tuple[int, ...] = field(repr=False)  # how many tokens of each kind exist
    vp: tuple[int, ...] = field(repr=False)  # index = card number (slot 0 unused)
    starburst: frozenset[int] = field(repr=False)
    matcher: Matcher = field(repr=False)

    @property
    def buddy(self) -> int:
        """The Buddy token's kind."""
        return NUM_TYPES + len(self.duals)

    @property
    def num_kinds(self) -> int:
        return NUM_TYPES + len(self.duals) + 1

    def kind_of(self, name: str) -> int:
        """The token kind named ``name`` (``bread``, ``bread+crystal`` in either order, ``buddy``); -1 if none."""
        key = name.strip().lower()
        if key in self.kind_names:
            return self.kind_names.index(key)
        if "+" in key:
            a, _, b = key.partition("+")
            flipped = f"{b}+{a}"
            if flipped in self.kind_names:
                return self.kind_names.index(flipped)
        return -1

    def rank_key(self, kind: int) -> tuple[int, int]:
        """D3: the FIRE UP order of a drawn token; higher wins, equal keys redraw. A dual counts as its higher
        type and beats an artisan of that type; Buddy ranks below every dragon."""
        if kind == self.buddy:
            return (-1, 0)
        order = self.fire_up_order
        n = len(order)
        best = min(order.index(t) for t in self.kind_abilities[kind])
        return (n - best, 1 if kind >= NUM_TYPES else 0)

    def card(self, number: int) -> ShopCard:
        return self.cards[number - 1]


# ------------------------------------------------------------------ the declared shape (docs/formats.md)

TYPE = Str(choices=TYPE_KEYS)
_SPACE_TWICE = N_("the space {value!r} is listed twice")
SPACE_NAME = Str(pattern=SPACE_PATTERN, max_len=20,
                 pattern_problem=N_("a space name is lowercase letters then digits (like c3), got {value!r}"))
SPACE = Obj(required={"name": SPACE_NAME, "q": Int(-MAX_COORD, MAX_COORD), "r": Int(-MAX_COORD, MAX_COORD)},
            description="a space of the board, at axial coordinates (q, r) (D1)")
OFFSET = Int(-MAX_OFFSET, MAX_OFFSET)
CELL = Obj(
    required={"at": Tuple((OFFSET, OFFSET), description="the cell's hex offset [dq, dr]")},
    optional={"type": TYPE,
              "var": Str(pattern=_VAR_NAME, max_len=20,
                         pattern_problem=N_("a variable is a name like A or X1, got {value!r}"))},
    description="a cell of a pattern: exactly one of type (a required type) or var (a variable)",
)
CARD = Obj(
    required={"number": Int(1, MAX_CARDS), "vp": Int(0, 99),
              "cells": List(CELL, min=1, max=MAX_SPACES,
                            size_problem=N_("a pattern has {min} to {max} cells, got {count}"))},
    optional={"starburst": Bool("its owner's unspent coins are worth 0 (D9)"), "name": Text()},
    description="a shop card (D4): its pattern and its victory points",
)
DUALS_DATA = Obj(
    required={
        "set": Obj(required={"id": Str(max_len=100), "version": Int(0, 10**9), "name": Text()}),
        "board": Obj(
            required={
                "spaces": List(SPACE, min=1, max=MAX_SPACES,
                               size_problem=N_("a board has {min} to {max} spaces, got {count}")),
                "inner": List(SPACE_NAME, min=NUM_TYPES, max=NUM_TYPES, unique=True,
                              size_problem=N_("the inner ring holds one token of each type: {min} spaces, "
                                              "got {count}"),
                              unique_problem=_SPACE_TWICE,
                              description="the starting spaces, one token of each type (D2)"),
            },
            description="the board (D1)",
        ),
        "tokens": Obj(
            required={
                "fire_up_order": List(TYPE, min=NUM_TYPES, max=NUM_TYPES, unique=True,
                                      description="the six types, highest first (D3)"),
                "artisans_per_type": Int(2, 99, "one goes to the inner ring, one to the reserve (D2)"),
                "duals": List(Tuple((TYPE, TYPE)), max=NUM_TYPES * (NUM_TYPES - 1) // 2,
                              description="one dual token per pair of two different types, each pair once (D2)"),
                "buddy": Int(0, 1, "how many Buddy tokens exist (D11)"),
            },
        ),
        "card": List(CARD, min=1, max=MAX_CARDS, label="number",
                     size_problem=N_("the shop deck has {min} to {max} cards, got {count}"),
                     description=f"the shop cards, numbers 1 to N (at most {MAX_CARDS}), each once"),
    },
    title="Flamecraft Duals data",
)


def _board(source: str, data: Any) -> Board:
    names: list[str] = []
    coords: list[tuple[int, int]] = []
    for i, sp in enumerate(data["spaces"]):
        name, q, r = sp["name"], sp["q"], sp["r"]
        if name in names:
            raise DataError(source, f"board: spaces[{i}]", "name", N_("the space {value!r} is listed twice"),
                            value=name)
        if (q, r) in coords:
            raise DataError(source, f"board: spaces[{i}]", "q", N_("two spaces at q={q}, r={r}"), q=q, r=r)
        names.append(name)
        coords.append((q, r))
    for v in data["inner"]:
        if v not in names:
            raise DataError(source, "board", "inner", N_("{value!r} is not a space of the board"), value=v)
    return Board.build(tuple(names), tuple(coords), tuple(names.index(v) for v in data["inner"]))


def _duals(source: str, data: Any) -> tuple[tuple[int, int], ...]:
    duals: list[tuple[int, int]] = []
    for i, pair in enumerate(data):
        a, b = TYPE_KEYS.index(pair[0]), TYPE_KEYS.index(pair[1])
        if a == b:
            raise DataError(source, "tokens", f"duals[{i}]", N_("a dual has two different types"))
        if (a, b) in duals or (b, a) in duals:
            raise DataError(source, "tokens", f"duals[{i}]", N_("the pair {pair} is listed twice"),
                            pair=f"{pair[0]}+{pair[1]}")
        duals.append((a, b))
    return tuple(duals)


def _card(source: str, data: Any) -> ShopCard:
    entry = f"card {data['number']}"
    cells: list[Cell] = []
    for i, cell in enumerate(data["cells"]):
        dq, dr = cell["at"]
        if any(c.dq == dq and c.dr == dr for c in cells):
            raise DataError(source, f"{entry}: cells[{i}]", "at", N_("two cells at {value!r}"), value=cell["at"])
        if ("type" in cell) == ("var" in cell):
            raise DataError(source, f"{entry}: cells[{i}]", "type",
                            N_("a cell has exactly one of type (a required type) or var (a variable)"))
        if "type" in cell:
            cells.append(Cell(dq, dr, TYPE_KEYS.index(cell["type"])))
        else:
            cells.append(Cell(dq, dr, -1, cell["var"]))
    variables = {cell.var for cell in cells if cell.var}
    if len(variables) > MAX_VARIABLES:
        raise DataError(source, entry, "cells", N_("at most {limit} variables (one per type), got {n}"),
                        limit=MAX_VARIABLES, n=len(variables))
    name = data.get("name")
    return ShopCard(data["number"], data["vp"], tuple(cells), data.get("starburst", False),
                    dict(name) if name is not None else None)


def parse_duals_data(data: Any, source: str) -> DualsData:
    """Validate parsed TOML content against :data:`DUALS_DATA`, then the rules between fields; build the data
    set. Raises :class:`DataError`."""
    validate(data, DUALS_DATA, source, FILE)
    meta, tokens = data["set"], data["tokens"]
    board = _board(source, data["board"])
    order = tuple(TYPE_KEYS.index(t) for t in tokens["fire_up_order"])
    per_type, buddy = tokens["artisans_per_type"], tokens["buddy"]
    duals = _duals(source, tokens["duals"])
    cards = [_card(source, d) for d in data["card"]]
    numbers = [c.number for c in cards]
    for n in sorted(set(numbers)):
        if numbers.count(n) > 1:
            raise DataError(source, f"card {n}", "number", N_("used by more than one card"))
    for n in range(1, len(cards) + 1):
        if n not in numbers:
            raise DataError(source, "card", "number", N_("card number {n} is missing (need 1..{last})"), n=n,
                            last=len(cards))
    cards.sort(key=lambda c: c.number)

    kind_names = [*TYPE_KEYS, *(f"{TYPE_KEYS[a]}+{TYPE_KEYS[b]}" for a, b in duals), "buddy"]
    kind_mask = [*(1 << t for t in range(NUM_TYPES)), *((1 << a) | (1 << b) for a, b in duals), ALL_TYPES_MASK]
    kind_abilities = [*((t,) for t in range(NUM_TYPES)), *duals, ()]
    supply = [*(per_type for _ in range(NUM_TYPES)), *(1 for _ in duals), buddy]
    total = sum(supply)
    if total >= STACK_LIMIT * board.size:
        raise DataError(source, "tokens", COUNT,
                        N_("{total} tokens do not leave room on {spaces} spaces of {limit} tokens"), total=total,
                        spaces=board.size, limit=STACK_LIMIT)

    matcher = Matcher(board, tuple(kind_mask), [card.cells for card in cards])
    for card, pattern in zip(cards, matcher.patterns, strict=True):
        if not pattern.placements:
            raise DataError(source, f"card {card.number}", "cells", N_("the pattern fits nowhere on the board"))
    return DualsData(
        id=meta["id"],
        version=meta["version"],
        name=dict(meta["name"]),
        board=board,
        fire_up_order=order,
        artisans_per_type=per_type,
        duals=duals,
        buddy_tokens=buddy,
        cards=tuple(cards),
        hash=content_hash(data),
        source=source,
        kind_names=tuple(kind_names),
        kind_mask=tuple(kind_mask),
        kind_abilities=tuple(kind_abilities),
        supply=tuple(supply),
        vp=(0, *(c.vp for c in cards)),
        starburst=frozenset(c.number for c in cards if c.starburst),
        matcher=matcher,
    )


def load_duals_data(path: Path | str | None = None) -> DualsData:
    """The data in ``path``, or the built-in data."""
    return load_data(path, BUILTIN_DATA, parse_duals_data, "flametable.games.duals")


@cache
def builtin_duals_data() -> DualsData:
    return load_duals_data()
