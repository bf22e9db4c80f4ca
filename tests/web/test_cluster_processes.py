"""Several real ``flametable serve`` processes on one PostgreSQL database and one Redis (the test's own
``redis-server``, which it may stop and start): the done-when of issue 22.

- The two players of a Flame Duel and of a Duals match sit on different processes and a spectator on the third;
  both matches are played to the end and every frame each of them received is leak-checked.
- The owner of a room is killed (SIGKILL) a few times at random moments, in both games: within 5 s another process
  owns each of its rooms, every event any client saw is in the match's record (every acknowledged action kept),
  both seats go on (reconnecting), and the bots' rooms go on with nobody connected, each decision stored once.
- Fencing: the owner is stopped (SIGSTOP) past its lease, another process takes the room over, the stopped one
  goes on (SIGCONT) and cannot store the move its client sent meanwhile; the match is intact.
- Redis is stopped and started during play: the owner goes on serving its own sockets, nothing is lost, the
  relayed clients resync once it is back, and ``/healthz`` says ``"redis": "down"`` meanwhile.
- ``serve --workers 2``: two processes of their own on one port, serving one match between them.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from flametable.core.record import MatchRecord, replay
from flametable.core.registry import make_game
from flametable.web.store import Store, upgrade
from tests.services import RedisServer
from tests.web import leakcheck
from tests.web.halls import Spread, close_code
from tests.web.live import LiveServer, Socket
from tests.web.test_crash import replayed

RATE = 8.0  # messages a second a test client sends at most on one socket (the server's limit is 10)
FAILOVER_SECONDS = 5.0  # the longest a room of a dead owner may wait for another


class Db:
    """The test's own look at the cluster's database."""

    def __init__(self, url: str) -> None:
        self.url = url

    def run(self, work: Callable[[Store], Any]) -> Any:
        async def go() -> Any:
            store = await Store.open(self.url, migrate=False)
            try:
                return await work(store)
            finally:
                await store.close()

        return asyncio.run(go())

    def owners(self, rooms: list[str]) -> dict[str, tuple[str, int, float]]:
        return cast(dict[str, tuple[str, int, float]], self.run(lambda store: store.room_owners(rooms)))

    def match(self, room: str) -> Any:
        row = self.run(lambda store: store.load_room(room))
        assert row is not None
        return row.match

    def seed(self, room: str) -> int:
        return int(self.match(room).seed)

    def seats(self, room: str) -> list[int]:
        """The seat of each stored action of the room's match, in order."""

        async def work(store: Store) -> list[int]:
            import sqlalchemy as sa

            from flametable.web.store import actions, matches

            async with store.engine.connect() as connection:
                rows = await connection.execute(
                    sa.select(actions.c.seat).join(matches, matches.c.id == actions.c.match_id)
                    .where(matches.c.room_id == room).order_by(actions.c.idx))
                return [int(seat) for seat in rows.scalars()]

        return cast(list[int], self.run(work))


class Cluster:
    """``flametable serve`` processes on one database (``db_url``) and one Redis."""

    def __init__(self, db_url: str, servers: list[LiveServer]) -> None:
        asyncio.run(upgrade(db_url))  # once: the servers would migrate together otherwise
        self.db = Db(db_url)
        self.servers = servers
        self.lock = threading.Lock()
        self.down: set[int] = set()  # servers being killed or restarted: no client goes there

    def start(self) -> None:
        with ThreadPoolExecutor(len(self.servers)) as pool:
            for future in [pool.submit(server.start) for server in self.servers]:
                future.result()

    def stop(self) -> None:
        for server in self.servers:
            server.kill()

    def process(self, index: int) -> str:
        process: str = self.servers[index].get("/healthz")["process"]
        return process

    def pick(self, rng: random.Random, avoid: int | None = None) -> int:
        with self.lock:
            live = [i for i in range(len(self.servers)) if i not in self.down and i != avoid]
        return rng.choice(live) if live else rng.randrange(len(self.servers))

    def output(self) -> str:
        return "\n".join(f"--- server {i}\n{s.output()[-4000:]}" for i, s in enumerate(self.servers))


@pytest.fixture
def cluster(postgresql_database: str, own_redis: RedisServer, tmp_path: Path) -> Iterator[Cluster]:
    made = Cluster(postgresql_database, [LiveServer(postgresql_database, tmp_path / f"server-{i}",
                                                    args=["--redis", own_redis.url]) for i in range(3)])
    try:
        made.start()
        yield made
    finally:
        made.stop()


# ------------------------------------------------------------------ the leak check, seats on three processes


@pytest.mark.parametrize("game", ["duel", "duals"])
def test_seats_on_two_processes_and_a_spectator_on_a_third_see_only_their_own(cluster: Cluster, game: str) -> None:
    spread = Spread([server.base for server in cluster.servers], rate=RATE)
    capture = leakcheck.play(cast(TestClient, spread), leakcheck.Seeds(), game, 0, seed_of=cluster.db.seed)
    leaks, frames = leakcheck.check(capture)
    assert leaks == [], "\n".join(map(str, leaks[:5]))
    assert frames > 50
    assert cluster.db.match(capture.room).status == "over"


# ------------------------------------------------------------------ clients that come back, anywhere


class Player:
    """A seat (``token``) or a spectator of a room: it connects to a live process, and after a lost connection
    (its process killed, or closed with 1012) connects again, to any live one, with the version it saw last."""

    def __init__(self, cluster: Cluster, room: str, seat: int | None, token: str | None, rng: random.Random,
                 home: int) -> None:
        self.cluster = cluster
        self.room = room
        self.seat = seat
        self.token = token
        self.rng = rng
        self.home = home  # the process of its first socket
        self.sock: Socket | None = None
        self.events: list[dict[str, Any]] = []
        self.ended: dict[str, Any] | None = None
        self.reconnects = 0
        self.story: list[str] = []  # what it did and got, for a failure's message
        self.sent_at = 0.0
        self.unreachable = 0  # "unreachable" errors told (the bus down, or the owner gone)

    @property
    def last(self) -> dict[str, Any]:
        return self.events[-1]

    @property
    def version(self) -> int:
        return int(self.last["version"]) if self.events else -1

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        self.story.append(f"{kind}:{message.get('event', {}).get('version', message.get('code', ''))}")
        if kind == "event":
            assert message["match"] == 0, message
            self.events.append(message["event"])
        elif kind == "ended":
            self.ended = message
        elif kind == "error":
            assert message["code"] in ("unreachable", "moved"), message
            self.unreachable += message["code"] == "unreachable"

    def connect(self, index: int | None = None) -> None:
        """A socket to ``index`` (else any live process), hello said; tried again until one answers."""
        deadline = time.monotonic() + 30
        while True:
            target = index if index is not None else self.cluster.pick(self.rng)
            index = None
            try:
                if self.sock is not None:
                    self.sock.close()
                self.story.append(f"connect {target} ({self.cluster.servers[target].port})")
                self.sock = self.cluster.servers[target].connect(self.room)
                seen: dict[str, Any] = {"match": 0, "version": self.version} if self.events else {}
                self.sock.send(type="hello", token=self.token, **seen)
                while (message := self.sock.recv())["type"] != "welcome":
                    self.take(message)
                assert message["seat"] == self.seat
                while (message := self.sock.recv())["type"] != "presence":
                    self.take(message)
                return
            except (ConnectionClosed, OSError):
                assert time.monotonic() < deadline, f"{self.room}: no process took the client back in 30 s"
                self.reconnects += 1
                time.sleep(0.1)

    def send(self, message: dict[str, Any]) -> None:
        assert self.sock is not None
        wait = self.sent_at + 1 / RATE - time.monotonic()  # a client that paces itself, as a browser does
        if wait > 0:
            time.sleep(wait)
        self.sent_at = time.monotonic()
        self.story.append(f"send {message.get('type')}@{message.get('version')}")
        while True:
            try:
                self.sock.send(**message)
                return
            except ConnectionClosed:  # not sent: on the new socket, unless the match moved on meanwhile
                self.reconnects += 1
                self.connect()
                if message.get("type") == "act" and self.version != message["version"]:
                    return

    def read_to(self, version: int, resend: Callable[[], None] | None = None) -> None:
        """Read until the event of ``version``; a lost connection is taken again (and, for the mover, its action
        sent again if it did not make it)."""
        while self.version < version:
            assert self.sock is not None
            try:
                self.take(self.sock.recv())
            except TimeoutError:
                raise AssertionError(f"{self.room}: seat {self.seat} waited 30 s for version {version} (at "
                                     f"{self.version}); its story: {self.story[-12:]}; the owners: "
                                     f"{self.cluster.db.owners([self.room])}") from None
            except ConnectionClosed:
                self.reconnects += 1
                self.connect()
                if resend is not None and self.version < version:
                    resend()

    def poll(self, seconds: float) -> None:
        """Read what comes within ``seconds``; a lost connection is taken again (to its own process)."""
        assert self.sock is not None
        try:
            self.take(self.sock.recv(seconds))
        except TimeoutError:
            pass
        except ConnectionClosed:
            self.reconnects += 1
            self.connect(self.home)

    def read_to_end(self) -> None:
        while self.ended is None:
            assert self.sock is not None
            try:
                self.take(self.sock.recv())
            except ConnectionClosed:
                self.reconnects += 1
                self.connect()


@dataclass
class Table:
    game: str
    room: str
    seats: list[str]
    people: dict[int, Player]
    watcher: Player | None
    rng: random.Random
    think: float  # seconds a person thinks before each move
    done: bool = False
    sent: list[tuple[int, str]] = field(default_factory=list)

    @property
    def everyone(self) -> list[Player]:
        return [*self.people.values(), *([self.watcher] if self.watcher is not None else [])]

    @property
    def version(self) -> int:
        return max(p.version for p in self.people.values())

    def bots(self) -> set[int]:
        return {player for player, spec in enumerate(self.seats) if spec.startswith("bot:")}


def make_table(cluster: Cluster, game: str, seats: list[str], rng: random.Random, think: float,
               homes: tuple[int, int, int]) -> Table:
    """A room made on process ``homes[0]``: seat 0 connects there, seat 1 to ``homes[1]``, the spectator to
    ``homes[2]`` (a room of bots only: nobody)."""
    made = cluster.servers[homes[0]].post("/api/rooms", {"game": game, "seats": seats}, 201)
    people = {int(p): Player(cluster, made["room"], int(p), token, random.Random(rng.random()), homes[int(p)])
              for p, token in made["tokens"].items()}
    watcher = Player(cluster, made["room"], None, None, random.Random(rng.random()), homes[2]) if people else None
    return Table(game, made["room"], seats, people, watcher, random.Random(rng.random()), think)


def step(table: Table) -> None:
    """One decision: the seat to act (a person) thinks, then sends a random legal action of its view (a bot's
    seat: the server plays); every client reads to its event."""
    lead = table.people[min(table.people)]
    version = table.version
    for client in table.people.values():
        client.read_to(version)
    to_act = lead.last["to_act"]
    mover = table.people.get(to_act)
    order = table.everyone
    if mover is not None:
        time.sleep(table.think * (0.5 + table.rng.random()))
        notation = table.rng.choice(mover.last["view"]["legal"])
        table.sent.append((version, notation))

        def send() -> None:
            mover.send({"type": "act", "action": notation, "version": version})

        send()
        mover.read_to(version + 1, send)
        order = [mover, *(c for c in order if c is not mover)]
    for client in order:
        client.read_to(version + 1)


def play_out(table: Table) -> None:
    try:
        for client in table.everyone:
            client.connect(client.home)
        while table.people[min(table.people)].last["to_act"] is not None:
            step(table)
        for client in table.everyone:
            client.read_to_end()
            assert client.sock is not None
            client.sock.close()
    finally:
        table.done = True


def check_record(cluster: Cluster, table: Table) -> None:
    """The match is over; its record replays; every event any client saw is the record's at its version (so
    every acknowledged action is there); every action a person sent and saw acknowledged is the one stored."""
    match = cluster.db.match(table.room)
    assert match.status == "over", (table.room, match.status)
    status, body = cluster.servers[0].request("GET", f"/api/rooms/{table.room}/matches/0/record")
    if status != 200:
        status, body = cluster.servers[1].request("GET", f"/api/rooms/{table.room}/matches/0/record")
    assert status == 200, body
    record = MatchRecord.from_json(json.loads(body))
    report = replay(make_game(table.game), record)
    assert report.ok, report.reason
    assert report.outcome is not None
    states = replayed(cast(Any, table), record)
    for client in table.everyone:
        for event in client.events:
            version = event["version"]
            assert version < len(states), f"{table.room}: an event of version {version} the record lacks"
            assert event["view"] == states[version].views[client.seat], f"{table.room}: version {version} differs"
            if event["actor"] is not None and event["actor"] == client.seat:
                assert event["action"] == record.actions[version - 1]
    for version, notation in table.sent:
        seen = any(e["version"] == version + 1 for c in table.everyone for e in c.events)
        if seen:
            assert record.actions[version] == notation, f"{table.room}: the action at {version} is not the one sent"
    # a bot's seat moved exactly once per decision of its: each decision of the replay is one stored action
    decisions = [states[v].to_act for v in range(len(record.actions))]
    assert cluster.db.seats(table.room) == decisions


# ------------------------------------------------------------------ failover


class Watch:
    """Who owns each room, read ten times a second, with the times: when did another process take a room over."""

    def __init__(self, cluster: Cluster, rooms: list[str]) -> None:
        self.cluster = cluster
        self.rooms = rooms
        self.seen: list[tuple[float, dict[str, tuple[str, int, float]]]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            owners = self.cluster.db.owners(self.rooms)
            self.seen.append((time.monotonic(), owners))
            self.stop.wait(0.1)

    def taken_over(self, room: str, dead: str, since: float) -> float | None:
        """Seconds from ``since`` until a live lease of the room held by another process than ``dead``."""
        for when, owners in self.seen:
            owner = owners.get(room)
            if when >= since and owner is not None and owner[0] != dead and owner[2] > 0:
                return when - since
        return None


def test_owners_killed_mid_match_hand_their_rooms_over_within_5_seconds_and_nothing_is_lost(
        cluster: Cluster) -> None:
    rng = random.Random(22)
    tables = [
        make_table(cluster, "duel", ["me", "me"], rng, 0.35, (0, 1, 2)),
        make_table(cluster, "duals", ["me", "me"], rng, 0.12, (1, 2, 0)),
        make_table(cluster, "duel", ["me", "bot:ismcts:1500"], rng, 0.3, (2, 0, 1)),
    ]
    bots = make_table(cluster, "duel", ["bot:ismcts:1500", "bot:ismcts:1500"], rng, 0.0, (0, 0, 0))
    watch = Watch(cluster, [t.room for t in [*tables, bots]])
    kills: list[tuple[float, str, list[str]]] = []
    restarts: list[threading.Thread] = []
    try:
        with ThreadPoolExecutor(len(tables)) as pool:
            futures = [pool.submit(play_out, table) for table in tables]
            for round_ in range(3):  # the owner of a room still played: first a duel's, then a duals', then any
                time.sleep(rng.uniform(1.5, 3.0))
                playing = [t for t in (tables[0], tables[2], bots) if not t.done] if round_ == 0 else \
                    [tables[1]] if round_ == 1 and not tables[1].done else [t for t in [*tables, bots] if not t.done]
                if not playing:
                    break
                killable = None
                retry_until = time.monotonic() + 2 * FAILOVER_SECONDS  # a room handed over a moment ago: its new owner
                while killable is None and time.monotonic() < retry_until:
                    owners = cluster.db.owners([t.room for t in [*tables, bots]])
                    choices = []
                    for table in playing:
                        owner = owners.get(table.room)
                        if owner is None or owner[2] <= 0 or table.done:
                            continue
                        index = next((i for i in range(len(cluster.servers))
                                      if i not in cluster.down and cluster.process(i) == owner[0]), None)
                        if index is not None:
                            choices.append((index, owner))
                    if choices:
                        killable = rng.choice(choices)
                    else:
                        time.sleep(0.2)
                if killable is None:
                    continue
                index, owner = killable
                held = [room for room, (process, _f, left) in owners.items() if process == owner[0] and left > 0]
                with cluster.lock:
                    cluster.down.add(index)
                when = time.monotonic()
                cluster.servers[index].kill()
                kills.append((when, owner[0], held))

                def restart(i: int = index) -> None:
                    cluster.servers[i].start()
                    with cluster.lock:
                        cluster.down.discard(i)

                restarts.append(threading.Thread(target=restart, daemon=True))
                restarts[-1].start()
            for future in futures:
                future.result(timeout=120)
        deadline = time.monotonic() + 60
        while cluster.db.match(bots.room).status == "playing":
            assert time.monotonic() < deadline, "the bots' room did not end"
            time.sleep(0.2)
    except BaseException:
        print(cluster.output())
        raise
    finally:
        watch.stop.set()
        watch.thread.join(5)
        for thread in restarts:
            thread.join(60)
    assert len(kills) >= 2, kills
    for when, dead, held in kills:
        for room in held:
            match = next(t for t in [*tables, bots] if t.room == room)
            if match.done and match is not bots:
                continue
            delay = watch.taken_over(room, dead, when)
            assert delay is not None, (room, dead)
            assert delay <= FAILOVER_SECONDS, (room, dead, delay)
    for table in [*tables, bots]:
        check_record(cluster, table)
    assert sum(c.reconnects for t in tables for c in t.everyone) >= 2
    print("kills:", [(round(w, 1), dead[:8], len(held)) for w, dead, held in kills])


def test_a_stopped_owner_past_its_lease_cannot_store_a_move_once_another_took_the_room(cluster: Cluster) -> None:
    rng = random.Random(5)
    table = make_table(cluster, "duel", ["me", "me"], rng, 0.0, (0, 1, 2))
    for client in table.everyone:
        client.connect(client.home)
    step(table)
    step(table)
    version = table.version
    mover = table.people[table.people[0].last["to_act"]]
    other = table.people[1 - (mover.seat or 0)]
    if mover.home != 0:  # the seat to act on the owner, process 0
        mover.home, other.home = 0, 1
        mover.connect(0)
        other.connect(1)
    owner = cluster.servers[0]
    stopped = cluster.process(0)
    assert owner.proc is not None
    assert cluster.db.owners([table.room])[table.room][0] == stopped
    os.killpg(owner.proc.pid, signal.SIGSTOP)
    cluster.down.add(0)
    try:
        notation = rng.choice(mover.last["view"]["legal"])
        mover.send({"type": "act", "action": notation, "version": version})  # waits in the stopped process
        # the lease runs out; the other seat's socket, relayed by process 1, is closed (1012): it comes back
        # there, and process 1 takes the room
        deadline = time.monotonic() + 15
        while True:
            other.poll(0.2)
            held = cluster.db.owners([table.room]).get(table.room)
            if held is not None and held[0] != stopped and held[2] > 0:
                break
            assert time.monotonic() < deadline, "no other process took the room"
    finally:
        os.killpg(owner.proc.pid, signal.SIGCONT)
        cluster.down.discard(0)
    # the stopped process wakes up: the move it was sent is not stored (its lease is lost), its socket is closed
    assert mover.sock is not None
    codes: list[Any] = []
    sock = mover.sock
    assert close_code(lambda left: codes.append(sock.recv(left).get("code"))) == 1012
    assert len(cluster.db.match(table.room).actions) == version
    mover.connect(0)  # back through process 0, relayed to the new owner
    assert mover.version == version
    mover.send({"type": "act", "action": notation, "version": version})
    mover.read_to(version + 1)
    other.read_to(version + 1)
    while table.people[0].last["to_act"] is not None:
        step(table)
    check_record(cluster, table)
    print("the stopped owner's move was refused", "by its store write (moved)" if "moved" in codes else
          "once its renewal said the lease was lost")


# ------------------------------------------------------------------ Redis gone and back


def test_redis_stopped_and_started_during_play_loses_nothing_and_relayed_clients_resync(
        cluster: Cluster, own_redis: RedisServer) -> None:
    rng = random.Random(9)
    table = make_table(cluster, "duals", ["me", "me"], rng, 0.0, (0, 1, 2))
    for client in table.everyone:
        client.connect(client.home)
    for _ in range(4):
        step(table)
    own_redis.stop()
    deadline = time.monotonic() + 10
    while cluster.servers[0].get("/healthz").get("redis") != "down":
        assert time.monotonic() < deadline, "healthz did not say that Redis is down"
        time.sleep(0.1)
    health = cluster.servers[0].get("/healthz")
    assert health["status"] == "ok"
    assert health["rooms"] >= 1  # it still serves the rooms it holds
    back = threading.Timer(2.0, own_redis.start)
    back.start()
    try:
        for _ in range(6):  # the owner's own seat plays on; the relayed one waits (its message unreachable)
            step(table)
    finally:
        back.join()
    while table.people[0].last["to_act"] is not None:
        step(table)
    for client in table.everyone:
        client.read_to_end()
    check_record(cluster, table)
    relayed = [table.people[1], *([table.watcher] if table.watcher is not None else [])]
    assert all(client.reconnects >= 1 for client in relayed), [c.reconnects for c in relayed]
    assert cluster.servers[0].get("/healthz")["redis"] == "ok"


# ------------------------------------------------------------------ serve --workers


def test_serve_with_two_workers_serves_a_match_from_two_processes_on_one_port(
        postgresql_database: str, own_redis: RedisServer, tmp_path: Path) -> None:
    server = LiveServer(postgresql_database, tmp_path / "workers", args=["--workers", "2", "--redis", own_redis.url])
    one = Cluster(postgresql_database, [server])
    try:
        server.start()
        processes: set[str] = set()
        deadline = time.monotonic() + 20
        while len(processes) < 2:
            assert time.monotonic() < deadline, f"one process answered every request: {processes}"
            processes.add(server.get("/healthz")["process"])
        table = make_table(one, "duel", ["me", "me"], random.Random(3), 0.0, (0, 0, 0))
        play_out(table)  # each socket a new connection: to either process
        check_record(one, table)
    finally:
        server.kill()
