"""The rooms in memory: one match service each, its connections, its bots; the :class:`Hall` that holds them.

A room has two *players* (0 and 1) and a current match; player ``p`` sits at seat ``p ^ first_player`` (a rematch
swaps them). Everything a room does to its match happens under the room's lock, in this order: check the message
(seat token, turn, version, legality: the match service's checks), **commit the action to the store**, then tell
every connection its own audience's event. A store failure rebuilds the room from the store, so memory never
holds an action the database lacks.

Versions on the wire are ``base + actions played``: an undo raises ``base`` past every version the match had, so a
client never mistakes a new state for one it saw (the translation: :mod:`flametable.web.messages`). Bots think in
the hall's :class:`~flametable.web.botpool.BotPool` (worker processes in ``serve``; ``bot:random`` alone on the
event loop, it takes microseconds), in turn with the other rooms' bots, rooms with a person first; a bot's move
chosen at an older version is dropped.

A ``log`` request is answered from the room's :class:`~flametable.web.logs.MatchLogs`: each reader's log kept as
the match goes, its first build in a thread, never a replay on the event loop. ``log`` and ``sync`` requests count
against their client address's budget (:class:`Budgets`, all its sockets together).

The seed leaves the server only in the record of an ended match; options only as the game's ``public_options``
(a game without that method shows none: own decks are secrets).

A room *waiting* for a player (a person's seat nobody took) is closed once it is older than
``Limits.waiting_room_ttl``: its match ends unplayed (status ``"expired"``, no result, no record). The hall's sweep
does it for every such room in one statement every ``Limits.sweep_every`` seconds (:meth:`Hall.sweeping`), and
every request that touches a room past its time does it for that room first, so no answer depends on when the
sweep last ran. A seated player may close a room of theirs while a seat is still open (status ``"closed"``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import logging
import math
import os
import secrets
import socket
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flametable.bots.registry import HUMAN, make_bot
from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_, N_plural
from flametable.core.protocol import Action, Game, complete
from flametable.core.record import LEFT, RESIGNED, TIME, resigner
from flametable.core.rng import SEED_MAX
from flametable.service import Applied, Event, MatchService, Rejected, StaleVersion
from flametable.service.clock import Clock, Clocks, TimeControl, TimeControlError, as_clock, deciding
from flametable.service.takeback import reveals
from flametable.texts.log import LogWriter
from flametable.texts.translator import Translator
from flametable.web import messages
from flametable.web.botpool import BotPool
from flametable.web.botpool import game_of as game_of  # the games made once per process: where bots have them
from flametable.web.logs import MatchLogs, Reader, replay_log
from flametable.web.ratings import rate_if_rated, rated_match  # issue 23: a rated match rated at its end
from flametable.web.store import (
    ABORTED,
    CLOSED,
    EXPIRED,
    FORFEIT,
    PLAYING,
    TIMEOUT,
    UNPLAYED,
    LeaseLost,
    MatchRow,
    RoomRow,
    SeatRow,
    Store,
    StoreError,
    record_of,
)
from flametable.web.store.errors import MatchOver

if TYPE_CHECKING:
    from flametable.web.cluster import Cluster, Remote

log = logging.getLogger("flametable.web")

OPEN = "open"
STAND_IN = "bot:medium"
"""The bot that takes the seat of a person who left a casual real-time match, when the other asks (issue 24)."""


class RoomError(FlametableError):
    """A request the rooms refuse: ``code`` names the check, the template says why (translated for the reader);
    ``status`` is the HTTP status it maps to."""

    def __init__(self, code: str, template: str, /, status: int = 400, **params: Any) -> None:
        self.code = code
        self.status = status
        super().__init__(template, **params)


@dataclass(frozen=True)
class Limits:
    """What one client may ask of the server (``docs/server.md``)."""

    rooms_per_client: int = 20  # rooms with a person's seat and a match playing, made by one address
    # rooms whose seats are all bots with a match playing, made by one address: apart from the 20, and fewer, as
    # such a room keeps a bot worker busy for nobody waiting (a bot:hard match of Flame Duel: 1.5 s a decision)
    bot_rooms_per_client: int = 5
    actions_per_second: float = 10.0  # messages per second a connection may send, on average...
    burst: int = 30  # ...and at once
    keep_events: int = 16  # past events kept per match, as sent, for a reconnecting client (older gaps: a sync)
    send_timeout: float = 10.0  # a client that takes longer to receive one message is disconnected
    bot_iterations: int = 10_000  # the most a seat's bot:ismcts:N may search a move with no time limit
    waiting_room_ttl: float = 24 * 3600.0  # seconds a room may wait with a person's seat open before it expires
    sweep_every: float = 300.0  # seconds between two sweeps closing the waiting rooms past their time
    body_bytes: int = 64 * 1024  # an HTTP request's JSON body: refused on its Content-Length, never read past it
    record_bytes: int = 1024 * 1024  # a record file sent to POST /api/replay: the same
    # ``log`` and ``sync`` requests (a whole log, a whole view) per second from one client address, all its sockets
    # together, on average... (a browser asks for the log after each event it gets, at most 4 times a second)
    expensive_per_second: float = 20.0
    expensive_burst: int = 60  # ...and at once
    log_builds: int = 1  # match logs built at once in the hall, each in a thread (the first request of a reader)
    # Refusals for a rate (``too_fast``, ``too_many_requests``) a connection may meet, on average... (a browser
    # paces itself: it meets a few at most)
    rate_refusals_per_second: float = 1.0
    rate_refusals_burst: int = 30  # ...and at once; past them it is closed (``too_many_refusals``, 4429)
    # HTTP requests with a body (making a room, joining, a deck checked, a record uploaded...) per client address,
    # on average... (a deck builder checks each saved deck as it opens: some dozens at once)
    bodies_per_second: float = 10.0
    bodies_burst: int = 60  # ...and at once (more: 429 ``too_many_requests``, the body not read)
    # Replays (POST /api/replay, GET .../replay): each made in the server's replay worker, off its process; at most
    # this many waiting there, running or queued (more: 503 ``busy``)...
    replays_waiting: int = 4
    replays_per_second: float = 0.5  # ...and per client address, on average (the replay viewer asks one a match)...
    replays_burst: int = 5  # ...and at once (more: 429 ``too_many_requests``)
    # WebSockets open at once from one address, every room together, a player's as well as a spectator's. A browser
    # opens one per room tab: a household behind one NAT, each with a few tables or matches open, or a club
    # evening of a dozen tables behind one router, stays far below; what one address can hold is bounded
    # (about 50 KiB of memory per socket).
    sockets_per_client: int = 50
    # Sockets watching one room without a seat; the room's players are counted apart and never refused for it. A
    # friendly match is watched by a few friends, a club's final by some dozens: a real audience never meets it.
    spectators_per_room: int = 200
    # uvicorn logs an ERROR with a traceback per WebSocket text frame that is not UTF-8: made one INFO line at most
    # this often (seconds), counting the others, so that no client can fill the log (``socket.NotUtf8``)
    not_utf8_log_seconds: float = 60.0
    # Real time (issue 24): a seat whose person made no first decision this long after it was asked is the end of
    # the match, aborted (unrated); a person disconnected this long lets the other claim the win, or, in a casual
    # match, give the seat to a bot (:data:`STAND_IN`) and play on.
    first_decision_seconds: float = 30.0
    claim_after_seconds: float = 60.0


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbits(64)


Send = Callable[[str], Awaitable[None]]


class Budgets:
    """A token bucket per client address (for the requests :class:`Limits` counts by address, all its sockets
    together): ``rate`` a second on average, ``burst`` at once. An address whose bucket is full again is forgotten
    (forgetting it changes nothing), so the buckets kept are those of the addresses heard from lately."""

    __slots__ = ("_buckets", "burst", "clock", "rate")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # address: (allowance, when), least
        # recently used first

    def allow(self, client: str) -> bool:
        """Whether one more request of ``client`` fits its budget now (and count it)."""
        now = self.clock()
        buckets = self._buckets
        allowance, stamp = buckets.pop(client, (self.burst, now))
        allowance = min(self.burst, allowance + (now - stamp) * self.rate)
        allowed = allowance >= 1.0
        buckets[client] = (allowance - 1.0 if allowed else allowance, now)
        refill = self.burst / self.rate if self.rate > 0 else float("inf")  # an empty bucket is full again after it
        while True:  # the least recently used first; the client's own is the last
            oldest, (_, when) = next(iter(buckets.items()))
            if oldest == client or now - when < refill:
                break
            buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        return len(self._buckets)


class Bucket:
    """A token bucket: ``rate`` tokens a second earned, up to ``burst``; it starts full."""

    __slots__ = ("allowance", "burst", "rate", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.allowance, self.stamp = self.burst, time.monotonic()

    def take(self) -> bool:
        """Whether one more token is there now (and take it)."""
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True


async def _no_close(code: int) -> None:
    return None


class Conn:
    """One client's WebSocket in a room: who it is (a room player, or None to watch), its language, its budget of
    messages (a token bucket), the address it comes from (``client``: a hash, as ``common.client_id`` makes it);
    ``close(code)`` ends its socket with that close code (``closed`` once asked)."""

    __slots__ = ("_messages", "client", "close", "closed", "player", "send", "tr")

    def __init__(self, send: Send, tr: Translator, client: str = "",
                 close: Callable[[int], Awaitable[None]] = _no_close) -> None:
        self.send = send
        self.tr = tr
        self.client = client
        self.close = close
        self.closed = False
        self.player: int | None = None
        self._messages: Bucket | None = None  # made full at the first message

    def allow(self, limits: Limits) -> bool:
        """Whether one more message fits the connection's budget now (and count it)."""
        if self._messages is None:
            self._messages = Bucket(limits.actions_per_second, limits.burst)
        return self._messages.take()


class Room:
    """One room: its stored row, its match service, its connections."""

    def __init__(self, hall: Hall, row: RoomRow, game: Game[Any, Any], fence: int | None = None) -> None:
        self.hall = hall
        self.row = row
        self.game = game
        self.fence = fence  # the room's lease in a cluster (its fencing number: every write shows it); else None
        self.dropped = False  # its lease was lost: the room is no longer this process's, memory is stale
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.offers: set[int] = set()  # players who offered a rematch
        self.bot_task: asyncio.Task[None] | None = None
        self.history: deque[tuple[int, tuple[str, str, str]]] = deque(maxlen=hall.limits.keep_events)
        self.tasks: set[asyncio.Task[None]] = set()  # presence announcements under way
        self.arriving = 0  # hellos waiting for the lock: a room about to have a connection is not forgotten
        self.clock_task: asyncio.Task[None] | None = None  # the wait for the next deadline of the clocks (issue 24)
        self.away: dict[int, float] = {}  # real time: room players disconnected, since when (the hall's clock)
        self.claims_told: set[int] = set()  # those of them the others were told they may now claim against
        self.moved_at: float | None = None  # when this process stored the match's last action (the hall's clock)
        self._restart(row.match)
        if self.clocks is not None and self.clocks.control.real_time and self.playing and not self.waiting:
            now = hall.clock()  # taken up (a restart, a takeover): its people count as away until they say hello
            self.away = {s.player: now for s in row.seats if s.kind == HUMAN}

    # ------------------------------------------------------------------ facts

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def match(self) -> MatchRow:
        return self.row.match

    @property
    def playing(self) -> bool:
        return self.match.status == PLAYING

    @property
    def closed(self) -> bool:
        """The match was closed before it was played out (expired, or closed by a player)."""
        return self.match.status in UNPLAYED

    @property
    def waiting(self) -> bool:
        """A person's seat of the room is still open."""
        return any(s.kind == HUMAN and s.token_hash is None for s in self.row.seats)

    def past_time(self, now: float) -> bool:
        """The match is playing with a seat still open, and the room is older than it may wait."""
        return (self.playing and self.waiting
                and self.row.created_at < now - self.hall.limits.waiting_room_ttl)

    def player_of(self, token: str) -> int | None:
        """The room player whose seat ``token`` proves (compared in constant time), else None."""
        digest = token_hash(token)
        player = None
        for seat_row in self.row.seats:
            if seat_row.token_hash is not None and hmac.compare_digest(seat_row.token_hash, digest):
                player = seat_row.player
        return player

    @property
    def with_person(self) -> bool:
        """Whether a seat of the room is a person's (taken or open): its bots are served before all-bot rooms'."""
        return any(row.kind == HUMAN for row in self.row.seats)

    @property
    def wire_version(self) -> int:
        return messages.wire_version(self.match.base, self.service.version)

    def seat_of(self, player: int | None) -> int | None:
        return None if player is None else player ^ self.match.first_player

    def kind_at(self, seat: int) -> str:
        return self.row.seats[seat ^ self.match.first_player].kind

    def connected(self, seat: int) -> bool:
        player = seat ^ self.match.first_player
        if self.row.seats[player].kind.startswith("bot:"):
            return True
        return any(c.player == player for c in self.conns)

    def public_options(self) -> dict[str, Any]:
        return complete(self.game).public_options(self.row.options)

    def record_link(self) -> str | None:
        """The link of the ended match's record; None while it plays, and for a match closed unplayed."""
        if self.playing or self.closed:
            return None
        return f"/api/rooms/{self.id}/matches/{self.match.number}/record"

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the room (the lobby list, ``GET /api/rooms/ID``)."""
        return {
            "room": self.id,
            "game": self.row.game,
            "options": self.public_options(),
            "match": self.match.number,
            "status": self.match.status,
            "version": self.wire_version,
            "players": [self._seat_json(seat) for seat in (0, 1)],
            "result": self.match.result if not self.playing else None,
            "record": self.record_link(),
            "clock": self.match.clock,
        }

    def _seat_json(self, seat: int) -> dict[str, Any]:
        row = self.row.seats[seat ^ self.match.first_player]
        kind = row.kind if row.kind.startswith("bot:") else HUMAN
        return {"seat": seat, "kind": kind, "open": kind == HUMAN and row.token_hash is None,
                "connected": self.connected(seat)}

    # ------------------------------------------------------------------ the match, rebuilt from its row

    def _rebuild(self, match: MatchRow, upto: int | None = None,
                 clocks: Clocks | None = None) -> tuple[MatchService, list[int]]:
        """The match service of ``match`` after its stored actions (the first ``upto`` of them), and who played
        each; ``clocks`` charged with each action's stored time."""
        record = record_of(match, actions=False, result=False)
        service = MatchService.from_record(self.game, record, keep=0)  # the room keeps its events as sent text
        actors = []
        spent = match.spent
        for index, notation in enumerate(match.actions[:upto]):
            seat = service.to_act
            awaited = deciding(self.game, service.state) if clocks is not None else ()
            service.submit_quiet(seat, notation)
            actors.append(seat if seat is not None else -1)
            if clocks is not None and seat is not None:
                clocks.charge(seat, (spent[index] if index < len(spent) else None) or 0, awaited)
        return service, actors

    def _restart(self, match: MatchRow) -> None:
        """Take ``match`` as rebuilt from its row (its service, who played each action, its clocks from the
        actions' times: the decision awaited starts now, so a server that was down charges nobody for it), with no
        past events kept and no logs made yet (``logs``: each reader's log is built again when asked)."""
        control = TimeControl.from_json(match.clock)
        clocks = Clocks(control, self.hall.clock()) if control.timed else None
        self.service, self.actors = self._rebuild(match, clocks=clocks)
        self.clocks = clocks
        self.history.clear()
        self.logs = MatchLogs(self.game, match.number)
        self.schedule_clock()

    async def reload(self) -> None:
        """Forget memory and take the room as the store has it (after a store failure)."""
        row = await self.hall.store.load_room(self.id)
        if row is not None:
            self.row = row
            self._restart(row.match)

    def fenced(self) -> dict[str, int]:
        """The keyword of a store write in a cluster (``fence=``: the store refuses it, :class:`LeaseLost`, once
        the room's lease is no longer this process's); none on a single server."""
        return {} if self.fence is None else {"fence": self.fence}

    @contextlib.contextmanager
    def lease(self) -> Iterator[None]:
        """Around a store write: a lost lease (:class:`LeaseLost`) drops the room from this process at once
        (:meth:`Hall.lost`) and refuses the request with :func:`moved` (its socket is closed with 1012: the
        client reconnects, to the room's new owner)."""
        if self.dropped:
            raise moved()
        try:
            yield
        except LeaseLost:
            log.info("room %s: its lease was lost (fence %s): dropped from this process", self.id, self.fence)
            self.hall.lost(self)
            raise moved() from None

    def brought(self, player: int, brings: Any) -> tuple[str | None, MatchRow | None]:
        """What room player ``player``, about to take their seat, plays with (:meth:`Hall.join`) and the current
        match with it (None when the game's options take nothing of theirs). The match is rebuilt with the new
        options to the stored actions (the other seat's line-up may be placed): a refusal if one of them no longer
        plays (never, while the other seat keeps what it was dealt)."""
        match = self.match
        seat = self.seat_of(player)
        assert seat is not None
        options = complete(self.game).brought_options(match.options, match.seed, seat, brings)
        if options is None:
            return None, None
        brought = "random" if brings is None else "own"
        if options == match.options:  # the match as it was dealt
            return brought, None
        self.game.new_match(options, match.seed)  # checked as a creator's options are (the game's own errors)
        changed = dataclasses.replace(match, options=options)
        try:
            self._rebuild(changed)
        except FlametableError:  # pragma: no cover - the other seat's deal is kept: its actions still play
            raise RoomError("seat_taken", N_("That seat can no longer be taken with anything of your own: take it as "
                                           "it was dealt."),
                            status=409) from None
        return brought, changed

    # ------------------------------------------------------------------ connections

    async def hello(self, conn: Conn, msg: Mapping[str, Any]) -> None:
        """Attach ``conn`` as the seat its token proves (or as a spectator) and bring it up to date."""
        token = msg.get("token")
        player = None
        if token is not None:
            player = self.player_of(token)
            if player is None:
                raise bad_token()
        self.arriving += 1
        try:
            await self.lock.acquire()
        finally:
            self.arriving -= 1
        try:
            await self._expire_if_due()
            if player is None and self.spectators() >= self.hall.limits.spectators_per_room:
                raise RoomError("room_crowded", N_("This match has {limit} spectators already, as many as a room "
                                                   "takes: try again later."), status=503,
                                limit=self.hall.limits.spectators_per_room)
            conn.player = player
            self.conns.add(conn)
            if player is not None and self.away.pop(player, None) is not None:
                self.claims_told.discard(player)
                self.schedule_clock()
            await self._send(conn, self._welcome(conn))
            seen_match, seen = msg.get("match"), msg.get("version")
            audience = self.seat_of(player)
            for text in self._since(audience, seen if seen_match == self.match.number else None):
                await self._send_text(conn, text)
            if self.clocks is not None and self.playing:  # the events sent again carry the clocks of their time
                await self._send(conn, {"type": "clock", "match": self.match.number, "version": self.wire_version,
                                        "clock": self.clock_json()})
            if not self.playing:
                await self._send(conn, self._ended(conn))
            await self._presence()
        finally:
            self.lock.release()

    def spectators(self) -> int:
        """The connections watching the room without a seat (those :attr:`conns` holds, so a connection is counted
        exactly while the room sends to it: it leaves, or a send to it times out, and it is not)."""
        return sum(1 for c in self.conns if c.player is None)

    def leave(self, conn: Conn) -> None:
        """``conn`` is gone: forget it now (no waiting: its handler may be cancelled) and tell the others."""
        self.conns.discard(conn)
        player = conn.player
        if (player is not None and self.clocks is not None and self.clocks.control.real_time and self.playing
                and not self.waiting and self.row.seats[player].kind == HUMAN
                and not any(c.player == player for c in self.conns)):
            self.away[player] = self.hall.clock()  # the other may claim once it has lasted (issue 24)
            self.claims_told.discard(player)
            self.schedule_clock()
        if conn.player is not None and self.conns and not self.hall.closing:
            task = self.hall.spawn(self._announce())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        self.hall.maybe_forget(self)

    async def _announce(self) -> None:
        async with self.lock:
            await self._presence()
        self.hall.maybe_forget(self)  # the last one may have left while the lock was held

    # ------------------------------------------------------------------ what a connection asks

    async def _seat_for_move(self, conn: Conn) -> int:
        """The seat of ``conn``'s player, for a move in the match (the lock held); a refusal if there is none."""
        if conn.player is None:
            raise RoomError("spectator", N_("You are watching this match: only its players can do that."), status=403)
        await self._expire_if_due()
        if self.closed:
            raise room_closed(409)
        if not self.playing:
            raise RoomError("over", N_("The match is over."), status=409)
        seat = self.seat_of(conn.player)
        assert seat is not None
        return seat

    async def act(self, conn: Conn, action: str | int, version: int) -> None:
        async with self.lock:
            seat = await self._seat_for_move(conn)
            if not self.kind_at(seat) == HUMAN:  # pragma: no cover - a bot's seat has no token
                raise RoomError("spectator", N_("You are watching this match: only its players can do that."))
            try:
                # a version of before an undo is stale whatever the count of actions
                await self._play(seat, action, messages.service_version(self.match.base, version))
            except StaleVersion:
                raise StaleVersion(N_("The match has moved on: your action was chosen at version {given}, the "
                                      "match is at version {current}."), given=version,
                                   current=self.wire_version) from None

    async def _play(self, seat: int, action: Action | str | int, version: int) -> None:
        """Submit, commit, tell (the lock held). Raises the service's :class:`Rejected` or :class:`RoomError`. In a
        timed match the action is stamped with the time its decision took, by the hall's clock, stored with it;
        an action that comes once a clock is at zero ends the match on time instead."""
        service = self.service
        clocks = self.clocks
        now = self.hall.clock()
        spent: int | None = None
        awaited: tuple[int, ...] = ()
        if clocks is not None:
            awaited = deciding(self.game, service.state)
            if clocks.flagged(now, awaited) is not None and service.to_act == seat:
                await self._clocks_due()
                raise RoomError("time_out", N_("Your time ran out before your action came: the match is over."),
                                status=409)
            spent = clocks.spent_ms(now)
        applied = service.submit(seat, action, version)
        index = service.version - 1
        assert service.record is not None
        notation = service.record.actions[index]
        outcome = service.outcome
        result = outcome.to_json() if outcome is not None else None
        try:
            with self.lease():
                await self.hall.store.append_action(self.match.id or 0, index, notation, seat,
                                                    status="over" if outcome is not None else "playing",
                                                    result=result, **self.fenced(),
                                                    **({} if spent is None else {"spent_ms": spent}))
        except StoreError:
            log.exception("room %s: storing action %d failed; the room is reloaded", self.id, index)
            await self.reload()
            raise RoomError("store", N_("The server could not save your action: nothing was changed. Try again."),
                            status=503) from None
        self.match.actions.append(notation)
        self.match.spent.append(spent)
        self.moved_at = now
        if clocks is not None and spent is not None:
            clocks.charge(seat, spent, awaited)
            clocks.restart(now)
        self.actors.append(seat)
        self.logs.step(applied, notation)
        if outcome is not None:
            self.match.status, self.match.result = "over", result
        await self._tell(applied)
        self.logs.flush()  # the logs' lines of the step, once its events are out
        if outcome is not None:
            await rate_if_rated(self.hall.store, self.match, self.hall.clock())  # issue 23: a rated match's ratings
            await self._broadcast(self._ended)
        self.schedule_bot()
        self.schedule_clock()

    async def undo(self, conn: Conn, version: int) -> None:
        async with self.lock:
            seat = await self._seat_for_move(conn)
            if self.kind_at(1 - seat) == HUMAN:
                raise RoomError("undo_person", N_("Moves are taken back only against a bot, never against a person."),
                                status=409)
            if version != self.wire_version:
                raise RoomError("stale", N_("The match has moved on: your request was made at version {given}, the "
                                            "match is at version {current}."), status=409, given=version,
                                current=self.wire_version)
            mine = [i for i, actor in enumerate(self.actors) if actor == seat]
            if not mine:
                raise RoomError("undo_none", N_("You have made no decision yet to take back."), status=409)
            keep = mine[-1]
            before, _ = self._rebuild(self.match, upto=keep)
            if reveals(self.game, before.state, seat, self.match.actions[keep:], seed=self.match.seed & 0xFFFF):
                raise RoomError("undo_reveals", N_("That cannot be taken back: since your last decision you have "
                                                   "seen something hidden (a card drawn or shown). Moves are taken "
                                                   "back only while they revealed nothing."), status=409)
            base = messages.base_after_undo(self.wire_version, keep)
            try:
                with self.lease():
                    await self.hall.store.undo(self.match.id or 0, keep, base, **self.fenced())
            except StoreError:
                log.exception("room %s: undo failed; the room is reloaded", self.id)
                await self.reload()
                raise RoomError("store", N_("The server could not take the move back: nothing was changed."),
                                status=503) from None
            self._cancel_bot()
            del self.match.actions[keep:]
            del self.match.spent[keep:]
            self.match.base = base
            self._restart(self.match)
            await self._sync_all()
            self.schedule_bot()

    async def resign(self, conn: Conn) -> None:
        async with self.lock:
            seat = await self._seat_for_move(conn)
            result = {"winner": 1 - seat, "reason": RESIGNED, "scores": [0, 0]}
            try:
                await self._end("resigned", result)
            except StoreError:
                log.exception("room %s: resigning failed", self.id)
                raise RoomError("store", N_("The server could not record the resignation: try again."),
                                status=503) from None

    async def _end(self, status: str, result: dict[str, Any] | None) -> None:
        """End the match outside the rules (the lock held): stored first (:class:`StoreError` if that fails,
        nothing changed), then memory, the ratings (never for an aborted match) and every connection told."""
        with self.lease():
            await self.hall.store.end_match(self.match.id or 0, status, result, **self.fenced())
        self._cancel_bot()
        self._cancel_clock()
        self.away.clear()
        self.match.status, self.match.result = status, result
        if status != ABORTED:
            await rate_if_rated(self.hall.store, self.match, self.hall.clock())  # issue 23: a rated match's ratings
        await self._broadcast(self._ended)

    async def rematch(self, conn: Conn) -> None:
        async with self.lock:
            if conn.player is None:
                raise RoomError("spectator", N_("You are watching this match: only its players can do that."),
                                status=403)
            if self.closed:
                raise room_closed(409)
            if self.playing:
                raise RoomError("playing", N_("A rematch can be offered once the match is over."), status=409)
            self.offers.add(conn.player)
            other = 1 - conn.player
            if other not in self.offers and not self.row.seats[other].kind.startswith("bot:"):
                offered_by = self.seat_of(conn.player)
                await self._broadcast(lambda c: {"type": "rematch", "offered_by": offered_by})
                return
            old = self.match
            first = old.first_player ^ 1
            kinds = [self.row.seats[seat ^ first].kind for seat in (0, 1)]
            cid, chash = self.game.content_id()
            options = complete(self.game).swapped_options(old.options)  # options by seat follow their players
            new = MatchRow(room_id=self.id, number=old.number + 1, game=old.game,
                           rules_version=self.game.rules_version, content_id=cid, content_hash=chash,
                           options=options, seed=self.hall.seeds(), players=kinds, first_player=first,
                           clock=old.clock)  # the rematch keeps the room's time control
            self.game.new_match(new.options, new.seed)  # the options were accepted at the start: a check
            try:
                with self.lease():
                    await self.hall.store.start_match(new, **self.fenced())
            except StoreError:
                log.exception("room %s: the rematch could not be stored", self.id)
                raise RoomError("store", N_("The server could not start the rematch: try again."),
                                status=503) from None
            self.offers.clear()
            self.row.match = new
            self._restart(new)
            for c in list(self.conns):
                await self._send(c, self._welcome(c))
            await self._sync_all()
            await self._presence()
            self.schedule_bot()

    async def sync(self, conn: Conn) -> None:
        await self.hall.spend(conn)
        async with self.lock:
            await self._send(conn, self._event(self.service.sync(self.seat_of(conn.player))))

    async def match_log(self, conn: Conn) -> None:
        """Send ``conn`` the match log of its audience in its language (:mod:`flametable.web.logs`): kept as the
        match goes; the first request of a reader waits for its build, off the loop."""
        await self.hall.spend(conn)
        while True:
            async with self.lock:
                logs = self.logs
                reader = (self.seat_of(conn.player), conn.tr.lang)
                text = logs.message(reader, self.service.outcome, resigner(self.match.result))
                if text is not None:
                    await self._send_text(conn, text)
                    return
                build = logs.build(reader, self._replay(reader, conn.tr), self.hall.log_builds)
            await asyncio.shield(build)  # then, under the lock again: an undo or a rematch may have come since

    def _replay(self, reader: Reader, tr: Translator) -> Callable[[], LogWriter]:
        """The replay of ``reader``'s log for a thread: the match as it is now, copied (the lock held)."""
        game, record = self.game, record_of(self.match, actions=False, result=False)
        actions, actors, audience = list(self.match.actions), list(self.actors), reader[0]
        return lambda: replay_log(game, record, actions, actors, audience, tr)

    # ------------------------------------------------------------------ bots

    def schedule_bot(self) -> None:
        """Let the seat to act think, if it is a bot's (the lock held, or no one else running)."""
        if not self.playing or self.hall.closing or (self.bot_task is not None and not self.bot_task.done()):
            return
        seat = self.service.to_act
        if seat is None or not self.kind_at(seat).startswith("bot:"):
            return
        self.bot_task = self.hall.spawn(self._bot_move(seat, self.wire_version))
        self.bot_task.add_done_callback(lambda _: self.hall.maybe_forget(self))  # its people may have left

    def _cancel_bot(self) -> None:
        task, self.bot_task = self.bot_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _bot_move(self, seat: int, wire: int) -> None:
        service = self.service
        view, legal = service.view(seat), tuple(service.legal(seat))
        seed = (self.match.seed ^ (wire * 0x9E3779B97F4A7C15)) & SEED_MAX
        try:
            chosen = await self.hall.bots.decide(self.id, self.with_person, self.kind_at(seat), self.match.game,
                                                 seed, view, legal)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: bot %s failed to decide", self.id, self.kind_at(seat))
            return
        async with self.lock:
            if self.wire_version != wire or not self.playing or self.service is not service or self.dropped:
                return
            self.bot_task = None
            try:
                await self._play(seat, chosen, service.version)
            except RoomError as exc:
                if exc.code != MOVED:  # a lost lease: the room's new owner plays its bot
                    log.exception("room %s: the bot's move was refused", self.id)
            except Rejected:
                log.exception("room %s: the bot's move was refused", self.id)
        if not self.playing:
            self.hall.maybe_forget(self)  # a match of bots ended with nobody watching

    # ------------------------------------------------------------------ clocks and abandonment (issue 24)

    def awaited(self) -> tuple[int, ...]:
        """The seats whose decision the match awaits (both, where the game says they decide at once)."""
        return deciding(self.game, self.service.state) if self.playing else ()

    def clock_json(self) -> dict[str, Any] | None:
        """Both clocks now (what every event carries): the control, each seat's time left (ms), whose run."""
        if self.clocks is None:
            return None
        return self.clocks.to_json(self.hall.clock(), self.awaited())

    def _first_due(self) -> tuple[int, float] | None:
        """Real time, both seats taken: the first seat awaited whose person has not made a first decision, and when
        its time to make one ends."""
        clocks = self.clocks
        if clocks is None or not clocks.control.real_time or self.waiting:
            return None
        for seat in self.awaited():
            if seat not in clocks.started and self.kind_at(seat) == HUMAN:
                return seat, clocks.since + self.hall.limits.first_decision_seconds
        return None

    def _deadlines(self) -> list[float]:
        """When something is due: a clock at zero, a first decision's time out, an absence long enough to claim."""
        clocks = self.clocks
        if clocks is None or not self.playing or self.dropped:
            return []
        due = []
        flag = clocks.deadline(self.awaited())
        if flag is not None:
            due.append(flag)
        first = self._first_due()
        if first is not None:
            due.append(first[1])
        claim = self.hall.limits.claim_after_seconds
        due.extend(since + claim for player, since in self.away.items() if player not in self.claims_told)
        return due

    def schedule_clock(self) -> None:
        """(Re)start the wait for the clocks' next deadline (the lock held, or no one else running): one task per
        room, sleeping on the hall's clock, off every other room's way; none for an untimed or ended match, and none
        for a room this hall does not hold (one made only to be read, as a cluster's lobby reads a room nobody
        holds: its clock is its owner's)."""
        self._cancel_clock()
        if (self.hall.rooms.get(self.id) is self and not self.dropped and not self.hall.closing
                and self._deadlines()):
            self.clock_task = self.hall.spawn(self._clock_wait(), name=f"clock-{self.id}")

    def _cancel_clock(self) -> None:
        task, self.clock_task = self.clock_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _clock_wait(self) -> None:
        clock = self.hall.clock
        while True:
            due = [when for when in self._deadlines() if when > clock()]
            if due:
                await clock.sleep(min(due) - clock())
            async with self.lock:
                if self.clock_task is not asyncio.current_task():
                    return  # rescheduled meanwhile
                try:
                    await self._clocks_due()
                except RoomError as exc:
                    if exc.code != MOVED:
                        raise
                    return
                except StoreError:
                    log.exception("room %s: ending the match on time failed; trying again", self.id)
                    await clock.sleep(1.0)
                if not self.playing or not self._deadlines():
                    self.clock_task = None
                    break
        self.hall.maybe_forget(self)

    async def _clocks_due(self) -> None:
        """Whatever is due now (the lock held): a clock at zero ends the match (the other seat wins, ``time``); a
        person who made no first decision in time aborts it (unrated); an absence that lasted long enough is told,
        so that the other may claim. The store ends a match once only (its status still ``playing``, the room's
        lease held): whoever comes second is told the match is over."""
        clocks = self.clocks
        if clocks is None or not self.playing:
            return
        now = self.hall.clock()
        try:
            flagged = clocks.flagged(now, self.awaited())
            if flagged is not None:
                await self._end(TIMEOUT, {"winner": 1 - flagged, "reason": TIME, "scores": [0, 0]})
                return
            first = self._first_due()
            if first is not None and now >= first[1]:
                await self._end(ABORTED, None)
                return
        except MatchOver:
            await self.reload()  # ended meanwhile (by the store's own account): memory follows
            await self._broadcast(self._ended)
            return
        claimable = {player for player, since in self.away.items()
                     if now >= since + self.hall.limits.claim_after_seconds} - self.claims_told
        if claimable:
            self.claims_told |= claimable
            await self._presence()

    def _claimable(self, player: int) -> float | None:
        """Seconds until the other room player may claim against ``player``, away (0: now); None if present."""
        since = self.away.get(player)
        if since is None:
            return None
        return max(0.0, since + self.hall.limits.claim_after_seconds - self.hall.clock())

    async def claim(self, conn: Conn, take: str) -> None:
        """The other player left a real-time match and stayed away long enough: ``take`` ``"win"`` ends the match
        (``forfeit``: the claimer wins, reason ``left``); ``"bot"``, in a casual match, gives the empty seat to a
        bot (:data:`STAND_IN`, on the same clock) and the match plays on."""
        async with self.lock:
            seat = await self._seat_for_move(conn)
            assert conn.player is not None
            if self.clocks is None or not self.clocks.control.real_time:
                raise RoomError("claim_untimed", N_("A win is claimed only in a real-time match whose other player "
                                                    "left: this match has no such clock."), status=409)
            other = 1 - conn.player
            if self.row.seats[other].kind != HUMAN or self.waiting:
                raise RoomError("claim_present", N_("The other seat is not a person who left: there is nothing to "
                                                    "claim."), status=409)
            left = self._claimable(other)
            if left is None:
                raise RoomError("claim_present", N_("The other player is connected: there is nothing to claim."),
                                status=409)
            if left > 0:
                raise RoomError("claim_early", N_plural(
                    "The other player has been disconnected for less than {limit} seconds: you may claim in {left} "
                    "second.",
                    "The other player has been disconnected for less than {limit} seconds: you may claim in {left} "
                    "seconds.", "left"), status=409, limit=round(self.hall.limits.claim_after_seconds),
                    left=max(1, math.ceil(left)))
            if take == "win":
                try:
                    await self._end(FORFEIT, {"winner": seat, "reason": LEFT, "scores": [0, 0]})
                except StoreError:
                    log.exception("room %s: claiming the win failed", self.id)
                    raise RoomError("store", N_("The server could not record your claim: try again."),
                                    status=503) from None
                return
            if await rated_match(self.hall.store, self.id):
                raise RoomError("claim_rated", N_("In a rated match no bot takes the seat of a player who left: claim "
                                                  "the win instead."), status=409)
            try:
                with self.lease():
                    await self.hall.store.replace_seat(self.id, other, STAND_IN, **self.fenced())
            except StoreError:
                log.exception("room %s: giving the seat to a bot failed", self.id)
                raise RoomError("store", N_("The server could not give the seat to a bot: try again."),
                                status=503) from None
            self.row.seats[other].kind, self.row.seats[other].token_hash = STAND_IN, None
            self.away.pop(other, None)
            for c in [c for c in self.conns if c.player == other]:  # its token proves nothing any more
                c.player = None
            for c in list(self.conns):
                await self._send(c, self._welcome(c))
            await self._presence()
            self.schedule_bot()
            self.schedule_clock()

    # ------------------------------------------------------------------ telling

    def _welcome(self, conn: Conn) -> dict[str, Any]:
        return {"type": "welcome", "room": self.id, "game": self.row.game, "options": self.public_options(),
                "match": self.match.number, "player": conn.player, "seat": self.seat_of(conn.player),
                "players": [self._seat_json(seat) for seat in (0, 1)], "version": self.wire_version,
                "status": self.match.status, "lang": conn.tr.lang, "clock": self.match.clock}

    def _event(self, event: Event) -> dict[str, Any]:
        """The message of ``event``: the event JSON at the wire version; for the seat to act, its legal actions
        (:func:`legal_of`); ``can_undo``: the audience is a seat playing a bot that has made a decision of its own
        in this match (what an undo would take back to; the undo may still be refused, when the moves since
        revealed something)."""
        seat = event.audience
        can_undo = seat is not None and self.kind_at(1 - seat) != HUMAN and seat in self.actors
        message = messages.event_message(event, self.match.base, self.match.number, self.legal_of(event), can_undo)
        if self.clocks is not None:
            message["clock"] = self.clock_json()
        return message

    def legal_of(self, event: Event) -> Sequence[Action]:
        """The legal actions of ``event``'s audience when it is the seat to act, else none: its view's (the view
        made with the event carries them); a view without them (a protocol-only game's) leaves them to the
        service."""
        seat = event.audience
        if seat is None or seat != event.to_act:
            return ()
        legal = getattr(event.view, "legal", None)
        return tuple(legal) if legal is not None else self.service.legal(seat)

    def _ended(self, conn: Conn) -> dict[str, Any]:
        """The message that the match is over (``over``, ``resigned``) or was closed unplayed (``expired``,
        ``closed``: then ``message`` says why, in ``conn``'s language)."""
        ended: dict[str, Any] = {"type": "ended", "match": self.match.number, "status": self.match.status,
                                 "result": self.match.result, "record": self.record_link()}
        why = CLOSED_WHY.get(self.match.status)
        if why is not None:
            ended["message"] = conn.tr.error(FlametableError(why))
        return ended

    # ------------------------------------------------------------------ closing a waiting room

    async def _expire_if_due(self) -> None:
        """Close the room now if it is past its time (the lock held): what the sweep would do, done before this
        request is answered. A store failure leaves it to the next sweep (refusals follow the clock meanwhile)."""
        if not self.past_time(self.hall.clock()):
            return
        try:
            await self._close_unplayed(EXPIRED)
        except StoreError:
            log.exception("room %s: expiring it failed; the next sweep tries again", self.id)

    async def _close_unplayed(self, status: str) -> bool:
        """End the waiting match unplayed (``status``: expired or closed), stored first, then told (the lock
        held); False if the store found it no longer waiting. :class:`StoreError` if the store failed."""
        with self.lease():
            if not await self.hall.store.close_waiting(self.match.id or 0, status, **self.fenced()):
                return False
        self.closed_by_store(status)
        await self._broadcast(self._ended)
        return True

    def closed_by_store(self, status: str) -> None:
        """The store closed the match (``status``): memory follows (the lock held)."""
        self._cancel_bot()
        self._cancel_clock()
        self.offers.clear()
        self.match.status, self.match.result = status, None

    async def expired(self) -> None:
        """The sweep expired this room's match in the store: memory follows, and every connection is told."""
        async with self.lock:
            if self.playing:
                self.closed_by_store(EXPIRED)
                await self._broadcast(self._ended)

    def _since(self, audience: int | None, seen: Any) -> list[str]:
        """What ``audience`` missed after version ``seen`` (None: unknown), as the texts sent: every later event
        while the room keeps them all, else one sync of its view now; nothing when ``seen`` is the current one."""
        current = self.wire_version
        if seen == current and type(seen) is int:
            return []
        history = self.history
        if type(seen) is int and history and history[0][0] <= seen + 1 and seen < current:
            slot = 2 if audience is None else audience
            return [texts[slot] for version, texts in history if version > seen]
        return [messages.dumps(self._event(self.service.sync(audience)))]

    async def _tell(self, applied: Applied) -> None:
        """Send each connection its audience's event of ``applied``, and keep the three texts (not the views: few
        objects for the garbage collector to walk) for clients that come back."""
        e0, e1, es = (messages.dumps(self._event(applied.to(audience))) for audience in (0, 1, None))
        texts = (e0, e1, es)
        self.history.append((self.wire_version, texts))
        for conn in list(self.conns):
            audience = self.seat_of(conn.player)
            await self._send_text(conn, texts[2 if audience is None else audience])

    async def _sync_all(self) -> None:
        for conn in list(self.conns):
            await self._send(conn, self._event(self.service.sync(self.seat_of(conn.player))))

    async def _presence(self) -> None:
        connected = [self.connected(0), self.connected(1)]
        if not self.away:
            await self._broadcast(lambda c: {"type": "presence", "connected": connected})
            return
        # real time (issue 24): each seat's person away, the seconds until the other may claim (0: now)
        away = [self._claimable(seat ^ self.match.first_player) for seat in (0, 1)]
        shown = [None if left is None else round(left, 1) for left in away]
        await self._broadcast(lambda c: {"type": "presence", "connected": connected, "away": shown})

    async def _broadcast(self, make: Callable[[Conn], dict[str, Any]]) -> None:
        for conn in list(self.conns):
            await self._send(conn, make(conn))

    async def _send(self, conn: Conn, message: Mapping[str, Any]) -> None:
        await self._send_text(conn, messages.dumps(message))

    async def _send_text(self, conn: Conn, text: str) -> None:
        try:
            await asyncio.wait_for(conn.send(text), self.hall.limits.send_timeout)
        except Exception:  # a client gone or too slow: it is dropped, it can come back and resync
            self.conns.discard(conn)


CLOSED_WHY = {
    EXPIRED: N_("Nobody took the open seat in time: the room is closed. Make a new room to play."),
    CLOSED: N_("The room was closed by its player while a seat was still open."),
    ABORTED: N_("A player made no first decision in time: the match is aborted, unrated."),
}
"""What the ``ended`` message of a match closed unplayed says, by its status."""


def bad_token() -> RoomError:
    return RoomError("bad_token", N_("This seat token is not one of this room's: nothing was changed. Join the room "
                                     "again, or watch without a token."), status=403)


MOVED = "moved"


def moved() -> RoomError:
    """The refusal of a request to a room this process no longer holds (its lease lost, or another process took
    it): the socket is closed with 1012 and the client reconnects, to the room's owner."""
    return RoomError(MOVED, N_("This room's table has moved to another server process: reconnecting to it."),
                     status=503)


def unreachable() -> RoomError:
    """The refusal of a request for a room another process holds when that process cannot be reached (the
    cluster's messages, Redis, down; or the process gone, its lease not yet expired)."""
    return RoomError("unreachable", N_("The server cannot reach this room's table just now: try again in a "
                                       "moment."), status=503)


def room_closed(status: int) -> RoomError:
    return RoomError("room_closed", N_("This room is closed: nobody can join or play in it any more. Make a new "
                                       "room to play."), status=status)


def process_id() -> str:
    """A name for this server process, unique among the processes of a cluster (and over restarts): host, pid and
    random letters."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"


class Hall:
    """Every room of the server: made, loaded from the store on first use, forgotten when nobody is in them.

    With a ``cluster`` (several processes on one PostgreSQL database, :mod:`flametable.web.cluster`) the
    hall drives a room only while it holds the room's lease in the store, and every other process relays to it;
    without one (a single server) no lease is ever asked for."""

    def __init__(self, store: Store, *, executor: Executor | None = None, bots: BotPool | None = None,
                 seeds: Callable[[], int] = new_seed, limits: Limits | None = None,
                 clock: Clock | Callable[[], float] = time.time, cluster: Callable[[Hall], Cluster] | None = None,
                 process: str | None = None) -> None:
        """``bots``: where the bots think (``serve``: :func:`~flametable.web.settings.bot_pool`); else searches in
        ``executor`` (None: the loop's default thread pool), as :meth:`BotPool.around` puts them. ``cluster``:
        this hall's part in a cluster, made for it (:class:`~flametable.web.cluster.Cluster` over the bus of the
        cluster's messages; ``process``: this process's name on it); None: a single server. Given made, so that
        this module does not import the cluster's (which imports it)."""
        self.store = store
        self.bots = bots if bots is not None else BotPool.around(executor)
        self.seeds = seeds
        self.limits = limits or Limits()
        self.clock: Clock = as_clock(clock)  # every read of the time, every wait for a clock's deadline
        self.process = process or process_id()
        self.rooms: dict[str, Room] = {}
        self.sockets: dict[str, int] = {}  # open WebSockets by address (``Conn.client``), while any is open
        self._loading: dict[str, asyncio.Future[Room | Remote | None]] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self.clock_loader: asyncio.Task[int] | None = None  # a single server's timed rooms taken up at its start
        # every task of the rooms (a bot's move, a clock's wait, a presence told, a connection closed), each until it
        # ends: :meth:`close` cancels and awaits those left, so none still uses the store once it is closed
        self.tasks: set[asyncio.Task[None]] = set()
        self.closing = False  # :meth:`close` has begun: no room starts a task any more
        self.expensive = Budgets(self.limits.expensive_per_second, self.limits.expensive_burst)
        self.log_builds = asyncio.Semaphore(self.limits.log_builds)  # the logs built at once, off the loop
        self.bodies = Budgets(self.limits.bodies_per_second, self.limits.bodies_burst)  # requests with a body
        self.cluster: Cluster | None = cluster(self) if cluster is not None else None

    def cutoff(self) -> float:
        """Rooms made before this time and still waiting for a player are past their time."""
        return self.clock() - self.limits.waiting_room_ttl

    async def spend(self, conn: Conn) -> None:
        """Count one expensive request (``log``, ``sync``) of ``conn``'s address, or refuse it (``too_many_requests``)
        when that address, all its sockets together (in a cluster: in every process), is over its budget."""
        allowed = (await self.cluster.expensive.allow(conn.client) if self.cluster is not None
                   else self.expensive.allow(conn.client))
        if not allowed:
            raise RoomError("too_many_requests", N_("Too many log and sync requests from your address: at most {rate} "
                                                    "a second for all its connections. This one was not answered; "
                                                    "ask again in a moment."), status=429,
                            rate=self.limits.expensive_per_second)

    async def room(self, room_id: str) -> Room | None:
        """The room ``room_id``, loaded from the store if it is not in memory; None if there is none. In a cluster
        its lease is taken first: :func:`moved` if another process holds it."""
        found = await self.find(room_id)
        if found is not None and not isinstance(found, Room):
            raise moved()
        return found

    async def find(self, room_id: str) -> Room | Remote | None:
        """The room ``room_id`` in this process (loaded from the store if it is not in memory, its lease taken in a
        cluster), or in a cluster the :class:`~flametable.web.cluster.Remote` process that holds its lease; None
        if there is no such room."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        pending = self._loading.get(room_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[Room | Remote | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            found = await self._load(room_id)
            future.set_result(found)
            return found
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[room_id]
            if future.done() and future.exception() is not None:
                with contextlib.suppress(BaseException):
                    future.result()

    async def _load(self, room_id: str) -> Room | Remote | None:
        fence = None
        if self.cluster is not None:
            taken = await self.cluster.take(room_id)
            if taken is None or not isinstance(taken, int):
                return taken
            fence = taken
        try:
            row = await self.store.load_room(room_id)
        except BaseException:
            if fence is not None and self.cluster is not None:
                self.cluster.release(room_id, fence)
            raise
        if row is None:
            if fence is not None and self.cluster is not None:
                self.cluster.release(room_id, fence)
            return None
        room = Room(self, row, game_of(row.game), fence)
        self.rooms[room_id] = room
        room.schedule_bot()
        room.schedule_clock()
        return room

    def lost(self, room: Room) -> None:
        """``room``'s lease is no longer this process's (its renewal said so, or a write was refused): drop it from
        memory at once, its bots cancelled, every connection closed with 1012 (service restart: the client
        reconnects, to the room's new owner). Its lease is not released: it is not ours."""
        if room.dropped:
            return
        room.dropped = True
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        room._cancel_bot()
        room._cancel_clock()
        room.logs.cancel()
        conns, room.conns = list(room.conns), set()

        async def close(conn: Conn) -> None:
            await conn.close(1012)

        for conn in conns:
            task = self.spawn(close(conn))
            room.tasks.add(task)
            task.add_done_callback(room.tasks.discard)

    def admit(self, client: str) -> None:
        """Count one more open WebSocket from the address ``client``, or refuse it (``too_many_sockets``) when the
        address has as many open as it may. Each socket admitted is released once (:meth:`release`), when it ends."""
        count = self.sockets.get(client, 0)
        if count >= self.limits.sockets_per_client:
            raise self.too_many_sockets()
        self.sockets[client] = count + 1

    def release(self, client: str) -> None:
        """A socket :meth:`admit` counted has ended."""
        count = self.sockets.pop(client, 0) - 1
        if count > 0:
            self.sockets[client] = count

    async def admit_socket(self, client: str) -> None:
        """:meth:`admit`; in a cluster, counted for every process together (the bus's shared counter)."""
        if self.cluster is not None:
            await self.cluster.admit(client)
        else:
            self.admit(client)

    async def release_socket(self, client: str) -> None:
        """A socket :meth:`admit_socket` counted has ended."""
        if self.cluster is not None:
            await self.cluster.release_socket(client)
        else:
            self.release(client)

    async def allow_body(self, client: str) -> bool:
        """Whether one more request with a body from ``client`` fits its address's budget (in a cluster: for every
        process together), and count it."""
        if self.cluster is not None:
            return await self.cluster.bodies.allow(client)
        return self.bodies.allow(client)

    def too_many_sockets(self) -> RoomError:
        return RoomError("too_many_sockets", N_("Too many connections from your address: at most {limit} at "
                                                "once. Close a table you are not using, then reconnect."),
                         status=429, limit=self.limits.sockets_per_client)

    def maybe_forget(self, room: Room) -> None:
        """Drop a room nobody watches and no bot plays from memory (the store has it all). Whatever kept it from
        being dropped calls this again once it is done: a bot's move, a presence announcement (the lock)."""
        if (not room.conns and (room.bot_task is None or room.bot_task.done()) and not room.lock.locked()
                and (room.clock_task is None or room.clock_task.done())
                and not room.arriving and self.rooms.get(room.id) is room):
            del self.rooms[room.id]
            if self.cluster is not None and room.fence is not None:
                self.cluster.release(room.id, room.fence)  # another process may take it at once

    async def create(self, game_name: str, options: Mapping[str, Any] | None, seats: Iterable[str],
                     creator: str, clock: Any = None, brought: tuple[int, Any] | None = None, *,
                     held: Mapping[int, str] | None = None, counted: bool = True) -> tuple[Room, dict[int, str]]:
        """A new room: ``seats`` are ``"me"`` (a seat for the creator), ``"open"`` or a bot spec; ``clock`` its time
        control's JSON (:meth:`TimeControl.from_json`; None: untimed); ``brought``: a player and what they bring of
        their own (an accepted challenge's: the accepter's deck, as a joiner's, :meth:`join`). Returns the room and
        the tokens of the creator's seats. ``held``: the token hashes of ``"me"`` seats whose tokens their players
        already hold (quick pairing: each seek's secret), no token made for them; ``counted=False``: the room is not
        counted against its creator's rooms (the server's pairing makes it, for two players)."""
        row, game, tokens = await self._new_row(game_name, options, seats, creator, clock, held or {}, counted,
                                                brought)
        await self.store.create_room(row)
        return await self._opened(row, game), tokens

    async def create_many(self, made: Sequence[tuple[str, Iterable[str], str, Any, Mapping[int, str]]]) -> list[Room]:
        """Rooms made together, stored in one write (quick pairing's step: every pair's room at once): each
        ``(game, seats, creator, clock, held)`` as :meth:`create` takes them, no options, not counted."""
        rows = [await self._new_row(game, None, seats, creator, clock, held, False)
                for game, seats, creator, clock, held in made]
        await self.store.create_rooms([row for row, _, _ in rows])
        return [await self._opened(row, game) for row, game, _ in rows]

    async def _new_row(self, game_name: str, options: Mapping[str, Any] | None, seats: Iterable[str], creator: str,
                       clock: Any, held: Mapping[int, str], counted: bool,
                       brought: tuple[int, Any] | None = None) -> tuple[RoomRow, Game[Any, Any], dict[int, str]]:
        """:meth:`create`'s room checked and made, not stored yet: its row, its game, the creator's tokens."""
        try:
            control = TimeControl.from_json(clock)
        except TimeControlError as exc:
            raise RoomError("bad_clock", N_("The time control: {problem}"), problem=exc) from None
        entry = registry.get(game_name)
        game = game_of(entry.name)
        specs = list(seats)
        if len(specs) != 2:
            raise RoomError("bad_seats", N_("A room has two seats, got {count}."), count=len(specs))
        for spec in specs:
            if spec.startswith("bot:"):
                bot = make_bot(spec, game, 0)  # raises BotSpecError naming the spec
                iterations = getattr(bot, "iterations", None)
                if getattr(bot, "seconds", None) is None and (iterations or 0) > self.limits.bot_iterations:
                    raise RoomError("bad_seats", N_("A bot searches at most {limit} iterations a move on this "
                                                    "server, got {spec!r}."), limit=self.limits.bot_iterations,
                                    spec=spec)
            elif spec not in ("me", OPEN):
                raise RoomError("bad_seats", N_("A seat is \"me\", \"open\" or a bot (bot:easy ... bot:hard), got "
                                                "{spec!r}."), spec=spec)
        if all(spec.startswith("bot:") for spec in specs):  # nobody plays: counted apart, fewer allowed
            if await self.store.open_rooms_by(creator, bots_only=True) >= self.limits.bot_rooms_per_client:
                raise RoomError("too_many_bot_rooms", N_plural(
                    "You already have {count} room where only bots play: let it end first.",
                    "You already have {count} rooms where only bots play: let one of them end first.", "count"),
                    status=429, count=self.limits.bot_rooms_per_client)
        elif counted and await self.store.open_rooms_by(creator, since=self.cutoff()) >= self.limits.rooms_per_client:
            raise RoomError("too_many_rooms", N_("You already have {count} rooms with a match going on: finish or "
                                                 "resign one first. They are listed under \"My matches\" in the "
                                                 "lobby."), status=429,
                            count=self.limits.rooms_per_client)
        opts = dict(options or {})
        seed = self.seeds()
        game.new_match(opts, seed)  # the game checks its options (raises a FlametableError saying what is wrong)
        if brought is not None:  # what the player brings, checked as a joiner's (the first match: seat = player)
            opts = complete(game).brought_options(opts, seed, brought[0], brought[1]) or opts
            game.new_match(opts, seed)
        tokens: dict[int, str] = {}
        seat_rows = []
        for player, spec in enumerate(specs):
            if spec == "me" and player in held:
                seat_rows.append(SeatRow(player, HUMAN, held[player]))
            elif spec == "me":
                tokens[player] = new_token()
                seat_rows.append(SeatRow(player, HUMAN, token_hash(tokens[player])))
            else:
                seat_rows.append(SeatRow(player, HUMAN if spec == OPEN else spec, None))
        cid, chash = game.content_id()
        room_id = secrets.token_urlsafe(12)
        match = MatchRow(room_id=room_id, number=0, game=entry.name, rules_version=game.rules_version,
                         content_id=cid, content_hash=chash, options=opts, seed=seed,
                         players=[row.kind for row in seat_rows], first_player=0, clock=control.to_json())
        row = RoomRow(id=room_id, game=entry.name, options=opts, creator=creator, created_at=self.clock(),
                      seats=seat_rows, match=match)
        return row, game, tokens

    async def _opened(self, row: RoomRow, game: Game[Any, Any]) -> Room:
        """A room just stored, in this process's memory (its lease taken in a cluster), its bot and clock going."""
        fence = await self.cluster.take_new(row.id) if self.cluster is not None else None
        room = Room(self, row, game, fence)
        self.rooms[row.id] = room
        async with room.lock:
            room.schedule_bot()
            room.schedule_clock()
        return room

    async def join(self, room_id: str, player: int | None, brings: Any = None) -> tuple[Room, int, str, str | None]:
        """Take an open seat of the room (``player``, or the first open one): its token, and what its player plays
        with of their own: ``"own"`` what they brought (``brings``: Flame Duel's own deck), ``"random"`` the game's
        random one (``brings`` None), None in a game whose options take nothing of a joiner's. What is brought is
        checked by the game as the creator's options were (its own errors, naming what is wrong) and becomes the
        seat's before the seat is given; what the other seat was dealt stays (issue 24)."""
        room = await self.room(room_id)
        if room is None:
            raise RoomError("no_room", N_("There is no room {room!r}."), status=404, room=room_id)
        async with room.lock:
            await room._expire_if_due()
            if room.closed or room.past_time(self.clock()):
                raise room_closed(410)
            free = [s.player for s in room.row.seats if s.kind == HUMAN and s.token_hash is None]
            if player is not None and player not in free:
                raise RoomError("seat_taken", N_("That seat is not open."), status=409)
            if not free:
                raise RoomError("room_full", N_("Both seats of this room are taken: you can watch the match."),
                                status=409)
            chosen = player if player is not None else free[0]
            brought, match = room.brought(chosen, brings)
            token = new_token()
            digest = token_hash(token)
            with room.lease():
                claimed = await room.hall.store.claim_seat(room_id, chosen, digest, **room.fenced(),
                                                           options=None if match is None else match.options)
            if not claimed:
                await room.reload()  # taken meanwhile, or the room was closed (by the sweep)
                if room.closed:
                    await room._broadcast(room._ended)
                    raise room_closed(410)
                raise RoomError("seat_taken", N_("That seat is not open."), status=409)
            room.row.seats[chosen].token_hash = digest
            if match is not None:  # the match as the seats' decks make it: every seat sees its view again
                room.row.options = room.row.match.options = match.options
                room._restart(room.row.match)
                await room._sync_all()
            clocks = room.clocks
            if clocks is not None and not room.waiting and not clocks.running(room.awaited()):
                clocks.restart(room.hall.clock())  # a first decision's time counts from when both seats are taken
                room.schedule_clock()
            await room._presence()
            for conn in list(room.conns):
                await room._send(conn, room._welcome(conn))
        return room, chosen, token, brought

    async def close_room(self, room_id: str, token: str) -> Room:
        """Close a room waiting for a player, asked by a seated player (``token``: their seat's): its match ends
        unplayed (``"closed"``) and every connection is told. Refused once both seats are taken (resigning is the
        way out then), for a token not of the room's, and for a match over or closed."""
        room = await self.room(room_id)
        if room is None:
            raise RoomError("no_room", N_("There is no room {room!r}."), status=404, room=room_id)
        async with room.lock:
            if room.player_of(token) is None:
                raise bad_token()
            await room._expire_if_due()
            if room.closed:
                raise room_closed(409)
            if not room.playing:
                raise RoomError("over", N_("The match is over."), status=409)
            full = RoomError("room_full", N_("Both seats of this room are taken: it can no longer be closed. "
                                             "Resign to leave the match."), status=409)
            if not room.waiting:
                raise full
            try:
                closed = await room._close_unplayed(CLOSED)
            except StoreError:
                log.exception("room %s: closing it failed", room_id)
                raise RoomError("store", N_("The server could not close the room: try again."), status=503) from None
            if not closed:  # pragma: no cover - the room's lock keeps the seats as memory has them
                await room.reload()
                raise full
        self.maybe_forget(room)
        return room

    async def sweep(self) -> list[str]:
        """Close every room past its time (one statement in the store, whatever the number of rooms) and tell
        the connections of those in memory; the ids of the rooms closed."""
        closed = await self.store.expire_waiting(self.cutoff())
        for room_id in closed:
            room = self.rooms.get(room_id)
            if room is not None:
                await room.expired()
        if self.cluster is not None:  # the others' rooms: their owners tell their connections
            await self.cluster.tell_expired([room_id for room_id in closed if room_id not in self.rooms])
        return closed

    async def sweeping(self, pause: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        """Every ``limits.sweep_every`` seconds (``pause`` waits them; tests give their own), a sweep, until
        cancelled; a sweep that fails is logged and the next one tries again."""
        while True:
            await pause(self.limits.sweep_every)
            await self._sweep_logged()

    async def _sweep_logged(self) -> None:
        try:
            closed = await self.sweep()
        except StoreError:
            log.exception("the sweep of waiting rooms failed; the next one tries again")
            return
        if closed:
            log.info("%d rooms waiting for a player past their time were closed", len(closed))

    def start_clocks(self) -> None:
        """A single server, at its start: take up every room whose match plays with a clock, so that the clocks
        run whether or not anyone reconnects (each from now: the time the server was down is charged to nobody),
        in a task of its own (the server answers meanwhile: a room asked for first is taken up then). In a cluster
        the takeover of rooms left by their owners does it."""
        if self.cluster is None:
            self.clock_loader = asyncio.get_running_loop().create_task(self._take_up_clocks(),
                                                                       name="flametable-clocks")

    async def _take_up_clocks(self) -> int:
        try:
            ids = await self.store.timed_rooms()
        except StoreError:
            log.exception("the rooms with a clock could not be listed: they are taken up when asked")
            return 0
        for room_id in ids:
            try:
                await self.room(room_id)
            except Exception:  # one room that cannot be taken up leaves the others' clocks running
                log.exception("room %s: taking its clock up failed; it is taken up when asked", room_id)
        if ids:
            log.info("%d rooms with a clock were taken up", len(ids))
        return len(ids)

    def spawn(self, work: Coroutine[Any, Any, None], name: str | None = None) -> asyncio.Task[None]:
        """``work`` run in a task of a room's, kept in :attr:`tasks` until it ends."""
        task = asyncio.get_running_loop().create_task(work, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def start_sweeping(self) -> None:
        """Sweep once now (the rooms whose time ran out while the server was down are closed before the first
        request), then run :meth:`sweeping` in a task of its own until :meth:`close`."""
        await self._sweep_logged()
        self.sweeper = asyncio.get_running_loop().create_task(self.sweeping(), name="flametable-room-sweep")

    async def close(self) -> None:
        """Stop every bot: the rooms' tasks (bots' moves, clocks' waits, presence) cancelled and awaited, the queued
        decisions dropped, the bots' workers shut down; in a cluster, the leases given back after that. Once it
        returns no task of the hall uses the store: the store may be closed (a write already asked for is done by
        its writer all the same, :meth:`~flametable.web.store.Store.close`)."""
        self.closing = True
        sweeper, self.sweeper = self.sweeper, None
        if sweeper is not None:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
        loader, self.clock_loader = self.clock_loader, None
        if loader is not None:
            loader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loader
        for room in list(self.rooms.values()):
            room._cancel_bot()
            room._cancel_clock()
            room.logs.cancel()
        while self.tasks:  # a bot's move under way too (its room no longer holds it: it may schedule the next)
            left = list(self.tasks)
            for task in left:
                task.cancel()
            await asyncio.gather(*left, return_exceptions=True)
        if self.cluster is not None:
            await self.cluster.stop()  # the leases given back: another process takes the rooms at once
        self.bots.close()
