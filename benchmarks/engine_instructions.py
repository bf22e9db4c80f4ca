"""Instructions a step of a rules engine, counted by valgrind (callgrind), through ``flametable bench``'s loop.

    PYTHONPATH=src:. python -m benchmarks.engine_instructions [--game duel|duals|all] [--matches 300]
                                                              [--engine python|native|all]

Each count runs the bench loop (``cli.bench.playouts``: ``new_match`` with the next seed, then uniformly random
legal actions to the end) under ``valgrind --tool=callgrind`` twice, with ``--matches`` matches and with a fifth of
them, and divides the difference of the instructions by the difference of the steps: the interpreter's start-up
and the imports cancel out, ``new_match`` stays counted in the steps as it is in the bench. Instructions are what
a busy shared machine does not change. One JSON object per (game, engine).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = """
import json, sys
from flametable.cli.bench import playouts
from flametable.core import registry
game = registry.make_game(sys.argv[1])
print(json.dumps(playouts(game, 1e9, max_matches=int(sys.argv[2]))))
"""


def _count(game: str, engine: str, matches: int) -> tuple[int, int]:
    """(instructions, steps) of one run under callgrind."""
    env = dict(os.environ, FLAMETABLE_ENGINE=engine)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", _CHILD, game,
             str(matches)], env=env, capture_output=True, text=True, check=True)
        steps = json.loads(done.stdout.strip().splitlines()[-1])["steps"]
        found = re.search(r"Collected\s*:\s*([0-9]+)", done.stderr)
        if found is None:
            raise RuntimeError(f"callgrind printed no count: {done.stderr[-400:]}")
        return int(found.group(1)), steps


def measure(game: str, engine: str, matches: int) -> dict[str, object]:
    small, small_steps = _count(game, engine, max(1, matches // 5))
    big, big_steps = _count(game, engine, matches)
    return {"game": game, "engine": engine, "matches": matches, "steps": big_steps - small_steps,
            "instructions_per_step": round((big - small) / (big_steps - small_steps))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("duel", "duals", "all"), default="all")
    parser.add_argument("--engine", choices=("python", "native", "all"), default="all")
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args(argv)
    games = ("duel", "duals") if args.game == "all" else (args.game,)
    engines = ("python", "native") if args.engine == "all" else (args.engine,)
    for game in games:
        for engine in engines:
            print(json.dumps(measure(game, engine, args.matches)), flush=True)


if __name__ == "__main__":
    main()
