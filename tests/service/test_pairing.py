"""Quick pairing's choice of pairs (issue 24, point 2): closest ratings first, within a gap that widens the longer
the seeks wait (the issue's numbers: ±100 at once, +50 every 5 s); each seek paired once at most."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flametable.service.pairing import Gap, Seek, pairs

NOW = 1_000_000.0


def seek(name: str, rating: float, waited: float = 0.0) -> Seek:
    return Seek(name, rating, NOW - waited)


def ids(made: list[tuple[Seek, Seek]]) -> list[tuple[str, str]]:
    return [(a.id, b.id) for a, b in made]


def test_the_gap_is_100_at_once_and_widens_by_50_every_5_seconds_up_to_its_most() -> None:
    gap = Gap()
    assert [gap.allowed(w) for w in (0, 4.9, 5, 9.9, 10, 12.5, 60)] == [100, 100, 150, 150, 200, 200, 700]
    assert gap.allowed(3600) == 1000
    assert gap.allowed(-3) == 100  # a clock stepped back: no negative wait


def test_two_new_seeks_pair_within_100_and_not_beyond_until_they_have_waited() -> None:
    assert ids(pairs([seek("a", 1500), seek("b", 1600)], NOW)) == [("a", "b")]
    assert pairs([seek("a", 1500), seek("b", 1601)], NOW) == []
    assert ids(pairs([seek("a", 1500, 5), seek("b", 1601, 5)], NOW)) == [("a", "b")]


def test_the_longer_waiter_s_gap_decides_a_pair() -> None:
    """A player waiting 20 s (±300) is offered a newcomer 250 points away, whose own gap is still ±100."""
    assert ids(pairs([seek("new", 1500), seek("old", 1750, 20)], NOW)) == [("old", "new")]
    assert pairs([seek("new", 1500), seek("old", 1850, 20)], NOW) == []


def test_the_closest_ratings_are_paired_first() -> None:
    """b and c (20 apart) before a and b (40): then a and d are 120 apart, too far for seeks just made."""
    assert ids(pairs([seek("a", 1500), seek("b", 1540), seek("c", 1560), seek("d", 1620)], NOW)) == [("b", "c")]
    assert ids(pairs([seek("a", 1500), seek("b", 1540), seek("c", 1560), seek("d", 1600)], NOW)) == [
        ("b", "c"), ("a", "d")]


def test_between_equal_differences_the_longest_waiter_goes_first() -> None:
    """b is 50 from a (waited 1 s) and from c (waited 3 s): c's pair is made, a waits on."""
    assert ids(pairs([seek("a", 1500, 1), seek("b", 1550), seek("c", 1600, 3)], NOW)) == [("c", "b")]


def test_a_seek_given_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        pairs([seek("a", 1500), seek("a", 1500)], NOW)


def allowed(a: Seek, b: Seek, gap: Gap) -> bool:
    return abs(a.rating - b.rating) <= max(gap.allowed(NOW - a.since), gap.allowed(NOW - b.since))


def check(seeks: list[Seek], gap: Gap | None = None) -> list[tuple[Seek, Seek]]:
    """Each seek in one pair at most; every pair allowed; closest first (no allowed pair of the seeks still
    waiting before a pair was made was closer than it); and nobody left who could still be paired."""
    gap = gap or Gap()
    made = pairs(seeks, NOW, gap)
    seen = [s.id for pair in made for s in pair]
    assert len(seen) == len(set(seen))
    waiting = {s.id: s for s in seeks}
    for a, b in made:
        assert allowed(a, b, gap)
        difference = abs(a.rating - b.rating)
        rest = sorted(waiting.values(), key=lambda s: s.rating)
        for i, low in enumerate(rest):
            for high in rest[i + 1:]:
                if high.rating - low.rating >= difference:
                    break
                assert not allowed(low, high, gap), (low, high, "closer than", a, b)
        del waiting[a.id], waiting[b.id]
    left = sorted(waiting.values(), key=lambda s: s.rating)
    assert not any(allowed(x, y, gap) for i, x in enumerate(left) for y in left[i + 1:])
    return made


def test_200_seeks_with_random_ratings_each_paired_once_at_most_and_closest_first() -> None:
    rng = random.Random(24)
    seeks = [seek(f"s{i}", round(rng.gauss(1500, 300)), rng.uniform(0, 40)) for i in range(200)]
    made = check(seeks)
    assert len(made) >= 90  # (most find someone: a spread of 300 with gaps of 100 to 500)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(800, 2200), st.floats(0, 60)), max_size=60))
def test_any_pool_s_pairs_hold_the_rules(drawn: list[tuple[int, float]]) -> None:
    check([seek(f"s{i}", rating, waited) for i, (rating, waited) in enumerate(drawn)])
