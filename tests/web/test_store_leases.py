"""Rooms' owners and the writes they guard (issue 22), on SQLite and on PostgreSQL.

Several server processes may share one database; each room is driven by one of them at a time, its owner, holding a
lease that ends by the database's clock. Each time the room changes hands its fence number is raised, and every
write of the match checks, in its own transaction, that the lease is still held with the fence it gives: a process
that lost its lease never writes again. And whatever the leases, a match that is no longer being played is never
written to: its stored result stays.

Two processes are two :class:`Store` objects on one database (each its own connections and writer). Leases here
last 0.3 s where a test waits for one to end (the wait bounded)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import sqlalchemy as sa

from flametable.bots.registry import HUMAN
from flametable.web.store import LeaseLost, MatchOver, RoomRow, SeatRow, Store, StoreError, leases, room_owners
from flametable.web.store import matches as store_matches
from tests.web.test_store import a_match, a_room, made

pytestmark = pytest.mark.anyio

SHORT = 0.3  # a lease the test waits out
LONG = 60.0  # a lease that does not end during a test
RESIGNED = {"winner": 0, "reason": "resigned", "scores": [0, 0]}


@pytest.fixture
async def other(db_url: str, store: Store) -> AsyncIterator[Store]:
    """A second process's store on the same database as ``store``."""
    opened = await Store.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()


async def ended(store: Store, room_id: str) -> None:
    """Wait (at most 5 s) until the room's lease has ended by the database's clock."""
    for _ in range(50):
        owner = await store.room_owner(room_id)
        assert owner is not None
        if owner[2] <= 0:
            return
        await asyncio.sleep(owner[2] + 0.02)
    raise AssertionError(f"the lease of {room_id} did not end")


async def stored(store: Store, room_id: str = "r1", number: int = 0) -> tuple[list[str], str, Any, int]:
    match = await store.load_match(room_id, number)
    assert match is not None
    return match.actions, match.status, match.result, match.base


def person_room(room_id: str = "r1") -> RoomRow:
    """A room with an open person's seat (one ``close_waiting`` may close)."""
    return a_room(room_id, seats=[SeatRow(0, HUMAN, "ab" * 32), SeatRow(1, HUMAN)])


# --- taking, renewing, releasing ----------------------------------------------------------------------------

async def test_a_room_nobody_owns_is_taken_with_fence_1_and_then_refused_to_others(store: Store,
                                                                                    other: Store) -> None:
    await made(store, a_room())
    assert await store.room_owner("r1") is None
    assert await store.take_room("r1", "process-a", LONG) == 1
    assert await other.take_room("r1", "process-b", LONG) is None
    owner = await other.room_owner("r1")
    assert owner is not None
    assert owner[:2] == ("process-a", 1)
    assert LONG - 5 < owner[2] <= LONG


async def test_the_owner_taking_its_live_room_again_renews_it_with_the_same_fence(store: Store) -> None:
    await made(store, a_room())
    assert await store.take_room("r1", "process-a", SHORT) == 1
    assert await store.take_room("r1", "process-a", LONG) == 1
    owner = await store.room_owner("r1")
    assert owner is not None
    assert owner[:2] == ("process-a", 1)
    assert owner[2] > LONG - 5


async def test_an_ended_lease_is_taken_by_another_process_with_the_next_fence(store: Store, other: Store) -> None:
    await made(store, a_room())
    assert await store.take_room("r1", "process-a", SHORT) == 1
    assert await other.take_room("r1", "process-b", LONG) is None  # still live
    await ended(store, "r1")
    assert await other.take_room("r1", "process-b", LONG) == 2
    assert await store.take_room("r1", "process-a", LONG) is None
    owner = await store.room_owner("r1")
    assert owner is not None
    assert owner[:2] == ("process-b", 2)


async def test_a_lease_that_ended_is_lost_even_to_its_owner_who_takes_the_room_with_a_new_fence(
        store: Store) -> None:
    await made(store, a_room())
    assert await store.take_room("r1", "process-a", SHORT) == 1
    await ended(store, "r1")
    assert await store.take_room("r1", "process-a", LONG) == 2


async def test_renewing_extends_our_live_leases_in_one_call_and_names_the_rooms_lost(store: Store,
                                                                                     other: Store) -> None:
    for room_id in ("kept", "lapsed", "released", "taken", "misfenced"):
        await made(store, a_room(room_id))
    fences = {room_id: await store.take_room(room_id, "process-a", LONG if room_id != "lapsed" else SHORT)
              for room_id in ("kept", "lapsed", "released", "taken", "misfenced")}
    assert set(fences.values()) == {1}
    assert await store.release_room("released", "process-a", 1)
    assert await store.release_room("taken", "process-a", 1)
    assert await other.take_room("taken", "process-b", LONG) == 2
    await ended(store, "lapsed")
    asked = dict.fromkeys(fences, 1) | {"misfenced": 7, "never-owned": 1}
    assert await store.renew_rooms("process-a", asked, LONG) == {"lapsed", "released", "taken", "misfenced",
                                                                  "never-owned"}
    assert await store.renew_rooms("process-b", {"kept": 1}, LONG) == {"kept"}  # not its room
    assert await store.renew_rooms("process-a", {}, LONG) == set()
    owners = {room_id: await store.room_owner(room_id) for room_id in ("kept", "lapsed", "taken")}
    assert [o[:2] if o else None for o in owners.values()] == [("process-a", 1), ("process-a", 1),
                                                               ("process-b", 2)]
    kept, lapsed = owners["kept"], owners["lapsed"]
    assert kept is not None
    assert lapsed is not None
    assert kept[2] > LONG - 5
    assert lapsed[2] <= 0  # a lease that ended is not renewed


async def test_a_short_lease_renewed_outlives_its_first_end(store: Store) -> None:
    await made(store, a_room())
    assert await store.take_room("r1", "process-a", SHORT) == 1
    assert await store.renew_rooms("process-a", {"r1": 1}, LONG) == set()
    await asyncio.sleep(SHORT + 0.1)
    owner = await store.room_owner("r1")
    assert owner is not None
    assert owner[2] > LONG - 5


async def test_many_rooms_are_renewed_in_one_call(store: Store) -> None:
    ids = [f"r{i}" for i in range(60)]
    for room_id in ids:
        await made(store, a_room(room_id))
        assert await store.take_room(room_id, "process-a", LONG) == 1
    assert await store.renew_rooms("process-a", dict.fromkeys(ids, 1) | {"r7": 2}, LONG) == {"r7"}


async def test_a_released_room_ends_now_and_its_next_owner_gets_the_next_fence(store: Store,
                                                                               other: Store) -> None:
    await made(store, a_room())
    assert await store.take_room("r1", "process-a", LONG) == 1
    assert not await other.release_room("r1", "process-b", 1)  # not its room
    assert not await store.release_room("r1", "process-a", 2)  # not its fence
    assert await other.take_room("r1", "process-b", LONG) is None
    assert await store.release_room("r1", "process-a", 1)
    owner = await store.room_owner("r1")
    assert owner is not None
    assert owner[:2] == ("process-a", 1)
    assert owner[2] <= 0
    assert not await store.release_room("r1", "process-a", 1)  # given up already
    assert await other.take_room("r1", "process-b", LONG) == 2


async def test_a_room_that_does_not_exist_cannot_be_taken(store: Store) -> None:
    with pytest.raises(StoreError, match="cannot take the room nowhere: there is no such room"):
        await store.take_room("nowhere", "process-a", LONG)
    assert await store.room_owner("nowhere") is None


async def test_a_rooms_lease_goes_with_the_room(store: Store) -> None:
    await made(store, a_room())
    assert await store.take_room("r1", "process-a", LONG) == 1
    async with store.engine.begin() as connection:
        await connection.execute(sa.text("DELETE FROM rooms WHERE id = 'r1'"))
        assert (await connection.execute(sa.select(sa.func.count()).select_from(room_owners))).scalar_one() == 0


async def test_racing_processes_take_a_free_room_exactly_once(db_url: str, store: Store) -> None:
    """Several processes ask at once for a room never owned, then (round after round) for the room its owner
    released: exactly one wins each time, with the next fence."""
    await made(store, a_room())
    racers = [store, *[await Store.open(db_url, migrate=False) for _ in range(5)]]
    try:
        for round_ in range(1, 6):
            fences = await asyncio.gather(*(racer.take_room("r1", f"process-{i}", LONG)
                                            for i, racer in enumerate(racers)))
            winners = [i for i, fence in enumerate(fences) if fence is not None]
            assert len(winners) == 1, fences
            assert fences[winners[0]] == round_
            owner = await store.room_owner("r1")
            assert owner is not None
            assert owner[:2] == (f"process-{winners[0]}", round_)
            assert await racers[winners[0]].release_room("r1", f"process-{winners[0]}", round_)
    finally:
        for racer in racers[1:]:
            await racer.close()


async def test_racing_processes_take_an_ended_lease_exactly_once(db_url: str, store: Store) -> None:
    await made(store, a_room())
    racers = [store, *[await Store.open(db_url, migrate=False) for _ in range(5)]]
    try:
        assert await store.take_room("r1", "old-owner", SHORT) == 1
        await ended(store, "r1")
        fences = await asyncio.gather(*(racer.take_room("r1", f"process-{i}", LONG)
                                        for i, racer in enumerate(racers)))
        assert sorted(fences, key=lambda f: f or 0) == [None] * 5 + [2]
    finally:
        for racer in racers[1:]:
            await racer.close()


# --- fenced writes --------------------------------------------------------------------------------------------

async def test_fenced_writes_with_the_lease_held_commit(store: Store) -> None:
    match_id = await made(store, a_room())
    fence = await store.take_room("r1", "process-a", LONG)
    assert fence == 1
    await store.append_action(match_id, 0, "play 0", 0, fence=fence)
    await store.append_action(match_id, 1, "play 1", 1, fence=fence)
    await store.undo(match_id, keep=1, base=1, fence=fence)
    await store.append_action(match_id, 1, "play 1 again", 1, status="over", result={"winner": 1}, fence=fence)
    assert await stored(store) == (["play 0", "play 1 again"], "over", {"winner": 1}, 1)
    rematch = a_match(number=1)
    await store.start_match(rematch, fence=fence)
    assert rematch.id is not None
    await store.end_match(rematch.id, "resigned", RESIGNED, fence=fence)
    assert await stored(store, number=1) == ([], "resigned", RESIGNED, 0)
    await made(store, person_room("waiting"))
    waiting_fence = await store.take_room("waiting", "process-a", LONG)
    waiting = await store.load_room("waiting")
    assert waiting is not None
    assert waiting.match.id is not None
    assert await store.close_waiting(waiting.match.id, "closed", fence=waiting_fence)


async def lost_to(other: Store, store: Store, room_id: str = "r1") -> int:
    """``store``'s process owns the room, then ``other``'s takes it over: ``store``'s stale fence."""
    fence = await store.take_room(room_id, "process-a", SHORT)
    assert fence is not None
    await ended(store, room_id)
    assert await other.take_room(room_id, "process-b", LONG) == fence + 1
    return fence


async def test_a_process_whose_room_was_taken_over_writes_nothing_to_its_match(store: Store, other: Store) -> None:
    match_id = await made(store, a_room())
    await store.append_action(match_id, 0, "play 0", 0)
    stale = await lost_to(other, store)
    before = await stored(store)
    with pytest.raises(LeaseLost, match=r"this server no longer holds the room r1 \(its lease with fence 1"):
        await store.append_action(match_id, 1, "play 1", 1, fence=stale)
    with pytest.raises(LeaseLost):
        await store.append_action(match_id, 1, "the last", 1, status="over", result={"winner": 1}, fence=stale)
    with pytest.raises(LeaseLost):
        await store.end_match(match_id, "resigned", RESIGNED, fence=stale)
    with pytest.raises(LeaseLost):
        await store.undo(match_id, keep=0, base=1, fence=stale)
    with pytest.raises(LeaseLost):
        await store.start_match(a_match(number=1), fence=stale)
    assert await stored(store) == before == (["play 0"], "playing", None, 0)
    assert await store.load_match("r1", 1) is None
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.match.number == 0
    await other.append_action(match_id, 1, "play 1 by b", 1, fence=2)  # the new owner's fence works
    assert (await stored(store))[0] == ["play 0", "play 1 by b"]


async def test_a_process_whose_lease_ended_writes_nothing_though_nobody_took_the_room(store: Store) -> None:
    match_id = await made(store, a_room())
    fence = await store.take_room("r1", "process-a", SHORT)
    assert fence is not None
    await ended(store, "r1")
    with pytest.raises(LeaseLost):
        await store.append_action(match_id, 0, "play 0", 0, fence=fence)
    with pytest.raises(LeaseLost):
        await store.end_match(match_id, "resigned", RESIGNED, fence=fence)
    assert await stored(store) == ([], "playing", None, 0)


async def test_a_released_room_is_not_written_with_its_old_fence(store: Store) -> None:
    match_id = await made(store, a_room())
    fence = await store.take_room("r1", "process-a", LONG)
    assert fence is not None
    assert await store.release_room("r1", "process-a", fence)
    with pytest.raises(LeaseLost):
        await store.append_action(match_id, 0, "play 0", 0, fence=fence)


async def test_a_waiting_room_taken_over_is_not_closed_by_its_old_owner(store: Store, other: Store) -> None:
    await made(store, person_room())
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.match.id is not None
    stale = await lost_to(other, store)
    with pytest.raises(LeaseLost):
        await store.close_waiting(loaded.match.id, "closed", fence=stale)
    assert await stored(store) == ([], "playing", None, 0)
    assert [r.id for r in await store.waiting_rooms()] == ["r1"]


async def test_a_fenced_write_to_a_room_that_never_had_an_owner_is_refused(store: Store) -> None:
    match_id = await made(store, a_room())
    with pytest.raises(LeaseLost):
        await store.append_action(match_id, 0, "play 0", 0, fence=1)
    with pytest.raises(LeaseLost):
        await store.end_match(match_id, "resigned", RESIGNED, fence=1)
    assert await stored(store) == ([], "playing", None, 0)


async def test_one_lost_lease_in_a_run_of_appends_fails_only_its_own_append(store: Store, other: Store) -> None:
    ours, theirs = await made(store, a_room("ours")), await made(store, a_room("theirs"))
    fence = await store.take_room("ours", "process-a", LONG)
    stale = await lost_to(other, store, "theirs")
    commits = 0

    def counted(_connection: Any) -> None:
        nonlocal commits
        commits += 1

    sa.event.listen(store.engine.sync_engine, "commit", counted)
    try:
        outcomes = await asyncio.gather(
            *(store.append_action(ours, i, f"ours {i}", 0, fence=fence) for i in range(5)),
            store.append_action(theirs, 0, "theirs 0", 0, fence=stale),
            *(store.append_action(ours, i, f"ours {i}", 0, fence=fence) for i in range(5, 10)),
            return_exceptions=True)
    finally:
        sa.event.remove(store.engine.sync_engine, "commit", counted)
    assert [type(o).__name__ for o in outcomes] == ["NoneType"] * 5 + ["LeaseLost"] + ["NoneType"] * 5
    assert commits <= 2, commits  # the run was committed together, the refused append left out
    assert (await stored(store, "ours"))[0] == [f"ours {i}" for i in range(10)]
    assert (await stored(store, "theirs"))[0] == []


async def test_a_write_without_a_fence_is_not_checked_one_process_owns_everything(store: Store,
                                                                                 other: Store) -> None:
    match_id = await made(store, a_room())
    await lost_to(other, store)
    await store.append_action(match_id, 0, "play 0", 0)
    assert (await stored(store))[0] == ["play 0"]


# --- a match no longer being played is never written to -------------------------------------------------------

async def test_once_a_seat_resigned_on_one_process_the_other_stores_no_move_and_no_other_end(
        store: Store, other: Store) -> None:
    """The split brain of issue 22: a seat resigned through one process while the other process went on storing
    moves of the same match and overwrote the result "resigned" with a normal end."""
    match_id = await made(store, a_room())
    await other.load_room("r1")  # the other process has the room in memory, playing
    await store.append_action(match_id, 0, "play 0", 0)
    await store.end_match(match_id, "resigned", RESIGNED)
    with pytest.raises(MatchOver, match=r"the match is no longer being played \(its status is 'resigned'\)"):
        await other.append_action(match_id, 1, "play 1", 1)
    with pytest.raises(MatchOver):
        await other.append_action(match_id, 1, "the winning move", 1, status="over", result={"winner": 1})
    with pytest.raises(MatchOver):
        await other.end_match(match_id, "resigned", {"winner": 1, "reason": "resigned", "scores": [0, 0]})
    with pytest.raises(MatchOver):
        await other.undo(match_id, keep=0, base=1)
    assert await stored(store) == (["play 0"], "resigned", RESIGNED, 0)
    assert await stored(other) == (["play 0"], "resigned", RESIGNED, 0)


@pytest.mark.parametrize("status", ["over", "resigned", "closed", "expired"])
async def test_a_match_ended_any_way_takes_no_more_actions_and_keeps_its_result(store: Store, status: str) -> None:
    match_id = await made(store, person_room())
    result = None if status in ("closed", "expired") else {"winner": 0}
    if result is None:
        assert await store.close_waiting(match_id, status)
    else:
        await store.end_match(match_id, status, result)
    with pytest.raises(MatchOver) as caught:
        await store.append_action(match_id, 0, "play 0", 0, status="over", result={"winner": 1})
    assert (caught.value.match_id, caught.value.status) == (match_id, status)
    with pytest.raises(MatchOver):
        await store.end_match(match_id, "resigned", RESIGNED)
    assert await stored(store) == ([], status, result, 0)


async def test_an_append_after_the_last_action_of_its_run_is_refused(store: Store) -> None:
    match_id = await made(store, a_room())
    outcomes = await asyncio.gather(
        store.append_action(match_id, 0, "the last", 0, status="over", result={"winner": 0}),
        store.append_action(match_id, 1, "one too many", 1),
        return_exceptions=True)
    assert outcomes[0] is None
    assert isinstance(outcomes[1], MatchOver)
    assert await stored(store) == (["the last"], "over", {"winner": 0}, 0)


async def test_a_refused_append_fails_only_its_caller_in_a_run(store: Store) -> None:
    over, playing = await made(store, a_room("over")), await made(store, a_room("playing"))
    await store.end_match(over, "resigned", RESIGNED)
    outcomes = await asyncio.gather(store.append_action(playing, 0, "play 0", 0),
                                    store.append_action(over, 0, "play 0", 0),
                                    store.append_action(playing, 1, "play 1", 1), return_exceptions=True)
    assert [type(o).__name__ for o in outcomes] == ["NoneType", "MatchOver", "NoneType"]
    assert (await stored(store, "playing"))[0] == ["play 0", "play 1"]
    assert await stored(store, "over") == ([], "resigned", RESIGNED, 0)


# --- two processes at the same moment (PostgreSQL: SQLite has one process) -------------------------------------

async def test_an_append_racing_a_resignation_being_committed_waits_for_it_and_is_refused(
        two: tuple[Store, Store]) -> None:
    resigning, other = two
    match_id = await made(resigning, a_room())
    async with resigning.engine.connect() as connection:
        transaction = await connection.begin()
        await connection.execute(sa.update(store_matches).where(store_matches.c.id == match_id)
                                 .values(status="resigned", result=RESIGNED))
        append = asyncio.ensure_future(other.append_action(match_id, 0, "play 0", 1))
        await asyncio.sleep(0.3)
        assert not append.done()  # it waits for the match's row
        await transaction.commit()
    with pytest.raises(MatchOver):
        await append
    assert await stored(other) == ([], "resigned", RESIGNED, 0)


async def test_a_room_is_taken_over_only_once_the_old_owners_write_in_flight_is_done(
        two: tuple[Store, Store]) -> None:
    """The old owner's append checked its lease, then waits (here for a row another transaction holds) while its
    lease ends: the process taking the room over waits for that write, so that it loads the room with it."""
    old, new = two
    match_id = await made(old, a_room())
    fence = await old.take_room("r1", "process-a", SHORT)
    async with old.engine.connect() as connection:
        transaction = await connection.begin()
        await connection.execute(sa.select(store_matches).where(store_matches.c.id == match_id).with_for_update())
        append = asyncio.ensure_future(old.append_action(match_id, 0, "play 0", 0, fence=fence))
        await ended(old, "r1")
        take = asyncio.ensure_future(new.take_room("r1", "process-b", LONG))
        await asyncio.sleep(0.3)
        assert not take.done()  # it waits for the old owner's write
        assert not append.done()
        await transaction.rollback()
    await append
    assert await take == 2
    assert (await stored(new))[0] == ["play 0"]
    with pytest.raises(LeaseLost):
        await old.append_action(match_id, 1, "play 1", 1, fence=fence)


async def test_a_renewal_does_not_wait_for_the_fenced_writes_in_flight(two: tuple[Store, Store]) -> None:
    """A fenced write holds its room's owner row from its check to its commit; a renewal of that lease (an update of
    its end alone) goes through meanwhile, and the write still commits under its fence. (With the write's lock
    ``FOR SHARE`` the renewal waited for every write in flight: at 1,000 connections leases ran out behind them,
    and PostgreSQL found deadlocks between a renewal of many rooms and the appends.)"""
    store, _ = two
    match_id = await made(store, a_room("r1"))
    fence = await store.take_room("r1", "p1", 5.0)
    assert fence is not None
    async with store.engine.connect() as connection:
        transaction = await connection.begin()
        await leases.check_match(connection, match_id, fence, "a write in flight")  # the row held till the end
        assert await asyncio.wait_for(store.renew_rooms("p1", {"r1": fence}, 5.0), 2.0) == set()
        await transaction.rollback()
    await store.append_action(match_id, 0, "play 0", 0, fence=fence)
    assert (await stored(store))[0] == ["play 0"]


async def test_a_busy_writer_does_not_hold_back_the_renewal_of_leases(two: tuple[Store, Store]) -> None:
    """A process whose writer is busy (a long batch of appends) still renews its leases at once: they are on a
    connection of their own (renewed behind the batches, they ran out under load and the process dropped every
    room it had)."""
    store, _ = two
    await made(store, a_room("r1"))
    fence = await store.take_room("r1", "p1", 5.0)
    assert fence is not None
    busy = asyncio.Event()

    async def slow(connection: Any) -> None:
        busy.set()
        await asyncio.sleep(3.0)

    held = asyncio.ensure_future(store._writer.job("a long batch", slow))
    await busy.wait()
    assert await asyncio.wait_for(store.renew_rooms("p1", {"r1": fence}, 5.0), 1.0) == set()
    await held
