"""The one pattern matcher (D5): rotations, duals, Buddy, STARBURST, and the lane test against the
placements it stands for."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from flametable.core.rng import Rng
from flametable.games.duals.pattern import Matcher, distinct_possible

from .scripted import BOARD, DATA, STARBURST, line, pair_end, play, start, triangle

MATCHER: Matcher = DATA.matcher
EMPTY: list[tuple[int, ...]] = [() for _ in range(BOARD.size)]


def board(**spaces: str) -> list[tuple[int, ...]]:
    """Stacks with one top token per named space (``c3="meat+bread"``)."""
    stacks = list(EMPTY)
    for name, token in spaces.items():
        stacks[BOARD.index[name]] = (DATA.kind_of(token),)
    return stacks


def matches(card: int, stacks: list[tuple[int, ...]]) -> bool:
    return MATCHER.matching([card], stacks) == [card]


def test_d5_all_six_rotations() -> None:
    """D5: "A card matches when its pattern, in any rotation, lies on the board's top tokens." FAQ: "puedes
    rotar tus cartas de tienda en cualquier orientación" """
    card = pair_end("bread", "meat")
    centre = BOARD.index["c3"]
    for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        stacks = list(EMPTY)
        q, r = BOARD.coords[centre]
        stacks[BOARD.at[(q - dq, r - dr)]] = (0,)
        stacks[centre] = (0,)
        stacks[BOARD.at[(q + dq, r + dr)]] = (2,)  # the meat at the far end, in direction (dq, dr)
        found = MATCHER.find(card, stacks)
        assert found is not None
        assert matches(card, stacks)
        assert found.types == (0, 0, 2)
    # The meat in the middle is no rotation of "bread bread meat".
    assert not matches(card, board(c2="bread", c3="meat", c4="bread"))


def test_d5_cards_rotate_but_shapes_are_rigid() -> None:
    """Cards rotate; the shape stays: three breads bent at an angle are not a line."""
    assert matches(line("bread"), board(c1="bread", c2="bread", c3="bread"))
    assert not matches(line("bread"), board(c1="bread", c2="bread", b2="bread"))
    assert matches(triangle("bread"), board(c1="bread", c2="bread", b1="bread"))


def test_d5_top_tokens_only() -> None:
    """D5: the pattern lies "on the board's top tokens"."""
    stacks = board(c1="bread", c2="bread")
    stacks[BOARD.index["c3"]] = (0, 2)  # a bread under a meat
    assert not matches(line("bread"), stacks)
    stacks[BOARD.index["c3"]] = (2, 0)
    assert matches(line("bread"), stacks)


def test_d5_dual_matches_either_type() -> None:
    """D5: "A dual matches either of its types." """
    stacks = board(c1="bread", c2="bread", c3="meat+bread")
    assert matches(line("bread"), stacks)
    assert matches(pair_end("bread", "meat"), stacks)
    assert not matches(pair_end("bread", "iron"), stacks)


def test_faq_buddy_two_types_for_two_cards() -> None:
    """FAQ: "El token Buddy no tiene habilidad especial. Al puntuar una carta de tienda, puede contar como un
    tipo de dragón para una carta y como un tipo diferente para otra carta en el mismo turno." D5: "Buddy
    matches any type, chosen independently for each card." """
    bread_line, bread_meat = line("bread"), pair_end("bread", "meat")
    st = start({"c1": ["bread"], "c2": ["bread"], "c3": ["buddy"]}, ["iron", "crystal"], buddy=True,
               hands=[[bread_line, bread_meat], []], coins=(1, 0))
    play(st, "place e3", "skip")
    assert st.matching(0) == sorted([bread_line, bread_meat])
    play(st, f"score K{bread_line}", f"score K{bread_meat}")
    assert sorted(st.piles[0]) == sorted([bread_line, bread_meat])
    stacks = [tuple(s) for s in st.stacks]
    shown = {MATCHER.find(c, stacks).types for c in (bread_line, bread_meat)}  # type: ignore[union-attr]
    assert shown == {(0, 0, 0), (0, 0, 2)}  # Buddy counted as bread for one card, as meat for the other


def test_d4_starburst_three_different_types() -> None:
    """D4: STARBURST asks for "three different types"."""
    assert matches(STARBURST, board(c2="bread", c3="meat", b2="iron"))
    assert not matches(STARBURST, board(c2="bread", c3="meat", b2="bread"))
    assert not matches(STARBURST, board(c2="bread", c3="meat", a1="iron"))  # not a triangle
    # Duals and Buddy take whatever type keeps the three different.
    assert matches(STARBURST, board(c2="bread+crystal", c3="bread", b2="crystal+iron"))
    assert not matches(STARBURST, board(c2="bread+crystal", c3="bread", b2="crystal"))
    assert matches(STARBURST, board(c2="buddy", c3="bread", b2="bread+crystal"))
    found = MATCHER.find(STARBURST, board(c2="bread+crystal", c3="bread", b2="crystal"))
    assert found is None


def test_distinct_possible() -> None:
    assert distinct_possible([0b1, 0b10, 0b100])
    assert not distinct_possible([0b1, 0b1])
    assert distinct_possible([0b11, 0b1])
    assert not distinct_possible([0b11, 0b11, 0b11])
    assert not distinct_possible([0])


def _random_stacks(seed: int, tokens: int, buddy: bool) -> list[tuple[int, ...]]:
    rng = Rng(seed)
    kinds = DATA.num_kinds if buddy else DATA.num_kinds - 1
    stacks = list(EMPTY)
    for _ in range(tokens):
        s = rng.below(BOARD.size)
        if len(stacks[s]) < 3:
            stacks[s] = (*stacks[s], rng.below(kinds))
    return stacks


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), tokens=st.integers(0, 43), buddy=st.booleans())
def test_lanes_agree_with_placements(seed: int, tokens: int, buddy: bool) -> None:
    """The lane test (all rotations and translations in a few int operations) says exactly what trying every
    precomputed placement says."""
    stacks = _random_stacks(seed, tokens, buddy)
    tops = MATCHER.tops(stacks)
    for pat in MATCHER.patterns:
        expected = pat.matches_masks(tops.masks)
        assert pat.matches(tops) == expected
        if pat.fixed:
            assert pat.matches_has(tops.has) == expected
        assert (pat.find(tops) is not None) == expected


def test_matcher_used_by_the_engine_and_the_view() -> None:
    """One matcher: the legal ``score`` actions, the view's matching cards and ``matching`` agree."""
    for seed in range(30):
        state = start(None, ["iron", "crystal"])
        stacks = _random_stacks(seed, 30, False)
        state.stacks = stacks
        state.top_lanes = MATCHER.tops(stacks).has
        state._match_cache = {}
        state.hands[0] = list(range(1, 44))
        expected = MATCHER.matching(range(1, 44), stacks)
        assert state.matching(0) == expected
        assert state.view(0).matching == tuple(expected)
