"""Table effects (R10) of support cards and abilities, and the ability itself (R11)."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duel.cards import EffectKind, Stat
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DRAW, DuelState
from tests.games.duel.scripted import (
    ALL_SUPPORTS,
    CARDS,
    EVENT,
    ITEM,
    PLAIN_PLACES,
    STATS,
    by,
    char,
    characters,
    effect_kinds,
    fillers,
    first_round,
    first_support,
    log_of,
    plain,
    play,
    printed,
    quiet,
    start,
    stat_word,
    sup,
    supports,
    texts,
    top_first,
    with_effect,
)


def _solo(
    c0: int,
    hand0: list[int],
    stat: Stat,
    *,
    pile: list[int] | None = None,
    discards: list[list[int]] | None = None,
    place: tuple[int, int] | None = None,
    c1: int | None = None,
    hand1: list[int] | None = None,
) -> DuelState:
    """Round 1 with the stat chosen, seat 0 on ``c0`` to act; seat 1 (no cards unless ``hand1``) on a plain
    character; seat 1 passes first if it chose and has cards."""
    if c1 is None:
        c1 = fillers(1, [c0])[0]
    st = first_round(c0, c1, [hand0, hand1 or []], stat, pile=pile or [], discards=discards, place=place)
    if st.to_act == 1:
        by(st, 1, "pass")
    assert st.to_act == 0
    return st


def _only(kind: EffectKind, card_kind: object = None) -> list[int]:
    """Support cards whose only table effect is ``kind``."""
    return supports(lambda s: effect_kinds(s) == (kind,) and (card_kind is None or s.kind is card_kind))


def _rest(n: int, exclude: list[int], kinds: tuple[object, ...] = (ITEM,)) -> list[int]:
    """``n`` support cards without effects of the given kinds, outside ``exclude``."""
    found = supports(lambda s: not s.effects and s.kind in kinds, exclude)
    assert len(found) >= n
    return found[:n]


# ---------------------------------------------------------------- draw


@pytest.mark.parametrize("card", supports(lambda s: EffectKind.DRAW in effect_kinds(s) and len(s.effects) == 1))
def test_rules_card_text_done_at_the_table_draw(card: int) -> None:
    """"If the card's text can be done at the table (draw, look at the deck, take back from the discard pile, swap a
    place…), do it when you play it." (R10: "draw N cards")"""
    n = sup(card).effects[0].n
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    pile = [s for s in ALL_SUPPORTS if s not in (card, *keep)][: n + 2]
    st = _solo(c0, [card, *keep], sup(card).stat, pile=pile)
    by(st, 0, f"play S{card}")
    assert st.hands[0] == [*keep, *pile[:n]]
    assert top_first(st) == pile[n:]
    assert st.hands[1] == []
    assert st.view(None).seats[0].pile_size == len(pile) - n


@pytest.mark.parametrize("card", supports(lambda s: EffectKind.DRAW in effect_kinds(s) and len(s.effects) == 1))
def test_r10_draw_from_an_empty_pile_does_nothing(card: int) -> None:
    """R10: "An effect that cannot be done (empty pile, nothing to take) does nothing." (draw)"""
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    st = _solo(c0, [card, *keep], sup(card).stat, pile=[])
    by(st, 0, f"play S{card}")
    assert st.hands[0] == keep
    assert st.discards == [[], []]
    assert st.to_act == 0  # seat 1 has nothing: passed for; seat 0 goes on
    assert st.phase is Phase.PLAY


# ---------------------------------------------------------------- peek


@pytest.mark.parametrize("card", _only(EffectKind.PEEK))
def test_rules_card_text_done_at_the_table_look_at_the_deck(card: int) -> None:
    """"If the card's text can be done at the table (draw, look at the deck, ...), do it when you play it." (R10: "look
    at the top N cards of your draw pile (only you see them)")"""
    n = sup(card).effects[0].n
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    pile = [s for s in ALL_SUPPORTS if s not in (card, *keep)][: n + 2]
    st = _solo(c0, [card, *keep], sup(card).stat, pile=pile)
    assert st.view(0).known_top == ()
    by(st, 0, f"play S{card}")
    assert st.view(0).known_top == tuple(pile[:n])
    assert st.view(1).known_top == ()
    assert st.view(None).known_top == ()
    assert top_first(st) == pile  # looking does not move the cards
    assert st.hands[0] == keep


def test_r10_looked_at_cards_are_seen_only_by_that_player() -> None:
    """R10: "look at the top N cards of your draw pile (only you see them)" (R15: "Private to a player: ... the cards
    they looked at."): the opponent drawing one of them leaves the looker knowing the rest."""
    peek = _only(EffectKind.PEEK, ITEM)[0]
    n = sup(peek).effects[0].n
    draw = _only(EffectKind.DRAW, ITEM)[0]
    c0, c1 = fillers(2, [])
    pile = [s for s in ALL_SUPPORTS if s not in (peek, draw)][: n + 2]
    st = first_round(c0, c1, [[peek], [draw]], sup(peek).stat, pile=pile)
    if st.to_act == 1:
        by(st, 1, "pass")
    by(st, 0, f"play S{peek}")
    assert st.view(0).known_top == tuple(pile[:n])
    by(st, 1, f"play S{draw}")
    assert st.hands[1] == [pile[0]]
    assert st.view(0).known_top == tuple(pile[1:n])
    assert st.view(1).known_top == ()
    assert st.view(None).known_top == ()


@pytest.mark.parametrize("card", _only(EffectKind.PEEK))
def test_r10_look_at_an_empty_pile_does_nothing(card: int) -> None:
    """R10: "An effect that cannot be done (empty pile, nothing to take) does nothing." (look at the deck)"""
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    st = _solo(c0, [card, *keep], sup(card).stat, pile=[])
    by(st, 0, f"play S{card}")
    assert st.view(0).known_top == ()
    assert st.looked_at == [0, 0]
    assert st.to_act == 0


# ---------------------------------------------------------------- recover (take back from the discard pile)

RECOVER = _only(EffectKind.RECOVER)


@pytest.mark.parametrize("card", RECOVER)
def test_rules_card_text_done_at_the_table_take_back_with_a_choice(card: int) -> None:
    """"If the card's text can be done at the table (..., take back from the discard pile, ...), do it when you play
    it." (R10: "take a card from your discard pile into your hand"; "Where an effect needs a choice, the acting
    player makes it as a decision of their own.")"""
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    d1, d2, d3 = [s for s in ALL_SUPPORTS if s not in (card, *keep)][:3]
    other = [s for s in ALL_SUPPORTS if s not in (card, *keep, d1, d2, d3)][:1]
    st = _solo(c0, [card, *keep], sup(card).stat, discards=[[d3, d1, d2], other])
    by(st, 0, f"play S{card}")
    assert st.phase is Phase.CHOICE
    assert st.to_act == 0
    assert texts(st.legal_actions()) == [f"take S{d}" for d in sorted([d1, d2, d3])]
    assert texts(st.view(0).legal) == [f"take S{d}" for d in sorted([d1, d2, d3])]
    assert st.view(1).legal == ()
    # the opponent's discard pile is not a choice
    with pytest.raises(IllegalAction):
        play(st, f"take S{other[0]}")
    with pytest.raises(IllegalAction):
        play(st, f"swap S{d1}")
    play(st, f"take S{d1}")
    assert st.hands[0] == [*keep, d1]
    assert st.discards == [[d3, d2], other]
    assert st.phase is Phase.PLAY
    assert st.to_act == 0  # seat 1 has no cards: passed for
    assert (0, f"take S{d1}", False) in log_of(st)


@pytest.mark.parametrize("card", RECOVER)
def test_r10_take_back_with_one_card_needs_no_choice(card: int) -> None:
    """R10: "Where an effect needs a choice, the acting player makes it" (with a single card in the discard pile
    there is nothing to choose: the engine takes it)"""
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    d1 = next(s for s in ALL_SUPPORTS if s not in (card, *keep))
    st = _solo(c0, [card, *keep], sup(card).stat, discards=[[d1], []])
    by(st, 0, f"play S{card}")
    assert st.phase is Phase.PLAY
    assert st.hands[0] == [*keep, d1]
    assert st.discards == [[], []]
    assert (0, f"take S{d1}", True) in log_of(st)


@pytest.mark.parametrize("card", RECOVER)
def test_r10_take_back_from_an_empty_discard_pile_does_nothing(card: int) -> None:
    """R10: "An effect that cannot be done (empty pile, nothing to take) does nothing." (take back)"""
    c0 = fillers(1, [])[0]
    keep = quiet(1, exclude=[card])
    d = next(s for s in ALL_SUPPORTS if s not in (card, *keep))
    st = _solo(c0, [card, *keep], sup(card).stat, discards=[[], [d]])
    by(st, 0, f"play S{card}")
    assert st.phase is Phase.PLAY
    assert st.hands[0] == keep
    assert st.discards == [[], [d]]  # never from the opponent's pile
    assert st.to_act == 0


# ---------------------------------------------------------------- swap a place

SWAPPERS = characters(lambda c: effect_kinds(c) == (EffectKind.SWAP_PLACE,))


def test_rules_card_text_done_at_the_table_swap_a_place_with_a_choice() -> None:
    """"If the card's text can be done at the table (..., swap a place…), do it when you play it." (the ability's text,
    R10: "swap a place"; the chosen place from your discard pile goes on the table and is yours; the old one goes to
    its owner's discard pile)"""
    assert SWAPPERS
    c0 = SWAPPERS[0]
    old, p1, p2 = PLAIN_PLACES[:3]
    pay, non_place = _rest(2, [old, p1, p2])
    st = _solo(c0, [pay], Stat.SPARK, discards=[[p2, non_place, p1], []], place=(old, 1))
    by(st, 0, f"ability S{pay}")
    assert st.phase is Phase.CHOICE
    assert st.to_act == 0
    assert texts(st.legal_actions()) == [f"swap S{p}" for p in sorted([p1, p2])]
    assert st.view(1).legal == ()
    with pytest.raises(IllegalAction):
        play(st, f"swap S{non_place}")
    with pytest.raises(IllegalAction):
        play(st, f"take S{p1}")
    play(st, f"swap S{p2}")
    assert st.place == p2
    assert st.place_owner == 0
    assert st.discards == [[non_place, p1, pay], [old]]
    assert st.view(None).place_owner == 0


def test_r10_swap_a_place_with_one_place_needs_no_choice() -> None:
    """R10: "swap a place" (a single place in the discard pile: no decision to ask for)"""
    c0 = SWAPPERS[0]
    p1 = PLAIN_PLACES[0]
    pay, non_place, keep = _rest(3, [p1])
    st = _solo(c0, [pay, keep], Stat.HEAT, discards=[[p1, non_place], []])
    by(st, 0, f"ability S{pay}")
    assert st.phase is Phase.PLAY
    assert st.place == p1
    assert st.place_owner == 0
    assert st.discards == [[non_place, pay], []]
    assert (0, f"swap S{p1}", True) in log_of(st)


def test_r10_swap_a_place_with_no_place_does_nothing() -> None:
    """R10: "An effect that cannot be done (empty pile, nothing to take) does nothing." (no place in your discard
    pile; the opponent's places are not yours to take)"""
    c0 = SWAPPERS[0]
    old, theirs = PLAIN_PLACES[:2]
    pay, non_place = _rest(2, [old, theirs])
    st = _solo(c0, [pay], Stat.CHARM, discards=[[non_place], [theirs]], place=(old, 1))
    by(st, 0, f"ability S{pay}")
    assert st.place == old
    assert st.place_owner == 1
    assert st.discards == [[non_place, pay], [theirs]]
    # the ability's +15 still counts (R11)
    assert st.results[0].totals[0] == printed(c0, Stat.CHARM) + 15


# ---------------------------------------------------------------- clear a place

CLEARERS = characters(lambda c: effect_kinds(c) == (EffectKind.CLEAR_PLACE,))
CLEAR_CARDS = supports(lambda s: effect_kinds(s) == (EffectKind.CLEAR_PLACE,))


@pytest.mark.parametrize("owner", [0, 1])
def test_r10_clear_place_sends_the_place_to_its_owners_discard_pile(owner: int) -> None:
    """R10 vocabulary ("at least" draw, look, take, swap): the place on the table goes to its owner's discard pile
    (a support card's text and an ability's text)."""
    assert CLEARERS
    assert CLEAR_CARDS
    place = PLAIN_PLACES[0]
    # an ability
    pay = _rest(1, [place])[0]
    st = _solo(CLEARERS[0], [pay], Stat.SPARK, place=(place, owner))
    by(st, 0, f"ability S{pay}")
    assert st.place == 0
    expected: list[list[int]] = [[pay], []]
    expected[owner].append(place)
    assert st.discards == expected
    assert st.view(None).place == 0
    assert st.view(None).place_owner is None
    # a support card
    card = CLEAR_CARDS[0]
    c0 = fillers(1, [])[0]
    st = _solo(c0, [card], sup(card).stat, place=(place, owner))
    by(st, 0, f"play S{card}")
    assert st.place == 0
    assert place in st.discards[owner]


def test_r10_clear_place_without_a_place_does_nothing() -> None:
    """R10: "An effect that cannot be done (empty pile, nothing to take) does nothing." (no place to clear)"""
    pay, keep = _rest(2, [])
    st = _solo(CLEARERS[0], [pay, keep], Stat.HEAT)
    by(st, 0, f"ability S{pay}")
    assert st.place == 0
    assert st.discards == [[pay], []]
    assert st.to_act == 0


# ---------------------------------------------------------------- boost and sap

BOOSTERS = characters(lambda c: effect_kinds(c) == (EffectKind.BOOST,))
SAPPERS = characters(lambda c: effect_kinds(c) == (EffectKind.SAP,))


@pytest.mark.parametrize("stat", STATS)
def test_r10_boost_adds_to_your_total(stat: Stat) -> None:
    """R12: "Total = ... + 15 for the ability + any effect modifiers." (an ability that boosts its own total)"""
    assert BOOSTERS
    c0 = BOOSTERS[0]
    n = char(c0).effects[0].n
    pay = _rest(1, [])[0]
    st = _solo(c0, [pay], stat)
    c1 = st.current[1]
    by(st, 0, f"ability S{pay}")
    res = st.results[0]
    assert res.totals == (printed(c0, stat) + 15 + n, printed(c1, stat))


@pytest.mark.parametrize("stat", STATS)
def test_r10_sap_takes_from_the_opponents_total(stat: Stat) -> None:
    """R12: "Total = ... + any effect modifiers." (an ability that saps the opponent's total this round)"""
    assert SAPPERS
    c0 = SAPPERS[0]
    n = char(c0).effects[0].n
    pay, keep = _rest(2, [])
    st = _solo(c0, [pay, keep], stat)
    c1 = st.current[1]
    by(st, 0, f"ability S{pay}")
    view = st.view(1)
    assert view.seats[0].total == printed(c0, stat) + 15
    assert view.seats[1].total == printed(c1, stat) - n
    assert view.seats[1].modifier == -n


def test_r10_sap_of_a_support_card() -> None:
    """R10: a support card's text done at the table: its event bonus for both, then -N to the opponent's total."""
    cards = supports(lambda s: EffectKind.SAP in effect_kinds(s))
    assert cards
    card = cards[0]
    s = sup(card)
    n = next(e.n for e in s.effects if e.kind is EffectKind.SAP)
    c0, c1 = fillers(2, [])
    st = _solo(c0, [card], s.stat, c1=c1)
    by(st, 0, f"play S{card}")
    bonus = s.bonus if s.kind.key == "event" else 0
    assert st.results[0].totals == (
        printed(c0, s.stat) + (s.bonus if s.kind.key in ("event", "item", "place") else 0),
        printed(c1, s.stat) + bonus - n,
    )


# ---------------------------------------------------------------- order, flavour


def test_r10_effects_are_done_in_the_order_written() -> None:
    """R10: "Done when the card is played, in the order written." (look at the top cards, then draw one: the looker
    still knows the card after the one drawn)"""
    both = characters(lambda c: effect_kinds(c)[:2] == (EffectKind.PEEK, EffectKind.DRAW))
    assert both
    c0 = both[0]
    n = next(e.n for e in char(c0).effects if e.kind is EffectKind.PEEK)
    pay = _rest(1, [])[0]
    pile = [s for s in ALL_SUPPORTS if s != pay][: n + 2]
    st = _solo(c0, [pay], Stat.SPARK, pile=pile)
    by(st, 0, f"ability S{pay}")
    assert st.hands[0] == [pile[0]]
    assert st.view(0).known_top == tuple(pile[1:n])


def test_r10_clear_then_draw_in_the_order_written() -> None:
    """R10: "Done when the card is played, in the order written." (clear the place, then draw)"""
    found = characters(lambda c: effect_kinds(c) == (EffectKind.CLEAR_PLACE, EffectKind.DRAW))
    assert found
    c0 = found[0]
    place = PLAIN_PLACES[0]
    pay = _rest(1, [place])[0]
    pile = [s for s in ALL_SUPPORTS if s not in (pay, place)][:2]
    st = _solo(c0, [pay], Stat.SPARK, pile=pile, place=(place, 1))
    by(st, 0, f"ability S{pay}")
    assert st.place == 0
    assert st.discards == [[pay], [place]]
    assert st.hands[0] == [pile[0]]


def test_rules_if_not_it_is_just_for_laughs() -> None:
    """"If not, it's just for laughs." (R10: "Text that cannot be done at the table is flavour only."): a card without
    table effects only adds its bonus; nothing else moves."""
    c0, c1 = fillers(2, [])
    for card in supports(lambda s: not s.effects and s.kind is ITEM):
        s = sup(card)
        keep = quiet(1, exclude=[card])
        pile = [x for x in ALL_SUPPORTS if x not in (card, *keep)][:2]
        st = _solo(c0, [card, *keep], s.stat, pile=pile, c1=c1)
        by(st, 0, f"play S{card}")
        assert st.hands == [keep, []]
        assert top_first(st) == pile
        assert st.discards == [[], []]
        assert st.place == 0
        assert st.looked_at == [0, 0]
        assert st.view(None).seats[0].total == printed(c0, s.stat) + s.bonus * (2 if c0 in s.equips_to else 1)


# ---------------------------------------------------------------- the ability (R11)


@pytest.mark.parametrize("stat", STATS)
def test_rules_discard_a_card_to_trigger_the_ability_and_add_15(stat: Stat) -> None:
    """"Instead of playing a support card, you can discard a card from your hand to trigger your character's special
    ability: read it out loud (in Marciano's voice, that's mandatory) and add +15 to the round's stat." (R11:
    "Discard one card of your choice from your hand; +15 to your total this round")"""
    c0 = characters(plain)[0]
    cards = quiet(3, avoid=stat)
    st = _solo(c0, cards, stat)
    c1 = st.current[1]
    by(st, 0, f"ability S{cards[1]}")  # the card of my choice, not the first one
    assert st.hands[0] == [cards[0], cards[2]]
    assert st.discards[0] == [cards[1]]
    assert st.items == [[], []]  # discarded, not played
    assert st.ability_used == [True, False]
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.seats[0].ability_used
        assert view.seats[0].discard == (cards[1],)
        assert view.seats[0].total == printed(c0, stat) + 15
        assert view.seats[1].total == printed(c1, stat)
    assert (0, f"ability S{cards[1]}", False) in log_of(st)


def test_r1_marciano_is_a_character() -> None:
    """R1: "One character is Marciano (the rules ask players to read abilities in his voice)." Rules: "read it out loud
    (in Marciano's voice, that's mandatory)" """
    assert [c.name["en"] for c in CARDS.characters].count("Marciano") == 1
    assert [c.name["es"] for c in CARDS.characters].count("Marciano") == 1


def test_rules_if_the_abilitys_text_can_be_done_at_the_table_do_that_too() -> None:
    """"If its text can be done at the table, do that too." (R11: "then its table effects, if any"): every ability
    with effects does them, besides the +15."""
    with_draw = characters(lambda c: effect_kinds(c) == (EffectKind.DRAW,))
    assert with_draw
    for c0 in with_draw:
        n = char(c0).effects[0].n
        pay = _rest(1, [])[0]
        pile = [s for s in ALL_SUPPORTS if s != pay][: n + 1]
        st = _solo(c0, [pay], Stat.SPARK, pile=pile)
        by(st, 0, f"ability S{pay}")
        assert st.hands[0][:n] == pile[:n]
        assert st.discards[0] == [pay]


def test_r11_discard_first_then_the_effects() -> None:
    """R11: "Discard one card of your choice from your hand; +15 to your total this round; then its table effects, if
    any." (an ability that takes back from the discard pile can take the card just discarded)"""
    takers = characters(lambda c: effect_kinds(c) == (EffectKind.RECOVER,))
    assert takers
    c0 = takers[0]
    pay, keep = _rest(2, [])
    st = _solo(c0, [pay, keep], Stat.HEAT)
    by(st, 0, f"ability S{pay}")
    # the discard pile held only the card just discarded: taken back without a choice
    assert st.hands[0] == [keep, pay]
    assert st.discards[0] == []
    assert st.ability_used[0]
    assert st.view(None).seats[0].total == printed(c0, Stat.HEAT) + 15
    assert (0, f"take S{pay}", True) in log_of(st)


def test_r11_ability_with_a_choice_the_actor_decides() -> None:
    """R11 + R10: "then its table effects" ... "Where an effect needs a choice, the acting player makes it as a decision
    of their own." """
    takers = characters(lambda c: effect_kinds(c) == (EffectKind.RECOVER,))
    c0 = takers[0]
    pay, keep, old = _rest(3, [])
    st = _solo(c0, [pay, keep], Stat.SPARK, discards=[[old], []])
    by(st, 0, f"ability S{pay}")
    assert st.phase is Phase.CHOICE
    assert st.to_act == 0
    assert texts(st.legal_actions()) == [f"take S{s}" for s in sorted([pay, old])]
    play(st, f"take S{old}")
    assert st.hands[0] == [keep, old]
    assert st.discards[0] == [pay]
    assert st.phase is Phase.PLAY


def test_r10_own_decks_look_at_your_own_draw_pile() -> None:
    """R10: "look at the top N cards of your draw pile (only you see them)" (own decks: my pile, whatever the
    opponent draws from theirs)"""
    peek = _only(EffectKind.PEEK, ITEM)[0]
    n = sup(peek).effects[0].n
    draw = _only(EffectKind.DRAW, ITEM)[0]
    c0, c1, a, b, c, d = fillers(6, [])
    mine = [s for s in ALL_SUPPORTS if s != peek][: n + 1]
    theirs = [s for s in range(21, 0, -1) if s != draw][: n + 1]
    st = start([[c0, a, b], [c1, c, d]], hands=[[peek], [draw]], piles=[mine, theirs], mode="decks")
    play(st, stat_word(sup(peek).stat))
    if st.to_act == 1:
        by(st, 1, f"play S{draw}")
        by(st, 0, f"play S{peek}")
    else:
        by(st, 0, f"play S{peek}")
        by(st, 1, f"play S{draw}")
    assert st.hands[1] == [theirs[0]]
    assert st.view(0).known_top == tuple(mine[:n])
    assert st.view(1).known_top == ()
    assert st.view(None).known_top == ()


# ---------------------------------------------------------------- modifiers add up (R12: "+ any effect modifiers")


def test_r12_a_boost_after_a_sap_adds_to_the_sapped_total() -> None:
    """R12: "Total = ... + 15 for the ability + any effect modifiers." (the opponent saps me, then my ability boosts
    me: both modifiers count, the boost does not replace the sap)"""
    booster, sapper = BOOSTERS[0], SAPPERS[0]
    boost, sap = char(booster).effects[0].n, char(sapper).effects[0].n
    assert (boost, sap) == (5, 5)  # the card texts: "+5 to your total", "-5 to your opponent's total"
    p0, p1 = _rest(2, [])
    # seat 1 has the lower number, so it chooses the stat and plays first (R5, R6)
    low, high = sorted((booster, sapper))
    assert (low, high) == (sapper, booster)
    c1, c0 = low, high
    st = first_round(c0, c1, [[p0], [p1]], Stat.HEAT)
    by(st, 1, f"ability S{p1}")
    view = st.view(None)
    assert view.seats[0].modifier == -5
    assert view.seats[0].total == printed(c0, Stat.HEAT) - 5
    by(st, 0, f"ability S{p0}")
    view = st.view(None)
    assert view.seats[0].modifier == -5 + 5
    assert st.results[0].totals == (printed(c0, Stat.HEAT) + 15 + 5 - 5, printed(c1, Stat.HEAT) + 15)


def test_r12_a_sap_after_a_boost_takes_from_the_boosted_total() -> None:
    """R12: "... + any effect modifiers." (my ability boosts me, then the opponent's ability saps me)"""
    booster = BOOSTERS[0]
    sapper = next(c for c in SAPPERS if c > booster)  # seat 1's higher number: seat 0 chooses and plays first
    p0, p1 = _rest(2, [])
    st = first_round(booster, sapper, [[p0], [p1]], Stat.SPARK)
    by(st, 0, f"ability S{p0}")
    assert st.view(1).seats[0].modifier == 5
    by(st, 1, f"ability S{p1}")
    assert st.results[0].totals == (printed(booster, Stat.SPARK) + 15 + 5 - 5, printed(sapper, Stat.SPARK) + 15)


def test_r12_two_saps_in_one_round_both_count() -> None:
    """R12: "... + any effect modifiers." (an event that saps, then an ability that saps: -5 and -5)"""
    gossip = first_support(lambda s: s.kind is EVENT and with_effect(EffectKind.SAP)(s), what="event that saps")
    sapper = next(c for c in SAPPERS if effect_kinds(char(c)) == (EffectKind.SAP,))
    c1 = fillers(1, [sapper])[0]
    assert c1 < sapper  # seat 1 chooses the stat and passes first
    pay = _rest(1, [gossip])[0]
    stat = sup(gossip).stat
    st = first_round(sapper, c1, [[gossip, pay], []], stat)
    by(st, 0, f"play S{gossip}", f"ability S{pay}")
    # the event's bonus counts for both players (R9); both saps hit seat 1
    assert st.results[0].totals == (
        printed(sapper, stat) + sup(gossip).bonus + 15,
        printed(c1, stat) + sup(gossip).bonus - 5 - 5,
    )


def test_r12_two_boosts_in_one_round_each_for_its_own_player() -> None:
    """R12: "... + any effect modifiers." (own decks, R2 "both players may bring the same cards": both players
    boost in the same round, each their own total)"""
    booster = BOOSTERS[0]
    a, b, c, d = fillers(4, [booster])
    p0, p1 = _rest(2, [])
    st = start([[booster, a, b], [booster, c, d]], hands=[[p0], [p1]], piles=[[], []], mode="decks")
    play(st, stat_word(Stat.HEAT))  # R5: the same number, a coin flip decides who chooses
    first = st.to_act
    assert first is not None
    by(st, first, f"ability S{(p0, p1)[first]}")
    by(st, 1 - first, f"ability S{(p0, p1)[1 - first]}")
    heat = printed(booster, Stat.HEAT)
    assert st.results[0].totals == (heat + 15 + 5, heat + 15 + 5)
    assert st.results[0].winner == DRAW  # same character: same totals and Charm (R12)


# ---------------------------------------------------------------- looking at the pile, then drawing (R10, R13)

LOOK3 = characters(lambda c: effect_kinds(c) == (EffectKind.PEEK,) and c.effects[0].n == 3)


def test_r10_the_looker_drawing_a_looked_at_card_still_knows_the_others() -> None:
    """R10: "look at the top N cards of your draw pile (only you see them)"; drawing one of them (my own draw effect,
    then R13's clean-up draws) leaves me knowing the ones still on top, and no more."""
    c0 = LOOK3[0]
    draw = _only(EffectKind.DRAW, ITEM)[0]
    pay, keep = _rest(2, [draw])
    pile = [s for s in ALL_SUPPORTS if s not in (draw, pay, keep)][:6]
    st = _solo(c0, [pay, draw], Stat.SPARK, pile=pile, hand1=[keep])
    by(st, 0, f"ability S{pay}")
    assert st.view(0).known_top == tuple(pile[:3])
    by(st, 1, "pass")
    by(st, 0, f"play S{draw}")
    assert st.hands[0] == [pile[0]]
    assert st.view(0).known_top == tuple(pile[1:3])
    assert st.view(1).known_top == ()
    by(st, 1, "pass")  # seat 0 has made its 2 plays and is passed for: the round ends (R6)
    assert st.results
    chooser = st.results[0].chooser
    # R13: the chooser draws first, then the other player: both looked-at cards left the pile
    assert st.hands[chooser][-1] == pile[1]
    assert st.hands[1 - chooser][-1] == pile[2]
    assert st.view(0).known_top == ()
    assert st.looked_at == [0, 0]


def test_r10_own_decks_the_opponent_drawing_from_their_pile_changes_nothing_i_looked_at() -> None:
    """R2: "each shuffles and draws from their own deck" and R10: "look at the top N cards of your draw pile": the
    opponent's draws come from their own pile; my clean-up draw (R13) takes the first card I looked at."""
    c0 = LOOK3[0]
    c1, a, b, c, d = fillers(5, [c0])
    c1 = next(x for x in characters(plain, [c0, a, b, c, d]) if x > c0)  # seat 0 chooses and plays first (R5)
    draw = _only(EffectKind.DRAW, ITEM)[0]
    pay = _rest(1, [draw])[0]
    mine = [s for s in ALL_SUPPORTS if s != pay][:5]
    theirs = [s for s in ALL_SUPPORTS if s != draw][-5:]
    st = start([[c0, a, b], [c1, c, d]], hands=[[pay], [draw]], piles=[mine, theirs], mode="decks")
    by(st, 0, stat_word(Stat.HEAT), f"ability S{pay}")
    assert st.view(0).known_top == tuple(mine[:3])
    by(st, 1, f"play S{draw}")
    assert st.hands[1] == [theirs[0]]
    assert st.view(0).known_top == tuple(mine[:3])
    by(st, 1, "pass")  # seat 0, with an empty hand, was passed for: two passes in a row end the round (R6)
    assert st.results
    assert st.hands[0] == [mine[0]]
    assert st.view(0).known_top == tuple(mine[1:3])
