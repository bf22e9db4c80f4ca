"""The long differential run of Flamecraft Duals' native engine against the reference (issue 26).

    PYTHONPATH=src:. python -m benchmarks.native_duals [--matches 100000] [--first-seed 0]

The test suite's comparison (``tests/games/duals/test_native.py``: legal actions, both seats' and the spectator's
views as JSON, the whole state, illegal actions refused alike, the outcome, at every step) over many more matches:
in turn the plain game and the Buddy variant (D11) on the built-in data, and every fifth match on custom data (a
new data set every 500 matches: other boards, token counts, duals, FIRE UP orders and patterns). Needs the
extension built (``pip install -c constraints.txt ./native``). Prints one JSON line at the end (or the first
difference, as an assertion, with its options and seed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from tests.games.duals.test_native import custom_data, play_both

from flametable.games.duals.game import DualsGame
from flametable.games.duals.native import NativeDualsGame


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--progress", type=int, default=0, help="print a line to stderr every N matches (0: never)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    python, native = DualsGame(), NativeDualsGame()
    custom = (python, native)
    steps = 0
    for i in range(args.matches):
        seed = args.first_seed + i
        if i % 5 == 4:
            if i % 500 == 4:
                data = custom_data(seed)
                custom = (DualsGame(data), NativeDualsGame(data))
            buddy = bool(custom[0].data.buddy_tokens) and (i // 5) % 2 == 1
            steps += play_both(*custom, {"buddy": buddy}, seed, illegal=1)
        else:
            steps += play_both(python, native, {"buddy": i % 2 == 1}, seed, illegal=1)
        if args.progress and (i + 1) % args.progress == 0:
            print(json.dumps({"matches": i + 1, "steps": steps, "seconds": round(time.perf_counter() - started, 1)}),
                  file=sys.stderr, flush=True)
    print(json.dumps({"matches": args.matches, "steps": steps, "differences": 0,
                      "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
