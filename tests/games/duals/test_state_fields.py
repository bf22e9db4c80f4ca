"""The state's fields are declared once (``slot`` in :mod:`flametable.games.duals.state`, listed in ``FIELDS``);
``__slots__``, ``blank``, ``clone`` and the determiniser's copying from a view all follow the declarations."""

from __future__ import annotations

import dataclasses

import pytest

from flametable.core.engine import REQUIRED, Copy
from flametable.core.rng import Rng
from flametable.games.duals.determinize import determinize
from flametable.games.duals.rules import Step
from flametable.games.duals.state import FIELDS, DualsState
from flametable.games.duals.view import DualsView

from .scripted import GAME

NAMES = [f.name for f in FIELDS]
VIEW_FIELDS = {f.name for f in dataclasses.fields(DualsView)}


def _states(seed: int, every: int = 7) -> list[DualsState]:
    """A seeded random match, a clone of every ``every``-th state."""
    state = GAME.new_match({"buddy": seed % 2 == 1}, seed)
    rng = Rng(seed)
    out = []
    n = 0
    while state.to_act is not None:
        if n % every == 0:
            out.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        n += 1
    out.append(state)
    return out


def test_slots_are_the_declared_fields() -> None:
    assert list(DualsState.__slots__) == NAMES
    assert len(set(NAMES)) == len(NAMES)
    for f in FIELDS:
        assert isinstance(f.copy, Copy), f.name
        assert f.view in VIEW_FIELDS | {""}, f.name


def test_blank_needs_the_game_fields_and_knows_no_others() -> None:
    with pytest.raises(TypeError, match=r"missing .*'data'"):
        DualsState.blank(buddy=False, rng=Rng(0))
    st = GAME.blank(False, Rng(0))
    given = {f.name: getattr(st, f.name) for f in FIELDS if f.empty is REQUIRED}
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        DualsState.blank(colour="red", **given)
    a, b = DualsState.blank(**given), DualsState.blank(**given)
    for f in FIELDS:  # every other field at its declared empty value, lists fresh for each state
        copy, empty = f.copy, f.empty
        if empty is REQUIRED:
            continue
        if copy is Copy.SHARED:
            assert getattr(a, f.name) is empty, f.name
        elif copy is Copy.LIST:
            assert getattr(a, f.name) == list(empty), f.name
            assert getattr(a, f.name) is not getattr(b, f.name), f.name
        elif copy is Copy.PER_SEAT:
            assert getattr(a, f.name) == [list(row) for row in empty], f.name
        elif copy is Copy.CACHE:
            assert getattr(a, f.name) == dict(empty), f.name
            assert getattr(a, f.name) is not getattr(b, f.name), f.name
    assert a.hands == [[], []]
    assert a.hands is not b.hands
    assert a.hands[0] is not b.hands[0]
    assert a.coins == [3, 3]  # setup step 2: 3 coins each
    assert a.coins is not b.coins


def test_clone_copies_every_field_by_its_declaration() -> None:
    st = _states(3)[5]
    c = st.clone()
    for f in FIELDS:
        mine, theirs = getattr(st, f.name), getattr(c, f.name)
        copy = f.copy
        if copy is Copy.CLONE:
            assert mine is not theirs
            assert mine.state == theirs.state
            continue
        assert mine == theirs, f.name
        if copy is Copy.LIST:
            assert mine is not theirs, f.name
        elif copy is Copy.PER_SEAT:
            assert mine is not theirs, f.name
            assert mine[0] is not theirs[0], f.name
            assert mine[1] is not theirs[1], f.name
        else:
            assert mine is theirs, f.name


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_determinised_state_agrees_with_the_real_one_on_every_field_the_seat_knows(seed: int) -> None:
    """Every field is public (copied from the view), the seat's own knowledge, or hidden and sampled: a field
    added without saying which would be left at its blank value and differ here."""
    hidden = {"bag", "deck", "hands", "known_bottom", "rng", "_match_cache", "_legal"}
    unordered = {"drawn", "reserve"}  # the view shows them sorted: their order only decides where they go
    # into the bag, which is hidden
    for state in _states(seed):
        for seat in (0, 1):
            sample = determinize(state.view(seat), GAME, Rng(seed))
            for f in FIELDS:
                if f.name in unordered:
                    assert sorted(getattr(sample, f.name)) == sorted(getattr(state, f.name)), f.name
                elif f.name not in hidden:
                    assert getattr(sample, f.name) == getattr(state, f.name), f.name
            assert sorted(sample.bag) == sorted(state.bag)
            assert sorted(sample.hands[seat]) == sorted(state.hands[seat])
            assert sorted(sample.known_bottom[seat]) == sorted(state.known_bottom[seat])
            assert len(sample.deck) == len(state.deck)
            assert len(sample.hands[1 - seat]) == len(state.hands[1 - seat])
            if state.to_act == seat:
                assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_no_token_is_firing_at_a_score_step_nor_at_a_turns_first_placement(seed: int) -> None:
    """``firing_space`` is -1 whenever no token fires: at every SCORE step, so that a turn, which begins only after
    one (or from a blank state), begins with none firing without setting it (issue 20, point 6)."""
    state = GAME.new_match({"buddy": seed % 2 == 1}, seed)
    rng = Rng(seed)
    turns = 0
    while True:
        if state.step == Step.SCORE or (state.step == Step.PLACE and state.turn_number > turns):
            assert state.firing_space == -1, (state.turn_number, Step(state.step).name)
        turns = state.turn_number
        if state.to_act is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    assert turns > 10
