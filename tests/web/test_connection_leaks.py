"""Issue 21, point 9: a wave of connections leaves nothing behind. Hundreds of WebSockets (players and spectators
of rooms of two people, people playing a bot, some asking for the log, acting or resigning, one never saying
hello, one to a room that does not exist) are opened on a real uvicorn server in this process and closed at once,
the replays of the ended matches read as the page's "Replay it" link does; once the server's handlers are done and
the garbage collector has run, no connection, session, room nobody is in, match service, server protocol object or
task is left beyond what was there before, and the hall holds no room and no pending load. Then the two ways a
room outlived its last connection, one at a time: the last one leaving while the others were being told of a
departure, and a person leaving while the bot thinks. Last, what the server does about the allocator's share: once
a wave has closed, glibc is asked (once, off the event loop) to give back the free pages of its heap.

The server's memory after such a wave stays near its peak for another reason, the allocator's (Python's arenas
and glibc's heap keep the pages of freed objects for the next wave): ``docs/server.md``, "Memory"."""

from __future__ import annotations

import asyncio
import gc
import json
import platform
import socket
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any, cast

import pytest
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from flametable.texts.translator import Translator
from flametable.web.app import create_app
from flametable.web.memory import Connections, malloc_trim
from flametable.web.rooms import Conn, Hall, Limits
from flametable.web.store import Store
from tests.web.client import settings
from tests.web.memory_store import MemoryStore

pytestmark = pytest.mark.anyio

SERVER_MODULES = ("flametable.web.rooms", "flametable.web.socket", "flametable.service", "uvicorn.protocols",
                  "websockets.server", "starlette.websockets")
"""The modules of the objects a server keeps per connection or per room (not the rows of the store in memory, the
test's database; nor the test's own clients, ``websockets.asyncio.client`` objects)."""

PAIRS = 50  # rooms of two people, each with two spectators: 200 connections
BOT_ROOMS = 50  # rooms of a person against a bot, each with a spectator: 100 connections
BOT = "bot:ismcts:300"  # thinks some tens of milliseconds a move: its person is gone before it has decided
SLACK = 3  # objects of a kind the wave may leave beyond the baseline (none is expected)
UNLIMITED = Limits(actions_per_second=1e6, burst=10**6, sockets_per_client=10**6, spectators_per_room=10**6,
                   expensive_per_second=1e6, expensive_burst=10**6,
                   replays_per_second=1e6, replays_burst=10**6,
                   bodies_per_second=1e6, bodies_burst=10**6)

_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@asynccontextmanager
async def live_server(**changes: Any) -> AsyncIterator[tuple[int, Hall, Connections]]:
    """The app on uvicorn in this event loop (a free port of 127.0.0.1, rooms in memory, bots on threads)."""
    app = create_app(settings(**changes))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                                           ws_per_message_deflate=False))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        if serving.done():
            serving.result()
        await asyncio.sleep(0.01)
    try:
        yield port, app.state.hall, app.state.connections
    finally:
        server.should_exit = True
        await serving


def server_objects() -> Counter[str]:
    """The live objects of the server's kinds, by class (after a full collection)."""
    gc.collect()
    counts: Counter[str] = Counter()
    for obj in gc.get_objects():
        kind = type(obj)
        module = getattr(kind, "__module__", None)
        if isinstance(module, str) and module.startswith(SERVER_MODULES):
            counts[f"{module}.{kind.__qualname__}"] += 1
    return counts


def server_tasks(before: Iterable[asyncio.Task[Any]]) -> set[asyncio.Task[Any]]:
    """The tasks running now that were not running before, but this one."""
    return asyncio.all_tasks() - set(before) - {asyncio.current_task()}


async def settle(until: Callable[[], bool], seconds: float = 20.0) -> None:
    """Let the server's handlers run until ``until()`` holds (at most ``seconds``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not until() and loop.time() < deadline:
        await asyncio.sleep(0.02)


def http(port: int, method: str, path: str, body: Any = None) -> int:
    """The status of an HTTP request to the server (its body read and dropped)."""
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"content-type": "application/json"})
    try:
        with _HTTP.open(request, timeout=30) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        exc.read()
        return int(exc.code)


class Peer:
    """One client's WebSocket: a room's player (with its seat token) or a spectator."""

    def __init__(self, room: str, ws: ClientConnection, token: str | None) -> None:
        self.room = room
        self.ws = ws
        self.token = token
        self.event: dict[str, Any] = {}
        self.seat: int | None = None

    async def hello(self) -> None:
        """Say hello and read up to the sync event."""
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        while True:
            message = json.loads(await self.ws.recv())
            assert message["type"] != "error", message
            if message["type"] == "welcome":
                self.seat = message["seat"]
            if message["type"] == "event":
                self.event = message["event"]
                return

    async def play(self) -> None:
        """One move, if this seat is to act."""
        if self.seat is not None and self.event["to_act"] == self.seat and self.event["view"]["legal"]:
            await self.ws.send(json.dumps({"type": "act", "action": self.event["view"]["legal"][0],
                                           "version": self.event["version"]}))


async def open_peer(port: int, room: str, token: str | None, gate: asyncio.Semaphore) -> Peer:
    async with gate:
        ws = await connect(f"ws://127.0.0.1:{port}/api/rooms/{room}/ws", proxy=None, compression=None,
                           ping_interval=None, open_timeout=30)
        peer = Peer(room, ws, token)
        await peer.hello()
        return peer


async def wave(port: int, hall: Hall, pairs: int, bot_rooms: int) -> int:
    """``pairs`` rooms of two players and two spectators and ``bot_rooms`` rooms of a person against a bot with
    a spectator, all connected; the spectators ask for the log, each person to act plays, the players of every
    fifth pair's room resign; then every connection closes at once (with one that never said hello, and one to a
    room that does not exist), the ended matches' replays and records are read and a seat of a full room is
    asked for. Returns the connections opened."""
    made: list[tuple[str, list[str | None]]] = []
    for index in range(pairs):
        room, tokens = await hall.create(("duel", "duals")[index % 2], None, ["me", "me"], f"pair-{index}")
        made.append((room.id, [tokens[0], tokens[1], None, None]))
    for index in range(bot_rooms):
        room, tokens = await hall.create(("duel", "duals")[index % 2], None, ["me", BOT], f"bot-{index}")
        made.append((room.id, [tokens[0], None]))
    gate = asyncio.Semaphore(50)
    peers = await asyncio.gather(*(open_peer(port, room, token, gate) for room, tokens in made for token in tokens))
    silent = await connect(f"ws://127.0.0.1:{port}/api/rooms/{made[0][0]}/ws", proxy=None, compression=None)
    nowhere = await connect(f"ws://127.0.0.1:{port}/api/rooms/no-such-room/ws", proxy=None, compression=None)
    resigning = {room for room, _tokens in made[:pairs:5]}
    for peer in peers:
        if peer.seat is None:
            await peer.ws.send('{"type": "log"}')
        elif peer.room in resigning:
            await peer.ws.send('{"type": "resign"}')
        else:
            await peer.play()
    for peer in peers:  # the resigned matches are over before anyone leaves
        if peer.room in resigning and peer.seat is None:
            while json.loads(await peer.ws.recv())["type"] != "ended":
                pass
    await asyncio.gather(*(peer.ws.close() for peer in peers), silent.close(), nowhere.close())
    for ended in resigning:  # the page's "Replay it" link, and the record file
        assert await asyncio.to_thread(http, port, "GET", f"/api/rooms/{ended}/matches/0/replay") == 200
        assert await asyncio.to_thread(http, port, "GET", f"/api/rooms/{ended}/matches/0/record") == 200
    assert await asyncio.to_thread(http, port, "POST", f"/api/rooms/{made[1][0]}/join", {}) == 409
    return len(peers) + 2


async def test_a_wave_of_connections_closed_leaves_no_connection_room_or_task_behind() -> None:
    async with live_server(limits=UNLIMITED) as (port, hall, connections):
        await wave(port, hall, 2, 2)  # the first rooms of each game: what is made once (caches) is in the baseline
        await settle(lambda: not hall.rooms)
        before_tasks = asyncio.all_tasks()
        before = server_objects()

        opened = await wave(port, hall, PAIRS, BOT_ROOMS)
        assert opened == 4 * PAIRS + 2 * BOT_ROOMS + 2
        await settle(lambda: not hall.rooms and not server_tasks(before_tasks))

        assert hall.rooms == {}, f"{len(hall.rooms)} rooms nobody is in are kept"
        assert hall._loading == {}
        assert connections.count == 0
        assert connections.peak >= opened
        assert server_tasks(before_tasks) == set()
        after = server_objects()
        grown = {kind: after[kind] - before[kind] for kind in after if after[kind] - before[kind] > SLACK}
        assert grown == {}, f"objects left after {opened} connections closed: {grown}"


# ------------------------------------------------------------------ each way a room outlived its last connection


class Line:
    """A connection's network as a test holds it: messages go through at once while it is open; while it is
    stalled, a send waits until it opens again."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.got: list[str] = []

    async def send(self, text: str) -> None:
        await self.open.wait()
        self.got.append(text)


def memory_hall(**changes: Any) -> Hall:
    """A hall of rooms on a store in memory (the interface of :class:`Store`), bots in the loop's threads."""
    return Hall(cast(Store, MemoryStore()), limits=UNLIMITED, **changes)


def conn(line: Line) -> Conn:
    return Conn(line.send, Translator.for_language("en"), "client")


async def until(holds: Callable[[], bool]) -> None:
    await settle(holds, 1.0)
    assert holds()


async def test_the_last_to_leave_while_the_others_are_told_of_a_departure_leaves_no_room_in_memory() -> None:
    hall = memory_hall()
    room, tokens = await hall.create("duel", None, ["me", "me"], "client")
    player, spectator = Line(), Line()
    p, s = conn(player), conn(spectator)
    await room.hello(p, {"type": "hello", "token": tokens[0]})
    await room.hello(s, {"type": "hello"})
    spectator.open.clear()  # the spectator's network stalls
    room.leave(p)  # the spectator is told the seat left: under the room's lock, waiting on the stalled network
    await until(room.lock.locked)
    room.leave(s)  # the last one leaves meanwhile
    spectator.open.set()
    await asyncio.gather(*room.tasks)
    assert hall.rooms == {}


async def test_a_connection_saying_hello_while_the_last_one_leaves_keeps_the_room_it_joins() -> None:
    hall = memory_hall()
    room, tokens = await hall.create("duel", None, ["me", "me"], "client")
    player, spectator, newcomer = Line(), Line(), Line()
    p, s, n = conn(player), conn(spectator), conn(newcomer)
    await room.hello(p, {"type": "hello", "token": tokens[0]})
    await room.hello(s, {"type": "hello"})
    spectator.open.clear()
    room.leave(p)
    await until(room.lock.locked)
    arriving = asyncio.create_task(room.hello(n, {"type": "hello", "token": tokens[1]}))  # waits for the lock
    await asyncio.sleep(0)
    room.leave(s)
    spectator.open.set()
    await asyncio.gather(*room.tasks, arriving)
    assert hall.rooms == {room.id: room}  # the room the newcomer is in is the hall's: its moves reach the others
    assert room.conns == {n}
    assert any('"welcome"' in text for text in newcomer.got)


async def test_a_person_leaving_while_the_bot_thinks_leaves_no_room_in_memory_once_it_has_moved() -> None:
    hall = memory_hall(seeds=lambda: 1)
    room, tokens = await hall.create("duel", None, ["me", BOT], "client")
    person = Line()
    p = conn(person)
    await room.hello(p, {"type": "hello", "token": tokens[0]})
    while room.service.to_act == 0:  # the person's moves, up to the bot's turn
        await room.act(p, room.service.legal(0)[0].id, room.wire_version)
    thinking = room.bot_task
    assert thinking is not None
    assert not thinking.done()  # the bot thinks
    room.leave(p)
    while thinking is not None:  # the bot's moves, up to the person's turn
        await thinking
        await asyncio.sleep(0)
        thinking = room.bot_task if room.bot_task is not None and not room.bot_task.done() else None
    assert room.service.to_act == 0  # the person's turn, and nobody there
    assert hall.rooms == {}


# ------------------------------------------------------------------ the allocator's share, given back


class Trims:
    """A stand-in for ``malloc_trim(0)`` that says when and in which thread it ran."""

    def __init__(self) -> None:
        self.threads: list[threading.Thread] = []

    def __call__(self) -> int:
        self.threads.append(threading.current_thread())
        return 1


async def test_once_a_wave_of_connections_has_closed_the_allocator_is_asked_once_off_the_event_loop() -> None:
    trims = Trims()
    connections = Connections(trims, drop=100, quiet=0.05)
    for _ in range(300):
        connections.opened()
    for _ in range(300):
        connections.closed()
        await asyncio.sleep(0)
    assert trims.threads == []  # not while the wave is still closing
    await settle(lambda: bool(trims.threads), 2.0)
    await asyncio.sleep(0.2)
    assert len(trims.threads) == 1
    assert trims.threads[0] is not threading.main_thread()
    assert (connections.count, connections.peak) == (0, 0)


async def test_connections_coming_and_going_below_the_wave_size_leave_the_allocator_alone() -> None:
    trims = Trims()
    connections = Connections(trims, drop=100, quiet=0.01)
    for _ in range(99):
        connections.opened()
    for _ in range(99):
        connections.closed()
    for _ in range(1000):  # many in all, never 100 at once
        connections.opened()
        connections.closed()
    await asyncio.sleep(0.1)
    assert trims.threads == []
    assert connections.count == 0


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_malloc_trim_gives_the_free_pages_of_a_fragmented_heap_back_to_the_system() -> None:
    trim = malloc_trim()
    assert trim is not None
    blocks = [bytearray(2000) for _ in range(8000)]  # 16 MB of blocks glibc holds (over pymalloc's 512 bytes)
    kept = blocks[::20]  # one in twenty outlives the others: the heap cannot shrink from its top
    del blocks
    before = rss_kib()
    assert trim() in (0, 1)
    assert before - rss_kib() > 4096, "less than 4 MiB of the 15 MB freed came back"
    assert len(kept) == 400
