"""Flame Duel's observation (games/duel/observation.py, issue 13): its card cells, where the layout puts a
position's facts, its max_steps, and what a seat may not see (the opponent's hand, the draw order) changing no
observation while what it may see does. (What every encoder promises: tests/rl/test_spec.py.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from flametable.games.duel.game import DuelGame
from flametable.games.duel.observation import DuelObservation
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from flametable.rl.spec import observe
from flametable.service import view_json
from tests.rl.helpers import random_states, same_observation

DUEL = DuelGame()
DUEL_OBS = DuelObservation(DUEL)


def test_the_card_cells_come_from_the_games_card_set() -> None:
    """One cell per card of the game's set (33 characters, 21 supports)."""
    assert len(DUEL.cards.characters) == 33
    assert len(DUEL.cards.supports) == 21
    lay = DUEL_OBS.layout
    assert lay.segment("hand").length == 21
    assert lay.segment("draft_pool").length == 33
    assert lay.segment("lineup").length == 3 * 33


def test_max_steps_follow_the_derivation() -> None:
    """6 + 4 + 2 + 4 x (1 + 4 x 2 + 6) with one choosing effect per card at most."""
    assert DUEL_OBS.max_steps == 6 + 4 + 2 + 4 * (1 + 4 * 2 + 6) == 72


def test_duel_cells_say_what_the_layout_says() -> None:
    """A hand-checked position: the phase, my hand, the round and the stat are where the layout puts them."""
    lay = DUEL_OBS.layout
    for state in random_states(DUEL, {}, 21):
        if state.phase is Phase.PLAY:
            break
    me = state.to_act
    obs = observe(DUEL_OBS, state.view(me))
    hand = lay.segment("hand")
    assert sorted(np.flatnonzero(obs[hand.offset : hand.offset + hand.length]) + 1) == sorted(state.hands[me])
    assert obs[lay.segment("phase").offset + Phase.PLAY] == 1.0
    assert obs[lay.segment("round").offset + state.round_no] == 1.0
    assert obs[lay.segment("stat").offset + state.stat] == 1.0
    assert obs[lay.segment("to_act").offset] == 1.0
    assert obs[lay.segment("to_act").offset + 1] == 0.0


def _duel_positions(options: dict[str, Any]) -> list[tuple[DuelState, int]]:
    """(state, seat) in the play phase where the opponent holds a card not publicly known and the seat's draw
    pile has at least 2 cards below those it looked at."""
    found = []
    for seed in range(40):
        for st in random_states(DUEL, options, seed):
            if st.phase is not Phase.PLAY:
                continue
            for seat in (0, 1):
                o = 1 - seat
                pile = st.pile(seat)
                if len(pile) - st.looked_at[seat] >= 2 and set(st.hands[o]) - set(st.revealed[o]):
                    found.append((st, seat))
    assert len(found) > 20
    return found


@pytest.mark.parametrize("options", [{}, {"mode": "decks"}], ids=["shared", "decks"])
def test_duel_the_opponents_hand_and_the_draw_order_change_no_observation(options: dict[str, Any]) -> None:
    changed = 0
    for st, seat in _duel_positions(options):
        o = 1 - seat
        # the opponent's hand: one of its unknown cards swapped with the bottom card of the pile it draws from
        other = st.clone()
        card = next(c for c in other.hands[o] if c not in other.revealed[o])
        theirs = other.pile(o)
        if theirs and len(theirs) > (other.looked_at[seat] if other.pile_of[seat] == other.pile_of[o] else 0):
            i = other.hands[o].index(card)
            other.hands[o][i], theirs[0] = theirs[0], card
            assert view_json(other.view(seat)) == view_json(st.view(seat))
            assert same_observation(DUEL_OBS, st, other, seat)
            changed += 1
        # the draw order below the cards the seat looked at
        other = st.clone()
        pile = other.pile(seat)
        cut = len(pile) - other.looked_at[seat]
        pile[:cut] = pile[:cut][::-1]
        assert view_json(other.view(seat)) == view_json(st.view(seat))
        assert same_observation(DUEL_OBS, st, other, seat)
        # control: my own hand is mine to see
        mine = st.clone()
        if mine.hands[seat]:
            mine.hands[seat][0], mine.pile(seat)[0] = mine.pile(seat)[0], mine.hands[seat][0]
            assert not same_observation(DUEL_OBS, st, mine, seat)
    assert changed > 20
