"""The learning environments' tests play the registry of tests/rl/stand_ins.py."""

from __future__ import annotations

import sys
import warnings

import pytest

from flametable.core import registry
from tests.rl.stand_ins import games_with_observations

with warnings.catch_warnings():  # pettingzoo 1.27's api_test imports connect_four_v3 the way it now deprecates
    warnings.simplefilter("ignore", DeprecationWarning)
    import pettingzoo.test.api_test  # noqa: F401  (the fixture below patches it)


@pytest.fixture(autouse=True)
def games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", games_with_observations())
    # Our observations are PettingZoo classic's Dict of observation and action mask: api_test knows the classic
    # environments by name and only warns (an error here) about the Dict for environments it does not know.
    module = sys.modules["pettingzoo.test.api_test"]
    names = ["duel_v0", "duals_v0", "tiny_v0"]
    monkeypatch.setattr(module, "env_obs_dicts", [*module.env_obs_dicts, *names])
    monkeypatch.setattr(module, "env_obs_space", [*module.env_obs_space, *names])
