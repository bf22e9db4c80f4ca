"""The crash test of issue 11: a real server (``flametable serve`` in a subprocess, on SQLite and on PostgreSQL) is
killed with SIGKILL in the middle of matches of both games, while its clients play as fast as it answers; after a
restart on the same database every acknowledged action is there, every match resumes where it was, and both seats
go on with their tokens to the end (or a resignation), each match's record replaying and verifying.

An action is *acknowledged* once a client has received the event of its version: the server tells no one before
the action is committed, so whatever any client saw must survive the crash. An action sent but not acknowledged
may be there or not, but never half: the match resumes either before it or after it, its status agreeing.

And a server killed alone leaves no bot worker behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from flametable.core.record import MatchRecord, replay, start
from flametable.core.registry import make_game
from flametable.service import view_json
from tests.web.live import RECEIVE_SECONDS, LiveServer, Socket

ROOMS = (  # (game, seats): people play people, and a person plays a bot (at seat 1, then at seat 0)
    ("duel", ["me", "me"]), ("duel", ["me", "me"]), ("duel", ["me", "bot:random"]),
    ("duals", ["me", "me"]), ("duals", ["me", "me"]), ("duals", ["bot:random", "me"]),
)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """A live server on an empty database of each kind; killed (with everything it started) whatever happens."""
    live = LiveServer(db_url, tmp_path / "server")
    try:
        yield live
    finally:
        live.kill()


class Client:
    """A seat (``token``) or a spectator of a room, over the server's lives: every event it saw, the actions it sent
    (version, notation, before the crash or not) and whether the event of each came back."""

    def __init__(self, seat: int | None, token: str | None) -> None:
        self.seat = seat
        self.token = token
        self.sock: Socket | None = None
        self.events: list[dict[str, Any]] = []
        self.sent: list[tuple[int, str, bool]] = []  # (version, notation, before the crash)
        self.ended: dict[str, Any] | None = None
        self.seen_alive = 0  # how many of the events it had when the server was killed

    def acknowledged(self, version: int) -> bool:
        """Whether the event of the action sent at ``version`` had come before the server was killed."""
        return any(e["version"] == version + 1 for e in self.events[:self.seen_alive])

    @property
    def last(self) -> dict[str, Any]:
        return self.events[-1]

    @property
    def version(self) -> int:
        return int(self.last["version"])

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        assert kind != "error", message
        if kind == "event":
            assert message["match"] == 0, message
            self.events.append(message["event"])
        elif kind == "ended":
            self.ended = message

    def hello(self, server: LiveServer, room: str) -> dict[str, Any]:
        """Connect and say hello with the token and the version last seen: the welcome (the resync is read too)."""
        self.sock = server.connect(room)
        self.ended = None
        seen: dict[str, Any] = {"match": 0, "version": self.version} if self.events else {}
        self.sock.send(type="hello", token=self.token, **seen)
        welcome = self.sock.until("welcome")
        while (message := self.sock.recv())["type"] != "presence":  # the answer to a hello ends with the presence
            self.take(message)
        return welcome

    def read_to(self, version: int) -> None:
        """Read until the event of ``version`` (or a later one)."""
        assert self.sock is not None
        while not self.events or self.version < version:
            self.take(self.sock.recv())

    def read_to_end(self) -> None:
        assert self.sock is not None
        while self.ended is None:
            self.take(self.sock.recv())

    def drain(self) -> None:
        """Everything the dead server's connection still holds (events it sent before it was killed)."""
        assert self.sock is not None
        try:
            while True:
                self.take(self.sock.recv())
        except ConnectionClosed:
            pass


@dataclass
class Table:
    """One room of the test: its people, its spectator, its random moves and how far it plays before the crash."""

    game: str
    room: str
    bots: dict[int, str]
    people: dict[int, Client]
    watcher: Client
    rng: random.Random
    cap: int  # the room stops playing at this version before the crash (if the crash has not come first)
    resign_after: int | None  # after the restart: resign after this many actions (None: play to the end)
    resumed: list[int] = field(default_factory=list)  # the versions of the welcomes after the restart

    @property
    def everyone(self) -> list[Client]:
        return [*self.people.values(), self.watcher]

    @property
    def version(self) -> int:
        return max(c.version for c in self.people.values())

    def seen(self) -> int:
        """The latest version any of the room's clients saw."""
        return max(c.version for c in self.everyone if c.events)


class Crash:
    """The kill: by the first client that sends an action once ``after`` actions are acknowledged (so at least one
    is in flight), or once every room has stopped playing before it came."""

    def __init__(self, server: LiveServer, after: int, rooms: int) -> None:
        self.server = server
        self.after = after
        self.rooms = rooms
        self.lock = threading.Lock()
        self.acks = 0
        self.idle = 0
        self.killed = threading.Event()
        self.ready = threading.Barrier(rooms, timeout=RECEIVE_SECONDS)  # every room says hello before any plays
        self.in_flight = False  # the kill came right after an action was sent

    def acked(self) -> None:
        with self.lock:
            self.acks += 1

    def sent(self) -> None:
        with self.lock:
            if self.acks >= self.after and not self.killed.is_set():
                self.in_flight = True
                self._kill()

    def stopped(self) -> None:
        with self.lock:
            self.idle += 1
            if self.idle == self.rooms and not self.killed.is_set():
                self._kill()

    def fail(self) -> None:
        """A room's thread failed: kill now, so that no other waits for the kill or the barrier."""
        with self.lock:
            self.ready.abort()
            if not self.killed.is_set():
                self._kill()

    def _kill(self) -> None:
        self.killed.set()  # first: the connections it closes are then expected to close
        self.server.kill()


def step(table: Table, crash: Crash | None) -> None:
    """One action: the seat to act sends a random legal one from its own view (a bot's seat: the server plays),
    then every client reads to its event (the actor first)."""
    version = table.version
    to_act = next(iter(table.people.values())).last["to_act"]
    order = table.everyone
    mover = table.people.get(to_act)
    if mover is not None:
        assert mover.sock is not None
        assert mover.last["version"] == version
        notation = table.rng.choice(mover.last["view"]["legal"])
        mover.sent.append((version, notation, crash is not None))
        mover.sock.send(type="act", action=notation, version=version)
        if crash is not None:
            crash.sent()
        order = [mover, *(c for c in order if c is not mover)]
    for client in order:
        client.read_to(version + 1)
    if crash is not None and mover is not None:
        crash.acked()


def before_the_crash(server: LiveServer, table: Table, crash: Crash) -> None:
    """Play as fast as the server answers until the cap, the match's end, or the kill; then read what is left."""
    try:
        for client in table.everyone:
            client.hello(server, table.room)
        crash.ready.wait()
        while table.version < table.cap and table.people[min(table.people)].last["to_act"] is not None:
            step(table, crash)
        crash.stopped()
        assert crash.killed.wait(RECEIVE_SECONDS), "the server was not killed"
    except ConnectionClosed:
        assert crash.killed.is_set(), "a connection closed while the server was alive"
    except BaseException:
        crash.fail()
        raise
    for client in table.everyone:
        if client.sock is not None:
            client.drain()


def after_the_restart(server: LiveServer, table: Table) -> None:
    """Every client comes back with its token and the version it last saw; the match resumes where the server was
    killed; both seats play on to the end (or one resigns)."""
    for client in table.everyone:
        last = client.version
        welcome = client.hello(server, table.room)
        assert welcome["match"] == 0
        assert welcome["seat"] == client.seat
        assert welcome["version"] >= last, f"{table.room}: {client.seat} saw version {last}, the server lost it"
        assert client.version == welcome["version"], "the resync is at the welcome's version"
        assert welcome["status"] in ("playing", "over")
        assert (welcome["status"] == "over") == (client.last["to_act"] is None)
        table.resumed.append(welcome["version"])
    if not table.bots:  # nobody could move meanwhile: every seat resumes at the same version
        assert len(set(table.resumed)) == 1, table.resumed
    while table.people[min(table.people)].last["to_act"] is not None:
        if table.resign_after is not None and table.version >= min(table.resumed) + table.resign_after:
            resigner = table.people[min(table.people)].sock
            assert resigner is not None
            resigner.send(type="resign")
            break
        step(table, None)
    for client in table.everyone:
        client.read_to_end()
        assert client.sock is not None
        client.sock.close()


@dataclass(frozen=True)
class Replayed:
    """The record at one version: who acts, and every audience's view (as JSON, as the server sends it)."""

    to_act: int | None
    views: dict[int | None, Any]


def replayed(table: Table, record: MatchRecord) -> list[Replayed]:
    """The record replayed, version by version."""
    game = make_game(table.game)
    state = start(game, record)
    out = []
    for notation in [*record.actions, None]:
        views = {audience: json.loads(json.dumps(view_json(state.view(audience)))) for audience in (0, 1, None)}
        out.append(Replayed(state.to_act, views))
        if notation is not None:
            state.apply(game.action_from_text(notation))
    return out


def check_record(server: LiveServer, table: Table, seen_before: int) -> dict[str, int]:
    """The record holds every acknowledged action, the crash added only actions sent and never half of one, and
    every event any client saw is the record's at its version."""
    status, body = server.request("GET", f"/api/rooms/{table.room}/matches/0/record")
    assert status == 200, body
    record = MatchRecord.from_json(json.loads(body))
    report = replay(make_game(table.game), record)
    assert report.ok, report.reason
    if table.resign_after is not None:
        assert report.resigned == min(table.people)
    else:
        assert report.outcome is not None
    states = replayed(table, record)
    actions = record.actions
    for client in table.everyone:
        for event in client.events:
            version = event["version"]
            assert version < len(states), f"{table.room}: an event of version {version} the record lacks"
            assert event["view"] == states[version].views[client.seat], f"{table.room}: version {version} differs"
            assert event["to_act"] == states[version].to_act
            if event["actor"] is not None:
                assert event["actor"] == states[version - 1].to_act
                if event["actor"] == client.seat:
                    assert event["action"] == actions[version - 1]
    resumed = min(table.resumed)
    counts = {"acknowledged": 0, "kept": 0, "lost": 0}
    for client in table.people.values():
        for version, notation, before in client.sent:
            if not before or client.acknowledged(version):
                assert actions[version] == notation, f"{table.room}: the action at {version} is not the one sent"
                counts["acknowledged"] += before
            elif version < resumed:  # sent, not acknowledged, there after the restart: all of it
                assert actions[version] == notation
                counts["kept"] += 1
            else:  # sent, not acknowledged, not there: the match resumed just before it
                assert resumed == version
                counts["lost"] += 1
    for version in range(seen_before, resumed):  # what the crash added to what clients had seen: sent or a bot's
        actor = states[version].to_act
        assert actor is not None
        assert actor in table.bots or (version, actions[version], True) in table.people[actor].sent, version
    return counts


def test_a_server_killed_mid_match_loses_no_acknowledged_action_and_every_match_goes_on(server: LiveServer) -> None:
    rng = random.Random(11)
    server.start()
    tables = []
    for game, seats in ROOMS:
        made = server.post("/api/rooms", {"game": game, "seats": seats}, 201)
        people = {int(player): Client(int(player), token) for player, token in made["tokens"].items()}
        bots = {player: spec for player, spec in enumerate(seats) if spec.startswith("bot:")}
        duel = game == "duel"
        cap = rng.randint(4, 12) if duel else rng.randint(8, 24)
        tables.append(Table(game, made["room"], bots, people, Client(None, None), random.Random(rng.random()), cap,
                            None if duel else rng.randint(2, 10)))
    crash = Crash(server, after=rng.randint(len(ROOMS), 2 * len(ROOMS)), rooms=len(ROOMS))
    with ThreadPoolExecutor(len(tables)) as pool:
        for future in [pool.submit(before_the_crash, server, table, crash) for table in tables]:
            future.result(timeout=RECEIVE_SECONDS * 2)
    assert crash.killed.is_set()
    for table in tables:
        for client in table.everyone:
            client.seen_alive = len(client.events)
    seen_before = {table.room: table.seen() for table in tables}

    server.start()  # the same port, the same database
    with ThreadPoolExecutor(len(tables)) as pool:
        for future in [pool.submit(after_the_restart, server, table) for table in tables]:
            future.result(timeout=RECEIVE_SECONDS * 4)
    totals = {"acknowledged": 0, "kept": 0, "lost": 0}
    for table in tables:
        for key, value in check_record(server, table, seen_before[table.room]).items():
            totals[key] += value
    assert crash.in_flight, "the server was killed while no action was in flight"
    assert totals["acknowledged"] >= crash.after
    print(f"crash after {crash.acks} acknowledged actions (in flight: {crash.in_flight}): {totals}")


def test_the_bot_workers_of_a_killed_server_end_with_it(sqlite_database: str, tmp_path: Path) -> None:
    """A server killed alone (SIGKILL to its own process: an out-of-memory kill, ``kill -9 PID``) leaves no bot
    worker waiting for work for ever: each notices its server is gone and ends (within seconds)."""
    live = LiveServer(sqlite_database, tmp_path / "server")
    group = None
    try:
        live.start()
        # a search and a quick bot: both kinds of worker (bot:random would decide on the server's loop)
        room = live.post("/api/rooms", {"game": "duel", "seats": ["bot:easy", "bot:ismcts:5"]}, 201)["room"]
        deadline = time.monotonic() + RECEIVE_SECONDS
        while live.get(f"/api/rooms/{room}")["version"] < 4:  # both have played: both workers have been started
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.05)
        group = live.kill_alone()  # its workers keep the group's id alive: it cannot be reused meanwhile
        deadline = time.monotonic() + 10
        while True:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                group = None
                break
            assert time.monotonic() < deadline, "a bot worker outlived its server"
            time.sleep(0.05)
    finally:
        live.kill()
        if group is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
