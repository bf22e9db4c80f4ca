"""Quick pairing's seeks in the store (issue 24, point 2): one waiting seek per player and pool, a seek cancelled by
its player, and every seek paired once at most, also by two server processes pairing one pool at the same time
(PostgreSQL's ``SKIP LOCKED``), and a pool another process is pairing left to it, so that its pairs are the
closest (the pool's advisory lock)."""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest
import sqlalchemy as sa

import flametable.web.store.seeks as seeks_store
from flametable.service.pairing import Gap
from flametable.web.store import Store
from flametable.web.store.tables import seeks

pytestmark = pytest.mark.anyio
POOL = "duel 3+2 rated"


async def rows(store: Store) -> dict[str, tuple[str, str | None, float]]:
    async with store.engine.connect() as connection:
        result = await connection.execute(sa.select(seeks.c.id, seeks.c.status, seeks.c.partner, seeks.c.rating))
        return {str(r[0]): (str(r[1]), r[2], float(r[3])) for r in result}


async def test_a_player_has_one_waiting_seek_per_pool_and_cancels_their_own(store: Store) -> None:
    assert await store.add_seek("s1", POOL, "account:1", 1500)
    assert not await store.add_seek("s2", POOL, "account:1", 1500)  # already waiting there
    assert await store.add_seek("s3", "duel 3+2 casual", "account:1", 1500)  # another pool
    assert not await store.cancel_seek("s1", "account:2")  # not theirs
    assert await store.cancel_seek("s1", "account:1")
    assert not await store.cancel_seek("s1", "account:1")  # once
    assert await store.add_seek("s4", POOL, "account:1", 1500)  # waiting again, after the cancel
    assert {k: v[0] for k, v in (await rows(store)).items()} == {"s1": "cancelled", "s3": "waiting",
                                                                 "s4": "waiting"}


async def test_the_pool_s_seeks_are_paired_closest_first_each_with_its_partner(store: Store) -> None:
    for seek_id, rating in (("a", 1500), ("b", 1540), ("c", 1560), ("d", 1600), ("e", 2400)):
        assert await store.add_seek(seek_id, POOL, f"account:{seek_id}", rating)
    assert await store.add_seek("x", "duals untimed casual", "client:x", 1550)  # another pool: left alone
    assert sorted(await store.pair_seeks(POOL)) == [("a", "d"), ("b", "c")]
    got = await rows(store)
    assert {k: v[:2] for k, v in got.items()} == {
        "a": ("paired", "d"), "d": ("paired", "a"), "b": ("paired", "c"), "c": ("paired", "b"),
        "e": ("waiting", None), "x": ("waiting", None)}
    assert await store.pair_seeks(POOL) == []  # e waits for someone near 2400
    assert not await store.cancel_seek("a", "account:a")  # paired: no longer a seek to cancel


async def test_two_processes_pairing_200_seeks_at_once_pair_each_one_once_at_most(two: tuple[Store, Store]) -> None:
    """200 seeks with random ratings, arriving while two processes pair the pool over and over at the same time:
    each seek is paired once at most, with a partner that has it as partner, within the gap."""
    rng = random.Random(24)
    ratings = {f"s{i}": float(round(rng.gauss(1500, 250))) for i in range(200)}
    gap = Gap(start=400, widen=0)
    made: list[list[tuple[str, str]]] = [[], []]
    stop = asyncio.Event()

    async def pairing(index: int) -> None:
        while not stop.is_set():
            made[index] += await two[index].pair_seeks(POOL, gap)
            await asyncio.sleep(0)

    workers = [asyncio.ensure_future(pairing(i)) for i in (0, 1)]
    for i, (seek_id, rating) in enumerate(ratings.items()):
        assert await two[i % 2].add_seek(seek_id, POOL, f"account:{seek_id}", rating)
    for _ in range(20):
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*workers)
    everyone = [seek for pairs in made for pair in pairs for seek in pair]
    assert len(everyone) == len(set(everyone))  # once at most, whichever process paired it
    assert made[0]  # both processes paired some
    assert made[1]
    got = await rows(two[0])
    for a, b in (pair for pairs in made for pair in pairs):
        assert got[a][:2] == ("paired", b)
        assert got[b][:2] == ("paired", a)
        assert abs(ratings[a] - ratings[b]) <= 400
    waiting = sorted(ratings[k] for k, v in got.items() if v[0] == "waiting")
    assert all(high - low > 400 for low, high in itertools.pairwise(waiting))  # nobody left to pair


async def test_a_pool_another_process_is_pairing_is_left_to_it_so_its_pairs_are_the_closest(
        two: tuple[Store, Store]) -> None:
    """Two processes pairing one pool at the same moment: the first's scan of the pool has reached (and locked) its
    two oldest seeks when the second's step comes. Were the second to pair the seeks it can lock, it would pair
    the two newer ones (90 apart), and the first the two older ones (90 apart): not the closest (5 apart each).
    The pool's advisory lock leaves the pool to the first process, which pairs it whole, closest first."""
    first, second = two
    for seek_id, rating in (("x", 1500), ("y", 1590), ("z", 1505), ("w", 1595)):  # in this order: x waited longest
        assert await first.add_seek(seek_id, POOL, f"account:{seek_id}", rating)
    async with first.engine.connect() as connection, connection.begin():
        assert (await connection.execute(sa.select(sa.func.pg_try_advisory_xact_lock(
            seeks_store.POOL_LOCK_CLASS, sa.func.hashtext(POOL))))).scalar_one()  # the first step's beginning
        reached = (await connection.execute(
            sa.select(seeks.c.id).where(seeks.c.pool == POOL, seeks.c.status == "waiting")
            .order_by(seeks.c.since, seeks.c.id).limit(2).with_for_update(skip_locked=True))).scalars().all()
        assert list(reached) == ["x", "y"]  # its scan, halfway
        assert await second.pair_seeks(POOL) == []  # the second process's step, meanwhile: the pool is left alone
        made = await seeks_store.pair(connection, POOL, Gap())  # the first step goes on to the end of the pool
    assert sorted(tuple(sorted(pair)) for pair in made) == [("w", "y"), ("x", "z")]
    assert {k: v[:2] for k, v in (await rows(second)).items()} == {
        "x": ("paired", "z"), "z": ("paired", "x"), "y": ("paired", "w"), "w": ("paired", "y")}
