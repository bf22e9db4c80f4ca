"""Flame Duel setup: the cards (R1), the modes (R2), the line-up (R3), the hands (R4) and the first flip."""

from __future__ import annotations

import itertools

import pytest

from flametable.core.errors import DataError, IllegalAction
from flametable.games.duel.cards import NUM_CHARACTERS, NUM_SUPPORTS, Stat, SupportKind, parse_deck
from flametable.games.duel.rules import Phase
from tests.games.duel.scripted import (
    CARDS,
    GAME,
    ITEM,
    characters,
    inert,
    line_up,
    plain,
    play,
    start,
    texts,
    top_first,
)

ALL_SUPPORTS = set(range(1, NUM_SUPPORTS + 1))


def test_rules_pull_the_33_characters_out_of_the_pile() -> None:
    """"Pull the 33 characters out of the pile." """
    assert [c.number for c in CARDS.characters] == list(range(1, 34))
    assert NUM_CHARACTERS == 33
    for seed in range(10):
        st = GAME.new_match({}, seed)
        dealt = st.characters[0] + st.characters[1]
        assert all(1 <= c <= 33 for c in dealt)
        # the characters are never part of the support deck
        assert len(st.piles) == 1
        assert len(st.piles[0]) == 21


def test_rules_the_other_21_cards_are_the_support_deck_shuffled_face_down() -> None:
    """"The other 21 cards (items, places and events) are the support deck: shuffle it face down." """
    assert {s.kind for s in CARDS.supports} == {SupportKind.ITEM, SupportKind.PLACE, SupportKind.EVENT}
    orders = set()
    for seed in range(8):
        st = GAME.new_match({"mode": "shared"}, seed)
        assert sorted(st.piles[0]) == sorted(ALL_SUPPORTS)  # one deck of all 21 support cards
        order = tuple(top_first(st))
        assert tuple(top_first(GAME.new_match({"mode": "shared"}, seed))) == order  # deterministic per seed
        orders.add(order)
        line_up(st)
        # face down: nobody's view shows the pile, only its size
        for seat in (0, 1, None):
            view = st.view(seat)
            assert view.seats[0].pile_size == view.seats[1].pile_size == 21 - 6
            assert view.known_top == ()
    assert len(orders) > 1  # shuffled


def test_r1_cards() -> None:
    """R1: "33 characters, numbered 1–33, each with integer Spark, Heat and Charm and a special ability (text, plus
    the table effects it performs, if any). 21 support cards, each with a kind (item, place or event), one stat
    (Spark, Heat or Charm), a signed integer bonus, a text (plus table effects, if any); an item also lists the
    character numbers it "Equips to". Every name and text exists in Spanish and English. One character is
    Marciano (the rules ask players to read abilities in his voice)." """
    assert len(CARDS.characters) == 33
    assert len(CARDS.supports) == 21
    for c in CARDS.characters:
        for value in (c.spark, c.heat, c.charm):
            assert isinstance(value, int)
        assert (c.stat(Stat.SPARK), c.stat(Stat.HEAT), c.stat(Stat.CHARM)) == (c.spark, c.heat, c.charm)
        for text in (c.name, c.ability):
            assert set(text) >= {"en", "es"}
            assert text["en"].strip()
            assert text["es"].strip()
    for s in CARDS.supports:
        assert isinstance(s.kind, SupportKind)
        assert isinstance(s.stat, Stat)
        assert isinstance(s.bonus, int)
        for text in (s.name, s.text):
            assert set(text) >= {"en", "es"}
            assert text["en"].strip()
            assert text["es"].strip()
        if s.kind is ITEM:
            assert s.equips_to
            assert all(1 <= n <= 33 for n in s.equips_to)
        else:
            assert s.equips_to == frozenset()
    assert any(b.bonus < 0 for b in CARDS.supports)  # signed bonuses
    assert [c.number for c in CARDS.characters if c.name["en"] == "Marciano"] != []


def test_rules_each_player_picks_3_characters_or_draws_them_at_random() -> None:
    """"Each player picks 3 characters (or draws them at random, if you like living dangerously), looks at them
    and lines them up face down in any order." (the random deal; the draft is in test_rules_draft.py)"""
    deals = set()
    for seed in range(12):
        st = GAME.new_match({"mode": "shared", "pick": "random"}, seed)
        assert st.phase is Phase.LINEUP
        assert len(st.characters[0]) == len(st.characters[1]) == 3
        assert len(set(st.characters[0] + st.characters[1])) == 6
        deals.add((tuple(st.characters[0]), tuple(st.characters[1])))
        again = GAME.new_match({"mode": "shared", "pick": "random"}, seed)
        assert again.characters == st.characters  # the deal is deterministic per seed
    assert len(deals) > 1


def test_r2_characters_dealt_at_random_no_character_twice() -> None:
    """R2: "Characters are either dealt at random (3 each, no character twice) or drafted" """
    for seed in range(40):
        st = GAME.new_match({}, seed)
        dealt = st.characters[0] + st.characters[1]
        assert len(dealt) == 6
        assert len(set(dealt)) == 6


def test_rules_looks_at_them() -> None:
    """"... looks at them and lines them up face down ..." : each player sees their own 3 characters while
    lining up, the opponent does not (outside the draft, R3)."""
    st = GAME.new_match({}, 3)
    assert st.phase is Phase.LINEUP
    assert st.to_act == 0
    mine = tuple(sorted(st.characters[0]))
    assert st.view(0).my_characters == mine
    assert st.view(0).seats[0].known_characters == mine
    assert st.view(1).seats[0].known_characters == ()
    assert st.view(None).seats[0].known_characters == ()
    assert st.view(1).my_characters == tuple(sorted(st.characters[1]))


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_rules_lines_them_up_face_down_in_any_order(order: tuple[int, int, int]) -> None:
    """"... and lines them up face down in any order." (R3: "Each player orders their 3 characters secretly.")"""
    st = GAME.new_match({}, 5)
    chars0 = sorted(st.characters[0])
    chars1 = sorted(st.characters[1])
    wanted = [chars0[i] for i in order]
    assert st.to_act == 0
    assert sorted(texts(st.legal_actions())) == sorted(f"line C{c}" for c in chars0)
    play(st, f"line C{wanted[0]}", f"line C{wanted[1]}")
    # the last one has only one place left
    assert st.lineups[0] == wanted
    assert st.view(0).lineup == tuple(wanted)
    assert st.to_act == 1
    assert st.view(1).lineup == ()
    play(st, f"line C{chars1[2]}", f"line C{chars1[0]}")
    assert st.lineups[1] == [chars1[2], chars1[0], chars1[1]]
    assert st.phase is Phase.STAT
    assert st.current == [wanted[0], chars1[2]]


def test_rules_line_up_only_your_own_characters() -> None:
    """R3: a player lines up their own 3 characters, each once (IllegalAction otherwise)."""
    st = GAME.new_match({}, 5)
    other = st.characters[1][0]
    with pytest.raises(IllegalAction) as err:
        play(st, f"line C{other}")
    assert err.value.reason
    play(st, f"line C{st.characters[0][0]}")
    with pytest.raises(IllegalAction):
        play(st, f"line C{st.characters[0][0]}")
    assert st.lineups[0] == [st.characters[0][0]]


def test_rules_then_each_player_draws_3_cards_from_the_support_deck() -> None:
    """"Then each player draws 3 cards from the support deck: that's your hand." """
    st = GAME.new_match({}, 11)
    top = top_first(st)
    assert st.hands == [[], []]
    line_up(st)
    assert len(st.hands[0]) == len(st.hands[1]) == 3
    assert sorted(st.hands[0] + st.hands[1]) == sorted(top[:6])
    assert top_first(st) == top[6:]
    assert st.view(0).hand == tuple(st.hands[0])
    assert st.view(1).hand == tuple(st.hands[1])


def test_r4_each_player_starts_with_3_support_cards() -> None:
    """R4: "Each player starts with 3 support cards." (a scripted setup without hands draws them from the pile)"""
    a, b, c, d, e, f = characters(plain)[:6]
    pile = inert(None, 6)
    pile += [s for s in range(1, NUM_SUPPORTS + 1) if s not in pile][:3]
    st = start([[a, b, c], [d, e, f]], hands=None, piles=[pile])
    assert len(st.hands[0]) == 3
    assert len(st.hands[1]) == 3
    assert sorted(st.hands[0] + st.hands[1]) == sorted(pile[:6])
    assert top_first(st) == pile[6:]
    assert st.view(None).seats[0].hand_size == st.view(None).seats[1].hand_size == 3


def test_r4_hands_of_3_in_own_decks_mode() -> None:
    """R4: "Each player starts with 3 support cards." (own decks: from one's own deck)"""
    decks = [
        {"characters": [1, 2, 3], "supports": list(range(1, 9))},
        {"characters": [4, 5, 6], "supports": list(range(10, 22))},
    ]
    st = GAME.new_match({"mode": "decks", "decks": decks}, 2)
    line_up(st)
    assert [len(h) for h in st.hands] == [3, 3]


# ---------------------------------------------------------------- own decks (R2)


def _deck(chars: list[int], sups: list[int]) -> dict[str, list[int]]:
    return {"characters": chars, "supports": sups}


@pytest.mark.parametrize("n", [8, 10, 12])
def test_rules_own_deck_has_3_characters_and_8_to_12_support_cards(n: int) -> None:
    """"Everyone brings their own deck? (Like in the online game or with your decks: 3 characters and 8 to 12
    support cards.)" """
    deck = parse_deck(_deck([1, 2, 3], list(range(1, n + 1))), "test")
    assert deck.characters == (1, 2, 3)
    assert len(deck.supports) == n


@pytest.mark.parametrize(
    ("chars", "sups", "field"),
    [
        ([1, 2], list(range(1, 9)), "characters"),  # 2 characters
        ([1, 2, 3, 4], list(range(1, 9)), "characters"),  # 4 characters
        ([1, 2, 3], list(range(1, 8)), "supports"),  # 7 supports
        ([1, 2, 3], list(range(1, 14)), "supports"),  # 13 supports
        ([1, 2, 2], list(range(1, 9)), "characters"),  # a character twice
        ([1, 2, 3], [1, 1, 2, 3, 4, 5, 6, 7], "supports"),  # a support twice
        ([1, 2, 34], list(range(1, 9)), "characters"),  # not a character number
        ([1, 2, 3], [0, 1, 2, 3, 4, 5, 6, 7], "supports"),  # not a support number
    ],
)
def test_r2_own_deck_validation(chars: list[int], sups: list[int], field: str) -> None:
    """R2: "*Own decks*: each player brings exactly 3 characters and 8 to 12 support cards, no card twice within
    one deck" """
    with pytest.raises(DataError) as err:
        parse_deck(_deck(chars, sups), "my-deck.toml")
    assert err.value.field == field or err.value.field.startswith(f"{field}[")  # the list, or its bad item
    assert err.value.source == "my-deck.toml"
    assert err.value.problem


def test_r2_both_players_may_bring_the_same_cards() -> None:
    """R2: "no card twice within one deck (both players may bring the same cards)" """
    deck = _deck([1, 2, 3], list(range(1, 11)))
    st = GAME.new_match({"mode": "decks", "decks": [deck, deck]}, 7)
    assert st.characters == [[1, 2, 3], [1, 2, 3]]
    assert sorted(st.piles[0]) == sorted(st.piles[1]) == list(range(1, 11))
    line_up(st)
    assert st.phase is Phase.STAT
    assert st.current == [1, 1]
    # scripted too: the same support card in both decks
    s = inert(None, 1)[0]
    st = start([[1, 2, 3], [2, 3, 1]], hands=[[s], [s]], piles=[[], []], mode="decks")
    assert st.hands == [[s], [s]]


def test_r2_shared_mode_is_one_deck_of_all_21_support_cards() -> None:
    """R2: "*Shared* (the rules' default): one support deck made of all 21 support cards." """
    st = GAME.new_match(None, 1)
    assert st.shared
    line_up(st)
    assert st.pile(0) is st.pile(1)
    assert sorted(st.piles[0] + st.hands[0] + st.hands[1]) == sorted(ALL_SUPPORTS)


def test_rules_own_decks_each_player_shuffles_and_draws_from_their_own() -> None:
    """"Then each player shuffles and draws from their own." (R2: "each shuffles and draws from their own deck")"""
    deck0 = _deck([7, 8, 9], list(range(1, 11)))  # 10 cards
    deck1 = _deck([10, 11, 12], list(range(11, 22)))  # 11 cards
    orders = set()
    for seed in range(6):
        st = GAME.new_match({"mode": "decks", "decks": [deck0, deck1]}, seed)
        orders.add(tuple(st.piles[0]))
        top0, top1 = top_first(st, 0), top_first(st, 1)
        assert sorted(top0) == list(range(1, 11))
        assert sorted(top1) == list(range(11, 22))
        line_up(st)
        assert st.hands == [top0[:3], top1[:3]]
        assert st.view(None).seats[0].pile_size == 7
        assert st.view(None).seats[1].pile_size == 8
    assert len(orders) > 1  # shuffled


def test_rules_own_decks_scripted_draws_come_from_each_own_pile() -> None:
    """"Then each player shuffles and draws from their own." (a scripted own-decks match: the clean-up draw)"""
    a, b, c, d, e, f = characters(plain)[:6]
    s0, s1 = inert(None, 2)
    st = start([[a, b, c], [d, e, f]], hands=[[], []], piles=[[s0], [s1]], mode="decks")
    play(st, "stat spark")  # empty hands: both pass at once (R6)
    assert st.round_no == 1
    assert st.hands == [[s0], [s1]]


def test_rules_flip_the_first_character_at_the_same_time_duel() -> None:
    """"At the same time, flip the first character in your line-up. Duel!" """
    a, b, c, d, e, f = characters(plain)[:6]
    st = start([[c, a, b], [f, d, e]], hands=[[], []])
    assert st.phase is Phase.STAT
    assert st.current == [c, f]
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.round_number == 1
        assert view.seats[0].character == c
        assert view.seats[1].character == f
        assert view.seats[0].flipped == (c,)
        assert view.seats[1].flipped == (f,)


def test_rules_flip_after_the_lineup_phase() -> None:
    """"At the same time, flip the first character in your line-up." (after a played line-up phase: both first
    characters show together, not before both line-ups are done)"""
    st = GAME.new_match({}, 9)
    c0, c1 = sorted(st.characters[0]), sorted(st.characters[1])
    play(st, f"line C{c0[1]}", f"line C{c0[0]}")
    assert st.view(1).seats[0].flipped == ()
    assert st.view(1).seats[0].character == 0
    play(st, f"line C{c1[2]}", f"line C{c1[1]}")
    for seat in (0, 1, None):
        assert st.view(seat).seats[0].flipped == (c0[1],)
        assert st.view(seat).seats[1].flipped == (c1[2],)


def test_setup_characters_runs_the_lineup_phase() -> None:
    """docs/architecture.md: setup "characters" instead of "lineups": "the line-up phase still runs", and given
    hands are topped up to 3 (R4) once the line-ups are done."""
    a, b, c, d, e, f = characters(plain)[:6]
    s = inert(None, 1)
    pile = [x for x in range(1, NUM_SUPPORTS + 1) if x not in s][:6]
    st = GAME.new_match({}, 0, setup={"characters": [[a, b, c], [d, e, f]], "hands": [s, []], "piles": [pile]})
    assert st.phase is Phase.LINEUP
    assert st.to_act == 0
    line_up(st, [[c, b, a], [e, f, d]])
    assert st.lineups == [[c, b, a], [e, f, d]]
    assert len(st.hands[0]) == len(st.hands[1]) == 3
    assert st.hands[0][0] == s[0]


def test_setup_place_must_be_a_place_card() -> None:
    """R8: "Replaces the place on the table" : the table's place is a place card; a scripted setup putting an item or
    an event on the table is refused (RecordError naming setup.place)."""
    from flametable.core.errors import RecordError

    a, b, c, d, e, f = characters(plain)[:6]
    for card in CARDS.supports:
        setup = {"lineups": [[a, b, c], [d, e, f]], "hands": [[], []], "piles": [[]],
                 "place": {"card": card.number, "owner": 0}}
        if card.kind is SupportKind.PLACE:
            assert GAME.new_match({}, 0, setup=setup).place == card.number
        else:
            with pytest.raises(RecordError, match="place"):
                GAME.new_match({}, 0, setup=setup)


# ---------------------------------------------------------------- explicit setups: only what a match can reach


def _lineups() -> list[list[int]]:
    a, b, c, d, e, f = characters(plain)[:6]
    return [[a, b, c], [d, e, f]]


def test_r4_hands_before_the_lineups_hold_at_most_3_cards() -> None:
    """R4: each player starts with 3 support cards, drawn once the line-ups are done: a setup still in the
    line-up phase (characters, no line-ups) with a hand of 4 is refused, naming the hand; 3 is kept."""
    from flametable.core.errors import RecordError

    chars = _lineups()
    for n, ok in ((3, True), (4, False)):
        setup = {"characters": chars, "hands": [list(range(1, n + 1)), []], "piles": [list(range(10, 16))]}
        if ok:
            assert GAME.new_match({}, 0, setup=setup).hands[0] == list(range(1, n + 1))
        else:
            with pytest.raises(RecordError, match=r"setup\.hands\[0\].* at most 3 cards"):
                GAME.new_match({}, 0, setup=setup)


@pytest.mark.parametrize(("n", "ok"), [(6, True), (7, False), (8, False)])
def test_r4_r13_a_round_starts_with_at_most_6_cards_in_hand(n: int, ok: bool) -> None:
    """R4 deals 3 cards; R13 draws one at each of the three clean-ups before the tie-break round (R14); a play
    spends a card and the built-in table effects (R10, R11) give back at most that one: so no round of any
    match starts with more than 6 cards in a hand. A setup (line-ups given: a round starts) with 7 or 8 is
    refused, naming the hand."""
    from flametable.core.errors import RecordError
    from flametable.games.duel.game import most_in_hand

    assert most_in_hand(CARDS) == 6
    setup = {"lineups": _lineups(), "hands": [[], list(range(1, n + 1))], "piles": [[20, 21]]}
    if ok:
        assert len(GAME.new_match({}, 0, setup=setup).hands[1]) == n
    else:
        with pytest.raises(RecordError, match=r"setup\.hands\[1\]: a hand holds at most 6 cards"):
            GAME.new_match({}, 0, setup=setup)


def test_r2_an_own_deck_holds_at_most_12_support_cards() -> None:
    """R2: an own deck has 8 to 12 support cards, and a player's hand, draw pile, discard pile and owned place
    all come from it: a setup giving one player 13 of them is refused; 12 are kept."""
    from flametable.core.errors import RecordError

    place = next(s.number for s in CARDS.supports if s.kind is SupportKind.PLACE)
    others = [s for s in range(1, NUM_SUPPORTS + 1) if s != place]
    for extra, ok in (([], True), ([others[11]], False)):
        setup = {"lineups": _lineups(), "hands": [others[:3], []], "piles": [others[3:8] + extra, []],
                 "discards": [others[8:11], []], "place": {"card": place, "owner": 0}}
        if ok:
            GAME.new_match({"mode": "decks"}, 0, setup=setup)
        else:
            with pytest.raises(RecordError, match="player 1's deck would hold 13 support cards, at most 12"):
                GAME.new_match({"mode": "decks"}, 0, setup=setup)


def test_r2_decks_declared_in_the_options_are_the_decks_of_the_setup() -> None:
    """R2: each player brings their own deck. A setup with own decks declared in the options must deal out
    exactly those decks (the same 3 characters, the same support cards wherever they lie); a disagreement is
    refused naming the deck of the options, never silently overridden by the setup."""
    from flametable.core.errors import RecordError

    lineups = _lineups()
    sups = [list(range(1, 9)), list(range(9, 19))]
    decks = [{"characters": lineups[p], "supports": sups[p]} for p in (0, 1)]
    setup = {"lineups": lineups, "hands": [sups[0][:3], sups[1][:3]], "piles": [sups[0][3:], sups[1][3:]]}
    st = GAME.new_match({"mode": "decks", "decks": decks}, 0, setup=setup)
    assert st.characters == [sorted(r) for r in lineups]
    other_chars = [decks[0], {**decks[1], "characters": lineups[0]}]
    with pytest.raises(RecordError, match=r"player 2's characters .* options\.decks\[1\]"):
        GAME.new_match({"mode": "decks", "decks": other_chars}, 0, setup=setup)
    other_sups = [{**decks[0], "supports": list(range(2, 10))}, None]
    with pytest.raises(RecordError, match=r"player 1's support cards .* options\.decks\[0\]"):
        GAME.new_match({"mode": "decks", "decks": other_sups}, 0, setup=setup)


@pytest.mark.parametrize("value", [1.0, True, 0.0, False, "1", None, -1, 2])
def test_seats_and_owners_are_the_integers_0_or_1(value: object) -> None:
    """The first picker of the draft (R2) and the owner of the place on the table (R8) are seats: the integer 0
    or 1, never 1.0 or true (they index per-player lists). Each is refused naming its field."""
    from flametable.core.errors import RecordError

    place = next(s.number for s in CARDS.supports if s.kind is SupportKind.PLACE)
    draft = {"pick": "draft"}
    with pytest.raises(RecordError, match=r"setup\.first_picker must be 0 or 1"):
        GAME.new_match(draft, 0, setup={"piles": [[1, 2, 3, 4, 5, 6]], "first_picker": value})
    setup = {"lineups": _lineups(), "hands": [[], []], "piles": [[]], "place": {"card": place, "owner": value}}
    with pytest.raises(RecordError, match=r"setup\.place\.owner must be 0 or 1"):
        GAME.new_match({}, 0, setup=setup)
    assert GAME.new_match(draft, 0, setup={"piles": [[1, 2, 3, 4, 5, 6]], "first_picker": 1}).first_picker == 1
    assert GAME.new_match({}, 0, setup={**setup, "place": {"card": place, "owner": 1}}).place_owner == 1
