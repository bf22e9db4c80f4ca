"""The learning environments (issue 13): PettingZoo's AEC environments of both games and of any game whose registry
entry gives an observation piece, the Gymnasium single-agent environments, and the batch API.

The specs come from the registry (``entry.piece("observation")``); tests/rl/stand_ins.py gives a game a stand-in
only while its entry names none, and gives the plug-in Secret Nim its own.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env

from flametable.core import registry
from flametable.core.errors import IllegalAction, RecordError
from flametable.core.registry import Registry, builtins
from flametable.games.duals import environments as duals_v0
from flametable.games.duals.environments import DualsEnv
from flametable.games.duel import environments as duel_v0
from flametable.games.duel.environments import DuelEnv
from flametable.rl import aec
from flametable.rl.batch import BatchEnv
from flametable.rl.single import SingleEnv
from flametable.rl.spec import bounds, observe
from tests.builtin_data import DUALS_DATA, DUEL_CARDS
from tests.rl.stand_ins import games_with_observations

with warnings.catch_warnings():  # pettingzoo 1.27's api_test imports connect_four_v3 the way it now deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test

DECK = {"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}


@pytest.fixture(autouse=True)
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", games_with_observations())
    # Our observations are PettingZoo classic's Dict of observation and action mask: api_test knows the classic
    # environments by name and only warns (an error here) about the Dict for environments it does not know.
    module = sys.modules["pettingzoo.test.api_test"]
    names = ["duel_v0", "duals_v0", "tiny_v0"]
    monkeypatch.setattr(module, "env_obs_dicts", [*module.env_obs_dicts, *names])
    monkeypatch.setattr(module, "env_obs_space", [*module.env_obs_space, *names])


def random_action(rng: np.random.Generator, mask: Any) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_out(env: aec.FlametableAEC, rng: np.random.Generator) -> list[int]:
    """Random legal actions to the end of the match; the actions played."""
    played = []
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        action = None if terminated or truncated else random_action(rng, obs["action_mask"])
        if action is not None:
            played.append(action)
        env.step(action)
    return played


# ---------------------------------------------------------------------- PettingZoo


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


def test_both_libraries_make_the_environments_by_id() -> None:
    assert str(pettingzoo.make("aec", "flametable/duel_v0").unwrapped) == "duel_v0"
    assert str(pettingzoo.make("aec", "flametable/duals_v0", buddy=True).unwrapped) == "duals_v0"
    assert isinstance(gymnasium.make("flametable/Duel-v0").unwrapped, DuelEnv)
    assert isinstance(gymnasium.make("flametable/Duals-v0", seat=1).unwrapped, DualsEnv)


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


def test_options_custom_cards_and_data_reach_the_game(tmp_path: Path) -> None:
    env = duel_v0.raw_env(mode="decks", decks=[DECK, None])
    env.reset(seed=9)
    assert env.match.view(0).my_characters == (1, 2, 3)
    with pytest.raises(RecordError):
        duel_v0.raw_env(mode="decks", pick="draft")
    cards = tmp_path / "cards.toml"
    cards.write_text(DUEL_CARDS.read_text().replace('"flametable-base"', '"my-cards"'))
    assert duel_v0.raw_env(cards=cards).game.content_id()[0] == "my-cards"
    data = tmp_path / "duals.toml"
    data.write_text(DUALS_DATA.read_text().replace('"flamecraft-duals-base"', '"my-board"'))
    env = duals_v0.raw_env(buddy=True, data=data)
    assert env.game.content_id()[0] == "my-board"
    env.reset(seed=2)
    assert env.match.view(0).buddy
    play_out(env, np.random.default_rng(0))


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


# ---------------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("env_id", ["flametable/Duel-v0", "flametable/Duals-v0"])
@pytest.mark.parametrize("dict_obs", [True, False])
def test_gymnasium_check_env_passes(env_id: str, dict_obs: bool) -> None:
    check_env(gymnasium.make(env_id, dict_obs=dict_obs).unwrapped)


def test_the_learner_plays_its_seat_against_the_bot() -> None:
    env = DuelEnv(opponent="bot:greedy")
    rng = np.random.default_rng(1)
    seats, rewards = [], []
    obs, info = env.reset(seed=11)
    for _ in range(6):
        seats.append(info["seat"])
        done = False
        while not done:
            assert env.match.to_act == info["seat"]  # the bot has played up to the learner's decision
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            assert np.array_equal(obs["action_mask"], info["action_mask"])
            obs, reward, done, truncated, info = env.step(random_action(rng, info["action_mask"]))
            assert not truncated
        winner = env.match.outcome.winner
        assert reward == (0.0 if winner is None else (1.0 if winner == info["seat"] else -1.0))
        rewards.append(reward)
        obs, info = env.reset()
    assert seats == [0, 1, 0, 1, 0, 1]  # seats alternate
    fixed = DualsEnv(seat=1, dict_obs=False)
    obs, info = fixed.reset(seed=0)
    assert isinstance(obs, np.ndarray)
    assert info["seat"] == 1
    assert fixed.match.to_act == 1


def test_an_illegal_action_loses_the_episode() -> None:
    env = DuelEnv(seat=0)
    _obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, _truncated, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    assert not info["action_mask"].any()
    # Only what the seat may know: never the match seed, which decides every shuffle (the cards the bot holds, the
    # draw order). A new key is a decision to make here.
    assert set(info) == {"action_mask", "seat", "illegal"}
    with pytest.raises(RuntimeError):
        env.step(0)


def test_single_env_refuses_unknown_bots_and_seats() -> None:
    with pytest.raises(ValueError, match="bot:wizard"):
        SingleEnv("duel", opponent="bot:wizard")
    with pytest.raises(ValueError, match="seat"):
        DuelEnv(seat=2)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_environments_step(mode: str) -> None:
    envs = gymnasium.make_vec("flametable/Duel-v0", num_envs=2, vectorization_mode=mode, opponent="bot:random")
    try:
        obs, _info = envs.reset(seed=3)
        rng = np.random.default_rng(3)
        finished = 0
        for _ in range(60):
            actions = np.array([random_action(rng, m) if m.any() else 0 for m in obs["action_mask"]])
            obs, rewards, terminated, _truncated, _info = envs.step(actions)
            assert obs["observation"].shape[0] == 2
            finished += int(terminated.sum())
            assert set(np.abs(rewards[terminated]).tolist()) <= {0.0, 1.0}
        assert finished >= 2
    finally:
        envs.close()


# ---------------------------------------------------------------------- batch


@pytest.mark.parametrize("name", ["duel", "duals"])
def test_the_batch_plays_the_matches_the_aec_env_plays(name: str) -> None:
    batch = BatchEnv(name, 3, seed=21)
    obs, mask = batch.reset()
    rng = np.random.default_rng(21)
    # per slot, each match it played: its seed, then (observation, mask, seat, action) at each step
    matches: list[list[tuple[int, list[Any]]]] = [[(int(batch.match_seeds[i]), [])] for i in range(3)]
    results: list[list[Any]] = [[] for _ in range(3)]
    for _ in range(250):
        actions = np.array([random_action(rng, m) for m in mask])
        for i in range(3):
            matches[i][-1][1].append((obs[i].copy(), mask[i].copy(), int(batch.seats[i]), int(actions[i])))
        obs, mask, rewards, dones = batch.step(actions)
        for done in np.flatnonzero(dones).tolist():
            results[done].append(rewards[done].tolist())
            matches[done].append((int(batch.match_seeds[done]), []))
    assert batch.matches_played == sum(len(r) for r in results) > 0
    env = aec.raw_env(name)
    for slot in range(3):
        for k, (seed, steps) in enumerate(matches[slot][:-1]):
            env.reset(seed=seed)
            for observation, legal, seat, action in steps:
                assert env.agent_selection == f"player_{seat}"
                seen = env.observe(env.agent_selection)
                assert np.array_equal(seen["observation"], observation)
                assert np.array_equal(seen["action_mask"], legal)
                env.step(action)
            assert [env.rewards["player_0"], env.rewards["player_1"]] == results[slot][k]


def test_the_batch_refuses_an_illegal_action_before_playing_any() -> None:
    batch = BatchEnv("duel", 2, seed=0)
    _obs, mask = batch.reset()
    before = [st.view(0) for st in batch.states]
    legal = int(np.flatnonzero(mask[0])[0])
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match=r"matches \[1\]"):
        batch.step([legal, illegal])
    with pytest.raises(ValueError, match="one action per match"):
        batch.step([legal])
    assert [st.view(0) for st in batch.states] == before
