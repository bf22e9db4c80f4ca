"""Who sees what (R15) and the secret line-up (R3), checked through ``state.view(seat)`` and ``state.view(None)``."""

from __future__ import annotations

from typing import Any

from flametable.games.duel.cards import EffectKind, Stat
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from flametable.games.duel.view import DuelView
from tests.games.duel.scripted import (
    ALL_SUPPORTS,
    EVENT,
    GAME,
    ITEM,
    PLACE,
    char,
    characters,
    effect_kinds,
    fillers,
    line_up,
    play,
    printed,
    quiet,
    run,
    start,
    sup,
    supports,
)

SEATS = (0, 1, None)


def _public_seat(view: DuelView, p: int) -> tuple[Any, ...]:
    s = view.seats[p]
    return (s.flipped, s.character, s.hand_size, s.pile_size, s.discard, s.items, s.plays, s.ability_used, s.wins,
            s.total)


def _public(view: DuelView) -> tuple[Any, ...]:
    return (view.phase, view.to_act, view.round_number, view.chooser, view.stat, view.place, view.place_owner,
            view.events, view.log, view.results, _public_seat(view, 0), _public_seat(view, 1), view.outcome)


def _busy_round() -> tuple[DuelState, dict[str, int]]:
    """Round 2 in progress after a played round 1 (seat 1 played a place in it): an item, an event, an ability,
    discards, a result."""
    item = supports(lambda s: s.kind is ITEM and not s.effects)[0]
    event = supports(lambda s: s.kind is EVENT and not s.effects)[0]
    place = supports(lambda s: s.kind is PLACE and not s.effects)[0]
    used = [item, event, place]
    pay, keep0, keep1, r1a, r1b = quiet(5, exclude=used)
    used += [pay, keep0, keep1, r1a, r1b]
    pile = [s for s in ALL_SUPPORTS if s not in used][:4]
    a, b, c, d, e, f = fillers(6, [])
    st = start([[a, b, c], [d, e, f]], hands=[[r1a, item, pay, keep0], [r1b, event, place, keep1]], piles=[pile])
    # round 1: one card each, then both pass
    r1: list[list[str]] = [[f"play S{r1a}", "pass"], [f"play S{place}", "pass"]]
    r1[st.chooser].insert(0, "stat spark")
    run(st, r1[0], r1[1])
    assert st.round_no == 1
    # round 2: item, event, place, ability
    chooser = st.chooser
    moves: list[list[str]] = [[], []]
    moves[chooser].append("stat heat")
    moves[0] += [f"play S{item}", f"ability S{pay}"]
    moves[1] += [f"play S{event}"]
    run(st, moves[0], moves[1])
    assert st.phase is Phase.PLAY
    return st, {"item": item, "event": event, "place": place, "pay": pay, "r1a": r1a, "r1b": r1b,
                "keep0": keep0, "keep1": keep1, "b": b, "e": e}


def test_r15_public_facts_are_the_same_in_every_view() -> None:
    """R15: "Public: flipped characters, the round's stat, every support card played and by whom, the place on the
    table, both discard piles, hand and draw-pile sizes, ability triggers, round results." """
    st, k = _busy_round()
    views = [st.view(seat) for seat in SEATS]
    assert _public(views[0]) == _public(views[1]) == _public(views[2])
    v = views[2]
    # flipped characters
    assert v.seats[0].flipped == tuple(st.lineups[0][:2])
    assert v.seats[1].flipped == tuple(st.lineups[1][:2])
    assert v.seats[0].character == k["b"]
    # the round's stat
    assert v.stat == Stat.HEAT
    # every support card played and by whom
    played = [(p.seat, p.action.text()) for p in v.log if not p.auto]
    assert (0, f"play S{k['item']}") in played
    assert (1, f"play S{k['event']}") in played
    assert v.seats[0].items == (k["item"],)
    assert v.events == ((1, k["event"]),)
    # the place on the table
    assert v.place == k["place"]
    assert v.place_owner == 1
    # both discard piles
    assert v.seats[0].discard == (k["r1a"], k["pay"])
    assert v.seats[1].discard == ()
    # hand and draw-pile sizes
    assert (v.seats[0].hand_size, v.seats[1].hand_size) == (len(st.hands[0]), len(st.hands[1]))
    assert v.seats[0].pile_size == v.seats[1].pile_size == len(st.piles[0])
    # ability triggers
    assert (0, f"ability S{k['pay']}") in played
    assert v.seats[0].ability_used
    assert not v.seats[1].ability_used
    # round results
    assert len(v.results) == 1
    assert v.results[0].number == 1
    assert v.results[0].stat == Stat.SPARK
    assert v.seats[0].total == st.totals()[0]
    assert v.seats[0].total == printed(k["b"], Stat.HEAT) + 15 + (
        sup(k["item"]).bonus if sup(k["item"]).stat == Stat.HEAT else 0
    ) + (sup(k["event"]).bonus if sup(k["event"]).stat == Stat.HEAT else 0)


def test_r15_private_to_a_player_their_hand() -> None:
    """R15: "Private to a player: their hand, ..." """
    st, _ = _busy_round()
    assert st.view(0).hand == tuple(st.hands[0])
    assert st.view(1).hand == tuple(st.hands[1])
    assert st.view(None).hand == ()
    # the opponent's hand does not show in a view in any way: swap seat 1's hand for other cards
    a, b, c, d, e, f = fillers(6, [])
    h = quiet(6)
    one = start([[a, b, c], [d, e, f]], hands=[h[:2], h[2:4]])
    two = start([[a, b, c], [d, e, f]], hands=[h[:2], h[4:6]])
    assert one.view(0) == two.view(0)
    assert one.view(None) == two.view(None)
    assert one.view(1) != two.view(1)


def test_r15_private_to_a_player_their_lineup() -> None:
    """R15: "Private to a player: ... their line-up, ..." (R3: "Each player orders their 3 characters secretly.")"""
    a, b, c, d, e, f = fillers(6, [])
    st = start([[a, b, c], [d, e, f]], hands=[[], []])
    assert st.view(0).lineup == (a, b, c)
    assert st.view(1).lineup == (d, e, f)
    assert st.view(None).lineup == ()
    assert st.view(0).my_characters == tuple(sorted([a, b, c]))
    assert st.view(None).my_characters == ()


def test_r15_private_to_a_player_the_cards_they_looked_at() -> None:
    """R15: "Private to a player: ... the cards they looked at." """
    peekers = characters(lambda ch: effect_kinds(ch) == (EffectKind.PEEK,))
    assert peekers
    c0 = peekers[0]
    c1 = fillers(1, [c0])[0]
    pay, keep = quiet(2)
    pile = [s for s in ALL_SUPPORTS if s not in (pay, keep)][:5]
    st = start([[c0, *fillers(2, [c0, c1])], [c1, *fillers(4, [c0, c1])[2:]]], hands=[[pay, keep], []],
               piles=[pile])
    play(st, "stat spark")
    assert st.to_act == 0
    play(st, f"ability S{pay}")
    n = char(c0).effects[0].n
    assert st.view(0).known_top == tuple(pile[:n])
    assert st.view(1).known_top == ()
    assert st.view(None).known_top == ()


def test_r15_hidden_from_everyone_the_draw_pile_order() -> None:
    """R15: "Hidden from everyone: draw-pile order." (two matches that differ only in the order of the pile look the
    same to both players and to a spectator)"""
    a, b, c, d, e, f = fillers(6, [])
    h = quiet(4)
    pile = [s for s in ALL_SUPPORTS if s not in h][:8]
    one = start([[a, b, c], [d, e, f]], hands=[h[:2], h[2:]], piles=[pile])
    two = start([[a, b, c], [d, e, f]], hands=[h[:2], h[2:]], piles=[list(reversed(pile))])
    for st in (one, two):
        run(st, ["stat charm"] if st.chooser == 0 else [], [] if st.chooser == 0 else ["stat charm"])
        first = st.to_act
        assert first is not None
        play(st, f"play S{st.hands[first][0]}")
    for seat in SEATS:
        assert one.view(seat) == two.view(seat)
    # own decks: a view lists my remaining cards (sorted), never their order
    one = start([[a, b, c], [d, e, f]], hands=[[], []], piles=[pile[:4], pile[4:]], mode="decks")
    two = start([[a, b, c], [d, e, f]], hands=[[], []], piles=[pile[3::-1], pile[:3:-1]], mode="decks")
    for seat in SEATS:
        assert one.view(seat) == two.view(seat)


def test_r3_lineup_order_hidden_from_the_opponent_until_flipped() -> None:
    """R3: "Until a character is flipped, its place in the line-up (and, outside the draft, its identity) is hidden
    from the opponent." (the order of the unflipped characters)"""
    a, b, c, d, e, f = fillers(6, [])
    one = start([[a, b, c], [d, e, f]], hands=[[], []])
    two = start([[a, c, b], [d, e, f]], hands=[[], []])
    assert one.view(1) == two.view(1)
    assert one.view(None) == two.view(None)
    assert one.view(0) != two.view(0)  # the owner sees the order
    assert one.view(1).seats[0].flipped == (a,)
    assert one.view(1).seats[0].known_characters == (a,)


def test_r3_unflipped_identity_hidden_outside_the_draft() -> None:
    """R3: "Until a character is flipped, its place in the line-up (and, outside the draft, its identity) is hidden
    from the opponent." (which characters are still face down)"""
    a, b, c, d, e, f, g = fillers(7, [])
    one = start([[a, b, c], [d, e, f]], hands=[[], []])
    two = start([[a, b, g], [d, e, f]], hands=[[], []])
    assert one.view(1) == two.view(1)
    assert one.view(None) == two.view(None)
    # round 2: b is flipped, c / g still hidden
    play(one, "stat spark")
    play(two, "stat spark")
    assert one.phase is two.phase is Phase.STAT
    assert one.view(1) == two.view(1)
    assert one.view(None) == two.view(None)
    assert one.view(1).seats[0].flipped == (a, b)
    assert one.view(1).seats[0].known_characters == tuple(sorted([a, b]))
    assert one.view(0).seats[0].known_characters == tuple(sorted([a, b, c]))


def test_r3_lineup_phase_hides_the_opponents_order() -> None:
    """R3: "Each player orders their 3 characters secretly." (while the second player lines up, nothing of the first
    player's order shows)"""
    views = []
    for order in ((0, 1, 2), (2, 1, 0), (1, 2, 0)):
        st = GAME.new_match({}, 4)
        mine = sorted(st.characters[0])
        play(st, f"line C{mine[order[0]]}", f"line C{mine[order[1]]}")
        assert st.to_act == 1
        views.append((st.view(1), st.view(None)))
    assert views[0] == views[1] == views[2]


def test_r3_draft_identities_known_but_order_hidden() -> None:
    """R3: "Until a character is flipped, its place in the line-up (and, outside the draft, its identity) is hidden
    from the opponent." (in the draft the picks are public, the order is not)"""
    views = []
    for order in ([30, 12, 7], [30, 7, 12]):
        st = GAME.new_match({"pick": "draft"}, 0, setup={"piles": [list(ALL_SUPPORTS)], "first_picker": 0})
        play(st, "pick C7", "pick C3", "pick C12", "pick C4", "pick C30", "pick C21")
        line_up(st, [order, [21, 3, 4]])
        assert st.phase is Phase.STAT
        views.append((st.view(1), st.view(None)))
        assert st.view(1).seats[0].known_characters == (7, 12, 30)
        assert st.view(1).seats[0].flipped == (30,)
    assert views[0] == views[1]
