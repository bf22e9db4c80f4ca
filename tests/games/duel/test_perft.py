"""Perft counts: the whole tree of legal actions from fixed states to a fixed depth, against golden numbers.

The numbers in ``tests/games/duel/golden/perft.json`` were made by ``tests/games/duel/golden/regen_perft.py``;
regenerating them is a deliberate rules change (see the README there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flametable.games.duel.game import DuelGame
from tests.games.duel.golden import regen_perft as regen

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN = "tests/games/duel/golden/regen_perft.py"
GAME = DuelGame()

STORED: dict[str, Any] = json.loads((GOLDEN_DIR / "perft.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in STORED["cases"]}


def test_the_perft_set_covers_every_mode_and_the_phases_of_a_match() -> None:
    assert sorted(CASES) == sorted(name for name, *_ in regen.CASES), f"run {REGEN}"
    assert STORED["content_hash"] == GAME.cards.hash, f"perft.json was made with another card set: run {REGEN}"
    modes = {(c["options"]["mode"], c["options"].get("pick", "random")) for c in CASES.values()}
    assert modes == {("shared", "random"), ("shared", "draft"), ("decks", "random")}
    stops = {stop for _name, _opts, _seed, stop, _depth in regen.CASES}
    assert stops == set(regen.STOPS)
    assert any(c["finished"] for c in CASES.values()), "some tree reaches the end of a match"


@pytest.mark.parametrize("name", sorted(CASES))
def test_perft_counts_match_the_golden_numbers(name: str) -> None:
    case = CASES[name]
    state = regen.replay(GAME, case["options"], case["seed"], case["moves"])
    counts, finished = regen.perft(state, case["depth"])
    assert (counts, finished) == (case["counts"], case["finished"]), (
        f"{name}: the tree of legal actions changed; if deliberate, run {REGEN}"
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_perft_walks_are_what_the_seeds_give_today(name: str) -> None:
    """The stored walk to each state is still the seeded walk (and still stops where the case says)."""
    _name, options, seed, stop, depth = next(c for c in regen.CASES if c[0] == name)
    case = CASES[name]
    assert (case["options"], case["seed"], case["depth"]) == (options, seed, depth)
    assert regen.walk(GAME, options, seed, stop) == case["moves"]
