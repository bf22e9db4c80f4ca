"""Instructions a step of a rules engine, counted by valgrind (callgrind), through ``flametable bench``'s loop.

    PYTHONPATH=src:. python -m benchmarks.engine_instructions [--game duel|duals|all] [--matches 300]
                                                              [--engine python|native|all] [--loop bench|aec]

Each count runs the bench loop (``cli.bench.playouts``: ``new_match`` with the next seed, then uniformly random
legal actions to the end) under ``valgrind --tool=callgrind`` twice, with ``--matches`` matches and with a fifth of
them, and divides the difference of the instructions by the difference of the steps: the interpreter's start-up
and the imports cancel out, ``new_match`` stays counted in the steps as it is in the bench. Instructions are what
a busy shared machine does not change. One JSON object per (game, engine).

With ``--loop aec``, ``--game connect_four`` (or ``all``, where pygame is installed: the ``bench`` extra) counts
PettingZoo's ``connect_four_v3`` in the same loop and run, the reference of issue 26's P7 (5 times its speed).
"""

from __future__ import annotations

import argparse
import importlib.util
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
# benchmarks.rl's AEC loop (aec_steps), for a number of matches: last(), a random legal action from the mask, step().
_AEC_CHILD = """
import json, sys, warnings
import numpy as np
if sys.argv[1] == "connect_four":  # PettingZoo's connect_four_v3 (needs pygame: the bench extra), in the same loop
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import connect_four_v3
    env = connect_four_v3.env()
else:
    from flametable.games.duel.environments import env as duel_env
    from flametable.games.duals.environments import env as duals_env
    env = {"duel": duel_env, "duals": duals_env}[sys.argv[1]]()
rng = np.random.default_rng(0)
steps = 0
for match in range(int(sys.argv[2])):
    env.reset(seed=match)
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            steps += 1
        env.step(action)
print(json.dumps({"steps": steps}))
"""


def _count(game: str, engine: str, matches: int, loop: str = "bench") -> tuple[int, int]:
    """(instructions, steps) of one run under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # string hashing: the same dict probes
    if engine != "-":  # connect_four_v3 is no engine of flametable's
        env["FLAMETABLE_ENGINE"] = engine
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
             _AEC_CHILD if loop == "aec" else _CHILD, game,
             str(matches)], env=env, capture_output=True, text=True, check=True)
        steps = json.loads(done.stdout.strip().splitlines()[-1])["steps"]
        found = re.search(r"Collected\s*:\s*([0-9]+)", done.stderr)
        if found is None:
            raise RuntimeError(f"callgrind printed no count: {done.stderr[-400:]}")
        return int(found.group(1)), steps


def measure(game: str, engine: str, matches: int, loop: str = "bench") -> dict[str, object]:
    small, small_steps = _count(game, engine, max(1, matches // 5), loop)
    big, big_steps = _count(game, engine, matches, loop)
    return {"game": game, "engine": engine, "loop": loop, "matches": matches, "steps": big_steps - small_steps,
            "instructions_per_step": round((big - small) / (big_steps - small_steps))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("duel", "duals", "connect_four", "all"), default="all",
                        help="connect_four: PettingZoo's connect_four_v3, with --loop aec only")
    parser.add_argument("--engine", choices=("python", "native", "all"), default="all")
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--loop", choices=("bench", "aec"), default="bench",
                        help="flametable bench's loop, or benchmarks.rl's AEC loop (PettingZoo environment)")
    args = parser.parse_args(argv)
    if args.game == "connect_four" and args.loop != "aec":
        parser.error("--game connect_four is measured in the AEC loop only (--loop aec)")
    games: tuple[str, ...] = ("duel", "duals") if args.game == "all" else (args.game,)
    if args.game == "all" and args.loop == "aec":
        if importlib.util.find_spec("pygame") is not None:
            games += ("connect_four",)
        else:
            print("connect_four_v3 skipped: pygame is not installed (the 'bench' extra)", file=sys.stderr)
    engines = ("python", "native") if args.engine == "all" else (args.engine,)
    for game in games:
        for engine in engines if game != "connect_four" else ("-",):
            print(json.dumps(measure(game, engine, args.matches, args.loop)), flush=True)


if __name__ == "__main__":
    main()
