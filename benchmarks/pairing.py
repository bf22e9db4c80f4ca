"""Quick pairing (issue 24): seeks paired a second at 1,000 waiting seeks, in the store and in the pure step. By hand.

    PYTHONPATH=src:. python -m benchmarks.pairing [--seeks 1000] [--rounds 5] [--db postgresql+asyncpg://...]

Each round: ``--seeks`` seeks with ratings drawn around 1,500 (sd 300), made over the last 60 s, put in one pool of
a fresh database (a new PostgreSQL database on ``--db``'s server, else SQLite in a temporary directory); then one
``Store.pair_seeks`` of the pool (read ``FOR UPDATE SKIP LOCKED``, paired, marked, committed): its time, and the
seeks it paired a second. Beside it the pure step (:func:`flametable.service.pairing.pairs`) on the same seeks. The
time from a seek to its pair is that of one pairing round plus the pause between rounds, which the server sets.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.server import database
from flametable.service.pairing import Gap, Seek, pairs
from flametable.web.store import Store


async def one_round(url: str, count: int, rng: random.Random) -> dict[str, Any]:
    store = await Store.open(url)
    try:
        ratings = [float(round(rng.gauss(1500, 300))) for _ in range(count)]
        for i, rating in enumerate(ratings):
            assert await store.add_seek(f"s{i}", "duel 3+2 rated", f"account:{i}", rating)
        waited = [rng.uniform(0, 60) for _ in ratings]
        now = time.time()
        started = time.perf_counter()
        made = await store.pair_seeks("duel 3+2 rated", Gap())
        took = time.perf_counter() - started
        pure_seeks = [Seek(f"s{i}", r, now - w) for i, (r, w) in enumerate(zip(ratings, waited, strict=True))]
        started = time.perf_counter()
        pure = pairs(pure_seeks, now)
        pure_took = time.perf_counter() - started
    finally:
        await store.close()
    return {"seeks": count, "store_pairs": len(made), "store_ms": round(1000 * took, 1),
            "store_seeks_paired_per_second": round(2 * len(made) / took),
            "pure_pairs": len(pure), "pure_ms": round(1000 * pure_took, 2),
            "pure_seeks_paired_per_second": round(2 * len(pure) / pure_took)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeks", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (a fresh database is made there); else SQLite")
    args = parser.parse_args(argv)
    rng = random.Random(24)
    rounds = []
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp, database(args.db, Path(tmp)) as url:
            rounds.append(asyncio.run(one_round(url, args.seeks, rng)))
        print(json.dumps(rounds[-1]))
    print(json.dumps({key: statistics.median(r[key] for r in rounds)
                      for key in ("store_ms", "store_seeks_paired_per_second", "pure_ms")}))


if __name__ == "__main__":
    main()
