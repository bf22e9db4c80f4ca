"""The rooms in memory: one match service each, its connections, its bots; the :class:`Hall` that holds them.

A room has two *players* (0 and 1) and a current match; player ``p`` sits at seat ``p ^ first_player`` (a rematch
swaps them). Everything a room does to its match happens under the room's lock, in this order: check the message
(seat token, turn, version, legality: the match service's checks), **commit the action to the store**, then tell
every connection its own audience's event. A store failure rebuilds the room from the store, so memory never
holds an action the database lacks.

Versions on the wire are ``base + actions played``: an undo raises ``base`` past every version the match had, so a
client never mistakes a new state for one it saw (the translation: :mod:`flametable.web.messages`). Bots think in
the hall's executor (a process pool in ``serve``), never on the event loop; a bot's move chosen at an older version
is dropped.

The seed leaves the server only in the record of an ended match; options only as the game's ``public_options``
(a game without that method shows none: own decks are secrets).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cache
from typing import Any

from flametable.bots.registry import HUMAN, make_bot
from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.core.protocol import Action, Game, complete
from flametable.core.record import RESIGNED, resigner, start
from flametable.core.rng import SEED_MAX
from flametable.service import Applied, Event, MatchService, Rejected, StaleVersion, is_public
from flametable.service.takeback import reveals
from flametable.texts.log import LogStep, match_log
from flametable.texts.translator import Translator
from flametable.web import messages
from flametable.web.store import MatchRow, RoomRow, SeatRow, Store, StoreError, record_of

log = logging.getLogger("flametable.web")

OPEN = "open"


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

    rooms_per_client: int = 20  # rooms with a match playing, made by one address
    actions_per_second: float = 10.0  # messages per second a connection may send, on average...
    burst: int = 30  # ...and at once
    keep_events: int = 16  # past events kept per match, as sent, for a reconnecting client (older gaps: a sync)
    send_timeout: float = 10.0  # a client that takes longer to receive one message is disconnected
    bot_iterations: int = 10_000  # the most a seat's bot:ismcts:N may search a move with no time limit


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    return secrets.randbits(64)


@cache
def _game(name: str) -> Any:
    return registry.make_game(name)


def game_of(name: str) -> Any:
    """The registry's game ``name`` with its built-in data, made once per process."""
    return _game(name)


def think(spec: str, game_name: str, seed: int, view: Any, legal: tuple[Action, ...]) -> int:
    """A bot's decision, as the action's id: run in the hall's executor (a worker process or thread)."""
    bot = make_bot(spec, _game(game_name), seed)
    return int(bot.choose(view, legal).id)


def watch_parent(parent: int, interval: float = 0.5) -> None:
    """A bot worker's initializer: the worker ends once the server that started it (``parent``) is gone. A server
    killed alone (SIGKILL) cannot stop its workers, and an idle worker would wait for work for ever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    threading.Thread(target=watch, name="flametable-parent-watch", daemon=True).start()


Send = Callable[[str], Awaitable[None]]


class Conn:
    """One client's WebSocket in a room: who it is (a room player, or None to watch), its language, its budget of
    messages (a token bucket), the address it comes from (``client``: a hash, as ``common.client_id`` makes it)."""

    __slots__ = ("_allowance", "_stamp", "client", "player", "send", "tr")

    def __init__(self, send: Send, tr: Translator, client: str = "") -> None:
        self.send = send
        self.tr = tr
        self.client = client
        self.player: int | None = None
        self._allowance = -1.0
        self._stamp = 0.0

    def allow(self, limits: Limits) -> bool:
        """Whether one more message fits the connection's budget now (and count it)."""
        now = time.monotonic()
        if self._allowance < 0:
            self._allowance = float(limits.burst)
        else:
            earned = (now - self._stamp) * limits.actions_per_second
            self._allowance = min(float(limits.burst), self._allowance + earned)
        self._stamp = now
        if self._allowance < 1.0:
            return False
        self._allowance -= 1.0
        return True


class Room:
    """One room: its stored row, its match service, its connections."""

    def __init__(self, hall: Hall, row: RoomRow, game: Game[Any, Any]) -> None:
        self.hall = hall
        self.row = row
        self.game = game
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.offers: set[int] = set()  # players who offered a rematch
        self.bot_task: asyncio.Task[None] | None = None
        self.history: deque[tuple[int, tuple[str, str, str]]] = deque(maxlen=hall.limits.keep_events)
        self.tasks: set[asyncio.Task[None]] = set()  # presence announcements under way
        self.arriving = 0  # hellos waiting for the lock: a room about to have a connection is not forgotten
        self.service, self.actors = self._rebuild(row.match)

    # ------------------------------------------------------------------ facts

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def match(self) -> MatchRow:
        return self.row.match

    @property
    def playing(self) -> bool:
        return self.match.status == "playing"

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
        return None if self.playing else f"/api/rooms/{self.id}/matches/{self.match.number}/record"

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
        }

    def _seat_json(self, seat: int) -> dict[str, Any]:
        row = self.row.seats[seat ^ self.match.first_player]
        kind = row.kind if row.kind.startswith("bot:") else HUMAN
        return {"seat": seat, "kind": kind, "open": kind == HUMAN and row.token_hash is None,
                "connected": self.connected(seat)}

    # ------------------------------------------------------------------ the match, rebuilt from its row

    def _rebuild(self, match: MatchRow, upto: int | None = None) -> tuple[MatchService, list[int]]:
        """The match service of ``match`` after its stored actions (the first ``upto`` of them), and who played
        each."""
        record = record_of(match, actions=False, result=False)
        service = MatchService.from_record(self.game, record, keep=0)  # the room keeps its events as sent text
        actors = []
        for notation in match.actions[:upto]:
            seat = service.to_act
            service.submit_quiet(seat, notation)
            actors.append(seat if seat is not None else -1)
        return service, actors

    async def reload(self) -> None:
        """Forget memory and take the room as the store has it (after a store failure)."""
        row = await self.hall.store.load_room(self.id)
        if row is not None:
            self.row = row
            self.service, self.actors = self._rebuild(row.match)
            self.history.clear()

    # ------------------------------------------------------------------ connections

    async def hello(self, conn: Conn, msg: Mapping[str, Any]) -> None:
        """Attach ``conn`` as the seat its token proves (or as a spectator) and bring it up to date."""
        token = msg.get("token")
        player = None
        if token is not None:
            digest = token_hash(token)
            for seat_row in self.row.seats:
                if seat_row.token_hash is not None and hmac.compare_digest(seat_row.token_hash, digest):
                    player = seat_row.player
            if player is None:
                raise RoomError("bad_token", N_("This seat token is not one of this room's: nothing was changed. "
                                                "Join the room again, or watch without a token."), status=403)
        self.arriving += 1
        try:
            await self.lock.acquire()
        finally:
            self.arriving -= 1
        try:
            conn.player = player
            self.conns.add(conn)
            await self._send(conn, self._welcome(conn))
            seen_match, seen = msg.get("match"), msg.get("version")
            audience = self.seat_of(player)
            for text in self._since(audience, seen if seen_match == self.match.number else None):
                await self._send_text(conn, text)
            if not self.playing:
                await self._send(conn, self._ended())
            await self._presence()
        finally:
            self.lock.release()

    def leave(self, conn: Conn) -> None:
        """``conn`` is gone: forget it now (no waiting: its handler may be cancelled) and tell the others."""
        self.conns.discard(conn)
        if conn.player is not None and self.conns:
            task = asyncio.get_running_loop().create_task(self._announce())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        self.hall.maybe_forget(self)

    async def _announce(self) -> None:
        async with self.lock:
            await self._presence()
        self.hall.maybe_forget(self)  # the last one may have left while the lock was held

    # ------------------------------------------------------------------ what a connection asks

    def _seat_for_move(self, conn: Conn) -> int:
        if conn.player is None:
            raise RoomError("spectator", N_("You are watching this match: only its players can do that."), status=403)
        if not self.playing:
            raise RoomError("over", N_("The match is over."), status=409)
        seat = self.seat_of(conn.player)
        assert seat is not None
        return seat

    async def act(self, conn: Conn, action: str | int, version: int) -> None:
        async with self.lock:
            seat = self._seat_for_move(conn)
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
        """Submit, commit, tell (the lock held). Raises the service's :class:`Rejected` or :class:`RoomError`."""
        service = self.service
        applied = service.submit(seat, action, version)
        index = service.version - 1
        assert service.record is not None
        notation = service.record.actions[index]
        outcome = service.outcome
        result = outcome.to_json() if outcome is not None else None
        try:
            await self.hall.store.append_action(self.match.id or 0, index, notation, seat,
                                                status="over" if outcome is not None else "playing", result=result)
        except StoreError:
            log.exception("room %s: storing action %d failed; the room is reloaded", self.id, index)
            await self.reload()
            raise RoomError("store", N_("The server could not save your action: nothing was changed. Try again."),
                            status=503) from None
        self.match.actions.append(notation)
        self.actors.append(seat)
        if outcome is not None:
            self.match.status, self.match.result = "over", result
        await self._tell(applied)
        if outcome is not None:
            await self._broadcast(lambda conn: self._ended())
        self.schedule_bot()

    async def undo(self, conn: Conn, version: int) -> None:
        async with self.lock:
            seat = self._seat_for_move(conn)
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
                await self.hall.store.undo(self.match.id or 0, keep, base)
            except StoreError:
                log.exception("room %s: undo failed; the room is reloaded", self.id)
                await self.reload()
                raise RoomError("store", N_("The server could not take the move back: nothing was changed."),
                                status=503) from None
            self._cancel_bot()
            del self.match.actions[keep:]
            self.match.base = base
            self.service, self.actors = self._rebuild(self.match)
            self.history.clear()
            await self._sync_all()
            self.schedule_bot()

    async def resign(self, conn: Conn) -> None:
        async with self.lock:
            seat = self._seat_for_move(conn)
            result = {"winner": 1 - seat, "reason": RESIGNED, "scores": [0, 0]}
            try:
                await self.hall.store.end_match(self.match.id or 0, "resigned", result)
            except StoreError:
                log.exception("room %s: resigning failed", self.id)
                raise RoomError("store", N_("The server could not record the resignation: try again."),
                                status=503) from None
            self._cancel_bot()
            self.match.status, self.match.result = "resigned", result
            await self._broadcast(lambda c: self._ended())

    async def rematch(self, conn: Conn) -> None:
        async with self.lock:
            if conn.player is None:
                raise RoomError("spectator", N_("You are watching this match: only its players can do that."),
                                status=403)
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
                           options=options, seed=self.hall.seeds(), players=kinds, first_player=first)
            self.game.new_match(new.options, new.seed)  # the options were accepted at the start: a check
            try:
                await self.hall.store.start_match(new)
            except StoreError:
                log.exception("room %s: the rematch could not be stored", self.id)
                raise RoomError("store", N_("The server could not start the rematch: try again."),
                                status=503) from None
            self.offers.clear()
            self.row.match = new
            self.service, self.actors = self._rebuild(new)
            self.history.clear()
            for c in list(self.conns):
                await self._send(c, self._welcome(c))
            await self._sync_all()
            await self._presence()
            self.schedule_bot()

    async def sync(self, conn: Conn) -> None:
        async with self.lock:
            await self._send(conn, self._event(self.service.sync(self.seat_of(conn.player))))

    async def match_log(self, conn: Conn) -> None:
        async with self.lock:
            lines = self.hall.log_lines(self, conn)
            await self._send(conn, {"type": "log", "match": self.match.number, "lines": lines})

    # ------------------------------------------------------------------ bots

    def schedule_bot(self) -> None:
        """Let the seat to act think, if it is a bot's (the lock held, or no one else running)."""
        if not self.playing or (self.bot_task is not None and not self.bot_task.done()):
            return
        seat = self.service.to_act
        if seat is None or not self.kind_at(seat).startswith("bot:"):
            return
        self.bot_task = asyncio.get_running_loop().create_task(self._bot_move(seat, self.wire_version))
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
            chosen = await self.hall.think(self.kind_at(seat), self.match.game, seed, view, legal)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: bot %s failed to decide", self.id, self.kind_at(seat))
            return
        async with self.lock:
            if self.wire_version != wire or not self.playing or self.service is not service:
                return
            self.bot_task = None
            try:
                await self._play(seat, chosen, service.version)
            except (Rejected, RoomError):
                log.exception("room %s: the bot's move was refused", self.id)
        if not self.playing:
            self.hall.maybe_forget(self)  # a match of bots ended with nobody watching

    # ------------------------------------------------------------------ telling

    def _welcome(self, conn: Conn) -> dict[str, Any]:
        return {"type": "welcome", "room": self.id, "game": self.row.game, "options": self.public_options(),
                "match": self.match.number, "player": conn.player, "seat": self.seat_of(conn.player),
                "players": [self._seat_json(seat) for seat in (0, 1)], "version": self.wire_version,
                "status": self.match.status, "lang": conn.tr.lang}

    def _event(self, event: Event) -> dict[str, Any]:
        """The message of ``event``: the event JSON at the wire version; for the seat to act, its legal actions
        (:func:`legal_of`); ``can_undo``: the audience is a seat playing a bot that has made a decision of its own
        in this match (what an undo would take back to; the undo may still be refused, when the moves since
        revealed something)."""
        seat = event.audience
        can_undo = seat is not None and self.kind_at(1 - seat) != HUMAN and seat in self.actors
        return messages.event_message(event, self.match.base, self.match.number, self.legal_of(event), can_undo)

    def legal_of(self, event: Event) -> Sequence[Action]:
        """The legal actions of ``event``'s audience when it is the seat to act, else none: its view's (the view
        made with the event carries them); a view without them (a protocol-only game's) leaves them to the
        service."""
        seat = event.audience
        if seat is None or seat != event.to_act:
            return ()
        legal = getattr(event.view, "legal", None)
        return tuple(legal) if legal is not None else self.service.legal(seat)

    def _ended(self) -> dict[str, Any]:
        return {"type": "ended", "match": self.match.number, "status": self.match.status,
                "result": self.match.result, "record": self.record_link()}

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
        await self._broadcast(lambda c: {"type": "presence", "connected": connected})

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


class Hall:
    """Every room of the server: made, loaded from the store on first use, forgotten when nobody is in them."""

    def __init__(self, store: Store, *, executor: Executor | None = None, seeds: Callable[[], int] = new_seed,
                 limits: Limits | None = None, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.executor = executor
        self.seeds = seeds
        self.limits = limits or Limits()
        self.clock = clock
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    async def think(self, spec: str, game_name: str, seed: int, view: Any, legal: tuple[Action, ...]) -> int:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, think, spec, game_name, seed, view, legal)

    async def room(self, room_id: str) -> Room | None:
        """The room ``room_id``, loaded from the store if it is not in memory; None if there is none."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        pending = self._loading.get(room_id)
        if pending is not None:
            return await pending
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            row = await self.store.load_room(room_id)
            room = None if row is None else Room(self, row, _game(row.game))
            if room is not None:
                self.rooms[room_id] = room
                room.schedule_bot()
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._loading[room_id]
            if future.done() and future.exception() is not None:
                with contextlib.suppress(BaseException):
                    future.result()

    def maybe_forget(self, room: Room) -> None:
        """Drop a room nobody watches and no bot plays from memory (the store has it all). Whatever kept it from
        being dropped calls this again once it is done: a bot's move, a presence announcement (the lock)."""
        if (not room.conns and (room.bot_task is None or room.bot_task.done()) and not room.lock.locked()
                and not room.arriving and self.rooms.get(room.id) is room):
            del self.rooms[room.id]

    async def create(self, game_name: str, options: Mapping[str, Any] | None, seats: Iterable[str],
                     creator: str) -> tuple[Room, dict[int, str]]:
        """A new room: ``seats`` are ``"me"`` (a seat for the creator), ``"open"`` or a bot spec. Returns the room
        and the tokens of the creator's seats."""
        entry = registry.get(game_name)
        game = _game(entry.name)
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
        if await self.store.open_rooms_by(creator) >= self.limits.rooms_per_client:
            raise RoomError("too_many_rooms", N_("You already have {count} rooms with a match going on: finish or "
                                                 "resign one first."), status=429,
                            count=self.limits.rooms_per_client)
        opts = dict(options or {})
        seed = self.seeds()
        game.new_match(opts, seed)  # the game checks its options (raises a FlametableError saying what is wrong)
        tokens: dict[int, str] = {}
        seat_rows = []
        for player, spec in enumerate(specs):
            if spec == "me":
                tokens[player] = new_token()
                seat_rows.append(SeatRow(player, HUMAN, token_hash(tokens[player])))
            else:
                seat_rows.append(SeatRow(player, HUMAN if spec == OPEN else spec, None))
        cid, chash = game.content_id()
        room_id = secrets.token_urlsafe(12)
        match = MatchRow(room_id=room_id, number=0, game=entry.name, rules_version=game.rules_version,
                         content_id=cid, content_hash=chash, options=opts, seed=seed,
                         players=[row.kind for row in seat_rows], first_player=0)
        row = RoomRow(id=room_id, game=entry.name, options=opts, creator=creator, created_at=self.clock(),
                      seats=seat_rows, match=match)
        await self.store.create_room(row)
        room = Room(self, row, game)
        self.rooms[room_id] = room
        async with room.lock:
            room.schedule_bot()
        return room, tokens

    async def join(self, room_id: str, player: int | None) -> tuple[Room, int, str]:
        """Take an open seat of the room (``player``, or the first open one): its token."""
        room = await self.room(room_id)
        if room is None:
            raise RoomError("no_room", N_("There is no room {room!r}."), status=404, room=room_id)
        async with room.lock:
            free = [s.player for s in room.row.seats if s.kind == HUMAN and s.token_hash is None]
            if player is not None and player not in free:
                raise RoomError("seat_taken", N_("That seat is not open."), status=409)
            if not free:
                raise RoomError("room_full", N_("Both seats of this room are taken: you can watch the match."),
                                status=409)
            chosen = player if player is not None else free[0]
            token = new_token()
            digest = token_hash(token)
            if not await room.hall.store.claim_seat(room_id, chosen, digest):
                raise RoomError("seat_taken", N_("That seat is not open."), status=409)
            room.row.seats[chosen].token_hash = digest
            await room._presence()
            for conn in list(room.conns):
                await room._send(conn, room._welcome(conn))
        return room, chosen, token

    def log_lines(self, room: Room, conn: Conn) -> list[str]:
        """The match so far as ``conn``'s audience may know it, in its language: made from that audience's views
        and the actions it may know only, replayed from the start (the game's log, :mod:`flametable.texts.log`)."""
        audience = room.seat_of(conn.player)
        match = room.match
        state = start(room.game, record_of(match, actions=False, result=False))
        first = state.view(audience)
        steps = []
        for actor, notation in zip(room.actors, match.actions, strict=True):
            action = room.game.action_from_text(notation)
            before = state.view(audience)
            state.apply(action)
            known = audience == actor or is_public(room.game, action)
            steps.append(LogStep(before, state.view(audience), actor, action if known else None))
        return match_log(room.game, conn.tr, audience, steps, first=first, outcome=state.outcome,
                         resigned=resigner(match.result))

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            room._cancel_bot()
