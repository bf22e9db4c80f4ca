"""Flame Duel's learning environments (games/duel/environments.py): its options, own decks and a custom card set
reach the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from flametable.core.errors import RecordError
from flametable.games.duel import environments as duel_v0
from tests.builtin_data import DUEL_CARDS
from tests.rl.helpers import DECK


def test_options_custom_cards_and_data_reach_the_game(tmp_path: Path) -> None:
    env = duel_v0.raw_env(mode="decks", decks=[DECK, None])
    env.reset(seed=9)
    assert env.match.view(0).my_characters == (1, 2, 3)
    with pytest.raises(RecordError):
        duel_v0.raw_env(mode="decks", pick="draft")
    cards = tmp_path / "cards.toml"
    cards.write_text(DUEL_CARDS.read_text().replace('"flametable-base"', '"my-cards"'))
    assert duel_v0.raw_env(cards=cards).game.content_id()[0] == "my-cards"
