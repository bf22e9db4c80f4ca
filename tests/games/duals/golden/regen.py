"""Regenerate the golden Flamecraft Duals records and perft counts in this directory (see README.md).

    .venv/bin/python tests/games/duals/golden/regen.py          # or: .venv/bin/python -m tests.games.duals.golden.regen
    .venv/bin/python tests/games/duals/golden/regen.py --check  # only say whether the files are up to date

Each golden record is one seeded match between two random bots (``RandomBot(seed * 2 + 1)`` for seat 0,
``RandomBot(seed * 2 + 2)`` for seat 1). ``perft.json`` holds, for a few fixed states (a seed, the options and
a prefix of actions from it), the number of action sequences of each length up to a fixed depth in the legal
action tree (every legal action applied to a clone, recursively) and a digest of the legal actions met on the
way. Regenerating is a deliberate rules change: review the diff.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flametable.bots.base import RandomBot
from flametable.core.record import MatchRecord
from flametable.core.rng import Rng
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import Step
from flametable.games.duals.state import DualsState
from flametable.service import new_record, play

HERE = Path(__file__).resolve().parent
PERFT = "perft.json"

# (file stem, options, seed): two matches without Buddy, two with it (D11).
GOLDEN: list[tuple[str, dict[str, Any], int]] = [
    ("plain-1", {"buddy": False}, 1),
    ("plain-7", {"buddy": False}, 7),
    ("buddy-2", {"buddy": True}, 2),
    ("buddy-11", {"buddy": True}, 11),
]


def generate(game: DualsGame | None = None) -> dict[str, MatchRecord]:
    """The golden records as the current engine plays them, by file name."""
    game = game or DualsGame()
    out: dict[str, MatchRecord] = {}
    for stem, options, seed in GOLDEN:
        record = new_record(game, options, seed, ["bot:random", "bot:random"])
        state = game.new_match(options, seed)
        bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
        play(state, [bots[0].choose, bots[1].choose], record)
        out[f"{stem}.json"] = record
    return out


def render(record: MatchRecord) -> str:
    """Pretty JSON, one action per line, as stored."""
    return json.dumps(record.to_json(), ensure_ascii=False, indent=2) + "\n"


# ---------------------------------------------------------------------------------------------- perft

# (name, options, seed, what the state must be, depth): the prefix is the first random walk (Rng(seed) picking
# among the legal actions) that reaches a state with the property; found once by ``find_prefix`` and stored.
Want = Callable[[DualsState], bool]
_CHAIN = (Step.MEAT, Step.IRON, Step.POTION, Step.PLANT, Step.TAKE)
PERFT_STATES: list[tuple[str, dict[str, Any], int, str, int]] = [
    ("start-1", {"buddy": False}, 1, "start", 6),
    ("start-5", {"buddy": False}, 5, "start", 5),
    ("start-buddy-3", {"buddy": True}, 3, "start", 5),
    ("midgame-4", {"buddy": False}, 4, "turn 12", 5),
    ("chain-plant-6", {"buddy": False}, 6, "plant", 5),
    ("chain-iron-8", {"buddy": False}, 8, "iron", 5),
    ("chain-fire-9", {"buddy": False}, 9, "fire in a chain", 5),
    ("score-10", {"buddy": False}, 10, "score with cards to score", 5),
    ("bottom-12", {"buddy": False}, 12, "coin cards to put back", 5),
]

WANTS: dict[str, Want] = {
    "start": lambda st: True,
    "turn 12": lambda st: st.phase == Step.PLACE and st.view(None).turn_number == 12,
    "plant": lambda st: st.phase == Step.PLANT,
    "iron": lambda st: st.phase == Step.IRON,
    "fire in a chain": lambda st: st.phase == Step.FIRE and not st.view(None).fire_optional,
    "score with cards to score": lambda st: st.phase == Step.SCORE and len(st.legal_actions()) >= 3,
    "coin cards to put back": lambda st: st.phase == Step.BOTTOM and len(st.legal_actions()) >= 3,
}


def find_prefix(game: DualsGame, options: dict[str, Any], seed: int, want: str) -> list[str]:
    """The actions of the first random walk from the seed's start that reaches a state with ``want``."""
    test = WANTS[want]
    for attempt in range(1000):
        rng = Rng(seed * 1000 + attempt)
        state = game.new_match(options, seed)
        prefix: list[str] = []
        while state.to_act is not None:
            if test(state):
                return prefix
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
            state.apply(action)
            prefix.append(action.text())
    raise RuntimeError(f"no walk from seed {seed} reaches {want!r}")


def perft(state: DualsState, depth: int, counts: list[int], digest: Any) -> None:
    """Count the action sequences of each length up to ``depth`` from ``state``; hash the legal actions met."""
    if depth == 0:
        return
    legal = state.legal_actions()
    digest.update((" ".join(a.text() for a in legal) + "\n").encode())
    counts[len(counts) - depth] += len(legal)
    for action in legal:
        child = state.clone()
        child.apply(action)
        perft(child, depth - 1, counts, digest)


def measure(game: DualsGame, options: dict[str, Any], seed: int, prefix: list[str], depth: int,
            ) -> tuple[list[int], str]:
    """``(counts per depth, digest)`` of the tree below the state the prefix reaches."""
    state = game.new_match(options, seed)
    for text in prefix:
        state.apply(game.action_from_text(text))
    counts = [0] * depth
    digest = hashlib.sha256()
    perft(state, depth, counts, digest)
    return counts, digest.hexdigest()[:16]


def generate_perft(game: DualsGame | None = None) -> list[dict[str, Any]]:
    game = game or DualsGame()
    out = []
    for name, options, seed, want, depth in PERFT_STATES:
        prefix = find_prefix(game, options, seed, want)
        counts, digest = measure(game, options, seed, prefix, depth)
        out.append({"name": name, "options": options, "seed": seed, "state": want, "prefix": prefix,
                    "depth": depth, "counts": counts, "digest": digest})
    return out


def render_perft(entries: list[dict[str, Any]]) -> str:
    return json.dumps({"perft": entries}, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    files = {name: render(rec) for name, rec in generate().items()}
    files[PERFT] = render_perft(generate_perft())
    stale = [p.name for p in HERE.glob("*.json") if p.name not in files]
    changed = [name for name, text in files.items()
               if not (HERE / name).exists() or (HERE / name).read_text(encoding="utf-8") != text]
    if check:
        for name in changed:
            print(f"out of date: {name}")
        for name in stale:
            print(f"not generated: {name}")
        return 1 if changed or stale else 0
    for name in stale:
        (HERE / name).unlink()
        print(f"removed {name}")
    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"{'written' if name in changed else 'unchanged':9} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
