"""Ended matches: a room's match as its record file, or as the steps of a replay with every audience's views; the
same steps from an uploaded record file."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.texts.translator import Translator
from flametable.web.common import (
    TooBig,
    client_id,
    fail,
    hall_of,
    language_of,
    no_room,
    read_limited,
    refuse_unread,
)
from flametable.web.replays import ReplayBusy, ReplayWorker, TooManyReplays
from flametable.web.store import PLAYING, UNPLAYED, MatchRow, record_of

RECORD_TOO_BIG = TooBig(N_("A record file may hold at most {limit} bytes; this one holds {size}."),
                        N_("A record file may hold at most {limit} bytes; this one holds more."))


async def ended_match(request: Request, tr: Translator) -> tuple[str, MatchRow] | Response:
    """The room's id and its match of the path's number, once it is over (not closed unplayed); else the answer
    saying why not (a number is ASCII digits: ``+1``, `` 1`` or ``²`` name no match). Read from the store alone: no
    room is loaded into memory for it (in a cluster, no process needs to own the room)."""
    store = hall_of(request).store
    room_id = request.path_params["room"]
    given = request.path_params["number"]
    number = int(given) if given.isascii() and given.isdigit() and len(given) <= 7 else -1
    match = await store.load_match(room_id, number) if number >= 0 and len(room_id) <= 64 else None
    if match is None:
        if len(room_id) > 64 or await store.load_room(room_id) is None:
            return fail(tr, "no_room", no_room(room_id), 404)
        return fail(tr, "no_match", FlametableError(N_("This room has no match {number}."), number=given[:20]), 404)
    if match.status == PLAYING:
        return fail(tr, "playing", FlametableError(N_("The record is released once the match is over.")), 409)
    if match.status in UNPLAYED:
        return fail(tr, "no_record", FlametableError(N_("This match was closed before it was played out: it has "
                                                        "no record.")), 409)
    return room_id, match


async def record(request: Request) -> Response:
    found = await ended_match(request, language_of(request))
    if isinstance(found, Response):
        return found
    room_id, match = found
    return Response(record_of(match).dumps() + "\n", media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{match.game}-{room_id}-{match.number}.json"'})


async def _admitted(request: Request, tr: Translator, answer: Callable[..., Response] = fail) -> Response | None:
    """None if the address may have one more replay now (counted), else ``answer``'s refusal (an upload's:
    :func:`refuse_unread`, its body not read)."""
    worker: ReplayWorker = request.app.state.replays
    try:
        await worker.admit(client_id(request))
    except TooManyReplays as exc:
        return answer(tr, "too_many_requests", exc, 429)
    return None


async def _replay(request: Request, tr: Translator, raw: bytes) -> Response:
    """The replay of the record file ``raw``, made in the server's replay worker (never in its own process)."""
    worker: ReplayWorker = request.app.state.replays
    try:
        status, body = await worker.answer(raw, tr.lang)
    except ReplayBusy as exc:
        return fail(tr, "busy", exc, 503)
    return Response(body, status_code=status, media_type="application/json")


async def room_replay(request: Request) -> Response:
    tr = language_of(request)
    found = await ended_match(request, tr)
    if isinstance(found, Response):
        return found
    refused = await _admitted(request, tr)
    if refused is not None:
        return refused
    return await _replay(request, tr, record_of(found[1]).dumps().encode("utf-8"))


async def upload_replay(request: Request) -> Response:
    tr = language_of(request)
    refused = await _admitted(request, tr, refuse_unread)  # before a byte of the body is read
    if refused is not None:
        return refused
    raw = await read_limited(request, tr, hall_of(request).limits.record_bytes, RECORD_TOO_BIG)
    if isinstance(raw, Response):
        return raw
    return await _replay(request, tr, raw)


routes: list[BaseRoute] = [
    Route("/api/rooms/{room}/matches/{number}/record", record),
    Route("/api/rooms/{room}/matches/{number}/replay", room_replay),
    Route("/api/replay", upload_replay, methods=["POST"]),
]
