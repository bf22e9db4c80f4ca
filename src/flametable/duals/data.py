"""Flamecraft Duals data (D1-D4): board, tokens and shop deck, shipped as TOML, validated on load.

The built-in file is ``src/flametable/data/duals.toml``; :func:`load_duals_data` reads it or any other path.
A bad file raises :class:`~flametable.core.errors.DataError` naming the file, the entry and the field.

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
type, different variables different types (see :mod:`flametable.duals.pattern`). Every pattern must fit on
the board in at least one rotation.

Token kinds are integer-coded: the six artisans first (by :class:`~flametable.duals.rules.TokenType`), then
the duals in file order, then Buddy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from flametable.core.data import COUNT, FILE, Reader, content_hash, load_data
from flametable.core.errors import DataError
from flametable.core.i18n import N_
from flametable.duals.board import Board
from flametable.duals.pattern import Cell, Matcher
from flametable.duals.rules import ALL_TYPES_MASK, NUM_TYPES, STACK_LIMIT, TYPE_KEYS

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
_SPACE_NAME = re.compile(r"^[a-z]+[0-9]+$")
_VAR_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*$")


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


def _board(root: Reader) -> Board:
    r = root.sub("board")
    r.entry = "board"
    r.check_keys({"spaces", "inner"})
    names: list[str] = []
    coords: list[tuple[int, int]] = []
    raw = r.items("spaces")
    if not raw:
        r.fail("spaces", N_("the board needs spaces"))
    if len(raw) > MAX_SPACES:
        r.fail("spaces", N_("at most {limit} spaces, got {n}"), limit=MAX_SPACES, n=len(raw))
    for i in range(len(raw)):
        sp = r.sub("spaces", i)
        sp.check_keys({"name", "q", "r"})
        name = sp.string("name")
        if not _SPACE_NAME.match(name):
            sp.fail("name", N_("a space name is lowercase letters then digits (like c3), got {value!r}"), value=name)
        if name in names:
            sp.fail("name", N_("the space {space!r} is listed twice"), space=name)
        q, rr = sp.integer("q", -MAX_COORD, MAX_COORD), sp.integer("r", -MAX_COORD, MAX_COORD)
        if (q, rr) in coords:
            sp.fail("q", N_("two spaces at q={q}, r={r}"), q=q, r=rr)
        names.append(name)
        coords.append((q, rr))
    inner_names = r.items("inner")
    inner: list[int] = []
    for v in inner_names:
        if not isinstance(v, str) or v not in names:
            r.fail("inner", N_("{value!r} is not a space of the board"), value=v)
        if names.index(v) in inner:
            r.fail("inner", N_("the space {space!r} is listed twice"), space=v)
        inner.append(names.index(v))
    if len(inner) != NUM_TYPES:
        r.fail("inner", N_("the inner ring holds one token of each type: {need} spaces, got {n}"), need=NUM_TYPES,
               n=len(inner))
    return Board.build(tuple(names), tuple(coords), tuple(inner))


def _type(r: Reader, fieldname: str, value: Any) -> int:
    if not isinstance(value, str) or value not in TYPE_KEYS:
        r.fail(fieldname, N_("must be one of {choices}, got {value!r}"), choices=", ".join(TYPE_KEYS), value=value)
    return TYPE_KEYS.index(value)


def _tokens(root: Reader) -> tuple[tuple[int, ...], int, tuple[tuple[int, int], ...], int]:
    r = root.sub("tokens")
    r.entry = "tokens"
    r.check_keys({"fire_up_order", "artisans_per_type", "duals", "buddy"})
    order = [_type(r, "fire_up_order", v) for v in r.items("fire_up_order")]
    if sorted(order) != list(range(NUM_TYPES)):
        r.fail("fire_up_order", N_("must list each of the {n} types once"), n=NUM_TYPES)
    per_type = r.integer("artisans_per_type", 2, 99)  # one for the inner ring, one for the reserve
    duals: list[tuple[int, int]] = []
    for i, pair in enumerate(r.items("duals")):
        where = f"duals[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            r.fail(where, N_("a dual is a pair of two types, got {value!r}"), value=pair)
        a, b = _type(r, where, pair[0]), _type(r, where, pair[1])
        if a == b:
            r.fail(where, N_("a dual has two different types"))
        if (a, b) in duals or (b, a) in duals:
            r.fail(where, N_("the pair {pair} is listed twice"), pair=f"{pair[0]}+{pair[1]}")
        duals.append((a, b))
    buddy = r.integer("buddy", 0, 1)
    return tuple(order), per_type, tuple(duals), buddy


def _card(source: str, index: int, data: Any) -> ShopCard:
    r = Reader(source, f"card[{index}]", data)
    number = r.integer("number", 1, MAX_CARDS)
    r = Reader(source, f"card {number}", data)
    r.check_keys({"number", "vp", "cells", "starburst", "name"})
    vp = r.integer("vp", 0, 99)
    starburst = r.data.get("starburst", False)
    if not isinstance(starburst, bool):
        r.fail("starburst", N_("must be true or false, got {value!r}"), value=starburst)
    name = r.text("name") if r.has("name") else None
    raw = r.items("cells")
    if not raw:
        r.fail("cells", N_("a pattern needs at least one cell"))
    if len(raw) > MAX_SPACES:
        r.fail("cells", N_("at most {limit} cells, got {n}"), limit=MAX_SPACES, n=len(raw))
    cells: list[Cell] = []
    for i in range(len(raw)):
        c = r.sub("cells", i)
        c.check_keys({"at", "type", "var"})
        at = c.items("at")
        if len(at) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in at):
            c.fail("at", N_("must be two integers [dq, dr], got {value!r}"), value=at)
        if not all(-MAX_OFFSET <= v <= MAX_OFFSET for v in at):
            c.fail("at", N_("each offset is from {lo} to {hi}, got {value!r}"), lo=-MAX_OFFSET, hi=MAX_OFFSET,
                   value=at)
        if any(cell.dq == at[0] and cell.dr == at[1] for cell in cells):
            c.fail("at", N_("two cells at {value!r}"), value=at)
        if c.has("type") == c.has("var"):
            c.fail("type", N_("a cell has exactly one of type (a required type) or var (a variable)"))
        if c.has("type"):
            cells.append(Cell(at[0], at[1], _type(c, "type", c.data["type"])))
        else:
            var = c.string("var")
            if not _VAR_NAME.match(var):
                c.fail("var", N_("a variable is a name like A or X1, got {value!r}"), value=var)
            cells.append(Cell(at[0], at[1], -1, var))
    variables = {cell.var for cell in cells if cell.var}
    if len(variables) > MAX_VARIABLES:
        r.fail("cells", N_("at most {limit} variables (one per type), got {n}"), limit=MAX_VARIABLES,
               n=len(variables))
    return ShopCard(number, vp, tuple(cells), starburst, name)


def parse_duals_data(data: Any, source: str) -> DualsData:
    """Validate parsed TOML content and build the data set. Raises :class:`DataError`."""
    root = Reader(source, FILE, data)
    root.check_keys({"set", "board", "tokens", "card"})
    for section in ("set", "board", "tokens"):
        if not root.has(section):
            root.fail(section, N_("missing section"))
    meta = root.sub("set")
    meta.entry = "set"
    meta.check_keys({"id", "version", "name"})
    set_id = meta.string("id")
    version = meta.integer("version", 0)
    set_name = meta.text("name")
    board = _board(root)
    order, per_type, duals, buddy = _tokens(root)
    raw_cards = root.items("card")
    if len(raw_cards) > MAX_CARDS:
        raise DataError(source, "card", COUNT, N_("at most {limit} cards, got {n}"), limit=MAX_CARDS,
                        n=len(raw_cards))
    cards = [_card(source, i, d) for i, d in enumerate(raw_cards)]
    if not cards:
        raise DataError(source, "card", COUNT, N_("the shop deck needs cards"))
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
        id=set_id,
        version=version,
        name=set_name,
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
    return load_data(path, BUILTIN_DATA, parse_duals_data)


@cache
def builtin_duals_data() -> DualsData:
    return load_duals_data()
