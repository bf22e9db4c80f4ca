"""Quick pairing (issue 24): seeks paired a second at 1,000 waiting seeks, in the store and in the pure step, or
through a live server's HTTP API. By hand.

    PYTHONPATH=src:. python -m benchmarks.pairing [--seeks 1000] [--rounds 5] [--db postgresql+asyncpg://...]
    PYTHONPATH=src:. python -m benchmarks.pairing --server [--seeks 1000] [--probes 400] [--db ...]

Each round: ``--seeks`` seeks with ratings drawn around 1,500 (sd 300), made over the last 60 s, put in one pool of
a fresh database (a new PostgreSQL database on ``--db``'s server, else SQLite in a temporary directory); then one
``Store.pair_seeks`` of the pool (read ``FOR UPDATE SKIP LOCKED``, paired, marked, committed): its time, and the
seeks it paired a second. Beside it the pure step (:func:`flametable.service.pairing.pairs`) on the same seeks. The
time from a seek to its pair is that of one pairing round plus the pause between rounds, which the server sets.

``--server``: a ``flametable serve`` (its pairing loop every 0.5 s) on a fresh database holding ``--seeks`` waiting
seeks of the pool ``duel 3+2 casual`` that never pair (their ratings 1,100 apart, written to the store with their
clients' ``seen`` far ahead, so that they neither pair nor expire: each step reads, locks and weighs them all).
Then ``--probes`` guests (rating 1,500, their requests from addresses of their own) make their seeks in that pool
over HTTP at once (32 threads) and, once made, are asked after every second as the lobby does (16 threads) until
paired. Reported: seeks made a second; each probe's time from its seek to paired by the database's clock
(``paired_at - since``), to its room made (``rooms.created_at``) and as its client saw it (to its first ``paired``
answer, the second between two asks included); seeks paired a second (the probes over the time from the first seek
made to the last room made).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from benchmarks.server import database
from flametable.service.pairing import Gap, Seek, pairs
from flametable.web.store import Store, database_url, rooms
from flametable.web.store.tables import seeks


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


POOL = "duel 3+2 casual"
ASK_EVERY = 1.0  # as the lobby asks


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(name: str, values: list[float]) -> dict[str, float]:
    return {f"{name}_median_ms": round(1000 * statistics.median(values), 1),
            f"{name}_p95_ms": round(1000 * percentile(values, 0.95), 1),
            f"{name}_max_ms": round(1000 * max(values), 1)}


async def waiting_seeks(url: str, count: int) -> None:
    """``count`` seeks waiting in the pool that never pair nor expire (see the module)."""
    store = await Store.open(url)
    try:
        for i in range(count):
            assert await store.add_seek(f"w{i}", POOL, f"account:{i}", 5000.0 + 1100.0 * i)
        async with store.engine.begin() as connection:
            await connection.execute(sa.update(seeks).values(seen=seeks.c.since + 1e6))
    finally:
        await store.close()


async def probe_rows(url: str, ids: list[str]) -> dict[str, tuple[float, float, float]]:
    """Each probe seek's (since, paired_at, its room's created_at)."""
    store = await Store.open(url, migrate=False)
    try:
        async with store.engine.connect() as connection:
            rows = await connection.execute(sa.select(seeks.c.id, seeks.c.since, seeks.c.paired_at, rooms.c.created_at)
                                            .join(rooms, rooms.c.id == seeks.c.room_id).where(seeks.c.id.in_(ids)))
            return {str(r[0]): (float(r[1]), float(r[2]), float(r[3])) for r in rows}
    finally:
        await store.close()


def server_round(db: str | None, count: int, probes: int) -> dict[str, Any]:
    from concurrent.futures import ThreadPoolExecutor

    from tests.web.live import LiveServer
    from tests.web.seekers import Seeker, source_of

    with tempfile.TemporaryDirectory() as tmp, database(db, Path(tmp)) as given:
        url = given if "://" in given else database_url(given)
        asyncio.run(waiting_seeks(url, count))
        server = LiveServer(url, Path(tmp) / "server")
        server.start()
        try:
            players = [Seeker(f"g{i}", source_of(i), 1500.0) for i in range(probes)]
            deadline = time.monotonic() + 120

            def asking() -> None:  # from the first seek made on, every seek made is asked after every 0.25 s
                with ThreadPoolExecutor(16) as pool:
                    while any(p.paired is None for p in players) and time.monotonic() < deadline:
                        list(pool.map(lambda p: p.ask(server.port),
                                      [p for p in players if p.secret is not None and p.paired is None]))
                        time.sleep(ASK_EVERY)

            asker = threading.Thread(target=asking)
            started = time.monotonic()
            asker.start()
            with ThreadPoolExecutor(32) as pool:
                list(pool.map(lambda p: p.make_seek(server.port), players))
            posted = time.monotonic() - started
            asker.join()
            unpaired = sum(1 for p in players if p.paired is None)
        finally:
            server.kill()
        rows = asyncio.run(probe_rows(url, [str(p.seek) for p in players]))
    paired = [rows[str(p.seek)] for p in players if str(p.seek) in rows]
    first = min(since for since, _, _ in paired)
    last = max(made for _, _, made in paired)
    return {"waiting": count, "probes": probes, "unpaired": unpaired,
            "seeks_made_per_second": round(probes / posted),
            **figures("to_paired", [at - since for since, at, _ in paired]),
            **figures("to_room", [made - since for since, _, made in paired]),
            **figures("client_saw", [p.paired_at - p.made_at for p in players if p.paired is not None]),
            "seeks_paired_per_second": round(len(paired) / (last - first))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeks", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (a fresh database is made there); else SQLite")
    parser.add_argument("--server", action="store_true", help="through a live server's HTTP API (see the module)")
    parser.add_argument("--probes", type=int, default=400, help="--server: the seeks paired over HTTP")
    args = parser.parse_args(argv)
    if args.server:
        for _ in range(args.rounds):
            print(json.dumps(server_round(args.db, args.seeks, args.probes)))
        return
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
