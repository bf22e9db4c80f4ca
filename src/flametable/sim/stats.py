"""Confidence intervals and Elo, with no third-party package."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def __str__(self) -> str:
        return f"{100 * self.value:.1f}% [{100 * self.low:.1f}, {100 * self.high:.1f}]"


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """Wilson score interval for a proportion (sensible at 0 and 1, unlike the normal one)."""
    if n <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = Z95) -> Interval:
    """Normal-approximation interval for a mean (e.g. the score, win = 1, draw = ½)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 1.0)
    m = sum(values) / n
    if n == 1:
        return Interval(m, 0.0, 1.0)
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return Interval(m, max(0.0, m - half), min(1.0, m + half))


def elo_diff(score: float) -> float:
    """The Elo difference that predicts ``score`` (clamped away from 0 and 1)."""
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1 / s - 1)


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


def bootstrap_elo(k: int, pairs: list[tuple[int, int, list[float]]], samples: int = 200,
                  seed: int = 1) -> list[Interval]:
    """Ratings with 95% intervals from resampling each pair's games (``pairs``: (i, j, i's points per game))."""
    from flametable.core.rng import Rng

    rng = Rng(seed)

    def clamp(p: float, n: int) -> float:  # a perfect score would make a rating infinite
        return min(max(p, 0.25), n - 0.25) if n else 0.0

    point = fit_elo(k, [(i, j, clamp(sum(p), len(p)), len(p)) for i, j, p in pairs])
    draws: list[list[float]] = [[] for _ in range(k)]
    for _ in range(samples):
        resampled = []
        for i, j, pts in pairs:
            n = len(pts)
            resampled.append((i, j, sum(pts[rng.below(n)] for _ in range(n)) if n else 0.0, n))
        # Clamp perfect scores so that a rating stays finite.
        fitted = fit_elo(k, [(i, j, clamp(p, n), n) for i, j, p, n in resampled], iterations=100)
        for p in range(k):
            draws[p].append(fitted[p])
    out = []
    for p in range(k):
        d = sorted(draws[p])
        low, high = d[int(0.025 * (len(d) - 1))], d[int(0.975 * (len(d) - 1))]
        out.append(Interval(point[p], min(low, point[p]), max(high, point[p])))
    return out
