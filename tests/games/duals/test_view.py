"""What a seat sees (D10)."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

from flametable.games.duals.rules import Step
from flametable.games.duals.view import DualsView

from .scripted import DATA, GAME, line, play, space, start


def test_d10_public_private_hidden() -> None:
    """D10: "Public: board, reserve, coins, score piles, deck and hand sizes, bag contents as a multiset.
    Private: your hand, and the cards you put at the bottom of the deck. Hidden: deck order and bag draw
    order." """
    card = line("bread")
    st = start({"c1": ["bread"], "c2": ["bread"], "c3": ["bread"]}, ["meat", "iron", "iron", "plant+meat"],
               reserve=["potion"], hands=[[card, 5], [6, 7]], deck=[10, 11, 12, 13, 14], coins=(2, 3),
               scores=[[], [20]])
    play(st, "coin", "bottom K5", "bottom K10")  # player 0 puts K5, then K10 (the very bottom) under the deck
    mine, theirs, public = st.view(0), st.view(1), st.view(None)
    for v in (mine, theirs, public):
        assert v.board == tuple(st.stacks)
        assert v.reserve == (DATA.kind_of("potion"),)
        assert [s.coins for s in v.seats] == [1, 3]
        assert [s.pile for s in v.seats] == [(), (20,)]
        assert [s.hand_size for s in v.seats] == [2, 2]
        assert v.deck_size == 5
        counts = Counter(st.bag)
        assert v.bag == tuple(counts[k] for k in range(DATA.num_kinds))  # a multiset, never an order
        assert v.bag_size == 3
        assert v.held == DATA.kind_of("meat")
        assert v.phase is Step.PLACE
        assert v.to_act == 0
    assert mine.hand == tuple(sorted(st.hands[0])) == (card, 11)
    assert mine.matching == (card,)
    assert mine.bottom_known == ((10, 0), (5, 1))  # positions from the bottom of the deck
    assert mine.legal == tuple(st.legal_actions())
    assert theirs.hand == (6, 7)
    assert theirs.matching == ()
    assert theirs.bottom_known == ()
    assert theirs.legal == ()
    assert public.hand == public.matching == public.bottom_known == public.legal == ()
    assert public.seat is None
    # Nothing in a view holds the deck's order or the bag's order.
    names = {f.name for f in fields(DualsView)}
    assert not names & {"deck", "bag_order", "rng"}


def test_d10_known_bottom_cards_leave_with_the_draw() -> None:
    """D10: the cards you put at the bottom stay known to you while they are in the deck."""
    st = start({}, ["meat", "iron", "crystal", "potion"], hands=[[1], [3, 4]], deck=[10, 11], coins=(1, 0))
    play(st, "coin", "bottom K1", "bottom K10")  # the deck is now K10 (bottom), K1 (top)
    assert st.view(0).bottom_known == ((10, 0), (1, 1))
    play(st, "place c3")  # the refresh draws K1 back (the deck's top)
    assert st.hands[0] == [11, 1]
    assert st.view(0).bottom_known == ((10, 0),)


def test_views_of_a_seeded_match() -> None:
    st = GAME.new_match({"buddy": True}, 11)
    view = st.view(st.to_act)
    assert view.first_draws == st.first_draws
    assert view.first_player == st.first
    assert view.legal == tuple(st.legal_actions())
    assert sum(view.bag) == len(st.bag)
    assert st.view(1 - st.first).legal == ()


def test_d6_the_view_shows_the_chain_as_it_stands() -> None:
    """D6: in a FIRE UP chain the tokens that fired are public (a plant cannot use them again), as is the token
    firing; the JSON names them by space and level (0 = the bottom)."""
    st = start({"c4": ["plant"], "c5": ["meat"], "a1": ["iron"]}, ["plant", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire plant", "use c4")
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.phase == Step.FIRE
        assert view.src == space("c4")
        assert view.fired == ((space("c3"), 0),)  # the placed plant fired; the used one fires next
        assert not view.fire_optional  # a token a plant uses must fire
        assert view.to_json()["fired"] == [["c3", 0]]
        assert view.to_json()["src"] == "c4"
    play(st, "fire plant")
    assert st.view(1).fired == ((space("c3"), 0), (space("c4"), 0))
    assert st.view(1).to_json()["fired"] == [["c3", 0], ["c4", 0]]
    play(st, "use c5", "fire meat")
    assert st.view(None).to_json()["fired"] == [["c3", 0], ["c4", 0], ["c5", 0]]
    play(st, "move c4 c5")
    assert st.view(None).fired == ()  # the chain is over
    assert st.view(None).to_json()["src"] is None


def test_d6_the_iron_first_move_is_public() -> None:
    """D6: the iron's second move may not take the first token again; where it went is public."""
    st = start({"c4": ["meat"], "c2": ["bread"]}, ["iron", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire iron", "move c4 c5")
    view = st.view(1)
    assert view.phase == Step.IRON
    assert view.iron_dest == space("c5")
    assert view.to_json()["iron_dest"] == "c5"
