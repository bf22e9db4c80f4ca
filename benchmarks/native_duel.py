"""The long differential run of Flame Duel's native engine against the reference (issue 26).

    PYTHONPATH=src:. python -m benchmarks.native_duel [--matches 100000] [--first-seed 0]

The test suite's comparison (``tests/games/duel/test_native.py``: legal actions, both seats' and the spectator's
views as JSON, the whole state, illegal actions refused alike, the outcome, at every step) over many more matches:
in turn a shared pile, a draft, random own decks, brought own decks, and custom card sets (a new one every 500
matches). Needs the extension built (``pip install -c constraints.txt ./native``). Prints one JSON line at the end
(or the first difference, as an assertion, with its options and seed).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from tests.games.duel.test_native import custom_card_set, own_decks, play_both

from flametable.core.rng import Rng
from flametable.games.duel.game import DuelGame
from flametable.games.duel.native import NativeDuelGame


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    python, native = DuelGame(), NativeDuelGame()
    rng = Rng(args.first_seed ^ 0x26)
    steps = 0
    for i in range(args.matches):
        seed = args.first_seed + i
        if i % 5 == 4:
            if i % 500 == 4:
                cards = custom_card_set(seed)
                custom = (DuelGame(cards), NativeDuelGame(cards))
            options: dict[str, Any] = [{}, {"pick": "draft"}, {"mode": "decks"}, own_decks(rng)][(i // 5) % 4]
            steps += play_both(*custom, options, seed, illegal=1)
        else:
            options = [{}, {"pick": "draft"}, {"mode": "decks"}, own_decks(rng)][i % 5]
            steps += play_both(python, native, options, seed, illegal=1)
    print(json.dumps({"matches": args.matches, "steps": steps, "differences": 0,
                      "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
