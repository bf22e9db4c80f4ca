"""Support cards: items (R7), places (R8) and events (R9)."""

from __future__ import annotations

import pytest

from flametable.games.duel.cards import Stat
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from tests.games.duel.scripted import (
    EVENT,
    ITEM,
    PLAIN_PLACES,
    STATS,
    by,
    characters,
    fillers,
    first_round,
    plain,
    play,
    printed,
    quiet,
    run,
    stat_word,
    sup,
    supports,
)


def _totals(st: DuelState) -> tuple[int, int]:
    view = st.view(None)
    return view.seats[0].total, view.seats[1].total


def _first_to_act(c0: int, c1: int) -> int:
    return 0 if c0 < c1 else 1


# ---------------------------------------------------------------- items (R7)

PLAIN_ITEMS = supports(lambda s: s.kind is ITEM and not s.effects)


def _item_case(doubled: bool) -> tuple[int, int, int]:
    """An item without effects, a plain character (listed under "Equips to" or not) and a plain opponent."""
    for item in PLAIN_ITEMS:
        card = sup(item)
        listed = characters(lambda c, card=card: plain(c) and (c.number in card.equips_to) == doubled)
        if listed:
            c0 = listed[0]
            c1 = fillers(1, [c0])[0]
            return item, c0, c1
    raise LookupError("no item for the case")


@pytest.mark.parametrize("doubled", [False, True])
def test_rules_item_adds_its_bonus_if_it_matches_the_rounds_stat(doubled: bool) -> None:
    """"Item: equip it to your character; it adds its bonus if it matches the round's stat (double if your character
    is listed under “Equips to”)." """
    item, c0, c1 = _item_case(doubled)
    card = sup(item)
    stat = card.stat
    other = quiet(1, exclude=[item], avoid=stat)
    st = first_round(c0, c1, [[item], other], stat)
    first = _first_to_act(c0, c1)
    if first == 1:
        by(st, 1, "pass")
    by(st, 0, f"play S{item}")
    assert st.items[0] == [item]
    assert st.view(1).seats[0].items == (item,)
    bonus = card.bonus * (2 if doubled else 1)
    assert _totals(st) == (printed(c0, stat) + bonus, printed(c1, stat))
    # seat 1 passes, seat 0 (empty hand) is passed for: the round is over
    by(st, 1, "pass")
    assert st.results[0].totals == (printed(c0, stat) + bonus, printed(c1, stat))


def test_r7_item_doubled_if_the_character_is_in_its_equips_to_list() -> None:
    """R7: "Its bonus counts if its stat is the round's stat, doubled if that character's number is in its "Equips
    to" list." (every plain item with a listed and an unlisted character)"""
    assert PLAIN_ITEMS
    checked = 0
    for item in PLAIN_ITEMS:
        card = sup(item)
        for listed in (True, False):
            found = characters(lambda c, card=card, listed=listed: (c.number in card.equips_to) == listed)
            c0 = found[0]
            c1 = fillers(1, [c0])[0]
            st = first_round(c0, c1, [[item], []], card.stat)
            # seat 1 has no cards: seat 0 is asked whoever chose
            by(st, 0, f"play S{item}")
            total = printed(c0, card.stat) + card.bonus * (2 if listed else 1)
            assert st.results[0].totals[0] == total
            checked += 1
    assert checked == 2 * len(PLAIN_ITEMS)


@pytest.mark.parametrize("listed", [False, True])
def test_r7_item_of_another_stat_adds_nothing(listed: bool) -> None:
    """R7: "Its bonus counts if its stat is the round's stat" (an item of another stat adds nothing, listed or
    not)"""
    item, c0, c1 = _item_case(listed)
    card = sup(item)
    for stat in STATS:
        if stat == card.stat:
            continue
        st = first_round(c0, c1, [[item], []], stat)
        by(st, 0, f"play S{item}")
        assert st.results[0].totals == (printed(c0, stat), printed(c1, stat))
        assert st.discards[0] == [item]


def test_r7_item_is_equipped_for_this_round_only() -> None:
    """R7: "Equipped to the player's current character for this round." (it goes to the discard pile at the end of
    the round and counts no more)"""
    item, c0, c1 = _item_case(False)
    card = sup(item)
    later0 = fillers(2, [c0, c1])
    later1 = fillers(2, [c0, c1, *later0])
    st = first_round(c0, c1, [[item], []], card.stat, later=[later0, later1])
    by(st, 0, f"play S{item}")
    assert st.round_no == 1
    assert st.items == [[], []]
    assert st.discards[0] == [item]
    play(st, stat_word(card.stat))
    assert st.results[1].totals == (printed(later0[0], card.stat), printed(later1[0], card.stat))


# ---------------------------------------------------------------- places (R8)



def _two_places() -> tuple[int, int]:
    assert len(PLAIN_PLACES) >= 2
    return PLAIN_PLACES[0], PLAIN_PLACES[1]


def test_rules_place_bonus_goes_to_whoever_played_it() -> None:
    """"Place: it replaces the one on the table (the old one goes to its owner's discard pile) and its bonus goes to
    whoever played it, also in later rounds while it stays." (R8: "The player who played a place is its owner: its
    bonus counts for the owner, when its stat is the round's stat")"""
    place = PLAIN_PLACES[0]
    card = sup(place)
    c0, c1 = fillers(2, [])
    for player in (0, 1):
        hands = [[place], []] if player == 0 else [[], [place]]
        st = first_round(c0, c1, hands, card.stat)
        by(st, player, f"play S{place}")
        assert st.place == place
        assert st.place_owner == player
        for seat in (0, 1, None):
            assert st.view(seat).place == place
            assert st.view(seat).place_owner == player
        bonus = [card.bonus if p == player else 0 for p in (0, 1)]
        assert st.results[0].totals == (printed(c0, card.stat) + bonus[0], printed(c1, card.stat) + bonus[1])


def test_rules_place_bonus_also_in_later_rounds_while_it_stays() -> None:
    """"... its bonus goes to whoever played it, also in later rounds while it stays." (R8: "in this round and every
    later round while it stays on the table")"""
    place = PLAIN_PLACES[0]
    card = sup(place)
    spare = next(s for s in supports(lambda s: not s.effects) if sup(s).stat != card.stat and s != place)
    pool = sorted(characters(plain), key=lambda c: printed(c, card.stat))
    # Seat 0 wins round 1 with its ability (+15, R11) on the stronger character, and seat 1 wins round 2 with
    # the place's bonus, so the match goes on to round 3 (R14).
    c0, c1 = pool[-1], pool[0]
    a1, b1 = pool[1], pool[-2]
    a2, b2 = pool[2], pool[3]
    st = first_round(c0, c1, [[spare], [place]], card.stat, later=[[a1, a2], [b1, b2]])
    run(st, [f"ability S{spare}"], [f"play S{place}"])
    assert st.results[0].winner == 0
    assert st.round_no == 1
    assert st.place == place
    assert st.place_owner == 1
    play(st, stat_word(card.stat))  # round 2: nobody has cards
    assert st.results[1].totals == (printed(a1, card.stat), printed(b1, card.stat) + card.bonus)
    assert st.round_no == 2
    assert st.place == place
    other = next(s for s in STATS if s != card.stat)
    play(st, stat_word(other))  # round 3, another stat: no bonus
    assert st.results[2].totals == (printed(a2, other), printed(b2, other))


@pytest.mark.parametrize(("owner", "replacer"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_rules_place_replaces_the_one_on_the_table(owner: int, replacer: int) -> None:
    """"Place: it replaces the one on the table (the old one goes to its owner's discard pile)" (R8: "Replaces the
    place on the table; the old place goes to the discard pile of the player who played it."): the owner replacing
    their own place and the opponent replacing it."""
    old, new = _two_places()
    c0, c1 = fillers(2, [])
    hands: list[list[int]] = [[], []]
    hands[owner].append(old)
    hands[replacer].append(new)
    st = first_round(c0, c1, hands, Stat.SPARK)
    first = st.to_act  # the chooser, or the other player when the chooser has no cards
    if owner == replacer:
        by(st, owner, f"play S{old}")
        if st.to_act != owner:
            by(st, 1 - owner, "pass")  # the other player (no cards) is passed for when it has none
        by(st, owner, f"play S{new}")
    else:
        if first != owner:
            by(st, replacer, "pass")
        by(st, owner, f"play S{old}")
        by(st, replacer, f"play S{new}")
    assert st.place == new
    assert st.place_owner == replacer
    expected: list[list[int]] = [[], []]
    expected[owner].append(old)
    assert st.discards == expected
    view = st.view(None)
    assert view.seats[owner].discard == (old,)
    assert view.place == new
    assert view.place_owner == replacer


def test_r8_the_old_place_goes_to_the_discard_pile_of_the_player_who_played_it() -> None:
    """R8: "Replaces the place on the table; the old place goes to the discard pile of the player who played it."
    (a place already on the table at the start: scripted owner)"""
    old, new = _two_places()
    c0, c1 = fillers(2, [])
    for owner in (0, 1):
        st = first_round(c0, c1, [[new], []], Stat.HEAT, place=(old, owner))
        assert st.place == old
        by(st, 0, f"play S{new}")
        assert st.place == new
        assert st.place_owner == 0
        assert st.discards[owner] == [old]
        assert st.discards[1 - owner] == []


def test_r8_the_place_bonus_counts_only_for_its_stat_and_only_for_the_owner() -> None:
    """R8: "its bonus counts for the owner, when its stat is the round's stat" """
    place = PLAIN_PLACES[0]
    card = sup(place)
    c0, c1 = fillers(2, [])
    for stat in STATS:
        st = first_round(c0, c1, [[], []], stat, place=(place, 1))
        bonus = card.bonus if stat == card.stat else 0
        assert st.results[0].totals == (printed(c0, stat), printed(c1, stat) + bonus)


# ---------------------------------------------------------------- events (R9)

EVENTS = supports(lambda s: s.kind is EVENT)


@pytest.mark.parametrize("sign", ["bonus", "penalty"])
def test_rules_event_its_bonus_or_penalty_applies_to_both(sign: str) -> None:
    """"Event: its bonus or penalty applies to both." (R9: "Its bonus or penalty counts for both players when its
    stat is the round's stat")"""
    events = [
        e for e in EVENTS
        if sup(e).printed_at_most is None and sup(e).printed_at_least is None
        and (sup(e).bonus > 0) == (sign == "bonus")
        and all(x.kind.key in ("draw", "clear_place", "peek") for x in sup(e).effects)
    ]
    assert events, f"no unconditional event with a {sign} and no effect on totals"
    event = events[0]
    card = sup(event)
    c0, c1 = fillers(2, [])
    for player in (0, 1):
        hands: list[list[int]] = [[], []]
        hands[player] = [event]
        st = first_round(c0, c1, hands, card.stat)
        by(st, player, f"play S{event}")
        assert st.results[0].totals == (printed(c0, card.stat) + card.bonus, printed(c1, card.stat) + card.bonus)
        assert st.discards[player] == [event]  # R13: to the discard pile of who played it


def test_r9_event_of_another_stat_counts_for_nobody() -> None:
    """R9: "Its bonus or penalty counts for both players when its stat is the round's stat" """
    c0, c1 = fillers(2, [])
    checked = 0
    for event in EVENTS:
        card = sup(event)
        if any(x.kind.key in ("sap", "boost") for x in card.effects):
            continue
        for stat in STATS:
            if stat == card.stat:
                continue
            st = first_round(c0, c1, [[event], []], stat)
            by(st, 0, f"play S{event}")
            assert st.results[0].totals == (printed(c0, stat), printed(c1, stat))
            checked += 1
    assert checked >= 2


def _conditional(kind: str) -> list[int]:
    if kind == "at_most":
        return [e for e in EVENTS if sup(e).printed_at_most is not None]
    return [e for e in EVENTS if sup(e).printed_at_least is not None]


@pytest.mark.parametrize("kind", ["at_most", "at_least"])
def test_r9_an_event_may_narrow_this_with_a_condition(kind: str) -> None:
    """R9: "Its bonus or penalty counts for both players when its stat is the round's stat (an event may narrow this
    with a condition written on it)." (a printed value at most / at least N: checked on each character)"""
    events = _conditional(kind)
    assert events
    for event in events:
        card = sup(event)
        stat = card.stat

        def meets(c: int, card: object = card, stat: Stat = stat) -> bool:
            v = printed(c, stat)
            if kind == "at_most":
                return v <= card.printed_at_most  # type: ignore[attr-defined,no-any-return]
            return v >= card.printed_at_least  # type: ignore[attr-defined,no-any-return]

        # No ability is triggered here, so any character will do.
        yes = characters(lambda c: meets(c.number))
        no = characters(lambda c: not meets(c.number))
        assert yes
        assert no
        c_yes, c_no = yes[0], no[0]
        for player in (0, 1):
            for c0, c1 in ((c_yes, c_no), (c_no, c_yes)):
                hands: list[list[int]] = [[], []]
                hands[player] = [event]
                st = first_round(c0, c1, hands, stat)
                by(st, player, f"play S{event}")
                expected = tuple(printed(c, stat) + (card.bonus if meets(c) else 0) for c in (c0, c1))
                assert st.results[0].totals == expected
        # the limit itself is included
        limit = card.printed_at_most if kind == "at_most" else card.printed_at_least
        edge = characters(lambda c, limit=limit, stat=stat: printed(c.number, stat) == limit)
        assert edge, f"no character is printed at S{event}'s limit {limit}: the edge case goes untested"
        c0 = edge[0]
        c1 = fillers(1, [c0])[0]
        st = first_round(c0, c1, [[event], []], stat)
        by(st, 0, f"play S{event}")
        assert st.results[0].totals[0] == printed(c0, stat) + card.bonus


def test_r9_an_unconditional_event_never_changes_who_wins() -> None:
    """R9: "Design note: an unconditional event that moves both totals by the same amount never changes who wins;
    events matter through conditions or table effects." """
    events = [
        e for e in EVENTS
        if sup(e).printed_at_most is None and sup(e).printed_at_least is None
        and not any(x.kind.key in ("sap", "boost") for x in sup(e).effects)
    ]
    assert events
    chars = fillers(6, [])
    for event in events:
        stat = sup(event).stat
        for c0, c1 in ((chars[0], chars[1]), (chars[2], chars[3]), (chars[4], chars[5])):
            with_event = first_round(c0, c1, [[event], []], stat)
            by(with_event, 0, f"play S{event}")
            without = first_round(c0, c1, [[], []], stat)
            assert with_event.results[0].winner == without.results[0].winner
            assert with_event.results[0].totals[0] - with_event.results[0].totals[1] == (
                without.results[0].totals[0] - without.results[0].totals[1]
            )
    assert with_event.phase is Phase.STAT
