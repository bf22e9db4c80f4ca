"""Confidence intervals and Elo, with no third-party package: the one place for the lab's maths.

Every share, score and rating that the lab prints (``sim``, ``report``, ``ladder``, the benchmarks) comes from
here, so that all of them use the same methods (docs/balance.md, "How the lab's intervals are made"):

- a **rate** (wins, draws, a card scored) is a binomial proportion: its 95% interval is Wilson's score interval
  with continuity correction (Newcombe 1998, method 4). Unlike the normal ("Wald") interval it is never of zero
  width, stays within 0-1 and keeps its coverage for small samples and for rates near 0 or 1: over every
  sample size from 1 to 100 and rates from 0.001 to 0.999 its coverage never falls below 94.6% (plain Wilson
  falls to 79% for one match, 84% near 0 and 1);
- a **score** (win 1, draw ½, loss 0) is a mean in 0-1: the same interval on the points, a draw as half a
  success. Whatever the share of draws, a score with mean p varies at most as much as a win/loss with rate p
  (p(1 - p)), so the interval keeps its coverage (it is a little wide when draws are common);
- an **Elo** interval is the Elo transform of a score interval: for two players, of the pair's score; in a
  ladder, of each player's score over all its games, against the others' fitted ratings, widened by the
  others' own uncertainty (they move the field's mean, 1500). Where a score interval reaches 0 or 1 the
  rating has no bound on that side (``-inf``/``inf``): with every game lost, nothing bounds how much weaker
  the player is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """A value with the low and high ends of its 95% interval (an Elo end may be ``-inf`` or ``inf``)."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float | None]:
        """As JSON: an unbounded end (an Elo with every game won or lost) is ``null``."""
        return {"value": self.value, "low": _finite(self.low), "high": _finite(self.high)}

    def __str__(self) -> str:
        return f"{100 * self.value:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """Wilson's score interval with continuity correction for ``successes`` out of ``n`` (Newcombe's method 4).

    ``successes`` may be fractional (a score's points, a draw counting ½). No data (``n`` 0): all of 0-1.
    """
    if n <= 0:
        return Interval(0.0, 0.0, 1.0)
    x = min(max(successes, 0.0), float(n))
    p = x / n
    zz = z * z
    denom = 2 * (n + zz)
    low = 0.0 if x <= 0 else (2 * n * p + zz - 1 - z * math.sqrt(zz - 2 - 1 / n + 4 * p * (n * (1 - p) + 1))) / denom
    high = 1.0 if x >= n else (2 * n * p + zz + 1 + z * math.sqrt(zz + 2 - 1 / n + 4 * p * (n * (1 - p) - 1))) / denom
    return Interval(p, min(max(low, 0.0), p), max(min(high, 1.0), p))


def score_interval(points: Sequence[float], z: float = Z95) -> Interval:
    """The mean score of ``points`` (each game's: win 1, draw ½, loss 0) with its 95% interval (see the module)."""
    return wilson(math.fsum(points), len(points), z)


class Score:
    """A score kept as it grows, without its points: the number of games and their exact sum, so that
    :meth:`interval` is what :func:`score_interval` gives of every point added. Wins, draws and losses (1, ½, 0)
    are counted; other points (a file may hold any from 0 to 1) are added exactly (Shewchuk's partials, as
    :func:`math.fsum` adds), and ``math.fsum`` rounds the whole once, as it rounds the list."""

    __slots__ = ("_halves", "_ones", "_partials", "n")

    def __init__(self) -> None:
        self.n = self._ones = self._halves = 0
        self._partials: list[float] = []

    def add(self, points: float) -> None:
        self.n += 1
        if points == 1:
            self._ones += 1
        elif points == 0.5:
            self._halves += 1
        elif points:  # fsum drops zeros, of either sign
            x = float(points)
            kept = 0
            for y in self._partials:
                if abs(x) < abs(y):
                    x, y = y, x
                high = x + y
                low = y - (high - x)
                if low:
                    self._partials[kept] = low
                    kept += 1
                x = high
            self._partials[kept:] = [x]

    @property
    def total(self) -> float:
        """``math.fsum`` of the points added."""
        return math.fsum([self._ones, self._halves * 0.5, *self._partials])

    @property
    def mean(self) -> float:
        """The mean of the points, as ``sum(points) / len(points)`` of points that are wins, draws and losses."""
        return self.total / self.n

    def interval(self, z: float = Z95) -> Interval:
        return wilson(self.total, self.n, z)


def expected_score(diff: float) -> float:
    """The score that an Elo difference of ``diff`` predicts (``inf``: 1, ``-inf``: 0)."""
    if diff == math.inf:
        return 1.0
    if diff == -math.inf:
        return 0.0
    return 1 / (1 + 10 ** (-diff / 400))


def elo_diff(score: float) -> float:
    """The Elo difference that predicts ``score``: ``inf`` for 1, ``-inf`` for 0."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return -400.0 * math.log10(1 / score - 1)


def _kept_inside(points: float, n: int) -> float:
    """``points`` out of ``n`` games moved a quarter of a game away from none and from all (a finite rating)."""
    return min(max(points, 0.25), n - 0.25) if n else 0.0


def fit_elo(k: int, pairs: list[tuple[int, int, float, int]], iterations: int = 500) -> list[float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry, a draw as half a point), mean 1500.

    ``pairs`` are (i, j, points of i, games) between players ``i`` and ``j`` of ``0..k-1``. Solved with
    Newton steps on each rating in turn (pairs are few even when games are many, so this is fast).
    """
    r = [0.0] * k
    scale = math.log(10) / 400
    for _ in range(iterations):
        moved = 0.0
        for p in range(k):
            grad = hess = 0.0
            for i, j, pts, n in pairs:
                if p not in (i, j) or n == 0:
                    continue
                other, mine = (j, pts) if p == i else (i, n - pts)
                e = 1 / (1 + 10 ** ((r[other] - r[p]) / 400))
                grad += mine - n * e
                hess += n * e * (1 - e) * scale
            if hess > 0:
                step = max(-100.0, min(100.0, grad / hess))
                r[p] += step
                moved = max(moved, abs(step))
        mean = sum(r) / k
        r = [x - mean for x in r]
        if moved < 1e-6:
            break
    return [1500.0 + x for x in r]


def ladder_elo(k: int, pairs: list[tuple[int, int, list[float]]], z: float = Z95) -> list[Interval]:
    """Ratings (mean 1500) of ``k`` players with 95% intervals, from ``pairs``: (i, j, i's points in each game).

    The ratings are :func:`fit_elo`'s, a pair's perfect score kept a quarter of a game from none and from all.
    Player ``p``'s interval starts from the interval of its score over all its games: its ends are the ratings
    at which, against the others' fitted ratings, ``p``'s expected score equals the ends of that interval (the
    field's mean kept at 1500). For two players that is all: the Elo transform of the pair's score interval,
    halved on each side of 1500. With more players the field's mean moves with every other rating too, so each
    other player's own uncertainty is added, weighing 1/k, in quadrature; an end is infinite when a score
    interval reaches 0 or 1 (a player who won every game has no upper bound, and nor has the field's mean).
    """
    point = fit_elo(k, [(i, j, _kept_inside(math.fsum(p), len(p)), len(p)) for i, j, p in pairs])
    own = [_own_interval(p, k, pairs, point, z) for p in range(k)]
    if k <= 2:
        return [Interval(point[p], *own[p]) for p in range(k)]
    out = []
    for p in range(k):
        low, high = own[p]
        # Another rating above its estimate lowers this one's place against the mean, and the other way round.
        below = math.hypot(point[p] - low, *((h - point[q]) / k for q, (_, h) in enumerate(own) if q != p))
        above = math.hypot(high - point[p], *((point[q] - lo) / k for q, (lo, _) in enumerate(own) if q != p))
        out.append(Interval(point[p], point[p] - below, point[p] + above))
    return out


def _own_interval(p: int, k: int, pairs: list[tuple[int, int, list[float]]], point: list[float],
                  z: float) -> tuple[float, float]:
    """Player ``p``'s rating interval from its own games, the others held at their fitted ratings."""
    games: list[tuple[float, int]] = []  # (an opponent's rating, games against it)
    mine: list[float] = []
    for i, j, pts in pairs:
        if p == i:
            games.append((point[j], len(pts)))
            mine += pts
        elif p == j:
            games.append((point[i], len(pts)))
            mine += [1 - x for x in pts]
    if not mine:
        return -math.inf, math.inf
    s = score_interval(mine, z)
    others = (1500.0 * k - point[p]) / (k - 1)  # the others' mean rating

    def centred(bound: float) -> float:
        x = _performance(games, bound)
        return x if math.isinf(x) else 1500 + (x - others) * (k - 1) / k

    return min(centred(s.low), point[p]), max(centred(s.high), point[p])


def _performance(games: list[tuple[float, int]], score: float) -> float:
    """The rating whose expected score over ``games`` (an opponent's rating, how many games) is ``score``."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    total = sum(n for _, n in games)

    def expected(x: float) -> float:
        return sum(n * expected_score(x - r) for r, n in games) / total

    ratings = [r for r, _ in games]
    low, high = min(ratings) + elo_diff(score) - 1, max(ratings) + elo_diff(score) + 1
    for _ in range(100):  # expected() is increasing in x, and lies on either side of score at low and high
        mid = (low + high) / 2
        if expected(mid) < score:
            low = mid
        else:
            high = mid
        if high - low < 1e-6:
            break
    return (low + high) / 2
