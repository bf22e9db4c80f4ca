"""Bots are scheduled fairly across rooms (issue 21, point 5): a cheap bot never waits behind searches, never more
decisions are handed to the workers than there are workers, rooms are served in turn and rooms with a person
before all-bot rooms, a cancelled room's queued decision never runs, a failed decision is made again, and a
client's all-bot rooms have an allowance of their own, apart from its 20 rooms with a person.

The searches here are held by :class:`HeldPool`, an executor whose decisions end when the test says so: no real
1.5 s search runs."""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import Any, cast

import pytest

from flametable.texts.translator import Translator
from flametable.web import botpool
from flametable.web.botpool import INSTANT, SEARCH, BotPool, Lane, game_of, pack, unpack
from flametable.web.rooms import Conn, Hall, Limits, Room, RoomError
from flametable.web.store import Store
from tests.web.client import Server
from tests.web.memory_store import MemoryStore

pytestmark = pytest.mark.anyio

HARD = ["bot:hard", "bot:hard"]


@dataclass(eq=False)
class Held:
    """A decision handed to the :class:`HeldPool`: what to call, and its future."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: Future[Any]

    @property
    def view(self) -> Any:
        return self.args[3]


class HeldPool(Executor):
    """An executor of ``workers`` workers whose decisions end when the test says (:meth:`finish`). It takes work as
    ``ProcessPoolExecutor`` does: as many decisions as it has workers plus one (its call queue) are started at once,
    and a started one can no longer be cancelled; the others wait in order."""

    def __init__(self, workers: int) -> None:
        self._max_workers = workers
        self.started: list[Held] = []  # started and not finished, oldest first
        self.ran: list[Held] = []  # every decision ever started, in order
        self.pending: deque[Held] = deque()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        held = Held(fn, args, Future())
        self.pending.append(held)
        self._take()
        return held.future

    def _take(self) -> None:
        while self.pending and len(self.started) < self._max_workers + 1:
            held = self.pending.popleft()
            if held.future.set_running_or_notify_cancel():  # False: cancelled while it waited
                self.started.append(held)
                self.ran.append(held)

    @property
    def in_flight(self) -> int:
        """Decisions handed to this executor and not finished (nor cancelled)."""
        return len(self.started) + sum(1 for held in self.pending if not held.future.cancelled())

    def finish(self, held: Held | None = None, *, error: BaseException | None = None, result: int | None = None
               ) -> Held:
        """End a started decision (the oldest by default): its first legal action, ``result``, or ``error``."""
        held = held or self.started[0]
        self.started.remove(held)
        if error is not None:
            held.future.set_exception(error)
        else:
            held.future.set_result(result if result is not None else int(held.args[4][0].id))
        self._take()
        return held


async def settle() -> None:
    """Let the loop run what is ready: a finished decision played, the next one asked for."""
    for _ in range(30):
        await asyncio.sleep(0)


async def until(check: Callable[[], bool], seconds: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not check():
        assert loop.time() < deadline, "it did not happen in time"
        await asyncio.sleep(0.005)


def room_of(hall: Hall, held: Held) -> Room:
    """The room whose decision ``held`` is: the one whose seat to act sees that view."""
    found = [room for room in hall.rooms.values() if room.playing and room.service.to_act is not None
             and room.service.view(room.service.to_act) == held.view]
    assert len(found) == 1, found
    return found[0]


def a_store() -> Store:
    return cast(Store, MemoryStore())  # the store's interface, in memory


def a_hall(pool: HeldPool, **changes: Any) -> Hall:
    seeds = itertools.count(1)
    return Hall(a_store(), executor=pool, seeds=lambda: next(seeds), **changes)


creators = (f"client-{i}" for i in itertools.count())


async def made(hall: Hall, seats: list[str], game: str = "duel", creator: str | None = None) -> Room:
    room, _ = await hall.create(game, None, seats, creator or next(creators))
    await settle()
    return room


def bot_first(game: str, spec: str, seed: int) -> list[str]:
    """A person and ``spec``, the bot at the seat that acts first in the match of ``seed``."""
    first = game_of(game).new_match({}, seed).to_act
    return [spec, "me"] if first == 0 else ["me", spec]


# ------------------------------------------------------------------ cheap bots, workers, turns


@pytest.mark.parametrize("game", ["duel", "duals"])
@pytest.mark.parametrize("cheap", ["bot:random", "bot:easy"])
async def test_a_cheap_bot_decides_without_waiting_for_the_searches_queued_before_it(game: str, cheap: str) -> None:
    pool = HeldPool(2)
    hall = a_hall(pool)
    for _ in range(10):
        await made(hall, HARD, game)
    seats = bot_first(game, cheap, 11)
    room = await made(hall, seats, game)
    await until(lambda: room.service.version >= 1)
    assert room.actors[0] == seats.index(cheap)  # the cheap bot has played
    assert not any(held.future.done() for held in pool.ran)  # while no search has ended
    await hall.close()


async def test_never_more_decisions_are_handed_over_than_there_are_workers() -> None:
    pool = HeldPool(2)
    hall = a_hall(pool)
    for _ in range(10):
        await made(hall, ["bot:hard", "me"])
    assert pool.in_flight == 2
    for _ in range(12):
        pool.finish()
        await settle()
        assert pool.in_flight == 2  # the next decision is handed over as one ends: never more
    await hall.close()


async def test_rooms_with_a_person_are_served_before_all_bot_rooms() -> None:
    pool = HeldPool(1)
    hall = a_hall(pool)
    robots = [await made(hall, HARD) for _ in range(4)]
    person = await made(hall, ["bot:hard", "me"])  # Flame Duel: seat 0 lines up first
    assert room_of(hall, pool.ran[0]) is robots[0]
    pool.finish()
    await settle()
    assert room_of(hall, pool.ran[-1]) is person  # next, before the all-bot rooms that asked first
    pool.finish()
    await settle()
    assert (person.service.version, person.service.to_act) == (1, 0)  # its bot lines up its next character...
    assert room_of(hall, pool.started[0]) is robots[1]  # ...asked for once the worker was given on
    pool.finish()
    await settle()
    assert room_of(hall, pool.started[0]) is person  # and again before robots[2] and robots[3]
    await hall.close()


async def test_rooms_are_served_in_turn() -> None:
    """While the worker is busy, room a asks for three decisions, then b, c and the rooms with a person p and q
    for one each: p and q come first, then a gets its second only after every other room waiting got one."""
    pool = HeldPool(1)
    bots = BotPool(Lane(SEARCH, 1, pool))
    asks = [("z", 1), ("a", 1), ("a", 2), ("a", 3), ("b", 1), ("c", 1), ("p", 1), ("q", 1)]
    tasks = [asyncio.ensure_future(bots.decide(room, room in "pq", "bot:hard", "duel", 0, (room, n), ()))
             for room, n in asks]
    await settle()
    for _ in asks:
        pool.finish(result=0)
        await settle()
    assert all(task.done() for task in tasks)
    order = [held.view for held in pool.ran]
    assert order == [("z", 1), ("p", 1), ("q", 1), ("a", 1), ("b", 1), ("c", 1), ("a", 2), ("a", 3)]


async def test_a_lane_hands_over_work_only_when_a_worker_is_free() -> None:
    pool = HeldPool(3)
    bots = BotPool(Lane(SEARCH, 3, pool))
    tasks = [asyncio.ensure_future(bots.decide(f"r{i}", False, "bot:hard", "duel", 0, i, ())) for i in range(7)]
    await settle()
    assert (pool.in_flight, bots.waiting) == (3, 4)
    pool.finish(result=0)
    await settle()
    assert (pool.in_flight, bots.waiting) == (3, 3)
    bots.close()
    await settle()
    assert all(task.cancelled() for task in tasks[4:])
    assert len(pool.ran) == 4


async def test_all_bot_rooms_leave_a_worker_to_the_rooms_with_a_person() -> None:
    pool = HeldPool(2)
    hall = a_hall(pool)
    robots = [await made(hall, HARD) for _ in range(4)]
    assert pool.in_flight == 1  # the other worker is kept...
    person = await made(hall, ["bot:hard", "me"])
    assert [room_of(hall, held) for held in pool.started] == [robots[0], person]  # ...for a room with a person
    pool.finish(pool.started[1])
    await settle()
    assert pool.in_flight == 2  # the person's bot thinks again at once


# ------------------------------------------------------------------ cancelled work


class Quiet:
    async def __call__(self, text: str) -> None:
        pass


async def test_a_resigned_rooms_queued_decision_never_runs() -> None:
    pool = HeldPool(1)
    hall = a_hall(pool)
    first, resigned, last = [await made(hall, ["bot:hard", "me"]) for _ in range(3)]
    conn = Conn(Quiet(), Translator.for_language("en"))
    conn.player = 1
    await resigned.resign(conn)
    pool.finish()
    await settle()
    assert [room_of(hall, held) for held in pool.started] == [last]
    assert first.service.version == 1
    assert all(held.view != resigned.service.view(0) for held in pool.ran)  # a worker never spent time on it
    await hall.close()


async def test_closing_the_hall_drops_every_queued_decision() -> None:
    pool = HeldPool(1)
    hall = a_hall(pool)
    for _ in range(4):
        await made(hall, HARD)
    assert len(pool.ran) == 1
    await hall.close()
    pool.finish()
    await settle()
    assert len(pool.ran) == 1
    assert pool.in_flight == 0


async def test_a_decision_whose_room_moved_on_is_dropped() -> None:
    pool = HeldPool(1)
    hall = a_hall(pool)
    room = await made(hall, ["bot:hard", "me"])
    conn = Conn(Quiet(), Translator.for_language("en"))
    conn.player = 1
    await room.resign(conn)
    pool.finish()  # it was running: it ends, and its move is not played
    await settle()
    assert room.match.actions == []
    assert pool.in_flight == 0
    await hall.close()


# ------------------------------------------------------------------ failures


async def test_a_bot_room_keeps_playing_after_its_worker_fails() -> None:
    pool = HeldPool(1)
    hall = a_hall(pool)
    room = await made(hall, ["bot:hard", "me"])
    pool.finish(error=RuntimeError("a worker failed"))
    await settle()
    assert len(pool.ran) == 2
    assert room_of(hall, pool.ran[1]) is room
    pool.finish()
    await settle()
    assert room.service.version == 1
    assert room.actors == [0]
    await hall.close()


async def test_a_decision_that_fails_twice_is_made_by_bot_random(caplog: pytest.LogCaptureFixture) -> None:
    pool = HeldPool(1)
    hall = a_hall(pool)
    room = await made(hall, ["bot:hard", "me"])
    for _ in range(2):
        pool.finish(error=RuntimeError("this bot is broken"))
        await settle()
    assert room.service.version == 1
    assert room.actors == [0]
    assert len(pool.ran) == 3
    assert room_of(hall, pool.ran[2]) is room
    assert "bot:random decides this move" in caplog.text
    await hall.close()


def dying_think(spec: str, game_name: str, seed: int, view: Any, legal: tuple[Any, ...]) -> int:
    """The first decision kills its worker process (as an out-of-memory kill would); the next ones decide."""
    marker = Path(os.environ["FLAMETABLE_TEST_MARKER"])
    if not marker.exists():
        marker.write_text("died")
        os._exit(1)
    return botpool.think(spec, game_name, seed, view, legal)


async def test_a_dead_worker_process_is_replaced_and_its_decision_made_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLAMETABLE_TEST_MARKER", str(tmp_path / "died"))
    processes = partial(ProcessPoolExecutor, 1, mp_context=get_context("spawn"))
    lane = Lane(SEARCH, 1, factory=processes, think=dying_think)
    first = lane.executor
    hall = Hall(a_store(), bots=BotPool(lane), seeds=lambda: 5)
    room, _ = await hall.create("duals", None, bot_first("duals", "bot:ismcts:5", 5), "client")
    await until(lambda: room.service.version >= 1, 60)
    assert (tmp_path / "died").exists()
    assert lane.executor is not first
    await hall.close()


# ------------------------------------------------------------------ views to worker processes


def test_a_view_goes_to_a_worker_process_without_the_games_data() -> None:
    game = game_of("duals")
    state = game.new_match({}, 3)
    view = state.view(state.to_act)
    blob = pack("duals", "bot:hard", view, tuple(view.legal))
    assert len(blob) < 4096  # the data set (96 KB pickled) is named, not sent
    spec, back, legal = unpack("duals", blob)
    assert (spec, back, legal) == ("bot:hard", view, tuple(view.legal))
    assert back.data is game.data


# ------------------------------------------------------------------ the allowances of a client


async def test_all_bot_rooms_are_counted_apart_from_a_clients_20_rooms_with_a_person() -> None:
    pool = HeldPool(2)  # nothing ends: every match stays in play
    hall = a_hall(pool)
    for _ in range(20):
        await hall.create("duel", None, ["me", "open"], "client")
    with pytest.raises(RoomError) as refused:
        await hall.create("duel", None, ["me", "bot:easy"], "client")
    assert (refused.value.code, refused.value.status) == ("too_many_rooms", 429)
    for game in ("duel", "duals", "duel", "duals", "duel"):
        await hall.create(game, None, HARD, "client")  # apart from the 20
    with pytest.raises(RoomError) as refused:
        await hall.create("duals", None, ["bot:random", "bot:easy"], "client")
    assert (refused.value.code, refused.value.status) == ("too_many_bot_rooms", 429)
    await hall.create("duel", None, HARD, "someone else")  # each client its own
    assert (hall.limits.rooms_per_client, hall.limits.bot_rooms_per_client) == (20, 5)
    await hall.close()


TOO_MANY_BOT_ROOMS = "You already have {count} room where only bots play: let it end first."


@pytest.fixture
def bots_held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every searching bot thinks until the test ends (its rooms stay in play)."""
    release = threading.Event()

    def held(*args: Any) -> int:
        release.wait(30)
        raise RuntimeError("the test ended")

    monkeypatch.setattr(botpool, "think", held)
    try:
        yield
    finally:
        release.set()


def test_past_its_all_bot_rooms_a_client_is_refused_in_its_language(bots_held: None) -> None:
    limits = Limits(actions_per_second=1e6, burst=10**6, bot_rooms_per_client=1)
    with Server(limits=limits) as server:
        server.room("duel", HARD)
        refused = server.http.post("/api/rooms", json={"game": "duals", "seats": HARD})
        assert refused.status_code == 429
        assert refused.json() == {"error": "too_many_bot_rooms", "message": TOO_MANY_BOT_ROOMS.format(count=1)}
        spanish = server.http.post("/api/rooms?lang=es", json={"game": "duals", "seats": HARD})
        assert spanish.status_code == 429
        assert spanish.json()["error"] == "too_many_bot_rooms"
        assert spanish.json()["message"] != refused.json()["message"]
        assert "1" in spanish.json()["message"]
        assert server.room("duel", ["me", "bot:hard"])["room"]  # a room with a person is still allowed


def test_each_bot_goes_to_the_lane_of_its_cost() -> None:
    """bot:random on the event loop (microseconds), the one-ply bots in a lane of their own, searches apart."""
    assert botpool.lane_of("bot:random", "duals") == INSTANT
    assert botpool.lane_of("bot:easy", "duel") == botpool.lane_of("bot:medium", "duals") == botpool.QUICK
    assert botpool.lane_of("bot:hard", "duel") == botpool.lane_of("bot:hard", "duals") == SEARCH
