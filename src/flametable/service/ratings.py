"""Glicko-2 ratings: one per account per game, updated once a rated match ends.

The update is Mark E. Glickman's, as his "Example of the Glicko-2 system" (Boston University, 2013) gives it,
steps 1 to 8, numbered here as there:

1. A new rating is 1500, with a rating deviation (RD) of 350 and a volatility of 0.06; the system constant
   tau is 0.5 (:data:`TAU`; the paper suggests 0.3 to 1.2).
2. Ratings are taken to the Glicko-2 scale: ``mu = (r - 1500) / 173.7178``, ``phi = RD / 173.7178``.
3. Against the opponents of one rating period (``mu_j``, ``phi_j``, score ``s_j``), the estimated variance
   ``v = 1 / sum(g(phi_j)**2 E_j (1 - E_j))``, where ``g(phi) = 1 / sqrt(1 + 3 phi**2 / pi**2)`` and
   ``E_j = 1 / (1 + exp(-g(phi_j) (mu - mu_j)))``.
4. The estimated improvement ``delta = v sum(g(phi_j) (s_j - E_j))``.
5. The new volatility ``sigma'``: the root of ``f(x) = e**x (delta**2 - phi**2 - v - e**x) / (2 (phi**2 + v +
   e**x)**2) - (x - ln(sigma**2)) / tau**2``, found by the Illinois algorithm to within epsilon = 0.000001,
   ``sigma' = e**(A/2)``. Its bracket moves when ``f(C) f(B) <= 0``: should ``f(C)`` be exactly 0, a strict
   ``< 0`` would leave the bracket as it is for ever.
6. The pre-period RD grows: ``phi* = sqrt(phi**2 + sigma'**2)``. A player with no games in the period stops here
   (rating and volatility unchanged, ``phi' = sqrt(phi**2 + sigma**2)``).
7. ``phi' = 1 / sqrt(1 / phi***2 + 1 / v)``, ``mu' = mu + phi'**2 sum(g(phi_j) (s_j - E_j))``.
8. Back to the rating scale: ``r' = 173.7178 mu' + 1500``, ``RD' = 173.7178 phi'``.

One addition, as in Glickman's Glicko (step 1 there): an RD is never above 350, the RD of a player nobody knows
anything about (:data:`MAX_RD`); every RD this module returns is capped there.

Scores: a win 1, a loss 0 (a resignation or a loss on time is a loss), a draw 0.5 (a drawn round-robin or a
shared victory). A rating whose RD is above 110 is provisional (:data:`PROVISIONAL_RD`), shown ``1500?``.

Time. A rated match is its own rating period (as Lichess rates): both players are updated from their ratings
before the match, each against the other. A rating records when it was last updated (``at``, seconds on any
clock the caller keeps; this module reads none). A player away for a while is uncertain again: elapsed time is
counted in rating periods of :data:`RATING_PERIOD` seconds (8 hours, three a day), fractions included, and each
period without games grows the RD as the paper's step 6 does, ``phi**2 + t sigma**2`` after ``t`` periods (the
volatility unchanged). With the starting volatility 0.06 an RD of 50 is back at 350 after 1105 periods, about a
year (368 days). In :func:`rate_match` the match is the last of the elapsed periods: the RD grows over all but
one of them before the match (``max(t - 1, 0)``, as :func:`grown` does), and step 6 adds the last one, or the part
of one that passed (``min(t, 1)``) when the players' last matches were less than a period ago, so RD grows with
the clock and not with the number of matches (Lichess's choice too). A rating never updated (``at`` None) has no
time to grow over: a new player's RD is already 350.

Why no library: the Glicko-2 packages on PyPI (``glicko2`` 2.1.0, the most used, last released in January 2024)
rate a fixed period or a one-to-one game with mutable, untyped ratings, and know no elapsed time, fractional
periods or RD cap; the update is short and the paper's example checks it (tests/service/test_ratings.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

SCALE = 173.7178
"""Step 2: Glicko-2's scale, ``400 / ln(10)``: ``mu = (r - 1500) / SCALE`` and ``phi = RD / SCALE``."""
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
MAX_RD = START_RD
"""No RD is above the RD of a new player."""
TAU = 0.5
"""The system constant: how much the volatility may change in one period (the paper: 0.3 to 1.2)."""
EPSILON = 0.000001
"""Step 5: the Illinois algorithm stops once its bracket is this narrow."""
PROVISIONAL_RD = 110.0
"""A rating with an RD above this is provisional (shown ``1500?``, as Lichess does)."""
RATING_PERIOD = 8 * 60 * 60.0
"""Seconds of absence that grow an RD as one rating period without games: three a day, so an RD of 50 with the
starting volatility returns to 350 after about a year (1105 periods, 368 days)."""

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
"""A match's score for one player: a resignation or a loss on time is a loss; a drawn round-robin or a shared
victory is a draw."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One account's rating in one game: the rating, its deviation (RD), its volatility, and when it was last
    updated (seconds, ``None`` for a rating never updated). The defaults are a new player's."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY
    at: float | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rating) and math.isfinite(self.rd) and math.isfinite(self.volatility)):
            raise ValueError(f"a rating's numbers are finite, got {self!r}")
        if not (0 < self.rd <= MAX_RD and self.volatility > 0):
            raise ValueError(f"a rating's RD is above 0 and at most {MAX_RD}, its volatility above 0, got {self!r}")
        if self.at is not None and not math.isfinite(self.at):
            raise ValueError(f"a rating's time is a finite number of seconds, got {self!r}")

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain: its RD is above :data:`PROVISIONAL_RD`."""
        return self.rd > PROVISIONAL_RD

    @property
    def display(self) -> str:
        """The rating as a player sees it: the number rounded (halves up), ``?`` after it when provisional."""
        return f"{math.floor(self.rating + 0.5)}{'?' if self.provisional else ''}"


@dataclass(frozen=True, slots=True)
class Steps:
    """One rating period's update, every quantity of the paper on the Glicko-2 scale, in its order."""

    mu: float
    phi: float
    sigma: float
    mu_j: tuple[float, ...]
    phi_j: tuple[float, ...]
    g_j: tuple[float, ...]
    e_j: tuple[float, ...]
    v: float
    delta: float
    sigma_prime: float
    phi_star: float
    phi_prime: float
    mu_prime: float
    rating: Rating
    """Step 8: the new rating (its ``at`` the player's)."""


def g(phi: float) -> float:
    """Step 3: how much an opponent's result counts, less the more uncertain the opponent (``phi``)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: the score a player at ``mu`` expects against an opponent at ``mu_j`` with deviation ``phi_j``."""
    return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))


def new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float = TAU,
                   epsilon: float = EPSILON) -> float:
    """Step 5: the new volatility, by the Illinois algorithm (a regula falsi that halves a stuck end's value)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def steps(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU, *,
          periods: float = 1.0) -> Steps:
    """Steps 2 to 8 for ``player`` against ``results`` (each an opponent's rating before the period and the
    player's score against it, 0 to 1; at least one). ``periods``: how much of a rating period step 6 grows the
    RD by (the paper's 1; :func:`rate_match` passes the part of a period since the player's last match)."""
    if not results:
        raise ValueError("a rating period's steps need at least one result")
    for _, score in results:
        if not 0 <= score <= 1:
            raise ValueError(f"a score is from 0 to 1, got {score!r}")
    mu, phi, sigma = (player.rating - START_RATING) / SCALE, player.rd / SCALE, player.volatility
    mu_j = tuple((opponent.rating - START_RATING) / SCALE for opponent, _ in results)
    phi_j = tuple(opponent.rd / SCALE for opponent, _ in results)
    g_j = tuple(g(p) for p in phi_j)
    e_j = tuple(expected(mu, m, p) for m, p in zip(mu_j, phi_j, strict=True))
    v = 1 / sum(gj * gj * ej * (1 - ej) for gj, ej in zip(g_j, e_j, strict=True))
    gain = sum(gj * (s - ej) for gj, ej, (_, s) in zip(g_j, e_j, results, strict=True))
    delta = v * gain
    sigma_prime = new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + periods * sigma_prime * sigma_prime)
    phi_prime = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    change = phi_prime * phi_prime * gain
    # step 8 as r + SCALE (mu' - mu): the same number, and a rating that does not move stays exactly as it was
    rating = Rating(player.rating + SCALE * change, min(SCALE * phi_prime, MAX_RD), sigma_prime, player.at)
    return Steps(mu, phi, sigma, mu_j, phi_j, g_j, e_j, v, delta, sigma_prime, phi_star, phi_prime, mu + change,
                 rating)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU, *,
         periods: float = 1.0) -> Rating:
    """``player``'s rating after one rating period with ``results`` (each an opponent's rating before the period
    and the player's score: :data:`WIN`, :data:`DRAW`, :data:`LOSS`); with no games only the RD grows (step 6).
    The new rating keeps ``player.at``. ``periods``: see :func:`steps`."""
    if not results:
        # SCALE sqrt(phi^2 + t sigma^2), in rating units so that no growth leaves the RD exactly as it was
        growth = SCALE * player.volatility
        return replace(player, rd=min(math.sqrt(player.rd * player.rd + periods * growth * growth), MAX_RD))
    return steps(player, results, tau, periods=periods).rating


def elapsed_periods(player: Rating, now: float) -> float:
    """The rating periods (fractions included) from ``player``'s last update to ``now``; 0 if ``now`` is earlier.
    A rating never updated has nothing to grow: 0."""
    if player.at is None:
        return 0.0
    return max(0.0, (now - player.at) / RATING_PERIOD)


def grown(player: Rating, now: float, *, less: float = 0.0) -> Rating:
    """``player``'s rating at ``now`` with no game since its last update: the RD grown by the elapsed periods
    (minus ``less`` of them), each as a period without games (step 6 with the volatility unchanged), at most
    :data:`MAX_RD`. The rating, volatility and ``at`` are kept."""
    periods = max(0.0, elapsed_periods(player, now) - less)
    return rate(player, [], periods=periods) if periods else player


def rate_match(a: Rating, b: Rating, score_a: float, now: float, tau: float = TAU) -> tuple[Rating, Rating]:
    """The two players' ratings once their rated match ends at ``now`` (seconds) with ``score_a`` for ``a``
    (:data:`WIN`, :data:`DRAW`, :data:`LOSS`; ``b`` scores ``1 - score_a``). The match is its own rating period,
    both updated from the ratings before it; a player away longer than one period first has the RD grown over
    the rest (see the module's doc). Both new ratings are at ``now``."""
    if not 0 <= score_a <= 1:
        raise ValueError(f"a score is from 0 to 1, got {score_a!r}")
    start_a, start_b = grown(a, now, less=1), grown(b, now, less=1)
    last_a, last_b = min(elapsed_periods(a, now), 1.0), min(elapsed_periods(b, now), 1.0)
    new_a = rate(start_a, [(start_b, score_a)], tau, periods=last_a)
    new_b = rate(start_b, [(start_a, 1 - score_a)], tau, periods=last_b)
    return replace(new_a, at=now), replace(new_b, at=now)
