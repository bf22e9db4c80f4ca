"""What every route shares: the objects of ``app.state`` (the settings, the store, the hall), the client's
language, errors as JSON, request bodies read within their limits and against their declared schemas.

A body is read by :func:`read_limited` alone (no route calls ``request.body()`` or ``request.json()``): a declared
``Content-Length`` past the limit is refused before a byte is read, and any body (one sent in chunks, with no
length, or one longer than it said) is read as a stream that stops as soon as it passes the limit, so a request
never costs the server more memory than its limit, whatever it sends."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

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


class TooBig(NamedTuple):
    """How a refused body is told: when its size is known (its ``Content-Length``: ``{limit}`` and ``{size}``), and
    when it is not (a body sent with no length, in chunks: ``{limit}``)."""

    sized: str
    unsized: str


REQUEST_TOO_BIG = TooBig(N_("A request may hold at most {limit} bytes; this one holds {size}."),
                         N_("A request may hold at most {limit} bytes; this one holds more."))


def refuse_unread(tr: Translator, code: str, exc: FlametableError, status: int) -> JSONResponse:
    """The answer to a body not read to its end: the connection closes after it, so that the server does not go on
    receiving (and dropping) the rest of the body."""
    response = fail(tr, code, exc, status)
    response.headers["connection"] = "close"
    return response


async def read_limited(request: Request, tr: Translator, limit: int,
                       too_big: TooBig = REQUEST_TOO_BIG) -> bytes | JSONResponse:
    """The request's body, at most ``limit`` bytes; else the answer: 400 ``bad_length`` for a ``Content-Length``
    that is no number of bytes (or two that differ) or a body longer than it, 413 ``too_big`` for a body past the
    limit, said by its ``Content-Length`` (then nothing is read) or found on the way (then reading stops at the
    chunk that passes it); 429 ``too_many_requests`` past the address's budget of requests with a body (then
    nothing is read)."""
    hall = hall_of(request)
    if not await hall.allow_body(client_id(request)):
        return refuse_unread(tr, "too_many_requests", FlametableError(
            N_("Too many requests from your address: at most {rate} a second. This one was not read; try again in a "
               "moment."), rate=hall.limits.bodies_per_second), 429)
    lengths = set(request.headers.getlist("content-length"))
    declared: int | None = None
    if lengths:
        given = lengths.pop().strip()
        if lengths or not (given.isascii() and given.isdigit()) or len(given) > 20:
            return refuse_unread(tr, "bad_length", FlametableError(N_("The request's Content-Length is not a number of "
                                                                 "bytes.")), 400)
        declared = int(given)
        if declared > limit:
            return refuse_unread(tr, "too_big", FlametableError(too_big.sized, limit=limit, size=declared), 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if declared is not None and size > declared:
            return refuse_unread(tr, "bad_length", FlametableError(N_("The request's body is longer than its "
                                                                 "Content-Length says.")), 400)
        if size > limit:
            return refuse_unread(tr, "too_big", FlametableError(too_big.unsized, limit=limit), 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_body(request: Request, tr: Translator, schema: Obj) -> dict[str, Any] | JSONResponse:
    """The request's JSON body (at most the limits' ``body_bytes``) checked against ``schema`` (an empty body:
    ``{}``); else the answer saying what is wrong with it."""
    raw = await read_limited(request, tr, hall_of(request).limits.body_bytes)
    if isinstance(raw, Response):
        return raw
    body = raw.strip(b" \t\n\r")  # JSON's whitespace around the value means nothing: not scanned (a body padded
    # with it to the limit cost 2.7 ms of the loop in the limits' scan)
    try:
        data = loads_json(body.decode("utf-8")) if body else {}
    except LimitError as exc:
        return fail(tr, "bad_json", FlametableError(N_("The request is not valid JSON: {problem}"), problem=exc), 400)
    except (UnicodeDecodeError, ValueError):
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
