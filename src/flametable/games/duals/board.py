"""The Flamecraft Duals board (D1) as geometry: hex spaces in axial coordinates, adjacency, rotations.

Spaces are integer-coded by their position in the data file (0..n-1) and named there (``a1`` .. ``e3`` on
the built-in board: rows ``a``-``e`` from top to bottom, numbered from the left; ``c3`` is the centre).
Axial coordinates ``(q, r)``: the six neighbours of a space differ by the :data:`DIRECTIONS`; a rotation by
60 degrees maps ``(q, r)`` to ``(-r, q + r)``.
The pattern matcher embeds the board in ints, one bit per space (see :mod:`flametable.games.duals.pattern`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def rotate(q: int, r: int, times: int) -> tuple[int, int]:
    """``(q, r)`` turned ``times`` x 60 degrees about the origin."""
    for _ in range(times % 6):
        q, r = -r, q + r
    return q, r


@dataclass(frozen=True)
class Board:
    """Spaces (names and axial coordinates), adjacency and the inner ring."""

    names: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    inner: tuple[int, ...]  # the starting spaces around the centre (D1), in data order
    index: dict[str, int] = field(repr=False)
    at: dict[tuple[int, int], int] = field(repr=False)
    adj: tuple[tuple[int, ...], ...] = field(repr=False)  # neighbours of each space, ascending
    adjacent: tuple[frozenset[int], ...] = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.names)

    @staticmethod
    def build(names: tuple[str, ...], coords: tuple[tuple[int, int], ...], inner: tuple[int, ...]) -> Board:
        at = {c: i for i, c in enumerate(coords)}
        adj = tuple(
            tuple(sorted(at[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in at))
            for q, r in coords
        )
        return Board(
            names=names,
            coords=coords,
            inner=inner,
            index={n: i for i, n in enumerate(names)},
            at=at,
            adj=adj,
            adjacent=tuple(frozenset(a) for a in adj),
        )
