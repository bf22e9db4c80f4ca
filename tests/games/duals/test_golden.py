"""Golden recorded matches and perft counts: any change in the engine's behaviour shows up here.

The files in ``tests/games/duals/golden`` were made by ``tests/games/duals/golden/regen.py``; regenerating them is a
deliberate rules change (see the README there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flametable.games.duals.game import DualsGame
from tests.games.duals.golden import regen
from tests.golden import check_played_today, replay_golden

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN = "tests/games/duals/golden/regen.py"
GAME = DualsGame()

FILES = sorted(p.name for p in GOLDEN_DIR.glob("*.json") if p.name != regen.PERFT)
PERFT: list[dict[str, Any]] = json.loads((GOLDEN_DIR / regen.PERFT).read_text(encoding="utf-8"))["perft"]


def test_the_golden_set_is_complete() -> None:
    assert sorted(f"{stem}.json" for stem, _options, _seed in regen.GOLDEN) == FILES, f"run {REGEN}"
    buddy = [options["buddy"] for _stem, options, _seed in regen.GOLDEN]
    assert buddy.count(True) >= 2, "the Buddy variant (D11) has golden matches"
    assert buddy.count(False) >= 2
    assert [entry["name"] for entry in PERFT] == [name for name, *_ in regen.PERFT_STATES], f"run {REGEN}"


@pytest.mark.parametrize("name", FILES)
def test_golden_record_replays_to_its_stored_result(name: str) -> None:
    state = replay_golden(GAME, GOLDEN_DIR / name, GAME.data.hash, REGEN)
    assert state.outcome is not None  # D9: the points of each seat
    view = state.view(None)
    assert list(state.outcome.scores) == [seat.points for seat in view.seats]


@pytest.mark.parametrize("name", FILES)
def test_golden_record_is_what_the_bots_play_today(name: str) -> None:
    """Same seeds, same bots, same decisions: catches changes in the deal or in the order of legal actions
    that a replay alone would not notice."""
    check_played_today(regen.generate(GAME)[name], GOLDEN_DIR / name, regen.render, REGEN)


@pytest.mark.parametrize("entry", PERFT, ids=[entry["name"] for entry in PERFT])
def test_perft_counts(entry: dict[str, Any]) -> None:
    """The legal-action tree below a fixed state, counted to a fixed depth, is what it was."""
    counts, digest = regen.measure(GAME, entry["options"], entry["seed"], entry["prefix"], entry["depth"])
    assert counts == entry["counts"], f"{entry['name']}: the legal-action tree changed; if deliberate, run {REGEN}"
    assert digest == entry["digest"], f"{entry['name']}: the legal actions (or their order) changed"


@pytest.mark.parametrize("entry", PERFT, ids=[entry["name"] for entry in PERFT])
def test_perft_prefix_reaches_the_state_it_names(entry: dict[str, Any]) -> None:
    state = GAME.new_match(entry["options"], entry["seed"])
    for text in entry["prefix"]:
        state.apply(GAME.action_from_text(text))
    assert regen.WANTS[entry["state"]](state), entry["name"]
