"""The draft (R2): players alternate picking from the 33 characters; first picker by coin flip; picks public."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from tests.games.duel.scripted import GAME, line_up, play, texts, top_first

DRAFT = {"mode": "shared", "pick": "draft"}
PILE = list(range(21, 0, -1))  # top card first: S21, S20, ...


def _draft(first_picker: int) -> DuelState:
    return GAME.new_match(DRAFT, 0, setup={"piles": [PILE], "first_picker": first_picker})


def test_r2_draft_first_picker_by_coin_flip() -> None:
    """R2: "or drafted: players alternate picking from the 33 (first picker by coin flip)" """
    firsts = []
    for seed in range(16):
        st = GAME.new_match(DRAFT, seed)
        assert st.phase is Phase.DRAFT
        assert st.to_act == st.first_picker
        assert GAME.new_match(DRAFT, seed).first_picker == st.first_picker  # deterministic per seed
        firsts.append(st.first_picker)
    assert set(firsts) == {0, 1}


@pytest.mark.parametrize("first", [0, 1])
def test_r2_draft_players_alternate_picking(first: int) -> None:
    """R2: "players alternate picking from the 33" """
    st = _draft(first)
    assert st.phase is Phase.DRAFT
    assert len(st.legal_actions()) == 33
    assert st.view(first).draft_pool == tuple(range(1, 34))
    picks = [5, 9, 1, 33, 20, 14]
    seats = []
    for c in picks:
        seats.append(st.to_act)
        play(st, f"pick C{c}")
    assert seats == [first, 1 - first] * 3
    assert sorted(st.characters[first]) == [1, 5, 20]
    assert sorted(st.characters[1 - first]) == [9, 14, 33]
    assert st.phase is Phase.LINEUP
    assert st.to_act == 0
    assert st.hands == [[], []]


def test_r2_draft_picks_are_public() -> None:
    """R2: "picks are public" """
    st = _draft(0)
    play(st, "pick C7", "pick C3", "pick C12")
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.draft
        assert view.seats[0].known_characters == (7, 12)
        assert view.seats[1].known_characters == (3,)
        assert view.draft_pool == tuple(c for c in range(1, 34) if c not in (3, 7, 12))
    # and stay public in the line-up phase and the rounds (identities, not the order: R3)
    play(st, "pick C4", "pick C30", "pick C21")
    line_up(st, [[30, 12, 7], [21, 3, 4]])
    for seat in (0, 1, None):
        view = st.view(seat)
        assert view.seats[0].known_characters == (7, 12, 30)
        assert view.seats[1].known_characters == (3, 4, 21)


def test_r2_draft_a_character_can_be_picked_once() -> None:
    """R2: "a character can be picked once." """
    st = _draft(1)
    play(st, "pick C8")
    assert "pick C8" not in texts(st.legal_actions())
    assert len(st.legal_actions()) == 32
    with pytest.raises(IllegalAction) as err:
        play(st, "pick C8")
    assert err.value.reason
    assert st.characters == [[], [8]]
    assert st.to_act == 0
    play(st, "pick C9")
    with pytest.raises(IllegalAction):
        play(st, "pick C9")
    assert st.characters == [[9], [8]]


def test_r2_draft_then_lineup_then_hands_of_3() -> None:
    """"Each player picks 3 characters ..., looks at them and lines them up face down in any order. Then each player
    draws 3 cards from the support deck: that's your hand." (the draft, then R3, then R4)"""
    st = _draft(0)
    play(st, "pick C2", "pick C6", "pick C10", "pick C16", "pick C27", "pick C31")
    assert st.view(0).my_characters == (2, 10, 27)
    assert st.view(1).my_characters == (6, 16, 31)
    line_up(st, [[27, 2, 10], [16, 31, 6]])
    assert st.lineups == [[27, 2, 10], [16, 31, 6]]
    assert st.phase is Phase.STAT
    assert st.current == [27, 16]
    assert st.chooser == 1  # R5: the lower card number
    assert len(st.hands[0]) == len(st.hands[1]) == 3
    assert sorted(st.hands[0] + st.hands[1]) == sorted(PILE[:6])
    assert top_first(st) == PILE[6:]


def test_r2_draft_not_in_own_decks_mode() -> None:
    """R2: own decks bring their characters; the draft is a way of choosing characters in the shared mode."""
    from flametable.core.errors import RecordError

    with pytest.raises(RecordError):
        GAME.new_match({"mode": "decks", "pick": "draft"}, 0)
