"""Flamecraft Duals' observation (games/duals/observation.py, issue 13): its card and board cells, where the
layout puts a position's facts, its max_steps, and what a seat may not see (the bag's and the deck's order, the
opponent's hand) changing no observation while what it may see does. (What every encoder promises:
tests/rl/test_spec.py.)"""

from __future__ import annotations

import numpy as np

from flametable.games.duals import observation as duals_obs
from flametable.games.duals.game import DualsGame
from flametable.games.duals.observation import DualsObservation
from flametable.games.duals.state import DualsState
from flametable.rl.spec import observe
from flametable.service import view_json
from tests.rl.helpers import random_states, same_observation

DUALS = DualsGame()
DUALS_OBS = DualsObservation(DUALS)


def test_the_card_cells_come_from_the_games_card_set() -> None:
    """One cell per card of the game's set (43 shop cards, 19 spaces, 13 kinds)."""
    dl = DUALS_OBS.layout
    assert dl.segment("hand").length == len(DUALS.data.cards) == 43
    assert dl.segment("board").length == DUALS.data.board.size * 3 * DUALS.data.num_kinds == 19 * 3 * 13


def test_max_steps_follow_the_derivation() -> None:
    """5 x 43 + (2 x 19 + 4) x 45 + 43 + 18."""
    assert duals_obs.max_turns(DUALS.data) == 43 + 2
    assert DUALS_OBS.max_steps == 5 * 43 + (2 * 19 + 4) * 45 + 43 + 18 == 2166


def test_duals_cells_say_what_the_layout_says() -> None:
    lay = DUALS_OBS.layout
    state = random_states(DUALS, {}, 4)[10]
    me = state.to_act
    obs = observe(DUALS_OBS, state.view(me))
    board = lay.segment("board")
    k = DUALS.data.num_kinds
    for s, stack in enumerate(state.stacks):
        for level in range(3):
            cells = obs[board.offset + (s * 3 + level) * k : board.offset + (s * 3 + level + 1) * k]
            assert list(np.flatnonzero(cells)) == ([stack[level]] if level < len(stack) else [])
    bag = lay.segment("bag")
    assert [round(float(obs[bag.offset + kind]) * DUALS.data.supply[kind]) for kind in range(k)] == \
        [state.bag.count(kind) for kind in range(k)]
    hand = lay.segment("hand")
    assert sorted(np.flatnonzero(obs[hand.offset : hand.offset + hand.length]) + 1) == sorted(state.hands[me])


def _duals_positions() -> list[tuple[DualsState, int]]:
    found = []
    for seed in range(6):
        for st in random_states(DUALS, {"buddy": seed % 2 == 1}, seed)[::4]:
            if st.to_act is not None and len(set(st.bag)) > 1 and len(st.deck) > 2 and st.hands[1 - st.to_act]:
                found += [(st, 0), (st, 1)]
    assert len(found) > 40
    return found


def test_duals_the_bag_the_deck_order_and_the_opponents_hand_change_no_observation() -> None:
    for st, seat in _duals_positions():
        o = 1 - seat
        # the bag's order (its contents are public, D10)
        other = st.clone()
        other.bag.reverse()
        assert other.bag != st.bag
        assert same_observation(DUALS_OBS, st, other, seat)
        # the deck's order, the cards either seat put at the bottom kept in their places
        other = st.clone()
        known = set(other.known_bottom[0]) | set(other.known_bottom[1])
        free = [i for i, c in enumerate(other.deck) if c not in known]
        values = [other.deck[i] for i in free]
        for i, c in zip(free, values[::-1], strict=True):
            other.deck[i] = c
        assert view_json(other.view(seat)) == view_json(st.view(seat))
        assert same_observation(DUALS_OBS, st, other, seat)
        # the opponent's hand: a card swapped with one of the deck
        other = st.clone()
        j = free[0]
        other.hands[o][0], other.deck[j] = other.deck[j], other.hands[o][0]
        assert view_json(other.view(seat)) == view_json(st.view(seat))
        assert same_observation(DUALS_OBS, st, other, seat)
        # control: my own hand is mine to see
        mine = st.clone()
        if mine.hands[seat]:
            mine.hands[seat][0], mine.deck[j] = mine.deck[j], mine.hands[seat][0]
            mine._match_cache = {}
            assert not same_observation(DUALS_OBS, st, mine, seat)
