"""Importing flametable.rl (rl/__init__.py) registers the environment ids the games' entries declare with both
libraries."""

from __future__ import annotations

import gymnasium
import pettingzoo

from flametable.games.duals.environments import DualsEnv
from flametable.games.duel.environments import DuelEnv


def test_both_libraries_make_the_environments_by_id() -> None:
    assert str(pettingzoo.make("aec", "flametable/duel_v0").unwrapped) == "duel_v0"
    assert str(pettingzoo.make("aec", "flametable/duals_v0", buddy=True).unwrapped) == "duals_v0"
    assert isinstance(gymnasium.make("flametable/Duel-v0").unwrapped, DuelEnv)
    assert isinstance(gymnasium.make("flametable/Duals-v0", seat=1).unwrapped, DualsEnv)
