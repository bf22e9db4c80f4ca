"""Ended matches: a room's match as its record file, or as the steps of a replay with every audience's views; the
same steps from an uploaded record file."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.core import registry
from flametable.core.errors import FlametableError, RecordError
from flametable.core.i18n import N_
from flametable.core.record import MatchRecord
from flametable.texts.translator import Translator
from flametable.web.common import TooBig, fail, hall_of, language_of, read_limited, room_or_404
from flametable.web.replays import ReplayError, read_record, replay_steps
from flametable.web.rooms import Room
from flametable.web.store import PLAYING, UNPLAYED, MatchRow, record_of

RECORD_TOO_BIG = TooBig(N_("A record file may hold at most {limit} bytes; this one holds {size}."),
                        N_("A record file may hold at most {limit} bytes; this one holds more."))


async def ended_match(request: Request, tr: Translator) -> tuple[Room, MatchRow] | Response:
    """The room's match of the path's number, once it is over (not closed unplayed); else the answer saying why
    not (a number is ASCII digits: ``+1``, `` 1`` or ``²`` name no match)."""
    room = await room_or_404(request, tr)
    if isinstance(room, Response):
        return room
    room.hall.maybe_forget(room)  # read for its id: not kept in memory for this (nobody may be in it)
    given = request.path_params["number"]
    number = int(given) if given.isascii() and given.isdigit() and len(given) <= 7 else -1
    match = await room.hall.store.load_match(room.id, number) if number >= 0 else None
    if match is None:
        return fail(tr, "no_match", FlametableError(N_("This room has no match {number}."), number=given[:20]), 404)
    if match.status == PLAYING:
        return fail(tr, "playing", FlametableError(N_("The record is released once the match is over.")), 409)
    if match.status in UNPLAYED:
        return fail(tr, "no_record", FlametableError(N_("This match was closed before it was played out: it has "
                                                        "no record.")), 409)
    return room, match


async def record(request: Request) -> Response:
    found = await ended_match(request, language_of(request))
    if isinstance(found, Response):
        return found
    room, match = found
    return Response(record_of(match).dumps() + "\n", media_type="application/json", headers={
        "content-disposition": f'attachment; filename="{match.game}-{room.id}-{match.number}.json"'})


async def _replay(tr: Translator, rec: MatchRecord) -> Response:
    try:
        steps = await asyncio.to_thread(replay_steps, rec, tr)
    except registry.UnknownGame as exc:
        return fail(tr, "unknown_game", exc, 400)
    except (RecordError, ReplayError) as exc:
        return fail(tr, "bad_record", exc, 400)
    return JSONResponse(steps)


async def room_replay(request: Request) -> Response:
    tr = language_of(request)
    found = await ended_match(request, tr)
    if isinstance(found, Response):
        return found
    return await _replay(tr, record_of(found[1]))


async def upload_replay(request: Request) -> Response:
    tr = language_of(request)
    raw = await read_limited(request, tr, hall_of(request).limits.record_bytes, RECORD_TOO_BIG)
    if isinstance(raw, Response):
        return raw
    try:
        rec = read_record(raw)
    except RecordError as exc:
        return fail(tr, "bad_record", exc, 400)
    return await _replay(tr, rec)


routes: list[BaseRoute] = [
    Route("/api/rooms/{room}/matches/{number}/record", record),
    Route("/api/rooms/{room}/matches/{number}/replay", room_replay),
    Route("/api/replay", upload_replay, methods=["POST"]),
]
