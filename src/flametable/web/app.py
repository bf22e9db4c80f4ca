"""The HTTP and WebSocket routes of the game server (Starlette). No game rule here: rooms drive matches through the
common protocol and the match service.

==========================================  ===================================================================
``GET  /healthz``                           ``{"status": "ok"}`` once the database answers (503 before)
``GET  /api/games``                         the registry's games: name, title, bot levels, client piece, options
``GET  /games/NAME/static/FILE``            a file of the game's client piece (``client``)
``POST /api/rooms``                         make a room: ``{"game", "options", "seats": [s0, s1]}``, each seat
                                            ``"me"``, ``"open"`` or a bot (``"bot:hard"``); returns its id, link
                                            and the creator's seat token
``GET  /api/rooms``                         the rooms waiting for a player
``GET  /api/rooms/ID``                      what anyone may know of a room
``POST /api/rooms/ID/join``                 take an open seat (``{"player": 0|1}`` optional): its token
``GET  /api/rooms/ID/matches/N/record``     the record of an ended match (the terminal's record file)
``GET  /api/rooms/ID/matches/N/replay``     the steps of an ended match with every audience's views (``replays``)
``POST /api/replay``                        the same steps from an uploaded record file
``POST /api/games/NAME/options/check``      ``{"options": ...}`` checked by the game (own decks): ok or the problem
``WS   /api/rooms/ID/ws``                   the room's events and the players' messages (``messages``)
==========================================  ===================================================================

Every error is JSON ``{"error": code, "message": text}`` (HTTP) or an ``error`` event (WebSocket), its text in the
client's language: ``?lang=es``, else the ``Accept-Language`` header, else the server's ``--lang``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from flametable.bots.registry import BotSpecError, bot_names
from flametable.core import registry
from flametable.core.errors import FlametableError, RecordError
from flametable.core.i18n import LANGUAGES, N_
from flametable.core.limits import LimitError, loads_json
from flametable.core.record import MatchRecord
from flametable.core.schema import Anything, Int, List, Obj, Str, validate
from flametable.service import Rejected
from flametable.texts.translator import DOMAIN, LOCALE_DIR, Translator
from flametable.web import client, messages
from flametable.web.messages import MessageError
from flametable.web.replays import (
    ReplayError,
    check_options,
    problem_of,
    read_record,
    replay_steps,
)
from flametable.web.rooms import Conn, Hall, Limits, Room, RoomError, game_of, new_seed, watch_parent
from flametable.web.store import MatchRow, Store, record_of

log = logging.getLogger("flametable.web")

STATIC = Path(__file__).resolve().parent / "static"
"""The browser client: plain ES modules and one style sheet, served as they are (no build step)."""

MAX_BODY_BYTES = 64 * 1024
ROOM_REQUEST = Obj(
    required={"game": Str(max_len=100, description="a game of the registry"),
              "seats": List(Str(max_len=100), min=2, max=2,
                            description='each seat: "me", "open" or a bot spec ("bot:hard")')},
    optional={"options": Anything("object", "the game's options (checked by the game)")},
    title="room request",
)
OPTIONS_CHECK = Obj(required={"options": Anything("object", "the game's options (checked by the game)")},
                    title="options check")
MAX_UPLOAD_BYTES = 1024 * 1024
JOIN_REQUEST = Obj(optional={"player": Int(0, 1, "the seat wanted (default: the first open one)")},
                   title="join request")


@dataclass
class Settings:
    """How one server runs: its database, its language, where bots think, its limits."""

    db_url: str
    lang: str = "en"
    bots: str = "process"  # "process" (a pool of worker processes), "thread" (tests) or "inline"
    bot_workers: int | None = None
    limits: Limits | None = None
    seeds: Callable[[], int] = new_seed
    migrate: bool = True
    open_store: Callable[..., Awaitable[Any]] = Store.open  # (url, migrate=...) -> a Store (tests: one in memory)


def _executor(settings: Settings) -> Executor | None:
    if settings.bots == "process":
        return ProcessPoolExecutor(settings.bot_workers, mp_context=get_context("spawn"), initializer=watch_parent,
                                   initargs=(os.getpid(),))
    if settings.bots == "thread":
        return ThreadPoolExecutor(settings.bot_workers or 2, thread_name_prefix="flametable-bot")
    return None


def language(request: Request | WebSocket, default: str) -> Translator:
    """The client's language: ``?lang=``, else the best of ``Accept-Language``, else the server's."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return Translator.for_language(asked)
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return Translator.for_language(code)
    return Translator.for_language(default)


def _client(request: Request) -> str:
    host = request.client.host if request.client is not None else "unknown"
    return hashlib.sha256(host.encode("utf-8")).hexdigest()[:32]


def _fail(tr: Translator, code: str, exc: FlametableError, status: int) -> JSONResponse:
    return JSONResponse({"error": code, "message": tr.error(exc)}, status_code=status)


async def _body(request: Request, tr: Translator, schema: Obj) -> dict[str, Any] | JSONResponse:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        return _fail(tr, "too_big", FlametableError(N_("A request may hold at most {limit} bytes; this one holds "
                                                        "{size}."), limit=MAX_BODY_BYTES, size=len(raw)), 413)
    try:
        data = loads_json(raw.decode("utf-8")) if raw.strip() else {}
    except (LimitError, UnicodeDecodeError, ValueError):
        return _fail(tr, "bad_json", FlametableError(N_("The request is not valid JSON.")), 400)
    try:
        validate(data, schema, "request", messages.MESSAGE, error=messages.request_error, json=True)
    except MessageError as exc:
        return _fail(tr, exc.code, exc, 400)
    assert isinstance(data, dict)
    return data


@cache
def client_texts(lang: str) -> dict[str, str | list[str]]:
    """The translations of the browser client's messages (the catalogue's entries found in ``web/static``): a
    message's translation by its English text; a plural message's forms, in gettext's order, by its English
    singular (``ngettext`` in ``js/i18n.js``). A message not yet translated is left out (the client shows the
    English)."""
    if lang == "en":
        return {}
    from babel.messages.pofile import read_po

    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    texts: dict[str, str | list[str]] = {}
    for m in catalog:
        if not m.id or not any("/static/" in where for where, _ in m.locations):  # web/static, games/*/static
            continue
        if isinstance(m.id, str):
            if m.string:
                texts[m.id] = str(m.string)
        elif isinstance(m.string, (tuple, list)) and all(m.string):
            texts[str(m.id[0])] = [str(form) for form in m.string]
    return texts


def create_app(settings: Settings) -> Starlette:
    """The server's application: its store opened (and migrated) at start-up, closed at shutdown."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await settings.open_store(settings.db_url, migrate=settings.migrate)
        executor = _executor(settings)
        hall = Hall(store, executor=executor, seeds=settings.seeds, limits=settings.limits)
        app.state.store, app.state.hall = store, hall
        try:
            yield
        finally:
            await hall.close()
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            await store.close()

    def hall_of(request: Request | WebSocket) -> Hall:
        hall: Hall = request.app.state.hall
        return hall

    async def healthz(request: Request) -> Response:
        store: Store | None = getattr(request.app.state, "store", None)
        if store is None or not await store.ping():
            return JSONResponse({"status": "starting"}, status_code=503)
        return JSONResponse({"status": "ok"})

    async def games(request: Request) -> Response:
        tr = language(request, settings.lang)
        out = []
        for name in registry.names():
            entry = registry.get(name)
            bots = bot_names(game_of(name))  # only bot:random for a game whose bots know no determiniser
            out.append({"name": name, "title": tr.translate(entry.title),
                        "bots": [f"bot:{level}" for level in bots if level != "ismcts:N"],
                        **client.client_json(entry, tr)})
        return JSONResponse({"games": out})

    async def create_room(request: Request) -> Response:
        tr = language(request, settings.lang)
        body = await _body(request, tr, ROOM_REQUEST)
        if isinstance(body, Response):
            return body
        try:
            room, tokens = await hall_of(request).create(body["game"], body.get("options"), body["seats"],
                                                          _client(request))
        except RoomError as exc:
            return _fail(tr, exc.code, exc, exc.status)
        except registry.UnknownGame as exc:
            return _fail(tr, "unknown_game", exc, 400)
        except BotSpecError as exc:
            return _fail(tr, "bad_seats", exc, 400)
        except FlametableError as exc:
            return _fail(tr, "bad_options", exc, 400)
        player = min(tokens) if tokens else None
        return JSONResponse({"room": room.id, "link": f"/rooms/{room.id}", "player": player,
                             "token": tokens.get(player) if player is not None else None,
                             "tokens": {str(p): t for p, t in tokens.items()}}, status_code=201)

    async def list_rooms(request: Request) -> Response:
        hall = hall_of(request)
        rows = await hall.store.waiting_rooms()
        out = []
        for row in rows:
            room = await hall.room(row.id)
            if room is not None:
                out.append(room.summary())
                hall.maybe_forget(room)
        return JSONResponse({"rooms": out})

    async def _room_or_404(request: Request, tr: Translator) -> Room | Response:
        room_id = request.path_params["room"]
        room = await hall_of(request).room(room_id) if len(room_id) <= 64 else None
        if room is None:
            return _fail(tr, "no_room", FlametableError(N_("There is no room {room!r}."), room=room_id[:64]), 404)
        return room

    async def show_room(request: Request) -> Response:
        tr = language(request, settings.lang)
        room = await _room_or_404(request, tr)
        if isinstance(room, Response):
            return room
        summary = room.summary()
        hall_of(request).maybe_forget(room)
        return JSONResponse(summary)

    async def join_room(request: Request) -> Response:
        tr = language(request, settings.lang)
        body = await _body(request, tr, JOIN_REQUEST)
        if isinstance(body, Response):
            return body
        try:
            room, player, token = await hall_of(request).join(request.path_params["room"][:64], body.get("player"))
        except RoomError as exc:
            return _fail(tr, exc.code, exc, exc.status)
        return JSONResponse({"room": room.id, "player": player, "token": token})

    async def _ended_match(request: Request, tr: Translator) -> tuple[Room, MatchRow] | Response:
        """The room's match of the path's number, once it is over; else the answer saying why not (a number is
        ASCII digits: ``+1``, `` 1`` or ``²`` name no match)."""
        room = await _room_or_404(request, tr)
        if isinstance(room, Response):
            return room
        given = request.path_params["number"]
        number = int(given) if given.isascii() and given.isdigit() and len(given) <= 7 else -1
        match = await room.hall.store.load_match(room.id, number) if number >= 0 else None
        if match is None:
            return _fail(tr, "no_match", FlametableError(N_("This room has no match {number}."), number=given[:20]),
                         404)
        if match.status == "playing":
            return _fail(tr, "playing", FlametableError(N_("The record is released once the match is over.")), 409)
        return room, match

    async def record(request: Request) -> Response:
        tr = language(request, settings.lang)
        found = await _ended_match(request, tr)
        if isinstance(found, Response):
            return found
        room, match = found
        return Response(record_of(match).dumps() + "\n", media_type="application/json", headers={
            "content-disposition": f'attachment; filename="{match.game}-{room.id}-{match.number}.json"'})

    async def room_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        tr = language(websocket, settings.lang)
        conn = Conn(websocket.send_text, tr)
        hall = hall_of(websocket)
        room_id = websocket.path_params["room"]
        room = await hall.room(room_id) if len(room_id) <= 64 else None
        if room is None:
            await websocket.send_text(messages.dumps(messages.error(
                "no_room", tr.error(FlametableError(N_("There is no room {room!r}."), room=room_id[:64])))))
            await websocket.close(code=4404)
            return
        limits = hall.limits
        joined = False
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:
                    raw = frame.get("bytes") or b""
                if not conn.allow(limits):
                    await _send_error(conn, "too_fast", FlametableError(
                        N_("Too many messages: at most {rate} a second. This one was not read."),
                        rate=limits.actions_per_second))
                    continue
                try:
                    msg = messages.read(raw)
                    kind = msg["type"]
                    if kind == "hello":
                        if joined:
                            raise MessageError("hello_twice", N_("You said hello already on this connection."))
                        if "lang" in msg:
                            conn.tr = Translator.for_language(msg["lang"])
                        # the room as the hall holds it now: one nobody was in may have been forgotten since
                        room = await hall.room(room_id) or room
                        await room.hello(conn, msg)
                        joined = True
                        continue
                    if kind == "lang":
                        conn.tr = Translator.for_language(msg["lang"])
                        continue
                    if not joined:
                        raise MessageError("no_hello", N_("Say hello first (with your seat token, or none to watch)."))
                    if kind == "act":
                        await room.act(conn, msg["action"], msg["version"])
                    elif kind == "undo":
                        await room.undo(conn, msg["version"])
                    elif kind == "resign":
                        await room.resign(conn)
                    elif kind == "rematch":
                        await room.rematch(conn)
                    elif kind == "log":
                        await room.match_log(conn)
                    elif kind == "sync":
                        await room.sync(conn)
                except MessageError as exc:
                    await _send_error(conn, exc.code, exc)
                except RoomError as exc:
                    await _send_error(conn, exc.code, exc)
                except Rejected as exc:
                    await _send_error(conn, exc.kind, exc, exc.to_json())
                except FlametableError as exc:
                    await _send_error(conn, "refused", exc)
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: a connection failed", room_id)
            try:
                await _send_error(conn, "server", FlametableError(N_("The server failed on this message: the "
                                                                     "match is unchanged. Reconnect to go on.")))
                await websocket.close(code=1011)
            except Exception:
                log.debug("room %s: could not close the failed connection", room_id)
        finally:
            if joined:
                room.leave(conn)
            else:
                hall.maybe_forget(room)

    async def _send_error(conn: Conn, code: str, exc: FlametableError,
                          detail: dict[str, Any] | None = None) -> None:
        await conn.send(messages.dumps(messages.error(code, conn.tr.error(exc), detail)))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def texts(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            tr = language(request, settings.lang)
            return _fail(tr, "no_language", FlametableError(N_("There is no language {lang!r}: choose one of "
                                                                "{languages}."), lang=lang[:20],
                                                             languages=", ".join(LANGUAGES)), 404)
        return JSONResponse(client_texts(lang), headers={"cache-control": "no-cache"})

    async def facts(request: Request) -> Response:
        tr = language(request, settings.lang)
        name = request.path_params["name"]
        entry = registry.find(name[:100])
        piece = entry.piece("facts") if entry is not None else None
        if entry is None or piece is None:
            return _fail(tr, "no_facts", FlametableError(N_("The game {game!r} has no pieces to draw: play it in its "
                                                            "notation."), game=name[:100]), 404)
        return JSONResponse(piece(game_of(entry.name), tr))

    async def check_game_options(request: Request) -> Response:
        tr = language(request, settings.lang)
        body = await _body(request, tr, OPTIONS_CHECK)
        if isinstance(body, Response):
            return body
        try:
            check_options(request.path_params["name"][:100], body["options"])
        except registry.UnknownGame as exc:
            return _fail(tr, "unknown_game", exc, 404)
        except FlametableError as exc:
            return JSONResponse({"error": "bad_options", "message": tr.error(exc), "problem": problem_of(exc, tr)},
                                status_code=400)
        return JSONResponse({"ok": True})

    async def _replay(tr: Translator, rec: MatchRecord) -> Response:
        try:
            steps = await asyncio.to_thread(replay_steps, rec, tr)
        except registry.UnknownGame as exc:
            return _fail(tr, "unknown_game", exc, 400)
        except (RecordError, ReplayError) as exc:
            return _fail(tr, "bad_record", exc, 400)
        return JSONResponse(steps)

    async def room_replay(request: Request) -> Response:
        tr = language(request, settings.lang)
        found = await _ended_match(request, tr)
        if isinstance(found, Response):
            return found
        return await _replay(tr, record_of(found[1]))

    async def upload_replay(request: Request) -> Response:
        tr = language(request, settings.lang)
        raw = await request.body()
        if len(raw) > MAX_UPLOAD_BYTES:
            return _fail(tr, "too_big", FlametableError(N_("A record file may hold at most {limit} bytes; this one "
                                                            "holds {size}."), limit=MAX_UPLOAD_BYTES, size=len(raw)),
                         413)
        try:
            rec = read_record(raw)
        except RecordError as exc:
            return _fail(tr, "bad_record", exc, 400)
        return await _replay(tr, rec)

    routes = [
        Route("/", page),
        Route("/api/games/{name}/options/check", check_game_options, methods=["POST"]),
        Route("/api/rooms/{room}/matches/{number}/replay", room_replay),
        Route("/api/replay", upload_replay, methods=["POST"]),
        Route("/api/games/{name}/facts", facts),
        Route("/rooms/{room}", page),
        Route("/replay", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        *client.routes(page),
        Route("/api/texts/{lang}", texts),
        Route("/healthz", healthz),
        Route("/api/games", games),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{room}", show_room),
        Route("/api/rooms/{room}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{room}/matches/{number}/record", record),
        WebSocketRoute("/api/rooms/{room}/ws", room_socket),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
