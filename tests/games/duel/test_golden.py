"""Golden recorded matches: any change in the engine's behaviour shows up here.

The records in ``tests/games/duel/golden`` were made by ``tests/games/duel/golden/regen.py``; regenerating them is a
deliberate rules change (see the README there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from flametable.core.record import MatchRecord
from flametable.games.duel.game import DuelGame
from flametable.games.duel.state import DuelState
from tests.games.duel.golden import regen
from tests.golden import check_played_today, replay_golden

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN = "tests/games/duel/golden/regen.py"
GAME = DuelGame()

FILES = sorted(p.name for p in GOLDEN_DIR.glob("*.json") if p.name not in regen.NOT_RECORDS)


def test_the_golden_set_is_complete() -> None:
    expected = sorted(f"{stem}.json" for stem, _options, _seed in regen.GOLDEN)
    assert expected == FILES, f"run {REGEN}"
    modes = [options.get("pick", "random") + "/" + options["mode"] for _stem, options, _seed in regen.GOLDEN]
    assert sorted(set(modes)) == ["draft/shared", "random/decks", "random/shared"]
    assert all(modes.count(m) == 2 for m in modes)


@pytest.mark.parametrize("name", FILES)
def test_golden_record_replays_to_its_stored_result(name: str) -> None:
    state = replay_golden(GAME, GOLDEN_DIR / name, GAME.cards.hash, REGEN)
    assert isinstance(state, DuelState)
    assert state.outcome is not None
    assert list(state.outcome.scores) == list(state.wins)


@pytest.mark.parametrize("name", FILES)
def test_golden_record_is_what_the_bots_play_today(name: str) -> None:
    """Same seeds, same bots, same decisions: catches changes in the deal or in the order of legal actions
    that a replay alone would not notice."""
    check_played_today(regen.generate(GAME)[name], GOLDEN_DIR / name, regen.render, REGEN)


def test_golden_set_covers_the_tie_break() -> None:
    reasons = {(MatchRecord.load(GOLDEN_DIR / name).result or {}).get("reason") for name in FILES}
    assert reasons & {"tiebreak_round", "tied_match"}, f"pick seeds in {REGEN} so a golden match has a tie-break"
    assert "two_round_wins" in reasons
