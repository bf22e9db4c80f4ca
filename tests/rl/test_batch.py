"""The batch API (rl/batch.py, issue 13): many matches stepped at once, the same matches as the AEC environment's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from flametable.rl import aec
from flametable.rl.batch import BatchEnv
from tests.rl.helpers import random_action


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
