"""The one pattern matcher of Flamecraft Duals (D5): scoring, interfaces and bots all ask it.

A shop card's pattern is a list of cells (data, see :mod:`flametable.games.duals.data`), each a hex offset
``(dq, dr)`` with either a required type (``type = "bread"``) or a variable (``var = "A"``): cells with the
same variable must show one common type, and different variables stand for different types (the
"same type as" and "different types" constraints; STARBURST is three cells with the variables A, B, C). A
variable is not constrained against the fixed types of the same card.

A card matches when, in some rotation (any of the 6; cards are rotated, never flipped) and translation,
every cell lies on a space whose *top* token shows what the cell asks. An artisan shows its type, a dual
either of its two types and Buddy any type; both are chosen for each card independently (D5), so one token
can count as bread for one card and meat for another, and scoring removes nothing from the board.

Everything geometric is precomputed when the data is loaded:

* every placement of every pattern on the board (one per distinct way to lay it, the pattern's own
  symmetries removed: a rotation that asks the same of the same spaces is not a new placement), used for
  patterns with variables and to show where a card matches;
* for patterns without variables (all 42 cards but STARBURST), shifts in the *lanes* (:class:`Lanes`): the
  board is embedded six times in one int, once per rotation, so "which spaces show type t on top" is one int
  per type and a pattern matches somewhere, in some rotation, exactly when the AND of those ints shifted by
  each cell's offset is not zero: a handful of integer operations for every rotation and translation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from flametable.games.duals.board import Board, rotate
from flametable.games.duals.rules import ALL_TYPES_MASK, NUM_TYPES

_POP = tuple(bin(i).count("1") for i in range(1 << NUM_TYPES))


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a pattern: an offset and either a required type (``var`` empty) or a variable."""

    dq: int
    dr: int
    type: int = -1  # a TokenType, -1 for a variable cell
    var: str = ""


@dataclass(frozen=True, slots=True)
class Placement:
    """One way to lay a pattern on the board: the space of each cell (in the pattern's cell order)."""

    spaces: tuple[int, ...]
    rotation: int  # 0..5, times 60 degrees
    fixed: tuple[tuple[int, int], ...]  # (space, type bit) of the cells with a required type
    groups: tuple[tuple[int, ...], ...]  # the spaces of each variable, variables in order of appearance


@dataclass(frozen=True, slots=True)
class Match:
    """Where a card matches and the type each of its cells counts as (duals and Buddy resolved)."""

    spaces: tuple[int, ...]
    types: tuple[int, ...]
    rotation: int


class Lanes:
    """The board embedded six times in one int, once per rotation, so that one translation of a pattern
    tests all its rotations at once.

    Lane ``r`` holds the board turned by ``r`` x 60 degrees, rows ``W`` bits wide (``W`` twice the widest
    turned board, so a shift by ``dr * W + dq`` is the translation by ``(dq, dr)``), with blank rows between
    lanes so that no shift of a pattern that fits on the board reaches another lane.
    """

    __slots__ = ("row_bits", "wbit")

    def __init__(self, board: Board) -> None:
        turned = [[rotate(q, r, rot) for q, r in board.coords] for rot in range(6)]
        widths = [max(q for q, _ in t) - min(q for q, _ in t) + 1 for t in turned]
        heights = [max(r for _, r in t) - min(r for _, r in t) + 1 for t in turned]
        self.row_bits = 2 * max(widths)
        lane_rows = 2 * max(heights) + 1
        wbit = [0] * board.size
        for rot, coords in enumerate(turned):
            qmin = min(q for q, _ in coords)
            rmin = min(r for _, r in coords)
            for s, (q, r) in enumerate(coords):
                wbit[s] |= 1 << ((rot * lane_rows + r - rmin) * self.row_bits + q - qmin)
        self.wbit = tuple(wbit)

    def shift(self, dq: int, dr: int) -> int:
        return dr * self.row_bits + dq


class CompiledPattern:
    """A pattern with its precomputed placements (and lane shifts when it has no variables)."""

    __slots__ = ("anchor", "cells", "placements", "shifts", "variables")

    def __init__(self, cells: tuple[Cell, ...], board: Board, lanes: Lanes) -> None:
        self.cells = cells
        names: list[str] = []
        for c in cells:
            if c.var and c.var not in names:
                names.append(c.var)
        self.variables = tuple(names)
        self.placements = _placements(cells, names, board)
        # Without variables: the anchor cell (lowest offset) and (type, shift) of the others, all shifts >= 0.
        self.anchor = -1
        self.shifts: tuple[tuple[int, int], ...] = ()
        if not names and cells:
            offs = [(lanes.shift(c.dq, c.dr), c.type) for c in cells]
            low, t0 = min(offs)
            self.anchor = t0
            self.shifts = tuple((t, off - low) for off, t in offs if (off, t) != (low, t0))

    @property
    def fixed(self) -> bool:
        """Every cell asks for a type: :meth:`matches_has` decides alone."""
        return self.anchor >= 0

    def matches(self, tops: Tops) -> bool:
        """Whether the pattern lies on the board's top tokens in some rotation."""
        if self.anchor >= 0:
            return self.matches_has(tops.has)
        return self.matches_masks(tops.masks)

    def matches_has(self, has: Sequence[int]) -> bool:
        """For a pattern without variables: the lane test (``has``: per type, lane bits)."""
        acc = has[self.anchor]
        for t, sh in self.shifts:
            if not acc:
                return False
            acc &= has[t] >> sh
        return acc != 0

    def matches_masks(self, masks: Sequence[int]) -> bool:
        """Any pattern: try each placement (``masks``: per space, the top token's type mask)."""
        return any(_fits(pl, masks) for pl in self.placements)

    def find(self, tops: Tops) -> Match | None:
        """The first placement that matches, with the type each cell counts as (for display)."""
        for m in self.find_all(tops):
            return m
        return None

    def find_all(self, tops: Tops) -> Iterable[Match]:
        """Every placement that matches (one type choice each)."""
        masks = tops.masks
        for pl in self.placements:
            if not _fits(pl, masks):
                continue
            cands = []
            for group in pl.groups:
                c = ALL_TYPES_MASK
                for s in group:
                    c &= masks[s]
                cands.append(c)
            chosen = _assign(cands, 0, 0)
            if chosen is None:  # pragma: no cover - _fits checked that an assignment exists
                continue
            by_var = dict(zip(self.variables, chosen, strict=True))
            types = tuple(c.type if not c.var else by_var[c.var] for c in self.cells)
            yield Match(pl.spaces, types, pl.rotation)


class Tops:
    """What the board shows for matching: each space's top-token type mask, and per type the lane bits
    (:class:`Lanes`) of the spaces whose top token shows it."""

    __slots__ = ("has", "masks")

    def __init__(self, masks: list[int], has: list[int]) -> None:
        self.masks = masks
        self.has = has


def _fits(pl: Placement, masks: Sequence[int]) -> bool:
    for s, bit in pl.fixed:
        if not masks[s] & bit:
            return False
    if not pl.groups:
        return True
    cands = []
    for group in pl.groups:
        c = ALL_TYPES_MASK
        for s in group:
            c &= masks[s]
        if not c:
            return False
        cands.append(c)
    return distinct_possible(cands)


def distinct_possible(cands: Sequence[int]) -> bool:
    """Whether each variable can get a different type from its candidate mask (Hall's condition)."""
    k = len(cands)
    if k == 1:
        return cands[0] != 0
    for sub in range(1, 1 << k):
        union = 0
        n = 0
        for i in range(k):
            if sub >> i & 1:
                union |= cands[i]
                n += 1
        if _POP[union] < n:
            return False
    return True


def _assign(cands: list[int], i: int, used: int) -> list[int] | None:
    if i == len(cands):
        return []
    for t in range(NUM_TYPES):
        bit = 1 << t
        if cands[i] & bit and not used & bit:
            rest = _assign(cands, i + 1, used | bit)
            if rest is not None:
                return [t, *rest]
    return None


def _placements(cells: tuple[Cell, ...], variables: list[str], board: Board) -> tuple[Placement, ...]:
    out: list[Placement] = []
    seen: set[tuple[frozenset[tuple[int, int]], frozenset[frozenset[int]]]] = set()
    for rot in range(6):
        turned = [rotate(c.dq, c.dr, rot) for c in cells]
        for anchor in range(board.size):
            q0, r0 = board.coords[anchor]
            spaces: list[int] = []
            for dq, dr in turned:
                s = board.at.get((q0 + dq, r0 + dr), -1)
                if s < 0:
                    break
                spaces.append(s)
            else:
                fixed = tuple((s, 1 << c.type) for s, c in zip(spaces, cells, strict=True) if not c.var)
                groups = tuple(
                    tuple(s for s, c in zip(spaces, cells, strict=True) if c.var == v) for v in variables
                )
                # Variables are interchangeable (they only have to differ), so a placement is what it asks
                # of which spaces: fixed types per space, and the partition of the other spaces.
                key = (frozenset(fixed), frozenset(frozenset(g) for g in groups))
                if key in seen:
                    continue
                seen.add(key)
                out.append(Placement(tuple(spaces), rot, fixed, groups))
    return tuple(out)


class Matcher:
    """The matcher of one data set: token type masks, the board, its lanes and every card's pattern."""

    __slots__ = ("board", "kind_mask", "kind_types", "lanes", "patterns")

    def __init__(self, board: Board, kind_mask: tuple[int, ...], patterns: Sequence[tuple[Cell, ...]]) -> None:
        self.board = board
        self.kind_mask = kind_mask
        self.kind_types = tuple(tuple(t for t in range(NUM_TYPES) if m >> t & 1) for m in kind_mask)
        self.lanes = Lanes(board)
        self.patterns = tuple(CompiledPattern(cells, board, self.lanes) for cells in patterns)  # card - 1

    def tops(self, stacks: Sequence[tuple[int, ...]]) -> Tops:
        """What the board's top tokens show (stacks bottom first, token kinds)."""
        kind_mask = self.kind_mask
        kind_types = self.kind_types
        wbit = self.lanes.wbit
        masks = [0] * len(stacks)
        has = [0] * NUM_TYPES
        for s, st in enumerate(stacks):
            if st:
                k = st[-1]
                masks[s] = kind_mask[k]
                b = wbit[s]
                for t in kind_types[k]:
                    has[t] |= b
        return Tops(masks, has)

    def matching(self, cards: Iterable[int], stacks: Sequence[tuple[int, ...]]) -> list[int]:
        """The cards among ``cards`` whose pattern lies on the board now, in the order given."""
        tops = self.tops(stacks)
        pats = self.patterns
        return [c for c in cards if pats[c - 1].matches(tops)]

    def find(self, card: int, stacks: Sequence[tuple[int, ...]]) -> Match | None:
        """Where ``card`` matches now (a placement and the type each cell counts as), or None."""
        return self.patterns[card - 1].find(self.tops(stacks))
