"""Replays and bodies under a neighbour's load (issue 21, points 1 and 2: the expensive requests capped per address):
a replay is made in the server's replay worker, never in the server's own interpreter; an address gets a budget of
replays and of requests with a body, refused before a byte of the body is read; the worker takes a few at once."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import replace
from typing import Any

import pytest

from flametable.web import replays
from flametable.web.botpool import WORKER_NICENESS
from flametable.web.replays import ReplayBusy, ReplayWorker
from flametable.web.rooms import Limits
from flametable.web.settings import _processes
from tests.web.client import Server, settings
from tests.web.test_replay_api import play_to_end


def generous() -> Limits:
    """The test server's limits (none a test meets), to change one of."""
    limits = settings().limits
    assert limits is not None
    return limits


@pytest.fixture
def server() -> Iterator[Server]:
    with Server() as s:
        yield s


def test_a_replay_is_made_in_the_replay_worker_not_on_the_event_loop(server: Server,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    room = play_to_end(server, "duel", 4)
    record = server.record(room).content
    threads: list[str] = []
    made = replays.replay_steps

    def spy(*args: Any) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return made(*args)

    monkeypatch.setattr(replays, "replay_steps", spy)
    assert server.http.post("/api/replay", content=record).status_code == 200
    assert server.http.get(f"/api/rooms/{room}/matches/0/replay").status_code == 200
    assert len(threads) == 2
    assert all(name.startswith("flametable-replay") for name in threads), threads


def test_a_replay_worker_process_answers_as_the_server_did(server: Server) -> None:
    """``serve``'s worker is a process of its own: the answer crosses it as status and JSON bytes, the same JSON
    the route gives, errors in the client's language."""
    room = play_to_end(server, "duals", 5)
    record = server.record(room).content
    expected = server.http.post("/api/replay?lang=es", content=record).json()
    worker = ReplayWorker(_processes(1), Limits())

    async def ask() -> tuple[tuple[int, bytes], tuple[int, bytes]]:
        good = await worker.answer(record, "es")
        bad = await worker.answer(b'{"format": "nothing"}', "es")
        return good, bad

    try:
        (status, body), (bad_status, bad_body) = asyncio.run(ask())
    finally:
        worker.close()
    assert status == 200
    assert json.loads(body) == expected
    assert bad_status == 400
    refusal = json.loads(bad_body)
    assert refusal["error"] == "bad_record"
    assert refusal["message"].startswith("El archivo no es")


def test_replays_past_the_address_s_budget_are_refused_before_the_body_is_read() -> None:
    limits = replace(generous(), replays_per_second=0.001, replays_burst=3)
    with Server(limits=limits) as server:
        room = play_to_end(server, "duel", 6)
        record = server.record(room).content
        answers = [server.http.post("/api/replay", content=record) for _ in range(3)]
        assert [a.status_code for a in answers] == [200] * 3
        refused = server.http.post("/api/replay?lang=es", content=record)
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_requests"
        assert "repeticiones" in refused.json()["message"]
        assert refused.headers["connection"] == "close"  # the rest of the body is not received
        assert server.http.get(f"/api/rooms/{room}/matches/0/replay").status_code == 429  # the same budget


def test_requests_with_a_body_past_the_address_s_budget_are_refused_unread() -> None:
    limits = replace(generous(), bodies_per_second=0.001, bodies_burst=4)
    with Server(limits=limits) as server:
        statuses = [server.http.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]}).status_code
                    for _ in range(4)]
        assert statuses == [201] * 4
        refused = server.http.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]})
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_requests"
        assert refused.headers["connection"] == "close"
        assert server.http.get("/api/rooms").status_code == 200  # reading costs no body: not counted


class Held(Executor):
    """An executor whose jobs end when the test says (``release``)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, fn, args))
        return future

    def release(self) -> None:
        for future, fn, args in self.jobs:
            future.set_result(fn(*args))
        self.jobs.clear()


def test_the_worker_takes_a_few_replays_at_once_and_refuses_more() -> None:
    held = Held()
    worker = ReplayWorker(held, replace(Limits(), replays_waiting=2))

    async def run() -> None:
        first = asyncio.ensure_future(worker.answer(b"{}", "en"))
        second = asyncio.ensure_future(worker.answer(b"{}", "en"))
        await asyncio.sleep(0)
        with pytest.raises(ReplayBusy):
            await worker.answer(b"{}", "en")
        held.release()
        assert (await first)[0] == (await second)[0] == 400  # not a record: answered, not refused
        assert worker.pending == 0
        assert (await asyncio.wait_for(_answer_released(worker, held), 5))[0] == 400  # room again

    asyncio.run(run())


async def _answer_released(worker: ReplayWorker, held: Held) -> tuple[int, bytes]:
    task = asyncio.ensure_future(worker.answer(b"{}", "en"))
    await asyncio.sleep(0)
    held.release()
    return await task


def test_worker_processes_yield_the_cpu_to_the_server() -> None:
    """Bots and replays think in processes of a lower priority than the server's event loop (issue 21: a
    neighbour's searches and replays took the cores its players' moves needed)."""
    pool = _processes(1)
    try:
        theirs = pool.submit(os.nice, 0).result(timeout=60)
        policy = pool.submit(os.sched_getscheduler, 0).result(timeout=60) if hasattr(os, "SCHED_IDLE") else None
    finally:
        pool.shutdown()
    assert theirs == min(19, os.nice(0) + WORKER_NICENESS)
    if policy is not None:  # Linux: the server, woken, takes the core from a worker at once
        assert policy == os.SCHED_IDLE
