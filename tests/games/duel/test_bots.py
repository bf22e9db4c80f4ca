"""Bots play from their seat's view only (issue 4): views hold no state, determinisers agree with views."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from flametable.bots.base import RandomBot
from flametable.bots.greedy import GreedyBot
from flametable.bots.ismcts import IsmctsBot
from flametable.bots.registry import BotSpecError, make_bot
from flametable.core.rng import Rng
from flametable.games.duel.determinize import Sampler, determinize
from flametable.games.duel.game import DuelGame
from flametable.games.duel.state import DuelState
from flametable.service import play

GAME = DuelGame()
MODES: list[dict[str, Any]] = [{"mode": "shared"}, {"mode": "shared", "pick": "draft"}, {"mode": "decks"}]


def states(options: dict[str, Any], seeds: range) -> list[DuelState]:
    """Every state of random matches (seeded by ``seeds``), each match's final state included."""
    out = []
    for seed in seeds:
        st = GAME.new_match(options, seed)
        rng = Rng(seed)
        while st.to_act is not None:
            out.append(st.clone())
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])
        out.append(st)
    return out


def reachable(obj: object, limit: int = 5000) -> list[object]:
    seen: dict[int, object] = {}
    todo = [obj]
    while todo and len(seen) < limit:
        o = todo.pop()
        if id(o) in seen or isinstance(o, type):
            continue
        seen[id(o)] = o
        todo.extend(gc.get_referents(o))
    return list(seen.values())


@pytest.mark.parametrize("options", MODES)
def test_a_view_holds_no_reference_to_the_state(options: dict[str, Any]) -> None:
    """A bot is given the view only; nothing reachable from a view is the engine's state or its lists."""
    for st in states(options, range(5))[::4]:
        hidden = [id(st.hands[0]), id(st.hands[1]), *(id(p) for p in st.piles), id(st.lineups[0]), id(st.lineups[1])]
        for seat in (0, 1, None):
            objs = reachable(st.view(seat))
            assert not any(isinstance(o, DuelState) for o in objs)
            assert not {id(o) for o in objs} & set(hidden)


@pytest.mark.parametrize("options", MODES)
def test_determiniser_samples_agree_with_everything_the_view_shows(options: dict[str, Any]) -> None:
    """Each sample, seen from the same seat, shows exactly the view it was sampled from, and plays on."""
    rng = Rng(11)
    for st in states(options, range(25)):
        if st.to_act is None:
            continue
        for seat in (0, 1):
            view = st.view(seat)
            sample = determinize(view, GAME.cards, rng)
            assert sample.view(seat) == view
            rest = sample.clone()
            while rest.to_act is not None:
                legal = rest.legal_actions()
                rest.apply(legal[rng.below(len(legal))])


def test_determiniser_samples_vary_the_hidden_part_only() -> None:
    """The opponent's hand is sampled: different samples differ, and never include my own cards."""
    st = GAME.new_match({"mode": "shared"}, 4)
    while st.phase.name != "PLAY":
        st.apply(st.legal_actions()[0])
    me = st.to_act
    assert me is not None
    view = st.view(me)
    sampler = Sampler(view, GAME.cards)
    rng = Rng(3)
    samples = [sampler(rng) for _ in range(50)]
    assert all(sample.view(me) == view for sample in samples)  # what I see is the same in every sample
    hands = {tuple(sorted(sample.hands[1 - me])) for sample in samples}
    assert len(hands) > 1
    for hand in hands:
        assert not set(hand) & set(view.hand)


def test_spectators_cannot_be_determinised() -> None:
    with pytest.raises(ValueError, match="seat"):
        determinize(GAME.new_match({}, 1).view(None), GAME.cards, Rng(1))


@pytest.mark.parametrize("spec", ["bot:random", "bot:greedy", "bot:easy", "bot:medium", "bot:ismcts:30"])
def test_bots_finish_matches_with_legal_actions(spec: str) -> None:
    for seed in range(3):
        st = GAME.new_match({}, seed)
        bots = [make_bot(spec, GAME, seed), make_bot("bot:random", GAME, seed + 1)]
        outcome = play(st, [b.choose for b in bots])
        assert outcome is not None


def test_ismcts_respects_its_iteration_budget_and_is_deterministic() -> None:
    st = GAME.new_match({}, 9)
    while st.phase.name != "STAT":
        st.apply(st.legal_actions()[0])
    seat = st.to_act
    assert seat is not None
    view = st.view(seat)
    choices = []
    for _ in range(2):
        bot = make_bot("bot:ismcts:200", GAME, 5)
        assert isinstance(bot, IsmctsBot)
        choices.append(bot.choose(view, st.legal_actions()))
        assert bot.last_iterations == 200
    assert choices[0] == choices[1]


def test_greedy_beats_random_clearly() -> None:
    points = 0.0
    for seed in range(40):
        st = GAME.new_match({}, seed)
        greedy = make_bot("bot:greedy", GAME, seed)
        assert isinstance(greedy, GreedyBot)
        seats = [greedy.choose, RandomBot(seed).choose]
        if seed % 2:
            seats.reverse()
        points += play(st, seats).points(seed % 2)
    assert points / 40 >= 0.75


@pytest.mark.parametrize("spec", ["bot:", "bot:nobody", "bot:ismcts:0", "bot:ismcts:x", "random"])
def test_unknown_bots_are_named_in_the_error(spec: str) -> None:
    with pytest.raises(ValueError, match="bot"):
        make_bot(spec, GAME, 0)


@pytest.mark.parametrize("spec", ["bot:ismcts:²", "bot:ismcts:٣", "bot:ismcts:-3", "bot:ismcts: 5"])
def test_a_bot_with_a_count_that_is_no_ascii_whole_number_is_a_spec_error(spec: str) -> None:
    with pytest.raises(BotSpecError, match="N in bot:ismcts:N must be a whole number"):
        make_bot(spec, GAME, 0)


def test_lab_bots_run_on_iterations_only_so_a_seed_reproduces_them() -> None:
    timed = make_bot("bot:hard", DuelGame(), 0)
    lab = make_bot("bot:hard", DuelGame(), 0, deterministic=True)
    assert isinstance(timed, IsmctsBot)
    assert isinstance(lab, IsmctsBot)
    assert timed.seconds is not None
    assert lab.seconds is None
    assert lab.iterations == timed.iterations
