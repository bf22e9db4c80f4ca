"""The Gymnasium single-agent environments (rl/single.py, issue 13): the learner's seat against a registry bot,
Gymnasium's own checker, vector environments."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from flametable.games.duals.environments import DualsEnv
from flametable.games.duel.environments import DuelEnv
from flametable.rl.single import SingleEnv
from tests.rl.helpers import random_action


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
