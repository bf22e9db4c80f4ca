"""A room's WebSocket: each client message (declared in :data:`flametable.web.messages.CLIENT`) read, checked and
handed to its handler in :data:`HANDLERS`; each refusal an ``error`` message in the connection's language."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

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
from flametable.web.rooms import Conn, Hall, Room, RoomError

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
    """A message for the room's match, read once the client said hello."""

    async def handler(session: Session, msg: Mapping[str, Any]) -> None:
        if not session.joined:
            raise MessageError("no_hello", N_("Say hello first (with your seat token, or none to watch)."))
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


async def room_socket(websocket: WebSocket) -> None:
    await websocket.accept()
    tr = language_of(websocket)
    conn = Conn(websocket.send_text, tr, client_id(websocket))
    hall = hall_of(websocket)
    room_id = websocket.path_params["room"]
    room = await hall.room(room_id) if len(room_id) <= 64 else None
    if room is None:
        await websocket.send_text(messages.dumps(messages.error("no_room", tr.error(no_room(room_id)))))
        await websocket.close(code=4404)
        return
    session = Session(hall, room, conn)
    limits = hall.limits
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            if not conn.allow(limits):
                await send_error(conn, "too_fast", FlametableError(
                    N_("Too many messages: at most {rate} a second. This one was not read."),
                    rate=limits.actions_per_second))
                continue
            try:
                msg = messages.read(raw)
                await HANDLERS[msg["type"]](session, msg)
            except FlametableError as exc:
                await refused(conn, exc)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("room %s: a connection failed", room_id)
        try:
            await send_error(conn, "server", FlametableError(N_("The server failed on this message: the match is "
                                                                "unchanged. Reconnect to go on.")))
            await websocket.close(code=1011)
        except Exception:
            log.debug("room %s: could not close the failed connection", room_id)
    finally:
        if session.joined:
            session.room.leave(conn)
        else:
            hall.maybe_forget(session.room)


routes = [WebSocketRoute("/api/rooms/{room}/ws", counted(room_socket))]
