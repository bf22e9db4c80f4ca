"""A room's WebSocket: each client message (declared in :data:`flametable.web.messages.CLIENT`) read, checked and
handed to its handler in :data:`HANDLERS`; each refusal an ``error`` message in the connection's language."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.service import Rejected
from flametable.texts.translator import Translator
from flametable.web import messages
from flametable.web.common import client_id, hall_of, language_of, no_room
from flametable.web.memory import counted
from flametable.web.messages import MessageError
from flametable.web.rooms import MOVED, Bucket, Conn, Hall, Limits, Room, RoomError, moved

if TYPE_CHECKING:
    from flametable.web.cluster import Remote

log = logging.getLogger("flametable.web")


class Session:
    """One connection to one room: the room as last seen, and whether the client said hello."""

    def __init__(self, hall: Hall, room: Room, conn: Conn) -> None:
        self.hall = hall
        self.room = room
        self.conn = conn
        self.joined = False


Handler = Callable[[Session, Mapping[str, Any]], Awaitable[None]]
RoomMessage = Callable[[Room, Conn, Mapping[str, Any]], Awaitable[None]]


async def hello(session: Session, msg: Mapping[str, Any]) -> None:
    if session.joined:
        raise MessageError("hello_twice", N_("You said hello already on this connection."))
    if "lang" in msg:
        session.conn.tr = Translator.for_language(msg["lang"])
    # the room as the hall holds it now: one nobody was in may have been forgotten since
    session.room = await session.hall.room(session.room.id) or session.room
    await session.room.hello(session.conn, msg)
    session.joined = True


async def lang(session: Session, msg: Mapping[str, Any]) -> None:
    session.conn.tr = Translator.for_language(msg["lang"])


def at_the_table(handle: RoomMessage) -> Handler:
    """A message for the room's match, read once the client said hello (and while this process holds the room)."""

    async def handler(session: Session, msg: Mapping[str, Any]) -> None:
        if not session.joined:
            raise MessageError("no_hello", N_("Say hello first (with your seat token, or none to watch)."))
        if session.room.dropped:
            raise moved()
        await handle(session.room, session.conn, msg)

    return handler


HANDLERS: dict[str, Handler] = {
    "hello": hello,
    "act": at_the_table(lambda room, conn, msg: room.act(conn, msg["action"], msg["version"])),
    "undo": at_the_table(lambda room, conn, msg: room.undo(conn, msg["version"])),
    "resign": at_the_table(lambda room, conn, msg: room.resign(conn)),
    "rematch": at_the_table(lambda room, conn, msg: room.rematch(conn)),
    "log": at_the_table(lambda room, conn, msg: room.match_log(conn)),
    "sync": at_the_table(lambda room, conn, msg: room.sync(conn)),
    "lang": lang,
    "claim": at_the_table(lambda room, conn, msg: room.claim(conn, msg["take"])),
}
"""The handler of each client message, by the ``type`` :data:`~flametable.web.messages.CLIENT` declares."""


async def send_error(conn: Conn, code: str, exc: FlametableError, detail: dict[str, Any] | None = None) -> None:
    await conn.send(messages.dumps(messages.error(code, conn.tr.error(exc), detail)))


async def refused(conn: Conn, exc: FlametableError) -> None:
    """The error message of a refusal: the check's code, its text in the connection's language."""
    if isinstance(exc, (MessageError, RoomError)):
        await send_error(conn, exc.code, exc)
    elif isinstance(exc, Rejected):
        await send_error(conn, exc.kind, exc, exc.to_json())
    else:
        await send_error(conn, "refused", exc)


CLOSING: dict[str, int] = {"no_room": 4404, "too_many_sockets": 4429, "room_crowded": 4503,
                           "too_many_refusals": 4429, MOVED: 1012}
"""The refusals that end the socket, with their close codes. ``moved`` (the room's lease is another process's
now) is 1012, *service restart*: the client reconnects by itself, and its new socket reaches the room's owner."""
RATE_REFUSALS = frozenset({"too_fast", "too_many_requests"})
"""The refusals of a message past a rate (the socket's or its address's): a client that goes on sending past them
spends its budget of such refusals (``Limits.rate_refusals_per_second``, ``..._burst``; a browser, which paces
itself, meets a few at most) and is closed (``too_many_refusals``), so that it costs the server no more refusals."""


def too_fast(limits: Limits) -> FlametableError:
    return FlametableError(N_("Too many messages: at most {rate} a second. This one was not read."),
                           rate=limits.actions_per_second)


def too_many_refusals() -> FlametableError:
    return FlametableError(N_("This connection went on sending past its limits after being told: it is closed. "
                              "Reconnect, and wait for the answers before asking again."))


async def refuse(conn: Conn, code: str, exc: FlametableError) -> None:
    """Tell the client why it is refused, then close its socket with the refusal's close code (:data:`CLOSING`);
    a client gone meanwhile is no failure."""
    try:
        await send_error(conn, code, exc)
    except Exception:  # gone: nothing to tell
        log.debug("a refused client was gone before it was told")
    await conn.close(CLOSING[code])


async def dispatch(session: Session, msg: Mapping[str, Any]) -> str | None:
    """Hand a checked client message to its handler; a refusal is told to the client (and, for those of
    :data:`CLOSING`, its socket closed). The refusal's code, or None. The same for a socket of this process and
    for one another process relays (:mod:`flametable.web.cluster`)."""
    try:
        await HANDLERS[msg["type"]](session, msg)
    except RoomError as exc:
        if exc.code in CLOSING:
            await refuse(session.conn, exc.code, exc)
        else:
            await refused(session.conn, exc)
        return exc.code
    except FlametableError as exc:
        await refused(session.conn, exc)
    return None


async def failed(conn: Conn, room_id: str) -> None:
    """A message's handling failed unexpectedly (logged): the client is told, and its socket closed (1011)."""
    log.exception("room %s: a connection failed", room_id)
    try:
        await send_error(conn, "server", FlametableError(N_("The server failed on this message: the match is "
                                                            "unchanged. Reconnect to go on.")))
    except Exception:
        log.debug("room %s: could not tell the failed connection", room_id)
    await conn.close(1011)


def socket_closer(websocket: WebSocket, conn: Conn) -> Callable[[int], Awaitable[None]]:
    """``conn.close`` for a socket of this process: the close frame sent once (a client gone meanwhile is no
    failure)."""

    async def close(code: int) -> None:
        if conn.closed:
            return
        conn.closed = True
        try:
            await websocket.close(code=code)
        except Exception:  # already closed, or gone
            log.debug("a socket was closed or gone before its close (%d)", code)

    return close


async def room_socket(websocket: WebSocket) -> None:
    """A room's socket: counted for its address from the start (refused over the limit before it costs anything
    more), released exactly once however it ends."""
    await websocket.accept()
    conn = Conn(websocket.send_text, language_of(websocket), client_id(websocket))
    conn.close = socket_closer(websocket, conn)
    hall = hall_of(websocket)
    try:
        await hall.admit_socket(conn.client)
    except RoomError as exc:
        await refuse(conn, exc.code, exc)
        return
    try:
        await _serve(websocket, hall, conn)
    finally:
        await hall.release_socket(conn.client)


async def frames(websocket: WebSocket, conn: Conn) -> AsyncIterator[str | bytes]:
    """The socket's frames (text, or bytes) until the client leaves or the socket is closed."""
    while not conn.closed:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect" or conn.closed:
            return
        raw = frame.get("text")
        yield raw if raw is not None else (frame.get("bytes") or b"")


async def _serve(websocket: WebSocket, hall: Hall, conn: Conn) -> None:
    room_id = websocket.path_params["room"]
    found = await hall.find(room_id) if len(room_id) <= 64 else None
    if found is None:
        await refuse(conn, "no_room", no_room(room_id))
        return
    if not isinstance(found, Room):
        assert hall.cluster is not None
        await _relay(websocket, hall, conn, found)
        return
    session = Session(hall, found, conn)

    async def handle(msg: Mapping[str, Any]) -> str | None:
        return await dispatch(session, msg)

    try:
        await checked_frames(websocket, hall, conn, room_id, handle)
    finally:
        if session.joined:
            session.room.leave(conn)
        else:
            hall.maybe_forget(session.room)


async def _relay(websocket: WebSocket, hall: Hall, conn: Conn, remote: Remote) -> None:
    """A socket of a room another process holds (a cluster): each frame checked here as a socket of this process
    would be (size, rate, JSON and schema: :func:`checked_frames`), then sent to the room's owner, which holds
    the connection in the room as its own and sends back only what this client's audience may see."""
    assert hall.cluster is not None
    link = hall.cluster.link(remote, conn)

    async def forward(msg: Mapping[str, Any]) -> str | None:
        if "lang" in msg and msg["type"] in ("hello", "lang"):
            conn.tr = Translator.for_language(msg["lang"])  # this process's own refusals too
        await link.forward(msg)
        return None  # (the owner's refusals count there)

    try:
        await checked_frames(websocket, hall, conn, remote.room_id, forward)
    finally:
        await link.end()


async def checked_frames(websocket: WebSocket, hall: Hall, conn: Conn, room_id: str,
                         handle: Callable[[Mapping[str, Any]], Awaitable[str | None]]) -> None:
    """Each frame of the socket checked (the rate, then size, JSON and schema: :func:`messages.read`) and handed
    to ``handle``, which answers the refusal's code (or None), until the client leaves, a refusal of
    :data:`CLOSING` ends the socket, or too many refusals of :data:`RATE_REFUSALS` come too fast. The same for a
    socket of a room held here and for one relayed to another process."""
    limits = hall.limits
    refusals = Bucket(limits.rate_refusals_per_second, limits.rate_refusals_burst)
    try:
        async for raw in frames(websocket, conn):
            code: str | None = None
            if not conn.allow(limits):
                code = "too_fast"
                await send_error(conn, code, too_fast(limits))
            else:
                try:
                    msg = messages.read(raw)
                except FlametableError as exc:
                    await refused(conn, exc)
                else:
                    code = await handle(msg)
                    if code in CLOSING:
                        break
            if code in RATE_REFUSALS and not refusals.take():
                await refuse(conn, "too_many_refusals", too_many_refusals())
                break
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        raise
    except Exception:
        await failed(conn, room_id)


class NotUtf8(logging.Filter):
    """uvicorn logs an ERROR with a traceback for each WebSocket text frame that is not UTF-8 (then closes the socket
    with 1007, as it should): a client could fill the server's log with them. On the logger it is put on, this
    makes them one INFO line at most every ``interval`` seconds, which counts those it did not tell; any other
    record passes as it is."""

    MESSAGE = "Invalid UTF-8 sequence received from client."  # uvicorn's (protocols/websockets)

    def __init__(self, interval: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self.told: float | None = None  # when the last line was let through
        self.untold = 0  # frames since then

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != self.MESSAGE or record.exc_info is None or not isinstance(record.exc_info[1],
                                                                                    UnicodeDecodeError):
            return True
        now = self.clock()
        if self.told is not None and now - self.told < self.interval:
            self.untold += 1
            return False
        self.told = now
        record.msg = ("a client sent a WebSocket text frame that is not UTF-8: closed with 1007 (%d more since the "
                      "last such line; one such line every %d s at most)")
        record.args = (self.untold, round(self.interval))
        record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        self.untold = 0
        return logging.getLogger(record.name).isEnabledFor(logging.INFO)


@contextmanager
def quiet_bad_text(interval: float, logger: str = "uvicorn.error") -> Iterator[NotUtf8]:
    """:class:`NotUtf8` on uvicorn's logger while the ``with`` lasts (the server's life)."""
    found = logging.getLogger(logger)
    quiet = NotUtf8(interval)
    found.addFilter(quiet)
    try:
        yield quiet
    finally:
        found.removeFilter(quiet)


routes = [WebSocketRoute("/api/rooms/{room}/ws", counted(room_socket))]
