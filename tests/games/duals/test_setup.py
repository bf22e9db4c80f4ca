"""Flamecraft Duals setup: the seeded deal (rules text steps 1-10, D2, D3, D4, D11) and explicit setups."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from flametable.core.errors import RecordError
from flametable.games.duals.rules import START_COINS, Step

from .scripted import BOARD, DATA, GAME, start

ARTISANS = range(6)


def test_d2_seeded_setup_tokens() -> None:
    """D2: "Setup as in the FAQ: one artisan of each type at random on the inner ring, one of each type set
    aside as the reserve, the other 24 artisans and the 6 duals in the bag." D1: "the centre and the outer
    ring start empty." """
    layouts = set()
    for seed in range(40):
        st = GAME.new_match({}, seed)
        inner = [st.stacks[s] for s in BOARD.inner]
        assert all(len(stack) == 1 for stack in inner)
        assert sorted(stack[0] for stack in inner) == list(ARTISANS)
        layouts.add(tuple(stack[0] for stack in inner))
        assert st.phase is Step.PLACE
        assert st.held >= 0
        others = [s for s in range(BOARD.size) if s not in BOARD.inner]
        assert all(not st.stacks[s] for s in others)
        assert sorted(st.reserve) == list(ARTISANS)
        bag = Counter([*st.bag, st.held])
        assert bag == Counter({**dict.fromkeys(ARTISANS, 4), **dict.fromkeys(range(6, 12), 1)})
        assert sum(bag.values()) == 30
        assert st.token_count() == [6] * 6 + [1] * 6 + [0]  # every token but Buddy, in play
    assert len(layouts) > 30  # "at random"


def test_d11_buddy_variant_puts_buddy_in_the_bag() -> None:
    """D11: "Buddy (the Buddy token joins the bag; setup and scoring per the FAQ)." Rules text step 7: "Quita
    el token Buddy de la bolsa (a menos que juegues con Fancy Mode y Buddy)." """
    st = GAME.new_match({"buddy": True}, 1)
    assert Counter([*st.bag, st.held])[DATA.buddy] == 1
    assert len(st.bag) + 1 == 31
    st = GAME.new_match({"buddy": False}, 1)
    assert DATA.buddy not in st.bag
    assert st.held != DATA.buddy


def test_d11_buddy_has_no_ability() -> None:
    """D11 / FAQ: "El token Buddy no tiene habilidad especial." D6: "Buddy has none." """
    st = start({"c4": ["meat"]}, ["buddy", "meat"], buddy=True, coins=(1, 0))
    st.apply(GAME.action_from_text("place c3"))
    assert [a.text() for a in st.legal_actions()] == ["skip", "coin"]


def test_d4_deal_cards_and_coins() -> None:
    """D4: "43 cards in all. Each player draws 2 at setup." Rules text: "Da a cada jugador ... 3 monedas",
    "Cada jugador roba 2 cartas para formar su mano secreta." """
    for seed in range(20):
        st = GAME.new_match({}, seed)
        assert [len(h) for h in st.hands] == [2, 2]
        assert sorted([*st.deck, *st.hands[0], *st.hands[1]]) == list(range(1, 44))
        assert st.coins == [START_COINS, START_COINS] == [3, 3]
        assert st.piles == [[], []]
        assert not st.ended


def test_d3_fire_up_order() -> None:
    """D3: "the higher on the FIRE UP order bread > crystal > meat > iron > potion > plant starts; a dual
    counts as its higher type and beats an artisan of that type; otherwise equal ... Buddy ranks below every
    dragon." """
    key = DATA.rank_key
    kind = DATA.kind_of
    order = ["bread", "crystal", "meat", "iron", "potion", "plant"]
    for hi, lo in itertools.pairwise(order):
        assert key(kind(hi)) > key(kind(lo))
    assert key(kind("crystal+iron")) > key(kind("crystal")) > key(kind("iron+potion"))
    assert key(kind("meat+bread")) > key(kind("bread"))
    assert key(kind("meat+bread")) == key(kind("bread+crystal"))  # both count as bread: a redraw
    assert key(kind("plant+meat")) > key(kind("meat")) > key(kind("potion+plant")) > key(kind("potion"))
    assert all(key(kind("buddy")) < key(k) for k in range(DATA.buddy))


def test_d3_first_player_and_redraws() -> None:
    """D3: "Each player draws a token; the higher ... starts; ... otherwise equal: both tokens go back and
    both draw again ... All drawn tokens go back into the bag." Rules text: "En caso de empate, devuelven las
    fichas y vuelven a robar." """
    firsts: Counter[int] = Counter()
    redraws = 0
    for seed in range(200):
        st = GAME.new_match({}, seed)
        draws = st.first_draws
        assert draws
        for a, b in draws[:-1]:
            assert DATA.rank_key(a) == DATA.rank_key(b)
        a, b = draws[-1]
        assert DATA.rank_key(a) != DATA.rank_key(b)
        assert st.first == (0 if DATA.rank_key(a) > DATA.rank_key(b) else 1)
        assert st.turn == st.first
        assert st.turn_number == 1
        firsts[st.first] += 1
        redraws += len(draws) > 1
        # the drawn tokens went back: the bag holds all 30 (one is the turn's token)
        assert len(st.bag) + 1 == 30
    assert firsts[0] > 60
    assert firsts[1] > 60
    assert redraws > 0


def test_seeded_setup_is_deterministic() -> None:
    a, b = GAME.new_match({}, 7), GAME.new_match({}, 7)
    assert a.view(None) == b.view(None)
    assert a.view(0) == b.view(0)
    assert a.deck == b.deck
    assert a.bag == b.bag
    assert GAME.new_match({}, 8).view(0) != a.view(0)


def test_explicit_setup() -> None:
    """The explicit setup (tests, records, puzzles): stacks bottom first, bag first drawn first, deck top
    first."""
    st = start({"c3": ["bread", "meat+bread"]}, ["iron", "potion"], reserve=["plant"], deck=[5, 6, 7],
               hands=[[1], [2, 3]], coins=(2, 1), first=1, scores=[[4], []])
    assert st.first == 1  # D3 draws who starts; a setup names the seat instead
    assert st.turn == 1
    assert st.held == DATA.kind_of("iron")
    assert st.bag == [DATA.kind_of("potion")]
    assert st.stacks[BOARD.index["c3"]] == (0, DATA.kind_of("meat+bread"))
    assert st.deck == [7, 6, 5]
    assert st.hands == [[1], [2, 3]]
    assert st.piles == [[4], []]
    assert st.coins == [2, 1]
    assert st.reserve == [DATA.kind_of("plant")]
    assert st.first_draws == ()


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"boards": {}}, "unknown field"),
        ({"board": {"z9": ["bread"]}}, "no space 'z9'"),
        ({"board": {"c3": ["bread"] * 4}}, "at most 3 tokens"),
        ({"board": {"c3": ["toast"]}}, "unknown token 'toast'"),
        ({"board": ["c3"]}, "must be an object"),
        ({"bag": ["buddy"]}, "only in the Buddy variant"),
        ({"bag": ["bread"] * 7}, "7 bread tokens, the data has 6"),
        ({"bag": "bread"}, "list of token names"),
        ({"deck": [1, 1]}, "more than once"),
        ({"deck": [44]}, "card numbers are 1..43"),
        ({"hands": [[1]]}, "one list per player"),
        ({"hands": [[1], [1]]}, "more than once"),
        ({"scores": [["K1"], []]}, "list of integers"),
        ({"coins": [3]}, "two non-negative integers"),
        ({"coins": [-1, 3]}, "two non-negative integers"),
        ({"first": 2}, "must be 0 or 1"),
        ({"first": True}, "must be 0 or 1"),
        # the integer seat: ``1.0`` once passed the check and was then used as a list index
        ({"first": 1.0}, r"setup\.first must be 0 or 1, got 1\.0"),
        ({"first": 0.0}, r"setup\.first must be 0 or 1"),
        ({"first": "1"}, r"setup\.first must be 0 or 1"),
    ],
)
def test_explicit_setup_errors(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GAME.new_match({}, 0, setup=setup)


@pytest.mark.parametrize(
    ("options", "message"),
    [({"buddy": 1}, "true or false"), ({"fancy": True}, "unknown field"), ([1], "must be an object")],
)
def test_options_errors(options: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GAME.new_match(options, 0)


@pytest.mark.parametrize(("sizes", "ok"), [((2, 0), True), ((0, 2), True), ((3, 0), False), ((2, 8), False)])
def test_refresh_a_turn_starts_with_at_most_2_cards_in_a_hand(sizes: tuple[int, int], ok: bool) -> None:
    """Rules text: "En REFRESH, robas cartas hasta tener 2 en mano" and the coin draws 2 then puts 2 at the
    bottom (D4 deals 2): no turn of any match starts with 3 cards in a hand. A setup (the start of a turn) with
    more is refused naming the hand; fewer (an empty hand late in a match) is kept."""
    cards = iter(range(1, 11))
    hands = [[next(cards) for _ in range(n)] for n in sizes]
    setup = {"hands": hands, "deck": [20, 21]}
    if ok:
        assert GAME.new_match({}, 0, setup=setup).hands == hands
    else:
        p = 0 if sizes[0] > 2 else 1
        with pytest.raises(RecordError, match=rf"setup\.hands\[{p}\]: a hand holds at most 2 cards"):
            GAME.new_match({}, 0, setup=setup)


@pytest.mark.parametrize(("coins", "ok"), [([3, 0], True), ([0, 3], True), ([4, 0], False), ([3, 99], False)])
def test_setup_step_2_a_player_has_at_most_3_coins(coins: list[int], ok: bool) -> None:
    """Rules text step 2: "Da a cada jugador ... 3 monedas"; a coin is only ever spent (the coin, before
    REFRESH): no match reaches 4 coins, and a setup claiming them is refused naming the player's coins."""
    setup = {"coins": coins, "deck": [20, 21]}
    if ok:
        assert GAME.new_match({}, 0, setup=setup).coins == coins
    else:
        p = 0 if coins[0] > 3 else 1
        with pytest.raises(RecordError, match=rf"setup\.coins\[{p}\]: a player has at most 3 coins"):
            GAME.new_match({}, 0, setup=setup)
