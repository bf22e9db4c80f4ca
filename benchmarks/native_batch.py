"""The batch API on the native engine (issue 26, point 4): steps a second, with masks.

    PYTHONPATH=src:. python -m benchmarks.native_batch [--game duel|duals] [--size 1024] [--steps 2000]
                                                       [--options JSON] [--obs] [--threads 1]

``NativeDuelBatch.step`` (``--game duals``: ``NativeDualsBatch.step``) over ``--size`` matches, ``--steps``
times, each match playing a uniformly random legal action drawn from its mask with numpy (a random number per
action, the largest of the legal ones). Reports the steps a second (wall clock, for ``--threads``) of the ``step``
calls alone (the engine: apply, resets, masks, rewards), also by the process's CPU time (``time.process_time``:
what a busy shared machine changes less; all threads' time summed), and of the whole loop (the numpy draw included);
``--obs``: with each match's observation for its seat to act after every step (the batch's ``observe``), inside
the timed calls.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

from flametable.games.duals import native as duals_native
from flametable.games.duel import native as duel_native


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("duel", "duals"), default="duel")
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--options", default="{}")
    parser.add_argument("--threads", type=int, default=1, help="threads the batch's calls split the matches among")
    parser.add_argument("--obs", action="store_true", help="also each match's observation after every step")
    args = parser.parse_args(argv)
    game: Any
    batch: Any
    encode: Any
    if args.game == "duals":
        game = duals_native.NativeDualsGame()
        batch = duals_native.NativeDualsBatch(game, args.size, json.loads(args.options), seed=1,
                                              threads=args.threads)
        encode = duals_native.encoder(game)
    else:
        game = duel_native.NativeDuelGame()
        batch = duel_native.NativeDuelBatch(game, args.size, json.loads(args.options), seed=1, threads=args.threads)
        encode = duel_native.encoder(game)
    obs = np.zeros((args.size, *encode.spec.shape), np.float32)
    rng = np.random.default_rng(1)
    noise = np.empty((args.size, batch.mask.shape[1]), np.float32)
    in_step = in_step_cpu = 0.0
    ends = 0
    started = time.perf_counter()
    for _ in range(args.steps):
        rng.random(out=noise, dtype=np.float32)
        actions = np.argmax(noise * batch.mask, axis=1)
        before, cpu_before = time.perf_counter(), time.process_time()
        _mask, _rewards, dones = batch.step(actions)
        if args.obs:
            batch.observe(encode, obs)
        in_step += time.perf_counter() - before
        in_step_cpu += time.process_time() - cpu_before
        ends += int(dones.sum())
    whole = time.perf_counter() - started
    steps = args.size * args.steps
    print(json.dumps({"game": args.game, "size": args.size, "threads": args.threads, "observations": args.obs,
                      "steps": steps, "matches_ended": ends,
                      "step_calls_steps_per_second": round(steps / in_step),
                      "step_calls_cpu_steps_per_second": round(steps / max(in_step_cpu, 1e-9)),
                      "whole_loop_steps_per_second": round(steps / whole)}))


if __name__ == "__main__":
    main()
