"""The observations' leak test of issue 13 at full count, and the encoders' speed.

    python -m benchmarks.rl_leaks --matches 1000 [--game duel|duals|both] [--samples 3] [--seed 0] [--jobs 2]

Match ``i`` of a game has the seed ``leakcheck.match_seed(i, --seed)`` and the options ``i`` modulo the game's
variants (Flame Duel dealt, drafted, own decks; Duals plain and with Buddy), both seats playing random legal
actions; ``--samples`` decision points of each match (reservoir-sampled) and its end are checked for the seat to
act and the other seat (``tests/rl/leakcheck.py``). Prints, per game, one JSON object: matches, samples checked,
samples whose second state hid other things, determiniser mismatches (0 expected), the longest match, leaks
found (0 expected), seconds; then the encoder's speed on the views of 200 random matches (encodes per second,
one core, into a preallocated array); then each leak. The exit code is 1 when any leak is found.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from tests.rl import leakcheck

from flametable.core.rng import Rng


def chunk(task: tuple[str, int, int, int, int]) -> leakcheck.Tally:
    game, start, count, samples, seed_base = task
    return leakcheck.Checker(game).run(start, count, samples, seed_base)


def encode_speed(game_name: str, matches: int = 200) -> dict[str, Any]:
    """Encodes per second of the seat views (both seats, every decision point) of ``matches`` random matches."""
    checker = leakcheck.Checker(game_name)
    spec = checker.spec
    views = []
    for index in range(matches):
        rng = Rng(index)
        variants = leakcheck.VARIANTS[game_name]
        state = checker.game.new_match(variants[index % len(variants)], index)
        while state.to_act is not None:
            views += [state.view(0), state.view(1)]
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    out = np.zeros(spec.shape, dtype=np.float32)
    encode = spec.encode
    best = 0.0
    for _ in range(3):
        start = time.perf_counter()
        for view in views:
            encode(view, out)
        best = max(best, len(views) / (time.perf_counter() - start))
    return {"game": game_name, "shape": list(spec.shape), "max_steps": spec.max_steps, "views": len(views),
            "encodes_per_second": round(best)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.rl_leaks", description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches per game")
    parser.add_argument("--game", choices=("duel", "duals", "both"), default="both")
    parser.add_argument("--samples", type=int, default=3, help="decision points checked per match (and its end)")
    parser.add_argument("--seed", type=int, default=0, help="the seeds' base")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=250, help="matches per task")
    args = parser.parse_args(argv)
    games = ("duel", "duals") if args.game == "both" else (args.game,)
    leaks: list[str] = []
    for game in games:
        tasks = [(game, start, min(args.chunk, args.matches - start), args.samples, args.seed)
                 for start in range(0, args.matches, args.chunk)]
        began = time.perf_counter()
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                parts = pool.map(chunk, tasks)
        else:
            parts = [chunk(t) for t in tasks]
        tally = leakcheck.Tally(game)
        for part in parts:
            tally.add(part)
        print(json.dumps({**tally.figures(), "seconds": round(time.perf_counter() - began, 1)}), flush=True)
        leaks += tally.leaks
    for game in games:
        print(json.dumps(encode_speed(game)), flush=True)
    for leak in leaks:
        print(leak)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
