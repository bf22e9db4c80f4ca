"""Glicko-2 ratings (issue 23): Glickman's "Example of the Glicko-2 system" (2013), its worked example step by
step, then the rules of rated matches: one rating per account and game from 1500 / 350 / 0.06, a win 1, a loss
0, a draw 0.5, provisional above RD 110, each match its own rating period, and RD growing with absence up to 350.

The paper rounds as it goes (its expected scores to three decimals, the rest to four), so a number it prints is
checked to within one unit of its last printed digit: computed without rounding, its final rating is 1464.0507
(it prints 1464.06 from mu' = -0.2069), its volatility 0.0599960 (it prints 0.05999)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from flametable.service.ratings import (
    DRAW,
    LOSS,
    MAX_RD,
    RATING_PERIOD,
    WIN,
    Rating,
    grown,
    rate,
    rate_match,
    steps,
)

# ---------------------------------------------------------------- the paper's example

PLAYER = Rating(1500, 200, 0.06)
"""The paper's player: rating 1500, RD 200, volatility 0.06, tau 0.5."""
OPPONENTS = [(Rating(1400, 30), WIN), (Rating(1550, 100), LOSS), (Rating(1700, 300), LOSS)]
"""It beats a 1400 / RD 30 and loses to a 1550 / RD 100 and a 1700 / RD 300 in one rating period."""

DAY = 24 * 60 * 60.0


def test_the_paper_s_example_ends_at_1464_06_rd_151_52_volatility_0_05999() -> None:
    after = rate(PLAYER, OPPONENTS, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_paper_s_example_step_by_step() -> None:
    s = steps(PLAYER, OPPONENTS, tau=0.5)
    # step 2: the Glicko-2 scale
    assert s.mu == 0
    assert s.phi == pytest.approx(1.1513, abs=0.0001)
    assert s.mu_j == pytest.approx((-0.5756, 0.2878, 1.1513), abs=0.0001)
    assert s.phi_j == pytest.approx((0.1727, 0.5756, 1.7269), abs=0.0001)
    # step 3: g(phi_j) and E(mu, mu_j, phi_j), then v = 1.7785 (from E to three decimals: about 1.779)
    assert s.g_j == pytest.approx((0.9955, 0.9531, 0.7242), abs=0.0001)
    assert s.e_j == pytest.approx((0.639, 0.432, 0.303), abs=0.001)
    assert s.v == pytest.approx(1.7785, abs=0.001)
    # step 4: delta = 1.7785 (-0.2717) = -0.4834
    assert s.delta == pytest.approx(-0.4834, abs=0.001)
    # step 5: the Illinois algorithm's volatility
    assert s.sigma_prime == pytest.approx(0.05999, abs=0.00001)
    # step 6: phi* = sqrt(phi^2 + sigma'^2)
    assert s.phi_star == pytest.approx(math.sqrt(1.1513**2 + 0.05999**2), abs=0.0001)
    # step 7: phi' = 0.8722, mu' = -0.2069
    assert s.phi_prime == pytest.approx(0.8722, abs=0.0001)
    assert s.mu_prime == pytest.approx(-0.2069, abs=0.0001)
    # step 8: r' = 173.7178 mu' + 1500, RD' = 173.7178 phi'
    assert s.rating.rating == pytest.approx(173.7178 * s.mu_prime + 1500)
    assert s.rating.rd == pytest.approx(173.7178 * s.phi_prime)


def test_a_period_without_games_only_grows_the_rd() -> None:
    """Step 6: phi' = sqrt(phi^2 + sigma^2), the rating and volatility as they were."""
    after = rate(PLAYER, [])
    assert after.rating == 1500
    assert after.volatility == 0.06
    assert after.rd == pytest.approx(173.7178 * math.sqrt((200 / 173.7178) ** 2 + 0.06**2))
    assert after.rd > 200


def test_no_rd_grows_past_the_350_of_a_new_player() -> None:
    assert rate(Rating(), []).rd == MAX_RD == 350


# ---------------------------------------------------------------- the rules of rated matches


def test_a_new_player_starts_at_1500_rd_350_volatility_0_06_shown_provisional() -> None:
    new = Rating()
    assert (new.rating, new.rd, new.volatility, new.at) == (1500, 350, 0.06, None)
    assert new.provisional
    assert new.display == "1500?"


def test_a_rating_is_provisional_above_rd_110() -> None:
    assert not Rating(1834.4, 110).provisional
    assert Rating(1834.4, 110).display == "1834"
    assert Rating(1834.5, 110.01).provisional
    assert Rating(1834.5, 110.01).display == "1835?"
    assert Rating(1499.5, 60).display == "1500"


def test_a_rating_is_immutable() -> None:
    with pytest.raises(AttributeError):
        Rating().rating = 2000  # type: ignore[misc]


@pytest.mark.parametrize("fields", [
    {"rating": math.nan}, {"rating": math.inf}, {"rd": 0}, {"rd": 350.5}, {"volatility": 0}, {"at": math.inf},
])
def test_a_rating_holds_only_meaningful_numbers(fields: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="rating"):
        Rating(**fields)


@pytest.mark.parametrize("score", [-0.5, 1.5, math.nan])
def test_a_score_is_from_0_to_1(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        rate_match(Rating(), Rating(), score, 0)
    with pytest.raises(ValueError, match="score"):
        rate(Rating(), [(Rating(), score)])


def test_both_players_are_updated_from_their_ratings_before_the_match() -> None:
    """Each match is its own rating period (step 1 to 8 once each), each player against the other's rating
    before it: here both last played one period ago, so no absence grows an RD first."""
    a, b = Rating(1700, 80, 0.06, at=0), Rating(1600, 120, 0.07, at=0)
    new_a, new_b = rate_match(a, b, LOSS, RATING_PERIOD)
    assert new_a == replace(rate(a, [(b, LOSS)]), at=RATING_PERIOD)
    assert new_b == replace(rate(b, [(a, WIN)]), at=RATING_PERIOD)
    assert new_a.rating < 1700
    assert new_b.rating > 1600


def test_a_draw_between_unequal_players_moves_them_towards_each_other() -> None:
    new_a, new_b = rate_match(Rating(1700, 80, at=0), Rating(1600, 80, at=0), DRAW, DAY)
    assert new_a.rating < 1700
    assert new_b.rating > 1600


def test_periods_away_grow_the_rd_as_periods_without_games() -> None:
    """Two rating periods since a's last match: the first a period without games (step 6 alone), the second the
    match's own. b played a moment ago: its RD has had no time to grow."""
    a, b = Rating(1550, 70, 0.06, at=0), Rating(1500, 90, 0.06, at=2 * RATING_PERIOD)
    new_a, _ = rate_match(a, b, WIN, 2 * RATING_PERIOD)
    assert new_a == replace(rate(rate(a, []), [(b, WIN)]), at=2 * RATING_PERIOD)


def test_the_rd_grows_with_the_clock_not_with_the_number_of_matches() -> None:
    """A rematch at once adds no uncertainty: it starts from the RD the last match left, and narrows it."""
    a, b = Rating(1550, 70, 0.06, at=0), Rating(1500, 90, 0.06, at=0)
    again = rate_match(a, b, WIN, 0)[0]
    later = rate_match(a, b, WIN, RATING_PERIOD)[0]
    assert again.rd < a.rd
    assert again.rd < later.rd


def test_an_rd_of_50_returns_to_350_after_about_a_year_away() -> None:
    settled = Rating(1900, 50, 0.06, at=0)
    assert grown(settled, 180 * DAY).rd < 300
    assert 340 < grown(settled, 350 * DAY).rd < 350
    assert grown(settled, 380 * DAY).rd == 350
    assert grown(settled, 50 * 365 * DAY).rd == 350


def test_after_a_long_absence_a_match_starts_from_rd_350() -> None:
    """Away past the cap, a player is rated as one whose last match, a period ago, left an RD of 350."""
    away, opponent = Rating(1900, 50, 0.06, at=0), Rating(1800, 60, 0.06, at=400 * DAY)
    now = 400 * DAY
    fresh = Rating(1900, 350, 0.06, at=now - RATING_PERIOD)
    assert rate_match(away, opponent, WIN, now)[0] == rate_match(fresh, opponent, WIN, now)[0]
    assert rate_match(away, opponent, WIN, now)[0].rd < 350


# ---------------------------------------------------------------- properties over any ratings

TIME = st.floats(0, 10 * 365 * DAY)
RATINGS = st.builds(Rating, st.floats(0, 4000), st.floats(30, 350), st.floats(0.01, 0.2), st.none() | TIME)
"""Any rating a server may hold: 0 to 4000, RD 30 to 350, volatility 0.01 to 0.2, last updated any time."""
SCORES = st.sampled_from([WIN, DRAW, LOSS]) | st.floats(0, 1)


def finite(r: Rating) -> bool:
    return all(math.isfinite(x) for x in (r.rating, r.rd, r.volatility)) and 0 < r.rd <= 350


@given(RATINGS, RATINGS, TIME)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(a: Rating, b: Rating, now: float) -> None:
    won, lost = rate_match(a, b, WIN, now)
    assert won.rating >= a.rating
    assert lost.rating <= b.rating
    lost, won = rate_match(a, b, LOSS, now)
    assert lost.rating <= a.rating
    assert won.rating >= b.rating


@given(RATINGS, RATINGS, SCORES, TIME)
def test_a_match_narrows_the_rd_its_period_started_from(a: Rating, b: Rating, score: float, now: float) -> None:
    """Step 6 grows phi by the new volatility, step 7 narrows it again: phi' < phi*, always. Between players
    within 800 points, the RD after the match is also below the RD the player had when it ended (an upset far
    beyond that raises the volatility, and a game whose result tells little about the player may leave the RD a
    little higher: Glicko-2 means it)."""
    s = steps(a, [(b, score)])
    assert s.phi_star == pytest.approx(math.sqrt(s.phi**2 + s.sigma_prime**2))  # step 6, the new volatility
    assert s.phi_prime < s.phi_star
    assume(abs(a.rating - b.rating) <= 800)
    new_a, new_b = rate_match(a, b, score, now)
    assert new_a.rd < grown(a, now).rd
    assert new_b.rd < grown(b, now).rd


@given(RATINGS, TIME, TIME)
def test_absence_grows_the_rd_up_to_350_and_never_past_it(r: Rating, later: float, more: float) -> None:
    start = r.at or 0.0
    r = replace(r, at=start)
    sooner, after = grown(r, start + later), grown(r, start + later + more)
    assert r.rd <= sooner.rd <= after.rd <= 350
    assert (sooner.rating, sooner.volatility, sooner.at) == (r.rating, r.volatility, r.at)
    # step 6 per period: phi^2 + t sigma^2 reaches (350 / 173.7178)^2 after t periods
    t = ((350 / 173.7178) ** 2 - (r.rd / 173.7178) ** 2) / r.volatility**2
    assert grown(r, start + (t + 1) * RATING_PERIOD).rd == 350


@given(st.floats(0, 4000), st.floats(30, 350), st.floats(0.01, 0.2), st.none() | TIME, SCORES, TIME)
def test_between_equal_players_one_gains_what_the_other_loses(
        rating: float, rd: float, volatility: float, at: float | None, score: float, now: float) -> None:
    a = Rating(rating, rd, volatility, at)
    new_a, new_b = rate_match(a, a, score, now)
    assert (new_a.rating - rating) + (new_b.rating - rating) == pytest.approx(0, abs=1e-9)
    assert new_a.rd == new_b.rd
    drawn_a, drawn_b = rate_match(a, a, DRAW, now)
    assert drawn_a.rating == drawn_b.rating == rating


@given(RATINGS, RATINGS, SCORES, TIME)
def test_every_result_is_a_finite_rating(a: Rating, b: Rating, score: float, now: float) -> None:
    new_a, new_b = rate_match(a, b, score, now)
    assert finite(new_a)
    assert finite(new_b)
    assert new_a.at == new_b.at == now
    assert finite(rate(a, [(b, score), (b, 1 - score), (Rating(), score)]))


@given(st.floats(0, 4000), st.floats(30, 350))
def test_the_display_is_the_rounded_rating_marked_when_rd_is_above_110(rating: float, rd: float) -> None:
    shown = Rating(rating, rd).display
    assert shown.endswith("?") == (rd > 110)
    assert abs(int(shown.rstrip("?")) - rating) <= 0.5
