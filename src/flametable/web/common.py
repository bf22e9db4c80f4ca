"""What every route shares: the objects of ``app.state`` (the settings, the store, the hall), the client's
language, errors as JSON, request bodies read against their declared schemas."""

from __future__ import annotations

import hashlib
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from flametable.core.errors import FlametableError
from flametable.core.i18n import LANGUAGES, N_
from flametable.core.limits import LimitError, loads_json
from flametable.core.schema import Obj, validate
from flametable.texts.translator import Translator
from flametable.web import messages
from flametable.web.messages import MessageError
from flametable.web.rooms import Hall, Room
from flametable.web.settings import Settings

MAX_BODY_BYTES = 64 * 1024
"""The longest request body a route reads (a record file uploaded for a replay has its own limit)."""


def settings_of(request: HTTPConnection) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def hall_of(request: HTTPConnection) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


def language(request: HTTPConnection, default: str) -> Translator:
    """The client's language: ``?lang=``, else the best of ``Accept-Language``, else ``default``."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return Translator.for_language(asked)
    header = request.headers.get("accept-language", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return Translator.for_language(code)
    return Translator.for_language(default)


def language_of(request: HTTPConnection) -> Translator:
    """The client's language, else the server's (``--lang``)."""
    return language(request, settings_of(request).lang)


def client_id(request: HTTPConnection) -> str:
    """Who is asking, as the per-client limits count: a hash of the client's address (an HTTP request's or a
    WebSocket's)."""
    host = request.client.host if request.client is not None else "unknown"
    return hashlib.sha256(host.encode("utf-8")).hexdigest()[:32]


def fail(tr: Translator, code: str, exc: FlametableError, status: int) -> JSONResponse:
    """The error answer: ``{"error": code, "message": text}``, the text in the client's language."""
    return JSONResponse({"error": code, "message": tr.error(exc)}, status_code=status)


async def read_body(request: Request, tr: Translator, schema: Obj) -> dict[str, Any] | JSONResponse:
    """The request's JSON body checked against ``schema`` (an empty body: ``{}``); else the answer saying what is
    wrong with it."""
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        return fail(tr, "too_big", FlametableError(N_("A request may hold at most {limit} bytes; this one holds "
                                                       "{size}."), limit=MAX_BODY_BYTES, size=len(raw)), 413)
    try:
        data = loads_json(raw.decode("utf-8")) if raw.strip() else {}
    except (LimitError, UnicodeDecodeError, ValueError):
        return fail(tr, "bad_json", FlametableError(N_("The request is not valid JSON.")), 400)
    try:
        validate(data, schema, "request", messages.MESSAGE, error=messages.request_error, json=True)
    except MessageError as exc:
        return fail(tr, exc.code, exc, 400)
    assert isinstance(data, dict)
    return data


def no_room(room_id: str) -> FlametableError:
    return FlametableError(N_("There is no room {room!r}."), room=room_id[:64])


async def room_or_404(request: Request, tr: Translator) -> Room | Response:
    """The room of the path's ``room``, else the answer that there is none."""
    room_id = request.path_params["room"]
    room = await hall_of(request).room(room_id) if len(room_id) <= 64 else None
    if room is None:
        return fail(tr, "no_room", no_room(room_id), 404)
    return room
