"""Winning a round (R12) and the clean-up between rounds (R13)."""

from __future__ import annotations

import pytest

from flametable.games.duel.cards import EffectKind, Stat
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DRAW
from tests.games.duel.scripted import (
    ALL_SUPPORTS,
    CHARM,
    EVENT,
    ITEM,
    PLACE,
    STATS,
    by,
    char,
    characters,
    charm,
    effect_kinds,
    fillers,
    first_round,
    plain,
    play,
    printed,
    quiet,
    run,
    start,
    stat_word,
    sup,
    supports,
    top_first,
)


def _booster_case() -> tuple[int, int, int, int, Stat]:
    """A character whose ability boosts its total, an item listing it, an owned place and an event of the item's
    stat, the event's effects not touching the totals."""
    for c0 in characters(lambda c: effect_kinds(c) == (EffectKind.BOOST,)):
        for item in supports(lambda s, c0=c0: s.kind is ITEM and c0 in s.equips_to and not s.effects):
            stat = sup(item).stat
            places = supports(lambda s, stat=stat: s.kind is PLACE and s.stat == stat and not s.effects)
            events = supports(
                lambda s, stat=stat: s.kind is EVENT and s.stat == stat and s.printed_at_most is None
                and s.printed_at_least is None and all(e.kind is EffectKind.DRAW for e in s.effects)
            )
            if places and events:
                return c0, item, places[0], events[0], stat
    raise LookupError("no booster with a listed item, a place and an event of one stat")


def test_rules_each_player_adds_up_their_characters_chosen_stat_plus_bonuses() -> None:
    """"Each player adds up their character's chosen stat plus bonuses." (R12: "Total = the character's printed value
    in the round's stat + item bonuses + the owned place's bonus + event bonuses and penalties + 15 for the ability +
    any effect modifiers.")"""
    c0, item, place, event, stat = _booster_case()
    c1 = fillers(1, [c0])[0]
    boost = char(c0).effects[0].n
    draws = sum(e.n for e in sup(event).effects)
    pay = quiet(1, exclude=[item, place, event])[0]
    pile = [s for s in ALL_SUPPORTS if s not in (item, place, event, pay)][: draws + 2]
    st = first_round(c0, c1, [[item, pay], [event]], stat, pile=pile, place=(place, 0))
    run(st, [f"play S{item}"], [f"play S{event}"])
    # mid-round: the running totals (public, R15)
    assert st.view(None).seats[0].total == printed(c0, stat) + 2 * sup(item).bonus + sup(place).bonus + sup(event).bonus
    assert st.view(None).seats[1].total == printed(c1, stat) + sup(event).bonus
    run(st, [f"ability S{pay}"], ["pass"] if st.to_act == 1 else [])
    while not st.results:  # seat 0 has made its 2 plays; seat 1 passes what it drew
        by(st, 1, "pass")
    res = st.results[0]
    expected0 = (
        printed(c0, stat) + 2 * sup(item).bonus + sup(place).bonus + sup(event).bonus + 15 + boost
    )
    expected1 = printed(c1, stat) + sup(event).bonus
    assert res.totals == (expected0, expected1)
    assert res.stat == stat
    assert res.characters == (c0, c1)


def _winning_pair(stat: Stat) -> tuple[int, int]:
    chars = characters(plain)
    for a in chars:
        for b in chars:
            if printed(a, stat) > printed(b, stat) and charm(a) < charm(b):
                return a, b  # the higher stat wins even against the higher Charm
    raise LookupError("no pair")


@pytest.mark.parametrize("stat", [Stat.SPARK, Stat.HEAT])
@pytest.mark.parametrize("winner", [0, 1])
def test_rules_highest_number_wins_the_round(stat: Stat, winner: int) -> None:
    """"Highest number wins the round." (R12: "The higher total wins.")"""
    hi, lo = _winning_pair(stat)
    c0, c1 = (hi, lo) if winner == 0 else (lo, hi)
    st = first_round(c0, c1, [[], []], stat)
    res = st.results[0]
    assert res.winner == winner
    assert not res.by_charm
    assert res.totals == (printed(c0, stat), printed(c1, stat))
    assert st.wins == [1 - winner, winner]
    assert st.view(None).seats[winner].wins == 1
    assert st.view(None).seats[1 - winner].wins == 0


def test_r12_bonuses_turn_a_round() -> None:
    """R12: "The higher total wins." (the total with its bonuses, not the printed value)"""
    items = supports(lambda s: s.kind is ITEM and not s.effects)
    chars = characters(plain)
    for item in items:
        stat = sup(item).stat
        for c1 in chars:
            bonus = sup(item).bonus * (2 if c1 in sup(item).equips_to else 1)
            for c0 in chars:
                if 0 < printed(c0, stat) - printed(c1, stat) < bonus:
                    st = first_round(c0, c1, [[], [item]], stat)
                    by(st, 1, f"play S{item}")
                    assert st.results[0].winner == 1
                    assert st.results[0].totals == (printed(c0, stat), printed(c1, stat) + bonus)
                    return
    pytest.fail("no item outweighs a gap between two characters")


def _charm_tie_pairs(stat: Stat) -> list[tuple[int, int]]:
    chars = characters(plain)
    return [
        (a, b) for a in chars for b in chars
        if a != b and printed(a, stat) == printed(b, stat) and charm(a) > charm(b)
    ]


@pytest.mark.parametrize("stat", [Stat.SPARK, Stat.HEAT])
@pytest.mark.parametrize("winner", [0, 1])
def test_rules_on_a_tie_the_cards_charm_wins(stat: Stat, winner: int) -> None:
    """"On a tie, the card's Charm wins; if that's tied too, the round is a draw and the two flames hug it out." (R12:
    "Equal totals: the character with the higher printed Charm wins")"""
    pairs = _charm_tie_pairs(stat)
    assert pairs
    hi, lo = pairs[0]
    c0, c1 = (hi, lo) if winner == 0 else (lo, hi)
    st = first_round(c0, c1, [[], []], stat)
    res = st.results[0]
    assert res.totals[0] == res.totals[1]
    assert res.winner == winner
    assert res.by_charm
    assert st.wins == [1 - winner, winner]


def test_r12_the_tie_is_settled_by_printed_charm_not_by_the_charm_total() -> None:
    """R12: "Equal totals: the character with the higher printed Charm wins" (a Charm round tied thanks to an item:
    the printed Charm decides, the item's bonus does not)"""
    items = supports(lambda s: s.kind is ITEM and s.stat == CHARM and not s.effects)
    chars = characters(plain)
    for item in items:
        for a in chars:
            bonus = sup(item).bonus * (2 if a in sup(item).equips_to else 1)
            for b in chars:
                if a != b and charm(a) + bonus == charm(b):
                    st = first_round(a, b, [[item], []], CHARM)
                    by(st, 0, f"play S{item}")
                    res = st.results[0]
                    assert res.totals == (charm(b), charm(b))
                    assert res.winner == 1
                    assert res.by_charm
                    return
    pytest.fail("no Charm item makes a tie")


def test_rules_if_charm_is_tied_too_the_round_is_a_draw() -> None:
    """"On a tie, the card's Charm wins; if that's tied too, the round is a draw and the two flames hug it out." (R12:
    "equal again: the round is a draw.")"""
    chars = characters(plain)
    done = 0
    for stat in STATS:
        pairs = [(a, b) for a in chars for b in chars
                 if a != b and printed(a, stat) == printed(b, stat) and charm(a) == charm(b)]
        if not pairs:
            continue
        a, b = pairs[0]
        st = first_round(a, b, [[], []], stat)
        res = st.results[0]
        assert res.winner == DRAW
        assert not res.by_charm
        assert res.totals == (printed(a, stat), printed(b, stat))
        assert st.wins == [0, 0]
        assert st.phase is Phase.STAT
        assert st.round_no == 1
        done += 1
    assert done >= 1


# ---------------------------------------------------------------- clean-up (R13)


def test_rules_items_and_events_go_to_the_discard_pile_the_place_stays() -> None:
    """"Items and events go to the discard pile; the place stays." (R13: "Items and events go to the discard pile of the
    player who played them; the place stays.")"""
    item = supports(lambda s: s.kind is ITEM and not s.effects)[0]
    event = supports(lambda s: s.kind is EVENT and not s.effects)[0]
    place = supports(lambda s: s.kind is PLACE and not s.effects)[0]
    item1 = supports(lambda s: s.kind is ITEM and not s.effects, exclude=[item])[0]
    c0, c1 = fillers(2, [])
    st = first_round(c0, c1, [[item, place], [event, item1]], Stat.SPARK)
    run(st, [f"play S{item}", f"play S{place}"], [f"play S{event}", f"play S{item1}"])
    assert len(st.results) == 1
    assert st.discards[0] == [item]
    assert sorted(st.discards[1]) == sorted([event, item1])
    assert st.items == [[], []]
    assert st.events == []
    assert st.place == place
    assert st.place_owner == 0
    view = st.view(None)
    assert view.seats[0].discard == (item,)
    assert sorted(view.seats[1].discard) == sorted([event, item1])
    assert view.seats[0].items == ()
    assert view.events == ()
    assert view.place == place
    assert view.place_owner == 0


@pytest.mark.parametrize("chooser", [0, 1])
def test_r13_each_player_draws_one_card_the_chooser_first(chooser: int) -> None:
    """R13: "Then each player draws one card, the round's chooser first" Rules: "Each player draws a card" """
    c0, c1 = fillers(2, [])
    if (c0 < c1) != (chooser == 0):
        c0, c1 = c1, c0
    pile = quiet(3)
    st = first_round(c0, c1, [[], []], Stat.HEAT, pile=pile)
    assert st.results[0].chooser == chooser
    expected: list[list[int]] = [[], []]
    expected[chooser] = [pile[0]]
    expected[1 - chooser] = [pile[1]]
    assert st.hands == expected
    assert top_first(st) == pile[2:]
    assert st.view(None).seats[0].pile_size == 1


@pytest.mark.parametrize("chooser", [0, 1])
def test_r13_a_player_whose_draw_pile_is_empty_draws_nothing(chooser: int) -> None:
    """R13: "a player whose draw pile is empty draws nothing." Rules: "(no hand limit; if your deck runs out, you don't
    draw)" (one card left: the chooser draws it, the other draws nothing)"""
    c0, c1 = fillers(2, [])
    if (c0 < c1) != (chooser == 0):
        c0, c1 = c1, c0
    pile = quiet(1)
    st = first_round(c0, c1, [[], []], Stat.HEAT, pile=pile)
    expected: list[list[int]] = [[], []]
    expected[chooser] = [pile[0]]
    assert st.hands == expected
    assert st.view(None).seats[0].pile_size == 0
    assert st.phase is Phase.STAT


def test_rules_if_your_deck_runs_out_you_dont_draw() -> None:
    """"Each player draws a card (no hand limit; if your deck runs out, you don't draw) ..." (R13: "a player whose draw
    pile is empty draws nothing."; own decks: only the player whose pile ran out)"""
    c0, c1, a, b, c, d = fillers(6, [])
    s = quiet(1)
    st = start([[c0, a, b], [c1, c, d]], hands=[[], []], piles=[[], s], mode="decks")
    play(st, "stat spark")
    assert st.hands == [[], s]
    view = st.view(None)
    assert view.seats[0].pile_size == 0
    assert view.seats[1].pile_size == 0


def test_rules_no_hand_limit() -> None:
    """"Each player draws a card (no hand limit; if your deck runs out, you don't draw) ..." (R13: "no hand limit"):
    a hand of 6, the most a round can start with (3 dealt, R4, and one drawn at each of three clean-ups), still
    draws its card and holds 7."""
    c0, c1 = fillers(2, [])
    hand = quiet(7)[:6]
    pile = [s for s in ALL_SUPPORTS if s not in hand][:2]
    st = first_round(c0, c1, [hand, []], Stat.SPARK, pile=pile)
    run(st, ["pass"], [])
    assert len(st.results) == 1
    assert len(st.hands[0]) == 7
    assert st.hands[0][:6] == hand
    assert pile[0] in st.hands[0] or pile[1] in st.hands[0]


def test_r13_discard_piles_are_never_reshuffled() -> None:
    """R13: "Discard piles are never reshuffled." (an empty draw pile stays empty, whatever is in the discard piles)"""
    c0, c1, a, b, c, d = fillers(6, [])
    discards = [quiet(3)[:2], quiet(3)[2:]]
    st = start([[c0, a, b], [c1, c, d]], hands=[[], []], piles=[[]], discards=discards)
    for stat in ("spark", "heat", "charm"):
        if st.phase is Phase.OVER:
            break
        play(st, f"stat {stat}")
        assert st.hands == [[], []]
        assert st.discards == discards
        assert st.view(None).seats[0].pile_size == 0
        assert st.piles == [[]]


def test_rules_the_next_round_starts_with_the_next_character() -> None:
    """"Each player draws a card (...) and the next round starts with the next character." """
    lineups = [fillers(3, []), fillers(6, [])[3:]]
    st = start(lineups, hands=[[], []])
    play(st, "stat spark")
    assert st.round_no == 1
    assert st.phase is Phase.STAT
    assert st.current == [lineups[0][1], lineups[1][1]]
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.round_number == 2
        assert view.seats[0].character == lineups[0][1]
        assert view.seats[1].character == lineups[1][1]
        assert view.seats[0].flipped == tuple(lineups[0][:2])
        assert view.seats[1].flipped == tuple(lineups[1][:2])
    if st.phase is Phase.STAT:
        play(st, stat_word(Stat.CHARM))
    if st.phase is not Phase.OVER:
        assert st.current == [lineups[0][2], lineups[1][2]]


def test_r13_the_round_resets_plays_and_ability() -> None:
    """R6/R13: the limits are per round: after the clean-up each player has 2 plays and the ability again."""
    c0, c1 = fillers(2, [])
    cards = quiet(6)
    st = first_round(c0, c1, [cards[:3], cards[3:]], Stat.SPARK)
    run(st, [f"ability S{cards[0]}", f"play S{cards[1]}"], ["pass", "pass"] if st.to_act == 1 else ["pass"])
    if not st.results:
        play(st, "pass")
    assert len(st.results) == 1
    assert st.plays == [0, 0]
    assert st.ability_used == [False, False]
    assert st.view(None).seats[0].plays == 0
    assert not st.view(None).seats[0].ability_used


def test_r13_the_next_rounds_view_starts_with_an_empty_log() -> None:
    """The view's ``log`` holds *this round's* plays and passes (R15: every support card played and by whom is
    public; R6: the passes in a row end the round's play): the first view of round 2 shows none of round 1's."""
    c0, c1 = fillers(2, [])
    cards = quiet(4)
    st = first_round(c0, c1, [cards[:2], cards[2:]], Stat.SPARK)
    run(st, [f"play S{cards[0]}"], [f"play S{cards[2]}"])
    while not st.results:
        play(st, "pass")
    assert st.round_no == 1
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.round_number == 2
        assert view.log == ()


def _condition_events() -> tuple[int, int]:
    """Two events of one stat, one counting only for a printed value at most N, one only for at least M."""
    at_most = supports(lambda s: s.kind is EVENT and s.printed_at_most is not None and not s.effects)
    for low in at_most:
        stat = sup(low).stat
        at_least = [s for s in supports(lambda s: s.kind is EVENT and s.printed_at_least is not None and not s.effects)
                    if sup(s).stat == stat]
        if at_least:
            return low, at_least[0]
    raise LookupError("no pair of conditional events of one stat")


@pytest.mark.parametrize("low_first", [True, False])
def test_r9_an_event_that_does_not_count_then_one_that_does(low_first: bool) -> None:
    """R9: "Its bonus or penalty counts for both players when its stat is the round's stat (an event may narrow this
    with a condition written on it)": for each player, the event whose condition fails is skipped and the other one,
    played after or before it, still counts."""
    low, high = _condition_events()  # e.g. "+10 if printed Spark 37 or less", "-10 if printed Spark 42 or more"
    stat = sup(low).stat
    at_most, at_least = sup(low).printed_at_most, sup(high).printed_at_least
    assert at_most is not None
    assert at_least is not None
    strong = next(c for c in characters() if printed(c, stat) >= at_least)
    weak = next(c for c in characters() if printed(c, stat) <= at_most and c > strong)  # seat 0 chooses (R5)
    order = [low, high] if low_first else [high, low]
    st = first_round(strong, weak, [order, []], stat)
    by(st, 0, f"play S{order[0]}", f"play S{order[1]}")
    assert st.results
    # only the "at least" event counts for the strong character, only the "at most" one for the weak one
    assert st.results[0].totals == (printed(strong, stat) + sup(high).bonus, printed(weak, stat) + sup(low).bonus)
    assert (sup(low).bonus, sup(high).bonus) == (10, -10)  # the card texts' numbers
