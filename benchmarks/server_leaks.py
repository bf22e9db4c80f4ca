"""The leak test of issue 11 at full count: seeded bot-vs-bot matches played through the game server, every
message each seat and a spectator received (and the lobby and room routes' answers) checked against the engine's
own view of that audience at that version, by the harness of ``tests/web/leakcheck.py``. Long: run by hand, not
in the test suite (``tests/web/test_leaks.py`` runs a slice).

    python -m benchmarks.server_leaks --matches 1000 --game both --jobs 2

Match ``i`` of a game has the seed ``leakcheck.match_seed(game, i, --seed)`` (19 or 20 digits) and the variant
``i`` modulo the game's variants: Flame Duel shared deck with characters dealt, shared deck with a draft, own
decks; Flamecraft Duals plain and with Buddy. Seat 0's client plays ``bot:random`` and seat 1's ``bot:random``
(``--bots`` changes them). Each worker process (``--jobs``) runs its own server in memory on chunks of
``--chunk`` matches. Prints, per game, one JSON object: matches checked, messages checked, leaks found (0
expected) and seconds; then each leak found (its audience, frame, rule and the frame's exact text). The exit code
is 1 when any leak is found.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from typing import Any

from tests.web import leakcheck

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "duel": [{}, {"pick": "draft"}, {"mode": "decks"}],
    "duals": [{}, {"buddy": True}],
}
"""The options of match ``i``: ``VARIANTS[game][i % len(VARIANTS[game])]``."""


def chunk(task: tuple[str, int, int, int, tuple[str, str], float]) -> tuple[int, int, list[str]]:
    """Matches ``start`` .. ``start + count - 1`` of ``game`` on one server: (matches, messages, leaks)."""
    game, start, count, seed_base, bots, wrong = task
    frames = 0
    leaks: list[str] = []
    with leakcheck.server() as (client, seeds):
        for index in range(start, start + count):
            options = VARIANTS[game][index % len(VARIANTS[game])]
            seed = leakcheck.match_seed(game, index, seed_base)
            try:
                capture = leakcheck.play(client, seeds, game, seed, options, bots, wrong)
            except leakcheck.ProtocolError as exc:
                leaks.append(f"{game} seed {seed} (match {index}, options {options}): the server broke the "
                             f"protocol: {exc}")
                continue
            found, checked = leakcheck.check(capture)
            frames += checked
            leaks.extend(f"match {index}, options {json.dumps(options)}: {leak}" for leak in found)
    return count, frames, leaks


def measure(game: str, matches: int, jobs: int, size: int, seed_base: int, bots: tuple[str, str],
            wrong: float) -> dict[str, Any]:
    tasks = [(game, start, min(size, matches - start), seed_base, bots, wrong) for start in range(0, matches, size)]
    began = time.perf_counter()
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(chunk, tasks, chunksize=1)
    else:
        results = [chunk(task) for task in tasks]
    seconds = time.perf_counter() - began
    leaks = [leak for _m, _f, found in results for leak in found]
    return {"game": game, "matches": sum(m for m, _f, _l in results), "messages": sum(f for _m, f, _l in results),
            "leaks": len(leaks), "seconds": round(seconds, 1), "jobs": jobs, "bots": list(bots),
            "variants": VARIANTS[game], "found": leaks}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=1000, help="matches per game (default 1000)")
    parser.add_argument("--game", choices=["duel", "duals", "both"], default="both")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--chunk", type=int, default=50, help="matches per server (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="the base of the match seeds (default 0)")
    parser.add_argument("--bots", nargs=2, default=["bot:random", "bot:random"], metavar=("SEAT0", "SEAT1"))
    parser.add_argument("--wrong", type=float, default=0.1,
                        help="the chance of each kind of wrong message at each decision (default 0.1)")
    args = parser.parse_args(argv)
    games = ["duel", "duals"] if args.game == "both" else [args.game]
    total = 0
    for game in games:
        out = measure(game, args.matches, max(1, args.jobs), max(1, args.chunk), args.seed,
                      (args.bots[0], args.bots[1]), args.wrong)
        found = out.pop("found")
        print(json.dumps(out), flush=True)
        for leak in found:
            print(leak, flush=True)
        total += len(found)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
