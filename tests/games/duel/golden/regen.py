"""Regenerate the golden Flame Duel records in this directory (see README.md).

    .venv/bin/python tests/games/duel/golden/regen.py          # or: .venv/bin/python -m tests.games.duel.golden.regen
    .venv/bin/python tests/games/duel/golden/regen.py --check  # only say whether the files are up to date

Each golden record is one seeded match between two random bots (``RandomBot(seed * 2 + 1)`` for seat 0,
``RandomBot(seed * 2 + 2)`` for seat 1). Regenerating is a deliberate rules change: review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from flametable.bots.base import RandomBot
from flametable.core.record import MatchRecord
from flametable.games.duel.game import DuelGame
from flametable.service import new_record, play

HERE = Path(__file__).resolve().parent
NOT_RECORDS = {"perft.json"}  # made by regen_perft.py

# (file stem, options, seed): two matches per mode; the second of each reaches the tie-break round and an
# effect choice (with the engine of the time the seeds were picked).
GOLDEN: list[tuple[str, dict[str, Any], int]] = [
    ("shared-random-1", {"mode": "shared", "pick": "random"}, 1),
    ("shared-random-283", {"mode": "shared", "pick": "random"}, 283),
    ("shared-draft-1", {"mode": "shared", "pick": "draft"}, 1),
    ("shared-draft-69", {"mode": "shared", "pick": "draft"}, 69),
    ("decks-1", {"mode": "decks"}, 1),
    ("decks-21", {"mode": "decks"}, 21),
]


def generate(game: DuelGame | None = None) -> dict[str, MatchRecord]:
    """The golden records as the current engine plays them, by file name."""
    game = game or DuelGame()
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


def main(argv: list[str]) -> int:
    check = "--check" in argv
    records = generate()
    stale = [p.name for p in HERE.glob("*.json") if p.name not in records and p.name not in NOT_RECORDS]
    changed = [name for name, rec in records.items()
               if not (HERE / name).exists() or (HERE / name).read_text(encoding="utf-8") != render(rec)]
    if check:
        for name in changed:
            print(f"out of date: {name}")
        for name in stale:
            print(f"not generated: {name}")
        return 1 if changed or stale else 0
    for name in stale:
        (HERE / name).unlink()
        print(f"removed {name}")
    for name, record in records.items():
        (HERE / name).write_text(render(record), encoding="utf-8")
        state = "written" if name in changed else "unchanged"
        print(f"{state:9} {name}: {len(record.actions)} actions, result {record.result}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
