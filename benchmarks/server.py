"""The game server's load benchmark (issue 11). Long: run by hand, not in the test suite.

    python -m benchmarks.server [--levels 1,100,1000] [--seconds 20] [--think 1.0] [--game duel|duals|both]
                                [--bots 50] [--db URL] [--bot-workers N] [--compression deflate|none]
                                [--abuse [--pairs K]] [--workers 1,2 --redis URL] [--clock JSON] [--json]

Each level starts its own ``flametable serve`` (a subprocess on a free port of 127.0.0.1, SQLite in a temporary
directory unless ``--db`` names a PostgreSQL server: a fresh database is made there and dropped afterwards) and
runs the clients in a second process (asyncio and the ``websockets`` client, compression as a browser offers it
unless ``--compression none``). Level ``N`` is N concurrent WebSocket connections: N/2 person-vs-person rooms
(both seats connected; ``both`` alternates the games room by room). Level 1 cannot be one connection (a match of
two people needs two), so it runs as **one room, 2 connections**, and the table says 2: the unloaded baseline.

Every connection plays random legal actions from its own view (``view.legal``): when its seat is to act it
"thinks" a random ``[0.5, 1.5) × --think`` seconds (``--think-alone`` in the one-room runs, for more samples),
sends the action and times it until the event of the new version arrives on the same connection (the server
allows a connection 10 messages a second: thinking keeps under it). An ended match is followed by a rematch
(both seats offer one). Each level plays ``--seconds`` seconds after all its connections are open; the table
shows the actions timed, actions per second, the median, 99th percentile and slowest send-to-event time, errors
the server sent, the server's CPU use, and the client process's event-loop lag (to tell the server's delay from
the client's), and the machine's load average before the level (other processes share the cores).

Server memory per connection: the server process's VmRSS (``/proc/PID/status``) after a warm-up room of each game
(its imports and caches paid), then with the N connections open before any action (``idle``), at its highest
while playing (``playing``) and once play stopped, connections still open (``after``), each minus the warm
figure and divided by N. The rooms are made over HTTP; ``Limits.rooms_per_client`` allows 20 rooms in play per
client address, so rooms are made from source addresses 127.0.0.2, 127.0.0.3... (all loopback; the server
listens on 127.0.0.1 only), and their seats' sockets opened from the same (40 an address:
``Limits.sockets_per_client`` allows 50).

``--bots 50`` (on by default, ``--bots 0`` to skip): one server, one person-vs-person room timed for ``--seconds``
alone, then again while ``--bots`` rooms of ``bot:hard`` against ``bot:hard`` play (their thinking in the
server's process pool, ``--bot-workers``, default one per core; made 5 an address, ``Limits.bot_rooms_per_client``).
Bot moves per second are counted from the rooms' versions. In both phases a person also plays ``bot:random`` and
``bot:easy`` (a room each, of each game played): their **bot replies** are timed, from the event that makes the
bot's seat to act to the event of its move, on the person's connection (issue 21: another room's ``bot:random``
reply went from 0.25 s to 2.9 s, median, under ten ``bot:hard`` rooms).

``--abuse``: each level runs twice, without and then with an *abusive neighbour*: one source address
(:data:`NEIGHBOUR`, 127.0.0.250; the ordinary clients use others) doing at once the worst it may within the server's
limits, from its own process (the clients' timing is not disturbed by it): as many spectator sockets as it may open
(``Limits`` read at run time: sockets per address, spectators per room, where the server has them; else
:data:`NEIGHBOUR_SOCKETS`), spread over the ordinary rooms and its own, each sending ``log`` requests at the
per-connection rate (``Limits.actions_per_second``, and at most a per-address log rate where there is one); as many
rooms of ``bot:hard`` against ``bot:hard`` as it may make (``Limits.rooms_per_client``); and two threads posting
bodies just under and just over the limits, again and again (``POST /api/rooms`` of 64 KiB, ``POST /api/replay`` of
1 MiB: a real record padded with spaces, replayed in full, and one byte too many). It starts once the ordinary
connections are open and stops when they stop playing. Prints, per level, the ordinary players' median and p99
action-to-view time in both runs and their ratios (the aim: within 1.5×), and what the neighbour did.
``--abuse-parts logs`` (or ``bots``, ``bodies``, a comma-separated choice) has it do only that part.
``--pairs K`` runs each level's pair K times, alternated (alone, with, alone, with...), each run on a server of its
own, and prints the K pairs' action-to-view times taken together (every time of the runs alone against every time
of the runs with the neighbour) and the median of the pairs' own ratios: on a machine whose speed wanders, the runs
alone of one level differ by up to 2× in median and p99, so one pair does not tell a 1.5× ratio from noise.

``--workers 1,2 --redis redis://127.0.0.1:6379/0 --db postgresql+asyncpg://...`` (issue 22): each level once per
number of the server's processes (``serve --workers N``: one port, the kernel spreads the connections over them);
the server's CPU and memory are then those of all its processes, and the table ends with each level's actions a
second over those with the first number of workers. To measure what the processes can serve rather than what the
players ask, give a short ``--think`` (the players then act as soon as they see their turn).

Memory given back: ``closed`` is the server's VmRSS 3 s after the clients closed every connection (the server asks
glibc for its free pages once a wave has closed: ``flametable.web.memory``), per connection as the others.

``--profile FILE`` runs the server under cProfile (``python -m cProfile -o FILE``), written when it stops.
Both processes raise their soft limit of open files to the hard limit. Prints a table, or with ``--json`` one JSON
object.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import queue
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
ROOMS_PER_ADDRESS = 20
"""Rooms made from one source address: ``Limits.rooms_per_client`` (rooms in play per client address)."""
BOT_ROOMS_PER_ADDRESS = 5
"""All-bot rooms made from one source address: ``Limits.bot_rooms_per_client``."""
GAMES = ("duel", "duals")
BOT = "bot:hard"
REPLIERS = ("bot:random", "bot:easy")
"""The bots a person plays in the bot scenario, their replies timed."""
NEIGHBOUR = "127.0.0.250"
"""The abusive neighbour's one source address (the ordinary rooms are made from 127.0.0.2 up: 20 rooms an
address, so 4,960 rooms before they would reach it)."""
ABUSE_PARTS = ("logs", "bots", "bodies")
"""What the neighbour does (``--abuse-parts``): spectator sockets asking for logs, bot rooms, large bodies."""
NEIGHBOUR_SOCKETS = 200
"""The spectator sockets the neighbour opens where the server has no limit of sockets per address."""


def raise_open_files() -> int:
    """Raise the soft limit of open files to the hard limit; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return hard
    return soft


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


# ------------------------------------------------------------------ the clients' process


def source_address(index: int) -> str:
    """The loopback address the ``index``-th room is made from (20 rooms an address)."""
    k = index // ROOMS_PER_ADDRESS
    return f"127.0.{k // 250}.{k % 250 + 2}"


def http_json(port: int, method: str, path: str, body: dict[str, Any] | None = None,
              source: str = HOST) -> dict[str, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, path, body=data, headers={"content-type": "application/json"})
        response = conn.getresponse()
        text = response.read()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:200]!r}")
        out: dict[str, Any] = json.loads(text)
        return out
    finally:
        conn.close()


def make_pair(port: int, game: str, index: int, clock: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """A person-vs-person room (with the time control ``clock``, issue 24): its id and both seat tokens."""
    body: dict[str, Any] = {"game": game, "seats": ["me", "open"]}
    if clock is not None:
        body["clock"] = clock
    made = http_json(port, "POST", "/api/rooms", body, source_address(index))
    joined = http_json(port, "POST", f"/api/rooms/{made['room']}/join", {}, source_address(index))
    return made["room"], made["token"], joined["token"]


@dataclass
class Phase:
    """What every seat of the client process shares: whether to act, and what was measured."""

    think: float
    go: asyncio.Event = field(default_factory=asyncio.Event)  # set while the seats may act
    latencies: list[float] = field(default_factory=list)
    replies: dict[str, list[float]] = field(default_factory=dict)  # by bot spec: its replies' times
    errors: Counter[str] = field(default_factory=Counter)
    pending: int = 0
    ended: int = 0
    closed: int = 0


class Seat:
    """One connection of a room, playing random legal actions from its own view. Against a bot (``against``: its
    spec) its own actions are not timed: the bot's replies are."""

    def __init__(self, ws: Any, token: str, rng: random.Random, against: str | None = None) -> None:
        self.ws = ws
        self.token = token
        self.rng = rng
        self.against = against
        self.asked_at: float | None = None  # when the bot's seat became the one to act
        self.seat: int | None = None
        self.match = 0
        self.version = 0
        self.to_act: int | None = None
        self.legal: list[str] = []
        self.sent_at: float | None = None
        self.sent_version = 0

    async def hello(self) -> None:
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        while True:  # welcome, then the sync event
            message = json.loads(await self.ws.recv())
            self._take(message, None)
            if message["type"] == "event":
                return
            if message["type"] == "error":
                raise RuntimeError(f"hello refused: {message}")

    def _take(self, message: dict[str, Any], phase: Phase | None) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.seat, self.match = message["seat"], message["match"]
        elif kind == "event":
            event = message["event"]
            if message["match"] != self.match:
                return
            self.version, self.to_act, self.legal = event["version"], event["to_act"], event["view"]["legal"]
            now = time.perf_counter()
            if self.against is not None and phase is not None:
                if self.asked_at is not None and event["actor"] not in (None, self.seat):
                    phase.replies.setdefault(self.against, []).append(now - self.asked_at)
                bot_to_act = event["to_act"] not in (None, self.seat) and event["result"] is None
                self.asked_at = now if bot_to_act else None
            if self.sent_at is not None and self.version > self.sent_version:
                if phase is not None and self.against is None:
                    phase.latencies.append(now - self.sent_at)
                    phase.pending -= 1
                self.sent_at = None

    async def play(self, phase: Phase) -> None:
        """Receive forever; act when this seat is to act and the phase allows it."""
        try:
            if self.to_act == self.seat and self.seat is not None and self.legal:
                await self.act(phase)
            while True:
                message = json.loads(await self.ws.recv())
                self._take(message, phase)
                kind = message["type"]
                if kind == "ended":
                    phase.ended += 1
                    await self.ws.send('{"type":"rematch"}')
                elif kind == "error":
                    phase.errors[message["code"]] += 1
                    if self.sent_at is not None:
                        self.sent_at = None
                        phase.pending -= self.against is None
                    if message["code"] != "too_many_requests":  # a refused sync is not asked again at once
                        await self.ws.send('{"type":"sync"}')
                elif kind == "event" and self.to_act == self.seat and self.seat is not None and self.legal:
                    await self.act(phase)
        except Exception:  # the connection closed: counted
            phase.closed += 1

    async def act(self, phase: Phase) -> None:
        """Think, then play a random legal action (thinking again after a pause between phases)."""
        while True:
            await phase.go.wait()
            await asyncio.sleep(phase.think * (0.5 + self.rng.random()))
            if phase.go.is_set():
                break
        if self.sent_at is not None:
            return
        self.sent_version = self.version
        phase.pending += self.against is None
        self.sent_at = time.perf_counter()
        await self.ws.send(json.dumps({"type": "act", "action": self.rng.choice(self.legal),
                                       "version": self.version}))


async def connect(port: int, room: str, token: str, rng: random.Random, compression: str | None,
                  against: str | None = None, source: str = HOST) -> Seat:
    from websockets.asyncio.client import connect as ws_connect

    ws = await ws_connect(f"ws://{HOST}:{port}/api/rooms/{room}/ws", compression=compression, proxy=None,
                          open_timeout=60, ping_interval=None, max_size=2**20, local_addr=(source, 0))
    seat = Seat(ws, token, rng, against)
    await seat.hello()
    return seat


async def lag_monitor(samples: list[float], every: float = 0.05) -> None:
    """How late the client's event loop wakes up (its own load, not the server's)."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(every)
        samples.append(time.perf_counter() - start - every)


def say(stage: str, **data: Any) -> None:
    print(json.dumps({"stage": stage, **data}), flush=True)


async def wait_line(want: str) -> None:
    line = await asyncio.to_thread(sys.stdin.readline)
    if line.strip() != want:
        raise SystemExit(f"client: expected {want!r} from the benchmark, got {line!r}")


async def play_phase(phase: Phase, seconds: float) -> dict[str, Any]:
    """Let every seat act for ``seconds``; then wait (at most 10 s) for the actions sent to be answered."""
    lag: list[float] = []
    monitor = asyncio.create_task(lag_monitor(lag))
    phase.latencies, phase.errors, phase.replies = [], Counter(), {}
    phase.go.set()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    phase.go.clear()
    took = time.perf_counter() - started
    limit = time.perf_counter() + 10
    while phase.pending > 0 and time.perf_counter() < limit:
        await asyncio.sleep(0.05)
    monitor.cancel()
    return {"latencies": phase.latencies, "replies": phase.replies, "seconds": took, "errors": dict(phase.errors),
            "unanswered": phase.pending,
            "lag_median": percentile(lag, 0.5), "lag_p99": percentile(lag, 0.99), "closed": phase.closed,
            "ended": phase.ended}


async def open_seats(port: int, rooms: list[tuple[str, str, str]], rng: random.Random,
                     compression: str | None, first: int) -> list[Seat]:
    """Both seats of each room, the ``i``-th room's from the address it was made from (``first + i``): 40 sockets
    an address, within ``Limits.sockets_per_client``."""
    gate = asyncio.Semaphore(50)

    async def one(room: str, token: str, index: int) -> Seat:
        async with gate:
            return await connect(port, room, token, random.Random(rng.random()), compression,
                                 source=source_address(index))

    return list(await asyncio.gather(*(one(room, token, first + i) for i, (room, t0, t1) in enumerate(rooms)
                                       for token in (t0, t1))))


async def warm_up(port: int, compression: str | None) -> None:
    """A room of each game, a few actions each: the server's imports and caches are paid before measuring."""
    phase = Phase(think=0.0)
    rooms = [await asyncio.to_thread(make_pair, port, game, 0) for game in GAMES]
    seats = await open_seats(port, rooms, random.Random(0), compression, 0)
    tasks = [asyncio.create_task(s.play(phase)) for s in seats]
    phase.go.set()
    limit = time.perf_counter() + 30
    while len(phase.latencies) < 40 and time.perf_counter() < limit:
        await asyncio.sleep(0.05)
    phase.go.clear()
    await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    for s in seats:
        await s.ws.close()


async def client_main(config: dict[str, Any]) -> None:
    raise_open_files()
    port, seconds, think = config["port"], config["seconds"], config["think"]
    compression = None if config["compression"] == "none" else "deflate"
    rng = random.Random(config["seed"])
    await warm_up(port, compression)
    say("warm")
    await wait_line("go")
    started = time.perf_counter()
    count = config["rooms"]
    games = [GAMES[i % 2] if config["game"] == "both" else config["game"] for i in range(count)]
    rooms = [await asyncio.to_thread(make_pair, port, game, i + ROOMS_PER_ADDRESS, config.get("clock"))
             for i, game in enumerate(games)]
    seats = await open_seats(port, rooms, rng, compression, ROOMS_PER_ADDRESS)
    if config["bots"]:  # a person against each bot whose replies are timed, of each game played
        for spec in REPLIERS:
            for game in sorted(set(games)) if config["game"] != "both" else GAMES:
                made = await asyncio.to_thread(http_json, port, "POST", "/api/rooms",
                                               {"game": game, "seats": ["me", spec]}, source_address(0))
                seats.append(await connect(port, made["room"], made["token"], random.Random(rng.random()),
                                           compression, spec, source=source_address(0)))
    phase = Phase(think=think)
    tasks = [asyncio.create_task(s.play(phase)) for s in seats]
    say("connected", connections=len(seats), seconds=time.perf_counter() - started, rooms=[r for r, _a, _b in rooms])
    await wait_line("play")
    results = {"alone": await play_phase(phase, seconds)}
    if config["bots"]:
        bot_rooms = []
        for i in range(config["bots"]):
            made = await asyncio.to_thread(http_json, port, "POST", "/api/rooms",
                                           {"game": games[i % len(games)] if config["game"] != "both"
                                            else GAMES[i % 2], "seats": [BOT, BOT]},
                                           source_address((count + 1 + i // BOT_ROOMS_PER_ADDRESS)
                                                          * ROOMS_PER_ADDRESS))
            bot_rooms.append(made["room"])
        await asyncio.sleep(2)

        async def versions() -> int:
            total = 0
            for room in bot_rooms:
                total += (await asyncio.to_thread(http_json, port, "GET", f"/api/rooms/{room}"))["version"]
            return total

        before = await versions()
        results["bots"] = await play_phase(phase, seconds)
        results["bots"]["bot_moves"] = await versions() - before
    say("played", **results)
    await wait_line("quit")
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(s.ws.close() for s in seats), return_exceptions=True)


# ------------------------------------------------------------------ the abusive neighbour's process


def neighbour_limits() -> dict[str, Any]:
    """What the server allows one address (``Limits()``): its sockets, a room's spectators, the messages a socket
    may send, the ``log``/``sync`` budget of an address (the neighbour sends at the socket's rate regardless: what
    passes the address's budget is refused, and the refusals are part of the load), its all-bot rooms, the body
    limits."""
    from flametable.web.rooms import Limits

    limits = Limits()
    return {"sockets": limits.sockets_per_client, "sockets_limit": "sockets_per_client",
            "per_room": limits.spectators_per_room, "per_room_limit": "spectators_per_room",
            "rate": float(limits.actions_per_second), "log_rate": float(limits.expensive_per_second),
            "log_limit": "expensive_per_second", "rooms": limits.bot_rooms_per_client,
            "body_bytes": limits.body_bytes, "upload_bytes": limits.record_bytes,
            "bodies_rate": limits.bodies_per_second}


def long_record(game_name: str, seeds: range = range(20)) -> str:
    """The longest record of random legal matches of ``game_name`` over ``seeds`` (a real match, replayed in full
    by ``POST /api/replay``)."""
    from flametable.core import registry
    from flametable.core.match import new_record
    from flametable.service import MatchService

    game = registry.make_game(game_name)
    best = ""
    for seed in seeds:
        service = MatchService.from_record(game, new_record(game, {}, seed, ["bot:random", "bot:random"]))
        rng = random.Random(seed)
        while service.outcome is None:
            seat = service.to_act
            assert seat is not None
            service.submit_quiet(seat, rng.choice(list(service.legal(seat))))
        assert service.record is not None
        text = service.record.dumps()
        best = text if len(text) > len(best) else best
    return best


def post_status(port: int, path: str, body: bytes, source: str) -> int:
    """POST ``body`` as JSON: the status (the answer read and dropped)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60, source_address=(source, 0))
    try:
        conn.request("POST", path, body=body, headers={"content-type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def large_bodies(limits: dict[str, Any], record: str) -> list[tuple[str, bytes]]:
    """Bodies just under and just over the limits: a room request padded to one byte under the HTTP body limit and
    one byte over; a real record padded to one byte under the upload limit (replayed in full) and one byte over."""
    room = json.dumps({"game": "duel", "seats": [BOT, BOT]}).encode()
    upload = record.encode()
    under, over = limits["body_bytes"] - 1, limits["body_bytes"] + 1
    up_under, up_over = limits["upload_bytes"] - 1, limits["upload_bytes"] + 1
    return [("/api/rooms", room + b" " * (under - len(room))), ("/api/rooms", room + b" " * (over - len(room))),
            ("/api/replay", upload + b" " * (up_under - len(upload))),
            ("/api/replay", upload + b" " * (up_over - len(upload)))]


async def neighbour_main(config: dict[str, Any]) -> None:
    """The neighbour: its bot rooms, its spectator sockets sending ``log`` requests, its large bodies; ``ready``
    once all are going, ``done`` with what it did after the benchmark says ``quit``."""
    from websockets.asyncio.client import connect as ws_connect

    raise_open_files()
    port, limits, source = config["port"], config["limits"], config["source"]
    errors: Counter[str] = Counter()
    http_statuses: Counter[str] = Counter()
    parts = set(config.get("parts", ABUSE_PARTS))
    bot_rooms: list[str] = []
    for i in range(limits["rooms"] + 1 if "bots" in parts else 0):  # one more than it may: the refusal says so
        try:
            made = await asyncio.to_thread(http_json, port, "POST", "/api/rooms",
                                           {"game": GAMES[i % 2], "seats": [BOT, BOT]}, source)
        except RuntimeError as exc:
            errors[f"bot room: {str(exc).split(':')[1].split()[0]}"] += 1
            break
        bot_rooms.append(made["room"])
    targets = list(config["rooms"]) + bot_rooms
    count = limits["sockets"] if limits["per_room"] is None else min(limits["sockets"],
                                                                     limits["per_room"] * len(targets))
    count = count if "logs" in parts else 0
    per_socket = limits["rate"] * 0.95  # under the socket's budget, clock jitter and all...
    if not config.get("flood"):  # ...and the address's, all its sockets together (each then answered: a whole log)
        per_socket = min(per_socket, limits["log_rate"] * 0.95 / max(1, count))
    gate = asyncio.Semaphore(20)
    counts = {"logs_sent": 0, "answers": 0, "closed": 0}

    async def watch(index: int) -> Any:
        async with gate:
            try:
                ws = await ws_connect(f"ws://{HOST}:{port}/api/rooms/{targets[index % len(targets)]}/ws",
                                      compression=None, proxy=None, open_timeout=60, ping_interval=None,
                                      max_size=2**22, local_addr=(source, 0))
                await ws.send('{"type":"hello"}')
                return ws
            except Exception as exc:  # refused (a limit) or failed: counted
                errors[f"socket: {type(exc).__name__}"] += 1
                return None

    sockets = [ws for ws in await asyncio.gather(*(watch(i) for i in range(count))) if ws is not None]

    async def read(ws: Any) -> None:
        try:
            async for frame in ws:
                counts["answers"] += 1
                if '"error"' in frame[:40]:
                    errors[json.loads(frame).get("code", "?")] += 1
        except Exception:
            counts["closed"] += 1

    async def ask(ws: Any, offset: float) -> None:
        await asyncio.sleep(offset)
        try:
            while True:
                await ws.send('{"type":"log"}')
                counts["logs_sent"] += 1
                await asyncio.sleep(1 / per_socket)
        except Exception:
            pass

    stop = threading.Event()
    bodies = large_bodies(limits, config["record"])

    posters_count = 2 if "bodies" in parts else 0
    pace = None if config.get("flood") else posters_count / (limits["bodies_rate"] * 0.95)  # s between two posts

    def post_again(start: int) -> None:
        i = start
        due = time.monotonic() + start * (pace or 0) / max(1, posters_count)
        while not stop.is_set():
            if pace is not None:  # at the address's budget of requests with a body, not past it
                stop.wait(max(0.0, due - time.monotonic()))
                due += pace
            path, body = bodies[i % len(bodies)]
            try:
                status = post_status(port, path, body, source)
                http_statuses[f"{path} {len(body)} B: {status}"] += 1
            except (OSError, http.client.HTTPException) as exc:
                http_statuses[f"{path} {len(body)} B: {type(exc).__name__}"] += 1
            i += 1

    rng = random.Random(7)
    tasks = [asyncio.create_task(read(ws)) for ws in sockets]
    tasks += [asyncio.create_task(ask(ws, rng.random() / per_socket)) for ws in sockets]
    posters = [threading.Thread(target=post_again, args=(k,), daemon=True) for k in range(posters_count)]
    for poster in posters:
        poster.start()
    started = time.perf_counter()
    say("ready", sockets=len(sockets), bot_rooms=len(bot_rooms))
    await wait_line("quit")
    took = time.perf_counter() - started
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    for poster in posters:
        await asyncio.to_thread(poster.join, 60)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    say("done", seconds=round(took, 1), cpu_seconds=round(usage.ru_utime + usage.ru_stime, 1),
        sockets=len(sockets), bot_rooms=len(bot_rooms),
        log_rate_per_socket=round(per_socket, 2), logs_sent=counts["logs_sent"], frames_received=counts["answers"],
        sockets_closed_by_server=counts["closed"], errors=dict(errors), http=dict(http_statuses),
        limits=limits)


# ------------------------------------------------------------------ the benchmark's process


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it (a ``serve --workers N``'s workers, their bots' and replays' workers)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    tree, todo = [], [pid]
    while todo:
        found = todo.pop()
        tree.append(found)
        todo += children.get(found, [])
    return tree


def proc_rss_kib(pid: int, tree: bool = False) -> int:
    """The VmRSS of ``pid`` (``tree``: of it and every process under it), in KiB."""
    total = 0
    for each in process_tree(pid) if tree else [pid]:
        try:
            lines = Path(f"/proc/{each}/status").read_text().splitlines()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)
    return total


def proc_cpu_seconds(pid: int, tree: bool = False) -> float:
    """The CPU time ``pid`` has used (``tree``: it and every process under it, while they live), in seconds."""
    total = 0
    for each in process_tree(pid) if tree else [pid]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def named_cpu_seconds(names: tuple[str, ...]) -> float:
    """The CPU time used so far by the live processes of these command names (``postgres``: the database's server
    and its backends; every user of it on this machine counts)."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, _, rest = (entry / "stat").read_text().rpartition(")")
        except OSError:
            continue
        if head.partition("(")[2] in names:
            fields = rest.split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


SERVICES = {"postgres": ("postgres",), "redis": ("redis-server",)}
"""The services whose CPU a level counts beside the server's and the clients' (what else the machine must run)."""


@contextmanager
def database(db: str | None, tmp: Path) -> Iterator[str]:
    """The database URL a server uses: an SQLite file in ``tmp``, or a fresh database on ``db``'s PostgreSQL."""
    if db is None or not db.startswith("postgresql"):
        yield db or str(tmp / f"bench-{secrets.token_hex(4)}.db")
        return
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    url = make_url(db)
    name = f"ft_bench_{secrets.token_hex(6)}"

    async def admin(sql: str) -> None:
        engine = create_async_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
        try:
            async with engine.connect() as connection:
                await connection.execute(sa.text(sql))
        finally:
            await engine.dispose()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class Server:
    """``flametable serve`` in a subprocess on a free port of 127.0.0.1."""

    def __init__(self, url: str, bot_workers: int | None, profile: Path | None, log: Path,
                 workers: int | None = None, redis: str | None = None) -> None:
        self.port = free_port()
        command = [sys.executable]
        if profile is not None:
            command += ["-m", "cProfile", "-o", str(profile)]
        command += ["-m", "flametable.cli", "serve", "--host", HOST, "--port", str(self.port), "--db", url]
        if bot_workers is not None:
            command += ["--bot-workers", str(bot_workers)]
        if workers is not None:
            command += ["--workers", str(workers)]
        if redis is not None:
            command += ["--redis", redis]
        self.tree = workers is not None  # its processes: the figures sum them
        self.log = log
        with log.open("wb") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        limit = time.monotonic() + 60
        while True:
            try:
                if http_json(self.port, "GET", "/healthz")["status"] == "ok":
                    break
            except (OSError, RuntimeError, http.client.HTTPException):
                pass
            if self.proc.poll() is not None or time.monotonic() > limit:
                raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def stop(self) -> None:
        stop_process(self.proc)


def stop_process(proc: subprocess.Popen[Any]) -> None:
    """Stop a server subprocess as Ctrl+C would (SIGINT), killed after 30 s; nothing if it has ended."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class Clients:
    """The clients' process (or the neighbour's: ``role``): stages read from its output (a thread), orders written
    to its input."""

    def __init__(self, config: dict[str, Any], role: str = "--client") -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.server", role, json.dumps(config)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def expect(self, stage: str, timeout: float) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"the clients did not reach {stage!r} in {timeout:.0f} s") from None
        if not line:
            raise RuntimeError(f"the clients stopped before {stage!r} (exit {self.proc.wait()})")
        data: dict[str, Any] = json.loads(line)
        if data.get("stage") != stage:
            raise RuntimeError(f"expected {stage!r}, the clients said {line[:200]}")
        return data

    def tell(self, order: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(order + "\n")
        self.proc.stdin.flush()

    def stop(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def summary(played: dict[str, Any]) -> dict[str, Any]:
    ms = [x * 1000 for x in played["latencies"]]
    return {"actions": len(ms), "actions_per_second": round(len(ms) / played["seconds"], 1),
            "median_ms": round(statistics.median(ms), 2) if ms else None,
            "p99_ms": round(percentile(ms, 0.99), 2) if ms else None, "max_ms": round(max(ms), 1) if ms else None,
            "errors": played["errors"], "unanswered": played["unanswered"], "closed": played["closed"],
            "matches_ended": played["ended"],
            "client_lag_median_ms": round(played["lag_median"] * 1000, 2),
            "client_lag_p99_ms": round(played["lag_p99"] * 1000, 1),
            "bot_replies": {spec: {"replies": len(times), "median_ms": round(statistics.median(times) * 1000, 1),
                                   "p99_ms": round(percentile(times, 0.99) * 1000, 1),
                                   "max_ms": round(max(times) * 1000, 1)}
                            for spec, times in sorted(played.get("replies", {}).items()) if times}}


def run_level(args: argparse.Namespace, tmp: Path, connections: int, bots: int,
              profile: Path | None, abuse: dict[str, Any] | None = None, workers: int | None = None) -> dict[str, Any]:
    """One level: its own server, the clients' process (and with ``abuse``, the neighbour's: its config less the
    port and the ordinary rooms)."""
    rooms = max(1, connections // 2)
    load = float(Path("/proc/loadavg").read_text().split()[0])
    with database(args.db, tmp) as url:
        server = Server(url, args.bot_workers, profile,
                        tmp / f"server-{connections}-{bots}{'-abuse' if abuse else ''}-{workers}.log", workers,
                        args.redis)
        clients: Clients | None = None
        neighbour: Clients | None = None
        did: dict[str, Any] | None = None
        try:
            think = args.think_alone if rooms == 1 else args.think
            clients = Clients({"port": server.port, "rooms": rooms, "seconds": args.seconds, "think": think,
                               "game": args.game, "seed": args.seed, "compression": args.compression,
                               "bots": bots, "clock": args.clock})
            clients.expect("warm", 120)
            time.sleep(1)
            warm = proc_rss_kib(server.pid, server.tree)
            clients.tell("go")
            connected = clients.expect("connected", 300)
            time.sleep(1)
            idle = proc_rss_kib(server.pid, server.tree)
            if abuse is not None:
                neighbour = Clients({**abuse, "port": server.port, "rooms": connected["rooms"]}, "--neighbour")
                neighbour.expect("ready", 300)
                time.sleep(2)  # its load under way
            cpu = proc_cpu_seconds(server.pid, server.tree)
            others = {"clients": proc_cpu_seconds(clients.proc.pid),
                      **{name: named_cpu_seconds(names) for name, names in SERVICES.items()}}
            clients.tell("play")
            peak = idle
            phases = 2 if bots else 1
            limit = time.monotonic() + phases * (args.seconds + 15) + (120 if bots else 0)
            while True:
                try:
                    played = clients.expect("played", 0.5)
                    break
                except RuntimeError as exc:
                    if "did not reach" not in str(exc) or time.monotonic() > limit:
                        raise
                    peak = max(peak, proc_rss_kib(server.pid, server.tree))
            cpu = proc_cpu_seconds(server.pid, server.tree) - cpu
            others = {"clients": proc_cpu_seconds(clients.proc.pid) - others["clients"],
                      **{name: named_cpu_seconds(names) - others[name] for name, names in SERVICES.items()}}
            if neighbour is not None:
                neighbour.tell("quit")
                did = neighbour.expect("done", 120)
                neighbour.stop()
            time.sleep(1)
            after = proc_rss_kib(server.pid, server.tree)
            clients.tell("quit")
            clients.stop()
            time.sleep(3)  # every connection closed: what the server gives back
            closed = proc_rss_kib(server.pid, server.tree)
        finally:
            for process in (clients, neighbour):
                if process is not None and process.proc.poll() is None:
                    process.proc.kill()
            server.stop()
    told = [line for line in server.log.read_text(errors="replace").splitlines()  # (uvicorn's INFO lines aside)
            if line.strip() and not line.startswith(("INFO:", "flametable server:", "Cluster mode:"))]
    if told:  # what went wrong on the server's side, for the errors the clients counted
        print(f"level {connections}: the server logged {len(told)} warnings and errors; the first ones:",
              *told[:12], sep="\n  ", file=sys.stderr)
    n = 2 * rooms
    out: dict[str, Any] = {"connections": n, "rooms": rooms, "workers": workers,
                           "connect_seconds": round(connected["seconds"], 1),
                           "machine_load_before": load,
                           "server_cpu_percent": round(100 * cpu / (phases * args.seconds), 1),
                           "rss_warm_kib": warm, "rss_idle_kib": idle, "rss_playing_kib": peak,
                           "rss_after_kib": after, "rss_closed_kib": closed,
                           "kib_per_connection_idle": round((idle - warm) / n, 1),
                           "kib_per_connection_playing": round((peak - warm) / n, 1),
                           "kib_per_connection_after": round((after - warm) / n, 1),
                           "kib_per_connection_closed": round((closed - warm) / n, 1),
                           **summary(played["alone"]), "latencies_ms": [x * 1000 for x in played["alone"]["latencies"]]}
    if out["actions"] and not bots:  # the CPU each action cost, everything the machine ran for it
        out["cpu_ms_per_action"] = {name: round(1000 * seconds / out["actions"], 3)
                                    for name, seconds in {"server": cpu, **others}.items()}
    if did is not None:
        did.pop("stage", None)
        out["neighbour"] = did
    if bots:
        with_bots = summary(played["bots"])
        with_bots["bot_moves_per_second"] = round(played["bots"]["bot_moves"] / played["bots"]["seconds"], 2)
        out["with_bots"] = with_bots
    return out


def abuse_ratios(without: dict[str, Any], with_: dict[str, Any]) -> dict[str, Any]:
    """The ordinary players' figures with the neighbour over those without it."""
    def ratio(key: str) -> float | None:
        a, b = without.get(key), with_.get(key)
        return round(b / a, 2) if a and b is not None else None

    return {"median_ratio": ratio("median_ms"), "p99_ratio": ratio("p99_ms")}


def pooled(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median and p99 of the action-to-view times of several runs of one level taken together."""
    ms = [x for run in runs for x in run["latencies_ms"]]
    return {"connections": runs[0]["connections"], "runs": len(runs), "actions": len(ms),
            "median_ms": round(statistics.median(ms), 2) if ms else None,
            "p99_ms": round(percentile(ms, 0.99), 2) if ms else None}


def taken_together(abused: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per level run in more than one pair: the pooled figures of its runs alone and with the neighbour, their
    ratios, and the median of the pairs' own ratios."""
    out = []
    for n in sorted({a["without"]["connections"] for a in abused}):
        pairs = [a for a in abused if a["without"]["connections"] == n]
        if len(pairs) > 1:
            w, x = pooled([a["without"] for a in pairs]), pooled([a["with"] for a in pairs])
            out.append({"without": w, "with": x, **abuse_ratios(w, x),
                        "pairs_median_ratio": statistics.median(a["median_ratio"] for a in pairs),
                        "pairs_p99_ratio": statistics.median(a["p99_ratio"] for a in pairs)})
    return out


def brief(run: dict[str, Any]) -> dict[str, Any]:
    """A run's figures without its every action-to-view time."""
    return {k: v for k, v in run.items() if k != "latencies_ms"}


def abuse_table(abused: list[dict[str, Any]], together: list[dict[str, Any]]) -> None:
    print(f"\nan abusive neighbour ({NEIGHBOUR}: {', '.join(abused[0]['parts']) if abused else ''}): the ordinary "
          "players without it, then with it (aim: within 1.5x)")
    print("conns | median ms without | with | ratio | p99 ms without | with | ratio | errors with | srv CPU% with | "
          "neighbour sockets | logs sent | bot rooms | bodies posted | neighbour CPU s")
    for a in abused:
        w, x, did = a["without"], a["with"], a["with"]["neighbour"]
        print(" | ".join(str(v) for v in (
            w["connections"], w["median_ms"], x["median_ms"], a["median_ratio"], w["p99_ms"], x["p99_ms"],
            a["p99_ratio"], sum(x["errors"].values()) + x["unanswered"] + x["closed"], x["server_cpu_percent"],
            did["sockets"], did["logs_sent"], did["bot_rooms"], sum(did["http"].values()), did["cpu_seconds"])))
    if together:
        print("\nthe pairs of runs of a level taken together (every action-to-view time of its runs alone, then of "
              "its runs with the neighbour), and the median of the pairs' ratios:")
        print("conns | pairs | median ms without | with | ratio | p99 ms without | with | ratio | "
              "median of the pairs' median ratios | of their p99 ratios")
        for t in together:
            w, x = t["without"], t["with"]
            print(" | ".join(str(v) for v in (
                w["connections"], w["runs"], w["median_ms"], x["median_ms"], t["median_ratio"], w["p99_ms"],
                x["p99_ms"], t["p99_ratio"], t["pairs_median_ratio"], t["pairs_p99_ratio"])))
    for a in abused:
        did = a["with"]["neighbour"]
        print(f"level {a['without']['connections']}: the neighbour's limits {json.dumps(did['limits'])}; "
              f"errors it got {json.dumps(did['errors'])}; its bodies {json.dumps(did['http'])}")


def table(levels: list[dict[str, Any]], bots: dict[str, Any] | None, args: argparse.Namespace) -> None:
    print(f"person-vs-person rooms, game {args.game}, think {args.think} s (one room: {args.think_alone} s) "
          f"(x 0.5-1.5), {args.seconds:g} s a level, "
          f"clients offer compression {args.compression}, database {'PostgreSQL' if args.db else 'SQLite'}")
    head = ("workers", "conns", "actions", "act/s", "median ms", "p99 ms", "max ms", "errors", "srv CPU%",
            "cli lag p99", "KiB/conn idle", "playing", "after", "closed", "load")
    print(" | ".join(head))
    for r in levels:
        print(" | ".join(str(x) for x in (
            r["workers"] or 1, r["connections"], r["actions"], r["actions_per_second"], r["median_ms"], r["p99_ms"],
            r["max_ms"],
            sum(r["errors"].values()) + r["unanswered"] + r["closed"], r["server_cpu_percent"],
            r["client_lag_p99_ms"], r["kib_per_connection_idle"], r["kib_per_connection_playing"],
            r["kib_per_connection_after"], r["kib_per_connection_closed"], r["machine_load_before"])))
    for workers in dict.fromkeys(r["workers"] for r in levels):
        same = [r for r in levels if r["workers"] == workers]
        if len(same) > 1 and same[0]["median_ms"]:
            base = same[0]["median_ms"]
            print(f"median / baseline{f' ({workers} workers)' if workers else ''}: " + ", ".join(
                f"{r['connections']}: {r['median_ms'] / base:.2f}x" for r in same if r["median_ms"]))
    for r in levels:
        if "cpu_ms_per_action" in r:
            per = r["cpu_ms_per_action"]
            cores = os.cpu_count() or 1
            print(f"CPU per action at {r['connections']} connections, {r['workers'] or 1} worker(s), ms: " + ", ".join(
                f"{name} {value}" for name, value in per.items())
                + f"; the most {cores} cores can serve with all of it on them: "
                f"{1000 * cores / max(1e-9, sum(per.values())):.0f} actions a second")
    counts = list(dict.fromkeys(r["workers"] for r in levels))
    if len(counts) > 1:
        for n in dict.fromkeys(r["connections"] for r in levels):
            by = {r["workers"]: r for r in levels if r["connections"] == n}
            first = by[counts[0]]
            print(f"actions a second at {n} connections, over {counts[0]} worker(s): " + ", ".join(
                f"{w} workers {by[w]['actions_per_second'] / first['actions_per_second']:.2f}x"
                for w in counts[1:] if w in by and first["actions_per_second"]))
    if bots is not None:
        w = bots["with_bots"]
        print(f"\none person-vs-person room alone, then with {args.bots} rooms of {BOT} vs {BOT} "
              f"({w['bot_moves_per_second']} bot moves/s):")
        print("              | actions | median ms | p99 ms | max ms | errors")
        for label, r in (("alone", bots), (f"{args.bots} bot rooms", w)):
            print(f"{label:>13} | {r['actions']} | {r['median_ms']} | {r['p99_ms']} | {r['max_ms']} | "
                  f"{sum(r['errors'].values()) + r['unanswered'] + r['closed']}")
        print("\na person's bot replying (from the event that makes it the one to act to its move's event):")
        print("              |        bot | replies | median ms | p99 ms | max ms")
        for label, r in (("alone", bots), (f"{args.bots} bot rooms", w)):
            for spec, t in r["bot_replies"].items():
                print(f"{label:>13} | {spec:>10} | {t['replies']} | {t['median_ms']} | {t['p99_ms']} | "
                      f"{t['max_ms']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1,100,1000", help="concurrent connections per level (comma-separated)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of play per level")
    parser.add_argument("--think", type=float, default=1.0, help="a player's mean thinking time, seconds")
    parser.add_argument("--think-alone", type=float, default=0.2,
                        help="the same in the one-room runs (level 1, the bot scenario's pair): more samples")
    parser.add_argument("--game", choices=("duel", "duals", "both"), default="both")
    parser.add_argument("--bots", type=int, default=50, help="bot:hard rooms of the bot scenario (0: skip it)")
    parser.add_argument("--bot-workers", type=int, default=None, help="the server's bot processes (default: cores)")
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (a fresh database is made there); else SQLite")
    parser.add_argument("--compression", choices=("deflate", "none"), default="deflate",
                        help="what the clients offer (browsers offer permessage-deflate)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", type=json.loads, default=None,
                        help='the players\' rooms\' time control (issue 24), as POST /api/rooms takes it: '
                             '\'{"kind": "fischer", "minutes": 60, "increment": 60}\'; default untimed')
    parser.add_argument("--workers", default=None,
                        help="the server's processes (serve --workers N), one run of each level per number given "
                             "(comma-separated: 1,2); needs --db postgresql... and --redis (issue 22)")
    parser.add_argument("--redis", default=None, help="the Redis URL the server's processes share (serve --redis)")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the server of the last level to FILE")
    parser.add_argument("--abuse", action="store_true",
                        help="run each level again with an abusive neighbour (one address, the worst it may)")
    parser.add_argument("--pairs", type=int, default=1,
                        help="with --abuse: run each level's pair (alone, with the neighbour) this many times, "
                             "alternated, and give their figures taken together too (the runs alone vary)")
    parser.add_argument("--abuse-parts", default=",".join(ABUSE_PARTS),
                        help="what the neighbour does, of logs,bots,bodies (default all: to tell them apart)")
    parser.add_argument("--abuse-flood", action="store_true",
                        help="the neighbour goes past its address's budgets, each excess refused: it posts its "
                             "bodies as fast as it can (past Limits.bodies_per_second: a flood of requests, which a "
                             "proxy in front limits, docs/server.md) and asks for logs at each socket's rate (past "
                             "Limits.expensive_per_second: its sockets are closed once they have spent their "
                             "refusals)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--client", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--neighbour", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.client is not None:
        asyncio.run(client_main(json.loads(args.client)))
        return 0
    if args.neighbour is not None:
        asyncio.run(neighbour_main(json.loads(args.neighbour)))
        return 0
    raise_open_files()
    levels = [int(x) for x in args.levels.split(",") if x.strip()]
    worker_counts: list[int | None] = ([int(x) for x in args.workers.split(",") if x.strip()] if args.workers
                                       else [None])
    results = []
    abused = []
    bots = None
    parts = [part for part in args.abuse_parts.split(",") if part in ABUSE_PARTS]
    abuse = ({"limits": neighbour_limits(), "source": NEIGHBOUR, "record": long_record("duals"), "parts": parts,
              "flood": args.abuse_flood}
             if args.abuse else None)
    with tempfile.TemporaryDirectory(prefix="flametable-load-") as tmp:
        for i, (n, workers) in enumerate((n, w) for w in worker_counts for n in levels):
            profile = args.profile if i == len(levels) * len(worker_counts) - 1 and not args.bots and not abuse \
                else None
            for pair in range(max(1, args.pairs) if abuse is not None else 1):
                alone = run_level(args, Path(tmp), n, 0, profile, None, workers)
                if pair == 0:
                    results.append(alone)
                if not args.json:
                    print(f"level {n}: {json.dumps(brief(alone))}", file=sys.stderr, flush=True)
                if abuse is not None:
                    with_ = run_level(args, Path(tmp), n, 0, None, abuse, workers)
                    abused.append({"parts": parts, "without": alone, "with": with_, **abuse_ratios(alone, with_)})
                    if not args.json:
                        print(f"level {n} with the neighbour: {json.dumps(brief(with_))}", file=sys.stderr,
                              flush=True)
        if args.bots:
            bots = run_level(args, Path(tmp), 1, args.bots, args.profile)
    together = taken_together(abused)
    for run in [*results, *(a[k] for a in abused for k in ("without", "with")), *([bots] if bots else [])]:
        run.pop("latencies_ms", None)
    if args.json:
        print(json.dumps({"game": args.game, "think": args.think, "seconds": args.seconds,
                          "compression": args.compression, "database": "postgresql" if args.db else "sqlite",
                          "levels": results, "bots": bots,
                          **({"abuse": abused, "abuse_together": together} if args.abuse else {})}))
    else:
        table(results, bots, args)
        if args.abuse:
            abuse_table(abused, together)
    return 0


if __name__ == "__main__":
    sys.exit(main())
