"""Several server processes on one PostgreSQL database and one Redis: any process serves any client of any room
(issue 22). ``docs/server.md`` ("Several processes") tells it for operators; this is how it is done.

**Ownership.** A room is driven by one process at a time, its *owner*: the one holding the room's lease in the store
(``room_owners``: owner, fencing number, expiry). A process takes the lease of a room before it loads it
(:meth:`Cluster.take`: :meth:`Hall.find`), renews the leases of every room it has in memory in one statement every
``every`` seconds (from a thread of its own on PostgreSQL, :class:`~flametable.web.store.keeper.LeaseKeeper`, so
that a loop held up by a starved CPU loses no lease; :meth:`Cluster._renew` on SQLite), and gives a lease back when
it forgets the room (nobody in it, no bot to move). Every store write of a room shows its fencing number
(:meth:`Room.fenced`): once another process has taken the lease, the store refuses it (``LeaseLost``) and the room
is dropped from memory at once (:meth:`Hall.lost`): its bots cancelled, its sockets closed with 1012 (*service
restart*), after which a client reconnects by itself. So a process that was stopped (``SIGSTOP``, a long pause) past
its lease can write nothing when it wakes up.

**Relaying.** A socket whose room another process owns stays where it is: its frames are checked here as any
socket's are (size, rate, JSON, schema: :func:`flametable.web.socket.checked_frames`), then sent to the owner over the
bus as ``{"k": "in", "room", "conn", "from", "client", "lang", "msg"}``. The owner holds the connection in the room
as a :class:`RemoteConn`, a :class:`Conn` whose ``send`` publishes ``{"k": "out", "conn", "text"}`` to the relaying
process (the text as it is, after the envelope: :meth:`~flametable.web.bus.Bus.send`'s ``text``), and runs each
of its messages through the very handlers of its own sockets (:class:`RemoteSession`): the presence, each
audience's view, the history of events and every check are the owner's, and a relay only ever receives the texts
of its client's own audience. ``{"k": "bye"}`` when the client leaves, ``{"k": "close", "code"}`` when the owner
ends the connection. A message the bus
could not deliver earns the client an ``error`` (``unreachable``) and makes the relay look again who owns the room.

**Failover.** Every ``every`` seconds a relaying process reads, in one query, who owns its relayed rooms; a
room whose owner changed or whose lease ran out has its relayed sockets closed with 1012: the client's new
socket finds the lease free and its process takes the room (rebuilt from the action log, as after a restart) or
relays to the new owner. And every ``every`` seconds each process takes over a few rooms whose lease ran out
(their owner died or hung) while their match is playing with a bot's seat, so that bots move on with nobody
connected. Bots run in the owner only; the fencing number and the unique index of each action make a bot's move
stored once per decision.

**HTTP** for a room another process owns (``GET /api/rooms/ID``, ``POST .../join``, ``POST .../close``) is
forwarded to it as a request (``{"k": "req", "id", "from", "op", "room", "lang", ...}`` answered by ``{"k": "rep",
"id", "status", "body"}``, :meth:`Cluster.forward`), so that presence and seats change in one place, under the
room's lock, and the owner's sockets are told at once; no answer in ``ask_seconds``: 503 ``unreachable``. A room
nobody owns is shown from the store, without taking it.

**Redis down.** Each process goes on serving the rooms it owns to its own sockets (the leases are in the
database). Relayed sockets get ``unreachable`` for what they send; once the bus is back
(:meth:`Cluster.reconnected`) every relayed socket is closed with 1012 and the clients resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flametable.texts.translator import Translator
from flametable.web.rooms import MOVED, Bucket, Budgets, Conn, Hall, Room, RoomError, unreachable
from flametable.web.store import StoreError

if TYPE_CHECKING:  # Redis's modules are loaded by a cluster's process only
    from flametable.web.bus import Bus
    from flametable.web.shared import Budget, Counter
    from flametable.web.store.keeper import LeaseKeeper

log = logging.getLogger("flametable.web")

TAKEOVERS = 3
"""The most rooms with a bot to move a process takes over each round (from owners gone)."""
GIVEN_BACK = -1e8
"""Seconds left of a lease given back, at most: its end is 1970 (``leases.RELEASED``), one that ran out ended lately."""
OUT_QUEUE = 1024
"""The most texts a relayed socket may have waiting to be sent to its client: past them it is closed (1013)."""


@dataclass(frozen=True)
class Remote:
    """A room another process of the cluster owns (holds the lease of)."""

    room_id: str
    owner: str


Answer = tuple[int, dict[str, Any]]
"""An HTTP answer: status and JSON body."""
Op = Callable[[Hall, Mapping[str, Any], Translator, bool], Awaitable[Answer]]
"""An HTTP request on a room, answered where the room is: ``(hall, request, tr, remote)``, ``remote`` when asked by
another process (then a room this process does not hold is :func:`~flametable.web.rooms.moved`)."""
OPS: dict[str, Op] = {}
"""The requests one process may make of another's rooms, by name (``routes/rooms.py`` declares them)."""
MOVED_REPLY = -1
"""The status of a reply from a process that no longer holds the room: ask again whoever holds it now."""


def text_of(message: Mapping[str, Any]) -> str:
    """The text a message carries as it is (:meth:`~flametable.web.bus.Bus.send`'s ``text``)."""
    text = message["text"]
    if not isinstance(text, str):
        raise TypeError("a relayed text is a str")
    return text


def unreachable_answer(tr: Translator) -> Answer:
    return 503, {"error": "unreachable", "message": tr.error(unreachable())}


class RemoteConn(Conn):
    """A client's socket held by another process (``relay``), in a room of this one: what the room sends it goes
    over the bus to that process, which sends it on to its client."""

    __slots__ = ("conn_id", "relay")

    def __init__(self, conn_id: str, relay: str, send: Callable[[str], Awaitable[None]], tr: Translator,
                 client: str, close: Callable[[int], Awaitable[None]]) -> None:
        super().__init__(send, tr, client, close)
        self.conn_id = conn_id
        self.relay = relay


class RemoteSession:
    """The owner's side of a relayed socket: its :class:`RemoteConn`, and its messages handled in order, one at a
    time, by the handlers of :mod:`flametable.web.socket` (as a socket of this process's would be)."""

    def __init__(self, cluster: Cluster, message: Mapping[str, Any]) -> None:
        self.cluster = cluster
        self.conn_id = str(message["conn"])
        self.relay = str(message["from"])
        self.room_id = str(message["room"])[:64]
        self.conn = RemoteConn(self.conn_id, self.relay, self._send, Translator.for_language(str(message["lang"])),
                               str(message["client"]), self._close)
        self.queue: asyncio.Queue[Mapping[str, Any] | None] = asyncio.Queue()
        self.task = cluster.spawn(self.run())

    async def _send(self, text: str) -> None:
        if not await self.cluster.bus.send(self.relay, {"k": "out", "conn": self.conn_id}, text):
            self.stop()  # its relay cannot be reached: the connection is gone from the room
            raise ConnectionError(f"the relay {self.relay} of connection {self.conn_id} cannot be reached")

    async def _close(self, code: int) -> None:
        if self.conn.closed:
            return
        self.stop()
        await self.cluster.bus.send(self.relay, {"k": "close", "conn": self.conn_id, "code": code})

    def stop(self) -> None:
        """End the session: no more of its messages is handled; it leaves the room."""
        self.conn.closed = True
        self.queue.put_nowait(None)

    async def run(self) -> None:
        from flametable.web.common import no_room
        from flametable.web.socket import (
            CLOSING,
            RATE_REFUSALS,
            Session,
            dispatch,
            failed,
            refuse,
            too_many_refusals,
        )

        hall, conn = self.cluster.hall, self.conn
        session: Session | None = None
        try:
            try:
                room = await hall.room(self.room_id)
            except RoomError as exc:  # moved: another process took it meanwhile
                await refuse(conn, exc.code, exc)
                return
            if room is None:
                await refuse(conn, "no_room", no_room(self.room_id))
                return
            session = Session(hall, room, conn)
            refusals = Bucket(hall.limits.rate_refusals_per_second, hall.limits.rate_refusals_burst)
            while not conn.closed:
                msg = await self.queue.get()
                if msg is None or conn.closed:
                    break
                code = await dispatch(session, msg)
                if code in CLOSING:
                    break
                if code in RATE_REFUSALS and not refusals.take():
                    await refuse(conn, "too_many_refusals", too_many_refusals())
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            await failed(conn, self.room_id)
        finally:
            conn.closed = True
            if self.cluster.sessions.get(self.conn_id) is self:
                del self.cluster.sessions[self.conn_id]
            if session is not None:
                if session.joined:
                    session.room.leave(conn)
                else:
                    hall.maybe_forget(session.room)


class Link:
    """The relaying side of a socket: its client's frames sent to the room's owner, the owner's texts sent on to
    the client in order (by a task of its own, so that a slow client holds up no other)."""

    def __init__(self, cluster: Cluster, remote: Remote, conn: Conn) -> None:
        self.cluster = cluster
        self.id = secrets.token_urlsafe(12)
        self.room_id = remote.room_id
        self.owner = remote.owner
        self.conn = conn
        self.started = False  # the owner has its first message (it holds a session for it)
        self.out: asyncio.Queue[str | int] = asyncio.Queue()  # texts for the client; an int: close with it
        self.pump = cluster.spawn(self._pump())

    async def forward(self, msg: Mapping[str, Any]) -> None:
        """Send a checked client message to the room's owner; if the bus cannot deliver it, tell the client and look
        again who owns the room (a first message undelivered closes the socket: 1012, the client comes back)."""
        from flametable.web.socket import send_error

        cluster = self.cluster
        message: dict[str, Any] = {"k": "in", "room": self.room_id, "conn": self.id, "from": cluster.process,
                                   "client": self.conn.client, "lang": self.conn.tr.lang, "msg": dict(msg)}
        if not self.started:
            message["first"] = True
        if await cluster.bus.send(self.owner, message):
            self.started = True
            return
        await send_error(self.conn, "unreachable", unreachable())
        if not self.started:
            # its hello never reached the owner: no welcome would ever come, so the socket is closed and its client
            # comes back with a hello (to a process that takes the room, or relays once the owner hears again)
            self.push(1012)
            return
        await cluster.recheck([self])

    def push(self, item: str | int) -> None:
        if self.out.qsize() >= OUT_QUEUE and isinstance(item, str):
            item = 1013  # the client does not read what it is sent: closed, it can come back and resync
        self.out.put_nowait(item)

    async def _pump(self) -> None:
        timeout = self.cluster.hall.limits.send_timeout
        while True:
            item = await self.out.get()
            if isinstance(item, int):
                await self.conn.close(item)
                return
            try:
                await asyncio.wait_for(self.conn.send(item), timeout)
            except Exception:  # a client gone or too slow: closed, it can come back and resync
                await self.conn.close(1013)
                return

    async def end(self) -> None:
        """The client left: the owner is told (its connection leaves the room)."""
        cluster = self.cluster
        if cluster.links.get(self.id) is self:
            del cluster.links[self.id]
        self.pump.cancel()
        if self.started:
            await cluster.bus.send(self.owner, {"k": "bye", "conn": self.id})


class Cluster:
    """A hall's part in a cluster: its leases, its relayed sockets (:class:`Link`), the relayed sockets of its
    rooms (:class:`RemoteSession`), its requests to other processes and theirs to it."""

    def __init__(self, hall: Hall, bus: Bus, *, lease_seconds: float = 3.0, every: float = 1.0,
                 ask_seconds: float = 2.0) -> None:
        self.hall = hall
        self.bus = bus
        self.process = hall.process
        self.lease_seconds = lease_seconds
        self.every = every
        self.ask_seconds = ask_seconds
        self.links: dict[str, Link] = {}  # the sockets of this process relayed to others, by connection id
        self.sessions: dict[str, RemoteSession] = {}  # others' sockets in this process's rooms, by connection id
        self._pending: dict[str, asyncio.Future[Answer]] = {}  # requests made, waiting for their reply
        self._releasing: dict[str, asyncio.Task[None]] = {}  # leases being given back, by room
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._renewed = 0.0  # when the leases were last renewed (the loop's clock)
        self.keeper: LeaseKeeper | None = None  # PostgreSQL: the leases renewed from a thread of their own
        self.takeovers = 0  # rooms taken over from an owner gone (counted for tests)
        self.relayed = 0  # sockets relayed to other processes (counted for tests)
        self.held = 0  # others' sockets held in this process's rooms (counted for tests)
        from flametable.web.bus import RedisBus
        from flametable.web.shared import LocalCounter, SharedCounter

        # the per-address limits, for every process together (on Redis; each process's own while it is down)
        self.counter: Counter = (SharedCounter(bus.redis, self.process, prefix=bus.prefix)
                                 if isinstance(bus, RedisBus) else LocalCounter())
        self.expensive = self.budget("expensive", hall.expensive)
        self.bodies = self.budget("bodies", hall.bodies)

    def budget(self, name: str, local: Budgets) -> Budget:
        """A budget per address shared by every process (``local``: this process's, while Redis is down)."""
        from flametable.web.bus import RedisBus
        from flametable.web.shared import LocalBudgets, SharedBudgets

        bus = self.bus
        if isinstance(bus, RedisBus):
            return SharedBudgets(bus.redis, local, prefix=bus.prefix, name=name)
        return LocalBudgets(local)

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Listen to the bus, count sockets, and run the lease loop and the takeovers."""
        self.bus.on_message(self.receive)
        self.bus.on_reconnect(self.reconnected)
        self.bus.on_gap(self.gap)
        await self.counter.start()
        loop = asyncio.get_running_loop()
        self._renewed = loop.time()
        engine = self.hall.store.engine
        if engine.dialect.name == "postgresql":  # (SQLite: one writer, the loop's)
            from flametable.web.store.keeper import LeaseKeeper

            self.keeper = LeaseKeeper(engine.url, self.process, seconds=self.lease_seconds, every=self.every,
                                      fences=self._fences, on_lost=self._lost, on_unreachable=self._unreachable,
                                      loop=loop)
            self.keeper.start()
        self._loops = [loop.create_task(self._lease_loop(), name="flametable-leases"),
                       loop.create_task(self._takeover_loop(), name="flametable-takeovers")]

    async def stop(self) -> None:
        """Stop the loops, close the relayed sockets (1012: they reconnect elsewhere), end the sessions of others'
        sockets and give back every lease, so that another process can take the rooms at once."""
        loops, self._loops = self._loops, []
        keeper, self.keeper = self.keeper, None
        if keeper is not None:
            await asyncio.to_thread(keeper.stop)
        for task in loops:
            task.cancel()
        for task in loops:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for link in list(self.links.values()):
            link.push(1012)
        for session in list(self.sessions.values()):
            await session.conn.close(1012)
        rooms = [(room.id, room.fence) for room in self.hall.rooms.values() if room.fence is not None]
        for room_id, fence in rooms:
            with contextlib.suppress(StoreError):
                await self.hall.store.release_room(room_id, self.process, fence)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.counter.stop()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a cluster task failed", exc_info=task.exception())

    # ------------------------------------------------------------------ leases

    async def take(self, room_id: str) -> int | Remote | None:
        """Take the lease of ``room_id``: its fencing number; the :class:`Remote` owner if another process holds
        a live one; None if there is no such room."""
        releasing = self._releasing.get(room_id)
        if releasing is not None:  # our own release of it first, so that it cannot undo this take
            with contextlib.suppress(Exception):
                await asyncio.shield(releasing)
        for _attempt in range(3):  # (a live lease seen, then gone before the take: look again)
            remote = await self.owner_of(room_id)
            if remote is not None:
                return remote
            try:
                fence = await self.hall.store.take_room(room_id, self.process, self.lease_seconds)
            except StoreError:
                if await self.hall.store.load_room(room_id) is None:
                    return None  # no such room (its lease cannot be taken)
                raise
            if fence is not None:
                return fence
        return Remote(room_id, "")  # (leases changing hands all along: the client tries again)

    async def take_new(self, room_id: str) -> int:
        """The lease of a room this process has just made."""
        fence = await self.hall.store.take_room(room_id, self.process, self.lease_seconds)
        if fence is None:  # pragma: no cover - nobody else knows the room's id yet
            raise StoreError(f"the new room {room_id} is leased to another process")
        return fence

    def release(self, room_id: str, fence: int) -> None:
        """Give back the lease of a room this process forgot (in a task: the caller does not wait)."""

        async def work() -> None:
            try:
                await self.hall.store.release_room(room_id, self.process, fence)
            except StoreError:
                log.warning("room %s: its lease could not be given back; it runs out by itself", room_id)

        task = self.spawn(work())
        self._releasing[room_id] = task
        task.add_done_callback(lambda t: self._releasing.pop(room_id, None) if self._releasing.get(room_id) is t
                               else None)

    async def owner_of(self, room_id: str) -> Remote | None:
        """The other process holding a live lease of ``room_id``, if any."""
        owner = await self.hall.store.room_owner(room_id)
        if owner is None:
            return None
        process, _fence, left = owner
        if process == self.process or left <= 0:
            return None
        return Remote(room_id, process)

    async def _lease_loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            steps = (self._check_links, self._check_relays) if self.keeper is not None else \
                (self._renew, self._check_links, self._check_relays)
            for step in steps:
                try:
                    await step()
                except StoreError as exc:
                    log.warning("cluster: %s failed: %s", step.__name__, exc)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("cluster: %s failed", step.__name__)

    async def _renew(self) -> None:
        """Renew the lease of every room in memory (one statement); drop those lost. If the store could not be
        reached for longer than a lease, every room is dropped: this process cannot know it still holds them."""
        hall = self.hall
        rooms = {room.id: room for room in hall.rooms.values() if room.fence is not None}
        now = asyncio.get_running_loop().time()
        try:
            lost = await hall.store.renew_rooms(self.process, {i: r.fence for i, r in rooms.items()
                                                               if r.fence is not None}, self.lease_seconds)
        except StoreError:
            if now - self._renewed > self.lease_seconds:
                for room in rooms.values():
                    hall.lost(room)
            raise
        self._renewed = now
        for room_id in lost:
            gone = rooms.get(room_id)
            if gone is not None:
                log.info("room %s: its lease was taken by another process: dropped from this one", room_id)
                hall.lost(gone)

    def _fences(self) -> dict[str, int]:
        """The rooms in memory and their fences (the keeper's thread calls it: it only reads; ``list`` copies the
        rooms at once, in C, so that the loop's changes meanwhile cannot break the iteration)."""
        return {room.id: room.fence for room in list(self.hall.rooms.values()) if room.fence is not None}

    def _lost(self, lost: dict[str, int]) -> None:
        """The keeper could not renew these leases (room id: the fence it tried): drop those rooms, unless one was
        taken again meanwhile (a fence of its own)."""
        for room_id, fence in lost.items():
            room = self.hall.rooms.get(room_id)
            if room is not None and room.fence == fence:
                log.info("room %s: its lease was taken by another process: dropped from this one", room_id)
                self.hall.lost(room)

    def _unreachable(self) -> None:
        """The database has not answered the keeper for longer than a lease: every room is dropped (this process
        cannot know it still holds them)."""
        for room in list(self.hall.rooms.values()):
            if room.fence is not None:
                self.hall.lost(room)

    async def _check_links(self) -> None:
        await self.recheck(list(self.links.values()))

    async def recheck(self, links: Iterable[Link]) -> None:
        """Close (1012) the relayed sockets whose room has another owner now, or none: their clients reconnect, to
        a process that takes the room or relays to its new owner. One query for all."""
        links = list(links)
        if not links:
            return
        owners = await self.hall.store.room_owners(sorted({link.room_id for link in links}))
        for link in links:
            owner = owners.get(link.room_id)
            if owner is None or owner[0] != link.owner or owner[2] <= 0:
                link.push(1012)

    async def _check_relays(self) -> None:
        """The processes relaying sockets into this one's rooms are still there: a process gone (it subscribes to
        nothing any more) takes its sockets out of the rooms."""
        relays = {session.relay for session in self.sessions.values()}
        for relay in relays:
            if not await self.bus.send(relay, {"k": "ping"}):
                for session in [s for s in self.sessions.values() if s.relay == relay]:
                    session.stop()

    async def _takeover_loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self._take_over()
            except StoreError as exc:
                log.warning("cluster: taking over rooms failed: %s", exc)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: taking over rooms failed")

    async def _take_over(self) -> None:
        """Take a few rooms whose owner is gone (their lease ran out, not given back) while their match plays with
        a bot's seat: a bot to move moves here; a room with none is given back at once."""
        hall = self.hall
        candidates = [room_id for room_id in await hall.store.abandoned_bot_rooms(TAKEOVERS * 4)
                      if room_id not in hall.rooms]
        random.shuffle(candidates)  # the processes that look at once take different ones first
        for room_id in candidates[:TAKEOVERS]:
            owner = await hall.store.room_owner(room_id)  # another process may have taken it since, or given it back
            if owner is None or not GIVEN_BACK < owner[2] <= 0 or room_id in hall.rooms:
                continue
            found = await hall.find(room_id)
            if isinstance(found, Room):
                self.takeovers += 1
                log.info("room %s: taken over from an owner gone", room_id)
                hall.maybe_forget(found)

    async def tell_expired(self, room_ids: Iterable[str]) -> None:
        """The sweep expired these rooms in the store: their owners (other processes) tell their sockets."""
        ids = sorted(room_ids)
        if not ids:
            return
        for room_id, (owner, _fence, left) in (await self.hall.store.room_owners(ids)).items():
            if owner != self.process and left > 0:
                await self.bus.send(owner, {"k": "expired", "room": room_id})

    # ------------------------------------------------------------------ sockets

    async def admit(self, client: str) -> None:
        """Count one more socket of ``client`` for the whole cluster, or refuse it (``too_many_sockets``)."""
        if not await self.counter.admit(client, self.hall.limits.sockets_per_client):
            raise self.hall.too_many_sockets()

    async def release_socket(self, client: str) -> None:
        await self.counter.remove(client)

    def link(self, remote: Remote, conn: Conn) -> Link:
        """A socket of this process relayed to the owner of its room."""
        link = Link(self, remote, conn)
        self.links[link.id] = link
        self.relayed += 1
        return link

    # ------------------------------------------------------------------ the bus

    async def receive(self, message: Mapping[str, Any]) -> None:
        """A message of another process (never waits long: the bus's other messages come after it)."""
        try:
            kind = message.get("k")
            if kind == "in":
                self._incoming(message)
            elif kind == "bye":
                session = self.sessions.get(str(message["conn"]))
                if session is not None:
                    session.stop()
            elif kind in ("out", "close"):
                link = self.links.get(str(message["conn"]))
                if link is not None:
                    link.push(text_of(message) if kind == "out" else int(message["code"]))
            elif kind == "req":
                self.spawn(self._answer(message))
            elif kind == "rep":
                future = self._pending.get(str(message["id"]))
                if future is not None and not future.done():
                    future.set_result((int(message["status"]), dict(message["body"])))
            elif kind == "expired":
                room = self.hall.rooms.get(str(message["room"]))
                if room is not None:
                    self.spawn(room.expired())
            elif kind != "ping":
                log.warning("cluster: a message of an unknown kind: %.200r", message)
        except (KeyError, TypeError, ValueError):
            log.warning("cluster: a message not understood: %.200r", message)

    def _incoming(self, message: Mapping[str, Any]) -> None:
        conn_id = str(message["conn"])
        session = self.sessions.get(conn_id)
        if session is None:
            if not message.get("first"):
                # a connection this process no longer holds (it lost the room, or its bus was down): its relay
                # closes it, and the client comes back with a hello
                self.spawn(self.bus.send(str(message["from"]), {"k": "close", "conn": conn_id, "code": 1012}))
                return
            session = RemoteSession(self, message)
            self.sessions[conn_id] = session
            self.held += 1
        if not session.conn.closed:
            session.queue.put_nowait(dict(message["msg"]))

    async def reconnected(self) -> None:
        """The bus is back after an outage: what was sent meanwhile is lost, so every relayed socket is closed
        (1012: its client reconnects and resyncs), and every socket relayed into this process's rooms ends."""
        log.info("cluster: the bus is back: relayed sockets reconnect")
        for link in list(self.links.values()):
            link.push(1012)
        for session in list(self.sessions.values()):
            await session.conn.close(1012)

    async def gap(self, sender: str) -> None:
        """A message of ``sender`` was lost on the way: the sockets it relays here, or relayed to it, reconnect."""
        log.info("cluster: a message of process %s was lost: the sockets between us reconnect", sender)
        for link in [link for link in self.links.values() if link.owner == sender]:
            link.push(1012)
        for session in [s for s in self.sessions.values() if s.relay == sender]:
            await session.conn.close(1012)

    # ------------------------------------------------------------------ requests

    async def ask(self, owner: str, op: str, fields: Mapping[str, Any]) -> Answer | None:
        """Ask the process ``owner`` to answer a request on one of its rooms; None if no reply came in time."""
        request_id = secrets.token_urlsafe(12)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            if not await self.bus.send(owner, {"k": "req", "id": request_id, "from": self.process, "op": op,
                                               **fields}):
                return None
            return await asyncio.wait_for(future, self.ask_seconds)
        except TimeoutError:
            return None
        finally:
            del self._pending[request_id]

    async def _answer(self, message: Mapping[str, Any]) -> None:
        op = OPS.get(str(message["op"]))
        tr = Translator.for_language(str(message.get("lang", "en")))
        status: int
        body: dict[str, Any]
        if op is None:
            status, body = 400, {"error": "unknown_op"}
        else:
            try:
                status, body = await op(self.hall, message, tr, True)
            except RoomError as exc:
                if exc.code != MOVED:
                    raise
                status, body = MOVED_REPLY, {}
        await self.bus.send(str(message["from"]), {"k": "rep", "id": message["id"], "status": status, "body": body})

    async def forward(self, op: str, room_id: str, tr: Translator, fields: Mapping[str, Any], *,
                      take: bool) -> Answer:
        """The answer to an HTTP request on ``room_id``: made here if this process holds the room (or, with
        ``take``, can take it; without, if nobody holds it: from the store), else asked of its owner."""
        hall = self.hall
        request = {"room": room_id, "lang": tr.lang, **fields}
        for _attempt in range(3):
            found: Room | Remote | None
            if take:
                found = await hall.find(room_id)
            else:
                found = hall.rooms.get(room_id) or await self.owner_of(room_id)
            if found is None or isinstance(found, Room):
                try:
                    return await OPS[op](hall, request, tr, False)
                except RoomError as exc:
                    if exc.code != MOVED:
                        raise
                    continue
            reply = await self.ask(found.owner, op, request)
            if reply is None:
                return unreachable_answer(tr)
            if reply[0] != MOVED_REPLY:
                return reply
        return unreachable_answer(tr)

    async def summaries(self, room_ids: list[str]) -> dict[str, dict[str, Any]]:
        """What anyone may know of each of these rooms, as their owners know it: one request per other owner
        (at once), the rooms of this process's from memory; those nobody holds (or whose owner did not answer) are
        left out, for the caller to show from the store."""
        hall = self.hall
        found: dict[str, dict[str, Any]] = {room_id: hall.rooms[room_id].summary() for room_id in room_ids
                                            if room_id in hall.rooms}
        rest = [room_id for room_id in room_ids if room_id not in found]
        by_owner: dict[str, list[str]] = {}
        if rest:
            for room_id, (owner, _fence, left) in (await hall.store.room_owners(rest)).items():
                if owner != self.process and left > 0:
                    by_owner.setdefault(owner, []).append(room_id)
        replies = await asyncio.gather(*(self.ask(owner, "summaries", {"rooms": ids, "lang": "en"})
                                         for owner, ids in by_owner.items()))
        for reply in replies:
            if reply is not None and reply[0] == 200:
                found.update(reply[1].get("rooms", {}))
        return found
