"""Quick pairing with two real ``flametable serve`` processes on one PostgreSQL database (issue 24, point 2's
done-when): 200 signed-in players with random ratings make their seeks through both processes at once and ask
after them through either, while both processes' pairing loops pair the pool. Every seek is paired at most once
(one room, with its partner, both seats held by the two seeks' secrets), both processes made rooms, every pair was
within the gap its longer waiter allowed, and the pairs were made closest first: a seek rated between the two of a
pair, waiting when the pair was made, had been paired before it or in the same step with a partner no farther."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from flametable.service.pairing import Gap
from flametable.web.store import Store, rooms, seats, upgrade
from flametable.web.store.tables import seeks
from tests.services import RedisServer
from tests.web.live import LiveServer
from tests.web.seekers import Seeker, signed_in, source_of

PLAYERS = 200
SETTLE_SECONDS = 90.0  # the longest the last seeks may wait for a partner (the gap widens by 50 every 5 s)
SNAPSHOT_MARGIN = 0.5  # a seek made this long before a step is surely in the step's read of the pool


def unpairable(ratings: list[float]) -> bool:
    """No two of these ratings can ever be paired: farther apart than the widest gap."""
    return all(high - low > Gap().most for low, high in itertools.pairwise(ratings))


def run(url: str, work: Any) -> Any:
    async def go() -> Any:
        store = await Store.open(url, migrate=False)
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(go())


@pytest.fixture
def servers(postgresql_database: str, own_redis: RedisServer, tmp_path: Path) -> Iterator[list[LiveServer]]:
    asyncio.run(upgrade(postgresql_database))
    made = [LiveServer(postgresql_database, tmp_path / f"server-{i}", args=["--redis", own_redis.url])
            for i in range(2)]
    try:
        with ThreadPoolExecutor(2) as pool:
            for future in [pool.submit(server.start) for server in made]:
                future.result()
        yield made
    finally:
        for server in made:
            server.kill()


async def stored(store: Store) -> tuple[list[dict[str, Any]], dict[str, tuple[str, dict[int, str | None]]]]:
    async with store.engine.connect() as connection:
        rows = [dict(r) for r in (await connection.execute(sa.select(seeks))).mappings()]
        made = {str(r["id"]): str(r["creator"]) for r in (await connection.execute(
            sa.select(rooms.c.id, rooms.c.creator))).mappings()}
        held: dict[str, dict[int, str | None]] = {}
        for r in (await connection.execute(sa.select(seats))).mappings():
            held.setdefault(str(r["room_id"]), {})[int(r["player"])] = r["token_hash"]
    return rows, {room: (creator, held.get(room, {})) for room, creator in made.items()}


def test_200_seeks_through_two_processes_are_each_paired_once_closest_first(servers: list[LiveServer],
                                                                            postgresql_database: str) -> None:
    rng = random.Random(24)
    players = [Seeker(f"p{i:03d}", source_of(i), float(round(rng.gauss(1500, 250)))) for i in range(PLAYERS)]
    sessions = run(postgresql_database, lambda store: signed_in(store, [(p.name, p.rating) for p in players]))
    for player in players:
        player.session = sessions[player.name]
    ports = [server.port for server in servers]

    def seek(index: int) -> None:
        players[index].make_seek(ports[index % 2])

    with ThreadPoolExecutor(16) as pool:  # the seeks arrive at once, half through each process
        list(pool.map(seek, rng.sample(range(PLAYERS), PLAYERS)))
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:  # every player asks after their seek, through either process, until at most one waits
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda p: p.ask(ports[rng.randrange(2)]) if p.paired is None else p.paired,
                                    players))
        waiting = sorted(p.rating for p, answer in zip(players, answers, strict=True) if answer["status"] != "paired")
        if unpairable(waiting) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert unpairable(waiting), f"{len(waiting)} seeks still wait: {waiting}"

    rows, made = run(postgresql_database, stored)
    by_id = {str(r["id"]): r for r in rows}
    assert {r["status"] for r in rows} <= {"paired", "waiting"}  # none expired: everyone asked
    paired = [r for r in rows if r["status"] == "paired"]
    assert len(paired) >= PLAYERS - 2
    in_rooms: dict[str, list[str]] = {}
    for r in paired:
        in_rooms.setdefault(str(r["room_id"]), []).append(str(r["id"]))
        partner = by_id[str(r["partner"])]
        assert (partner["partner"], partner["room_id"], partner["paired_at"]) == (r["id"], r["room_id"],
                                                                                  r["paired_at"])
    assert all(len(ids) == 2 for ids in in_rooms.values())  # each seek in one room, a room for each pair
    assert set(in_rooms) == set(made)  # and no other room
    for room, ids in in_rooms.items():  # both seats held, each by its seek's secret
        assert sorted(made[room][1].items()) == sorted((by_id[i]["seat"], by_id[i]["secret_hash"]) for i in ids)
    creators = {made[room][0] for room in in_rooms}
    assert len(creators) == 2, creators  # both processes paired

    for player in players:  # each player was told their own room and seat, their secret its token
        if player.paired is not None:
            row = by_id[str(player.seek)]
            assert (player.paired["room"], player.paired["player"], player.paired["token"]) == (
                row["room_id"], row["seat"], player.secret)

    gap = Gap()
    pairs = {tuple(sorted(ids)) for ids in in_rooms.values()}
    for a, b in pairs:
        ra, rb = by_id[a], by_id[b]
        at = float(ra["paired_at"])
        difference = abs(ra["rating"] - rb["rating"])
        assert difference <= gap.allowed(at - min(ra["since"], rb["since"])) + 1e-9  # within the gap allowed
        low, high = sorted((ra["rating"], rb["rating"]))
        for c in rows:  # closest first: nobody waiting between them was passed over for a farther pair
            if c["id"] in (a, b) or not low < c["rating"] < high or c["since"] > at - SNAPSHOT_MARGIN:
                continue
            assert c["status"] == "paired", (a, b, c["id"])
            assert float(c["paired_at"]) <= at, (a, b, c["id"])
            if float(c["paired_at"]) == at:
                other = by_id[str(c["partner"])]
                assert abs(c["rating"] - other["rating"]) <= difference, (a, b, c["id"])
