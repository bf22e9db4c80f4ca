"""The PettingZoo AEC environments (rl/aec.py, issue 13) of both games and of any game whose registry entry gives
an observation piece: PettingZoo's own tests, seeding, observations and masks, rewards, the wrappers' checks,
render().

The specs come from the registry (``entry.piece("observation")``); tests/rl/stand_ins.py gives a game a stand-in
only while its entry names none, and gives the plug-in Secret Nim its own (tests/rl/conftest.py).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest

from flametable.core import registry
from flametable.core.errors import IllegalAction
from flametable.core.registry import Registry, builtins
from flametable.games.duals import environments as duals_v0
from flametable.games.duel import environments as duel_v0
from flametable.rl import aec
from flametable.rl.spec import bounds, observe
from tests.rl.helpers import DECK, random_action

with warnings.catch_warnings():  # pettingzoo 1.27's api_test imports connect_four_v3 the way it now deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test


@pytest.mark.parametrize("make", [
    lambda: duel_v0.env(),
    lambda: duel_v0.env(mode="decks", decks=[DECK, None]),
    lambda: duel_v0.env(pick="draft"),
    lambda: duals_v0.env(),
    lambda: duals_v0.env(buddy=True),
], ids=["duel", "duel-decks", "duel-draft", "duals", "duals-buddy"])
def test_pettingzoo_api_test_passes(make: Callable[[], Any]) -> None:
    api_test(make(), num_cycles=200)


@pytest.mark.parametrize("make", [duel_v0.env, duals_v0.env], ids=["duel", "duals"])
def test_pettingzoo_seed_test_passes(make: Callable[[], Any]) -> None:
    seed_test(make, num_cycles=200)


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_a_seeded_reset_plays_the_engine_match_of_that_seed(name: str) -> None:
    env = aec.raw_env(name)
    env.reset(seed=1234)
    game = registry.make_game(name)
    assert env.match.view(0) == game.new_match({}, 1234).view(0)
    assert env.agent_selection == f"player_{env.match.to_act}"
    env.reset()  # the next match's seed comes from the generator that reset(seed=1234) seeded
    again = aec.raw_env(name)
    again.reset(seed=1234)
    again.reset()
    assert env.match_seed == again.match_seed != 1234


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_observations_are_the_seat_views_and_masks_its_legal_actions(name: str) -> None:
    env = aec.raw_env(name)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(40):
        if env.match.outcome is not None:
            break
        for seat, agent in enumerate(env.possible_agents):
            obs = env.observe(agent)
            assert obs["observation"].dtype == np.float32
            assert obs["action_mask"].dtype == np.int8
            assert np.array_equal(obs["observation"], observe(env.observation_spec, env.match.view(seat)))
            legal = sorted(a.id for a in env.match.legal_actions()) if env.match.to_act == seat else []
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        before = env.observe(env.agent_selection)
        kept = {key: array.copy() for key, array in before.items()}
        env.step(random_action(rng, before["action_mask"]))
        now = env.observe(env.agent_selection)
        assert all(now[key] is not before[key] for key in now)  # new arrays each step: a learner may keep them
        assert all(np.array_equal(before[key], kept[key]) for key in kept)  # ...unchanged by the steps after


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_rewards_are_plus_one_and_minus_one_at_the_end(name: str) -> None:
    env = aec.raw_env(name)
    rng = np.random.default_rng(3)
    for seed in range(4):
        env.reset(seed=seed)
        seen: dict[str, float] = {}
        for agent in env.agent_iter():
            obs, reward, terminated, _truncated, info = env.last()
            assert info == {}  # nothing beside the observation: never the seed, never the state
            if not terminated:
                assert reward == 0
                env.step(random_action(rng, obs["action_mask"]))
                continue
            if agent not in seen:
                seen[agent] = reward
            env.step(None)
        winner = env.match.outcome.winner
        expected = {f"player_{s}": 0.0 if winner is None else (1.0 if s == winner else -1.0) for s in (0, 1)}
        assert seen == expected
        assert env.agents == []


def test_an_illegal_action_raises_in_the_raw_env_and_loses_in_the_wrapped_one() -> None:
    raw = duel_v0.raw_env()
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        raw.step(illegal)
    wrapped = duel_v0.env()
    wrapped.reset(seed=0)
    cheat = wrapped.agent_selection
    wrapped.step(illegal)  # PettingZoo logs it
    assert wrapped.rewards[cheat] == -1
    assert all(wrapped.terminations.values())


def snapshot(env: Any) -> tuple[Any, ...]:
    obs = env.observe(env.agent_selection) if env.agents else None
    return (env.agent_selection, list(env.agents), dict(env.rewards), dict(env._cumulative_rewards),
            dict(env.terminations), dict(env.truncations),
            None if obs is None else (obs["observation"].tolist(), obs["action_mask"].tolist()))


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_env_makes_the_checks_of_pettingzoos_three_wrappers(name: str) -> None:
    """env() is one layer doing what TerminateIllegal(-1), AssertOutOfBounds and OrderEnforcing do around raw_env:
    the same rewards, terminations and observations after legal, illegal and dead steps, the same errors."""
    ours, theirs = aec.env(name), aec.pettingzoo_wrapped(name)
    early: list[Callable[[Any], Any]] = [lambda e: e.step(0), lambda e: e.observe("player_0"),
                                         lambda e: e.agent_iter(), lambda e: e.render(), lambda e: e.state()]
    for env in (ours, theirs):
        for call in early:
            with pytest.raises(AssertionError, match="reset"):
                call(env)
        for name in ("agents", "rewards", "terminations", "agent_selection", "num_agents"):
            with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
                getattr(env, name)
    rng = np.random.default_rng(11)
    illegal_seen = 0
    for seed in range(12):
        for env in (ours, theirs):
            env.reset(seed=seed)
        for agent in ours.agent_iter():
            obs, _reward, terminated, truncated, _info = ours.last()
            theirs.last()
            if terminated or truncated:
                action = None
            elif rng.random() < 0.05:  # now and then an illegal action
                action = int(rng.choice(np.flatnonzero(obs["action_mask"] == 0)))
                illegal_seen += 1
            else:
                action = random_action(rng, obs["action_mask"])
            for env in (ours, theirs):
                env.step(action)
            assert snapshot(ours) == snapshot(theirs), agent
        ours.reset(seed=seed)
        with pytest.raises(AssertionError, match="action space"):  # out of the space
            ours.step(ours.num_actions)
    assert illegal_seen > 3
    for env in (ours, theirs):
        env.reset(seed=0)
        for wrong in (-1, np.int64(-1), 2**70, 1.0, np.bool_(True)):
            with pytest.raises(AssertionError, match="action space"):
                env.step(wrong)
    with pytest.raises(AssertionError, match="action space"):
        ours.step(True)  # an int to Python, not an action (PettingZoo's wrappers fail on it too)
    ours.reset(seed=0)
    iterator = iter(ours.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="step"):  # two agents without a step between them
        next(iterator)


def test_there_is_no_global_state_to_show_what_each_agent_may_not_see() -> None:
    env = duel_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(NotImplementedError, match="hides information"):
        env.state()


def test_render_ansi_is_the_terminals_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    from flametable.cli import i18n

    monkeypatch.setattr(i18n, "_terminal", i18n.translator())  # the terminal's language back after the test
    i18n.set_language("es")
    spanish = duel_v0.raw_env(render_mode="ansi")
    spanish.reset(seed=1)
    assert "Duelo de llamas" in (spanish.render() or "")  # in the terminal's language
    i18n.set_language("en")
    env = duel_v0.raw_env(render_mode="ansi")
    env.reset(seed=1)
    drawing = env.render()
    assert isinstance(drawing, str)
    assert "Flame Duel" in drawing
    assert "\x1b" not in drawing  # plain text
    duals = duals_v0.raw_env(render_mode="ansi")
    duals.reset(seed=1)
    assert "c3" in (duals.render() or "")  # the hex board's centre space
    assert duel_v0.raw_env().render() is None  # no render mode, nothing drawn


def test_a_plug_in_game_with_an_observation_piece_gets_an_environment() -> None:
    env = aec.env("tiny", render_mode="ansi")
    api_test(env, num_cycles=20)
    raw = aec.raw_env("tiny", render_mode="ansi")
    raw.reset(seed=0)
    assert "bid 1" in (raw.render() or "")  # no table piece: the view as text and the legal actions
    assert raw.observe("player_0")["action_mask"].tolist() == [1, 1, 1, 0, 0]
    assert raw.observe("player_1")["action_mask"].tolist() == [0, 0, 0, 0, 0]
    box = raw.observation_spaces["player_0"]["observation"]  # the spec's own low and high, as bounds() says
    assert isinstance(box, gymnasium.spaces.Box)
    low, high = bounds(raw.observation_spec)
    assert (box.low.min(), box.high.max()) == (0.0, 1.0)
    assert np.array_equal(box.low, low)
    assert np.array_equal(box.high, high)


def test_a_game_without_an_observation_piece_has_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    bare = registry.wrap(__import__("tests.service.tiny", fromlist=["TinyGame"]).TinyGame(), origin="tiny = x")
    monkeypatch.setattr(registry, "GAMES", Registry([*builtins(), bare]))
    with pytest.raises(ValueError, match="no 'observation' piece"):
        aec.raw_env("tiny")


def test_render_needs_no_terminal_interface() -> None:
    """rl stands beside cli, not above it (issue 20): the drawing render() makes lies below the interfaces (the plain
    text of flametable.texts, a game's own table piece)."""
    from tests.test_architecture import imports, modules

    found = [(path.name, name) for path in modules("rl") for name in imports(path) if name.startswith("flametable.cli")]
    assert found == []
