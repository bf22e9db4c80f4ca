"""Regenerate the perft counts of Flame Duel in ``perft.json`` (see README.md).

    .venv/bin/python tests/games/duel/golden/regen_perft.py          # rewrite perft.json
    .venv/bin/python tests/games/duel/golden/regen_perft.py --check  # only say whether it is up to date

A perft count walks the whole tree of legal actions from a fixed state to a fixed depth (clone the state, apply
each legal action, recurse) and counts the states reached at each depth and the finished matches among them. Any
change in which actions are legal, in what they lead to or in when a match ends changes the numbers.

Each case starts from a seeded new match and, for the states inside a match, plays the seeded random walk stored
in ``moves`` (found by walking with ``Rng(seed)`` until the case's condition first holds). Regenerating is a
deliberate rules change: review the diff.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flametable.core.rng import Rng
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState

HERE = Path(__file__).resolve().parent
FILE = HERE / "perft.json"

SHARED = {"mode": "shared", "pick": "random"}
DRAFT = {"mode": "shared", "pick": "draft"}
DECKS = {"mode": "decks"}

# Where a random walk stops: the first state for which the condition holds.
STOPS: dict[str, Callable[[DuelState], bool]] = {
    "start": lambda st: True,
    "mid-round": lambda st: st.phase is Phase.PLAY and len(st.log) >= 3,
    "later-round": lambda st: st.phase is Phase.STAT and st.round_no >= 1,
    "choice": lambda st: st.phase is Phase.CHOICE,
    "tie-break": lambda st: st.round_no == 3 and st.phase is not Phase.OVER,
}

# (name, options, seed, where to stop, depth)
CASES: list[tuple[str, dict[str, Any], int, str, int]] = [
    ("shared-random-1-start", SHARED, 1, "start", 8),
    ("shared-random-2-start", SHARED, 2, "start", 8),
    ("decks-1-start", DECKS, 1, "start", 8),
    ("shared-draft-1-start", DRAFT, 1, "start", 3),
    ("shared-random-7-mid-round", SHARED, 7, "mid-round", 7),
    ("decks-5-mid-round", DECKS, 5, "mid-round", 6),
    ("shared-draft-3-later-round", DRAFT, 3, "later-round", 6),
    ("shared-random-3-choice", SHARED, 3, "choice", 6),
    ("decks-7-tie-break", DECKS, 7, "tie-break", 6),
]


def walk(game: DuelGame, options: dict[str, Any], seed: int, stop: str) -> list[str]:
    """The moves of the seeded random walk from a new match to the first state where ``stop`` holds."""
    state = game.new_match(options, seed)
    rng = Rng(seed)
    moves: list[str] = []
    while not STOPS[stop](state):
        if state.outcome is not None:
            raise LookupError(f"seed {seed} ({options}) ends the match before '{stop}': pick another seed")
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        moves.append(action.text())
        state.apply(action)
    return moves


def perft(state: DuelState, depth: int) -> tuple[list[int], int]:
    """States reached at each depth 1..``depth`` and finished matches among them (a finished match has no
    children)."""
    counts = [0] * depth
    over = 0

    def rec(st: DuelState, d: int) -> None:
        nonlocal over
        for action in st.legal_actions():
            child = st.clone()
            child.apply(action)
            counts[d] += 1
            if child.outcome is not None:
                over += 1
            elif d + 1 < depth:
                rec(child, d + 1)

    rec(state, 0)
    return counts, over


def replay(game: DuelGame, options: dict[str, Any], seed: int, moves: list[str]) -> DuelState:
    state = game.new_match(options, seed)
    for text in moves:
        state.apply(game.action_from_text(text))
    return state


def generate(game: DuelGame | None = None) -> dict[str, Any]:
    game = game or DuelGame()
    cases = []
    for name, options, seed, stop, depth in CASES:
        moves = walk(game, options, seed, stop)
        counts, over = perft(replay(game, options, seed, moves), depth)
        cases.append({"name": name, "options": options, "seed": seed, "moves": moves, "depth": depth,
                      "counts": counts, "finished": over})
    return {"format": "flametable-perft/1", "game": "duel", "content_hash": game.cards.hash, "cases": cases}


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = render(generate())
    if "--check" in argv:
        fresh = FILE.exists() and FILE.read_text(encoding="utf-8") == text
        if not fresh:
            print(f"out of date: {FILE.name}")
        return 0 if fresh else 1
    FILE.write_text(text, encoding="utf-8")
    print(f"written {FILE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
