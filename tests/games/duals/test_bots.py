"""Duals bots play from their seat's view only: views hold no state, the determiniser agrees with views."""

from __future__ import annotations

import gc

import pytest

from flametable.bots.registry import make_bot
from flametable.core.rng import Rng
from flametable.games.duals.determinize import Sampler, determinize
from flametable.games.duals.game import DualsGame
from flametable.games.duals.state import DualsState
from flametable.service import play

GAME = DualsGame()


def states(buddy: bool, seeds: range, every: int = 1) -> list[DualsState]:
    out = []
    for seed in seeds:
        st = GAME.new_match({"buddy": buddy}, seed)
        rng = Rng(seed)
        k = 0
        while st.to_act is not None:
            if k % every == 0:
                out.append(st.clone())
            k += 1
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])
        out.append(st)
    return out


@pytest.mark.parametrize("buddy", [False, True])
def test_a_view_holds_no_reference_to_the_state(buddy: bool) -> None:
    for st in states(buddy, range(3), every=20):
        hidden = {id(st.hands[0]), id(st.hands[1]), id(st.deck), id(st.bag), id(st.rng)}
        for seat in (0, 1, None):
            seen: dict[int, object] = {}
            todo: list[object] = [st.view(seat)]
            while todo:
                o = todo.pop()
                if id(o) in seen or isinstance(o, type):
                    continue
                seen[id(o)] = o
                todo.extend(gc.get_referents(o))
            assert not any(isinstance(o, DualsState) for o in seen.values())
            assert not set(seen) & hidden


@pytest.mark.parametrize("buddy", [False, True])
def test_determiniser_samples_agree_with_everything_the_view_shows(buddy: bool) -> None:
    """Each sample, seen from the same seat, shows exactly the view it was sampled from, and plays on."""
    rng = Rng(5)
    for n, st in enumerate(states(buddy, range(8), every=3)):
        if st.to_act is None:
            continue
        for seat in (0, 1):
            view = st.view(seat)
            sample = determinize(view, GAME, rng)
            assert sample.view(seat) == view
            if n % 10 == 0:
                rest = sample.clone()
                while rest.to_act is not None:
                    legal = rest.legal_actions()
                    rest.apply(legal[rng.below(len(legal))])


def test_determiniser_samples_the_hidden_part() -> None:
    """The opponent's hand and the deck order vary between samples; the bag keeps its contents."""
    st = GAME.new_match({}, 3)
    seat = st.to_act
    assert seat is not None
    view = st.view(seat)
    sampler = Sampler(view, GAME)
    rng = Rng(1)
    samples = [sampler(rng) for _ in range(30)]
    assert len({tuple(s.hands[1 - seat]) for s in samples}) > 1
    assert len({tuple(s.deck) for s in samples}) > 1
    for s in samples:
        assert sorted(s.bag) == sorted(st.bag)
        assert not set(s.hands[1 - seat]) & set(view.hand)


@pytest.mark.parametrize("spec", ["bot:greedy", "bot:easy", "bot:ismcts:20"])
def test_bots_finish_duals_matches(spec: str) -> None:
    st = GAME.new_match({}, 2)
    bots = [make_bot(spec, GAME, 1), make_bot("bot:random", GAME, 2)]
    assert play(st, [b.choose for b in bots]) is not None


def test_planner_chooses_a_legal_action_and_is_reproducible() -> None:
    st = GAME.new_match({}, 8)
    seat = st.to_act
    assert seat is not None
    view = st.view(seat)
    picks = [make_bot("bot:planner", GAME, 4).choose(view, st.legal_actions()) for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in st.legal_actions()


def test_hard_is_the_planner_in_duals_and_beats_random() -> None:
    from flametable.bots.planner import TurnPlanner

    assert isinstance(make_bot("bot:hard", GAME, 0), TurnPlanner)
    points = 0.0
    for seed in range(6):
        seats = [make_bot("bot:hard", GAME, seed).choose, make_bot("bot:random", GAME, seed).choose]
        if seed % 2:
            seats.reverse()
        points += play(GAME.new_match({}, seed), seats).points(seed % 2)
    assert points >= 5


def test_planner_settings_are_checked() -> None:
    from flametable.bots.planner import TurnPlanner

    with pytest.raises(ValueError, match="at least 1"):
        TurnPlanner(lambda view: lambda rng: GAME.new_match({}, 0), lambda state, seat: 0.0, samples=0)
