"""The engines' seeded generator: determinism, ranges, rough uniformity, permutations, independence."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise, permutations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flametable.core.rng import Rng

SEEDS = [0, 1, 2, 42, 2**32, 2**63 - 1, 2**64 - 1, 123456789012345678901234567890]


def stream(rng: Rng, n: int = 50) -> list[int]:
    return [rng.below(1_000_003) for _ in range(n)]


def chi_square(counts: Counter[int], n: int, draws: int) -> float:
    expected = draws / n
    return sum((counts[i] - expected) ** 2 / expected for i in range(n))


# -------------------------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_numbers(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    assert stream(a) == stream(b)
    assert [a.coin() for _ in range(64)] == [b.coin() for _ in range(64)]
    xs, ys = list(range(30)), list(range(30))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys
    assert a.sample(list(range(40)), 7) == b.sample(list(range(40)), 7)
    assert a.choice(tuple("abcdefg")) == b.choice(tuple("abcdefg"))
    assert stream(a) == stream(b)


def test_different_seeds_differ() -> None:
    streams = {tuple(stream(Rng(seed), 8)) for seed in range(200)}
    assert len(streams) == 200
    # nearby seeds are not shifted copies of each other
    assert stream(Rng(1))[1:] != stream(Rng(2))[:-1]


def test_negative_and_huge_seeds_are_accepted_and_deterministic() -> None:
    for seed in (-1, -(2**70), 2**100):
        assert stream(Rng(seed)) == stream(Rng(seed))


@pytest.mark.parametrize("seed", [1.0, 1.5, "7", None, True, False, b"1", [1]])
def test_bad_seeds_are_rejected(seed: Any) -> None:
    with pytest.raises(TypeError):
        Rng(seed)


# ----------------------------------------------------------------------------------------------- below()


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 21, 33, 100, 1000, 2**20, 2**31 - 1, 2**32 - 1])
def test_below_stays_in_range(n: int) -> None:
    rng = Rng(n)
    values = [rng.below(n) for _ in range(2000)]
    assert all(isinstance(v, int) and 0 <= v < n for v in values)
    if n == 1:
        assert set(values) == {0}
    if n <= 33:
        assert set(values) == set(range(n))  # every value shows up


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), n=st.integers(min_value=1, max_value=2**32 - 1))
def test_below_in_range_for_any_seed_and_bound(seed: int, n: int) -> None:
    rng = Rng(seed)
    for _ in range(20):
        assert 0 <= rng.below(n) < n


@pytest.mark.parametrize("n", [0, -1, -100])
def test_below_needs_a_positive_bound(n: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng(1).below(n)


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (6, 2), (21, 3), (33, 4), (100, 5)])
def test_below_is_roughly_uniform(n: int, seed: int) -> None:
    draws = 2000 * n
    rng = Rng(seed)
    counts = Counter(rng.below(n) for _ in range(draws))
    # chi-square with n-1 degrees of freedom: mean n-1, sd sqrt(2(n-1)); allow a wide margin (deterministic)
    assert chi_square(counts, n, draws) < (n - 1) + 6 * (2 * (n - 1)) ** 0.5 + 10
    assert min(counts.values()) > 0.8 * draws / n
    assert max(counts.values()) < 1.2 * draws / n


def test_coin_is_roughly_fair_and_not_alternating() -> None:
    rng = Rng(99)
    flips = [rng.coin() for _ in range(20000)]
    assert set(flips) == {0, 1}
    assert 9500 < sum(flips) < 10500
    pairs = Counter(pairwise(flips))
    for pair in ((0, 0), (0, 1), (1, 0), (1, 1)):
        assert 4500 < pairs[pair] < 5500, pairs


def test_low_bits_of_below_are_not_periodic() -> None:
    """Small bounds (the common case in the engine) must not cycle quickly, as an LCG's low bits do."""
    rng = Rng(5)
    values = [rng.below(2) for _ in range(4096)]
    for period in (1, 2, 4, 8, 16, 32, 64):
        assert values[period:] != values[:-period]


# -------------------------------------------------------------------------------------- shuffle, choice


@pytest.mark.parametrize("items", [[], [1], [1, 2], list(range(21)), list(range(33)), [5, 5, 1, 1, 1, 2]])
def test_shuffle_is_a_permutation(items: list[int]) -> None:
    for seed in range(30):
        shuffled = list(items)
        Rng(seed).shuffle(shuffled)
        assert sorted(shuffled) == sorted(items)


def test_shuffle_moves_things() -> None:
    moved = 0
    for seed in range(100):
        xs = list(range(21))
        Rng(seed).shuffle(xs)
        moved += xs != list(range(21))
    assert moved == 100


def test_shuffle_is_roughly_uniform() -> None:
    rng = Rng(2024)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(12000):
        xs = [0, 1, 2]
        rng.shuffle(xs)
        counts[tuple(xs)] += 1
    assert set(counts) == set(permutations(range(3)))
    assert all(1700 < c < 2300 for c in counts.values()), counts
    # every element lands in every position of a longer list about as often
    positions: Counter[tuple[int, int]] = Counter()
    for _ in range(3000):
        xs = list(range(8))
        rng.shuffle(xs)
        positions.update((x, i) for i, x in enumerate(xs))
    assert all(270 < positions[(x, i)] < 480 for x in range(8) for i in range(8))


@pytest.mark.parametrize("k", [0, 1, 3, 6, 21])
def test_sample_gives_distinct_items_of_the_list(k: int) -> None:
    items = list(range(1, 22))
    for seed in range(20):
        copy = list(items)
        picked = Rng(seed).sample(copy, k)
        assert copy == items  # the argument is not modified
        assert len(picked) == k
        assert len(set(picked)) == k
        assert set(picked) <= set(items)


def test_sample_is_roughly_uniform() -> None:
    rng = Rng(3)
    counts = Counter(x for _ in range(6000) for x in rng.sample(list(range(33)), 3))
    assert set(counts) == set(range(33))
    assert all(400 < c < 700 for c in counts.values()), counts


def test_choice_picks_an_item() -> None:
    rng = Rng(8)
    items = ("spark", "heat", "charm")
    picks = Counter(rng.choice(items) for _ in range(3000))
    assert set(picks) == set(items)
    assert all(850 < c < 1150 for c in picks.values())


# ------------------------------------------------------------------------------------- clone and fork


def test_clone_continues_the_same_stream() -> None:
    rng = Rng(77)
    stream(rng, 13)
    copy = rng.clone()
    assert stream(copy) == stream(rng)


def test_clone_is_independent() -> None:
    rng = Rng(77)
    copy = rng.clone()
    ahead = stream(copy, 100)  # advancing the clone ...
    assert stream(rng, 100) == ahead  # ... did not advance the original
    copy2 = rng.clone()
    expected = stream(rng.clone(), 10)
    stream(rng, 37)  # advancing the original does not move the clone
    assert stream(copy2, 10) == expected
    xs = list(range(10))
    rng.clone().shuffle(xs)
    ys = list(range(10))
    rng.shuffle(ys)
    assert xs == ys


def test_fork_is_deterministic_independent_and_does_not_advance() -> None:
    rng = Rng(5)
    reference = rng.clone()
    a = rng.fork(1)
    assert stream(rng.clone()) == stream(reference.clone())  # fork did not advance rng
    assert stream(Rng(5).fork(1)) == stream(a.clone())
    assert stream(rng.fork(1)) != stream(rng.fork(2))
    assert stream(rng.fork(1)) != stream(rng.clone())
    forked = rng.fork(3)
    stream(forked, 100)
    assert stream(rng) == stream(reference)
