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


def fit_elo(names: list[str], games: list[tuple[int, int, float]], iterations: int = 2000) -> list[float]:
    """Maximum-likelihood Elo ratings (Bradley-Terry, draws as half points), mean 1500.

    ``games`` are (i, j, score of i) with i, j indexes into ``names``.
    """
    k = len(names)
    r = [0.0] * k
    if not games:
        return [1500.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        for i, j, s in games:
            e = 1 / (1 + 10 ** ((r[j] - r[i]) / 400))
            grad[i] += s - e
            grad[j] -= s - e
        step = 20.0
        r = [x + step * g / max(1, len(games)) * k for x, g in zip(r, grad, strict=True)]
        mean = sum(r) / k
        r = [x - mean for x in r]
    return [1500.0 + x for x in r]
