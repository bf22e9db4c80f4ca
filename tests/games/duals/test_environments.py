"""Flamecraft Duals' learning environments (games/duals/environments.py): its options and custom board data reach
the game."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from flametable.games.duals import environments as duals_v0
from tests.builtin_data import DUALS_DATA
from tests.rl.helpers import play_out


def test_options_custom_cards_and_data_reach_the_game(tmp_path: Path) -> None:
    data = tmp_path / "duals.toml"
    data.write_text(DUALS_DATA.read_text().replace('"flamecraft-duals-base"', '"my-board"'))
    env = duals_v0.raw_env(buddy=True, data=data)
    assert env.game.content_id()[0] == "my-board"
    env.reset(seed=2)
    assert env.match.view(0).buddy
    play_out(env, np.random.default_rng(0))
