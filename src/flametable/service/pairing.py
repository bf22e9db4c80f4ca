"""Quick pairing (issue 24, point 2): which waiting seeks of one pool are paired now.

A *pool* is one game, one time control and rated or casual; a *seek* is one player waiting in it. The server pairs
two seeks of a pool, **closest ratings first**, within an allowed gap that **widens the longer they wait** (as
Lichess' pools do): ``start`` points at once, ``widen`` more every ``every`` seconds, at most ``most``. A pair may
be made when the two ratings differ by no more than the allowance of the seek that has waited longer (a player who
has waited a minute is offered to a newcomer as far as that minute allows; the newcomer's own allowance grows too).

:func:`pairs` is pure: the seeks and the time in, the pairs out, in the order they were made (the closest
difference first; between equal ones, the pair whose older seek has waited longest; then by the seeks' ids, so the
same seeks always give the same pairs). Every seek is in one pair at most. The store takes the seeks it pairs
under a row lock (``SKIP LOCKED``), so that two server processes never pair one seek twice.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Seek:
    """One player waiting in a pool: its id, the player's rating in that pool (a guest's: the starting rating),
    and when the seek was made (seconds, the server's clock)."""

    id: str
    rating: float
    since: float


@dataclass(frozen=True)
class Gap:
    """The allowed rating gap of a seek that has waited ``waited`` seconds: ``start``, plus ``widen`` for every
    ``every`` seconds waited, at most ``most``."""

    start: float = 100.0
    widen: float = 50.0
    every: float = 5.0
    most: float = 1000.0

    def allowed(self, waited: float) -> float:
        steps = math.floor(max(0.0, waited) / self.every) if self.every > 0 else 0
        return min(self.most, self.start + self.widen * steps)


def pairs(seeks: Iterable[Seek], now: float, gap: Gap = Gap()) -> list[tuple[Seek, Seek]]:
    """The pairs to make now among ``seeks`` (one pool's), closest first (see the module); each pair's first seek
    is the one that has waited longer.

    The closest pair that may be made is always of two seeks next to each other in rating among those still
    waiting: were ``b`` between ``a`` and ``c``, the longer waiter of ``a`` and ``c`` would allow its pair with
    ``b``, which is no farther. So only neighbours are weighed, in a heap, and when a pair is made its two outer
    neighbours become neighbours: ``n log n`` for ``n`` seeks, however wide the gaps have grown."""
    ordered = sorted(seeks, key=lambda s: (s.rating, s.since, s.id))
    if len({s.id for s in ordered}) != len(ordered):
        raise ValueError("a seek is given twice")
    allowance = [gap.allowed(now - s.since) for s in ordered]
    before = list(range(-1, len(ordered) - 1))  # the neighbours still waiting, by index (-1 / n: none)
    after = list(range(1, len(ordered) + 1))
    taken = [False] * len(ordered)
    heap: list[tuple[float, float, str, str, int, int]] = []

    def weigh(i: int, j: int) -> None:
        if i < 0 or j >= len(ordered):
            return
        low, high = ordered[i], ordered[j]
        older, newer = (i, j) if (low.since, low.id) <= (high.since, high.id) else (j, i)
        difference = high.rating - low.rating
        if difference <= allowance[older]:
            heapq.heappush(heap, (difference, ordered[older].since, ordered[older].id, ordered[newer].id, i, j))

    for i in range(len(ordered) - 1):
        weigh(i, i + 1)
    made: list[tuple[Seek, Seek]] = []
    while heap:
        _difference, _since, first, _second, i, j = heapq.heappop(heap)
        if taken[i] or taken[j] or after[i] != j:
            continue  # (one of them paired meanwhile)
        taken[i] = taken[j] = True
        made.append((ordered[i], ordered[j]) if ordered[i].id == first else (ordered[j], ordered[i]))
        left, right = before[i], after[j]
        if left >= 0:
            after[left] = right
        if right < len(ordered):
            before[right] = left
        weigh(left, right)
    return made
