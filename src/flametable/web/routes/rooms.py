"""Rooms over HTTP: make one, list those waiting for a player, show one, take an open seat, close one still
waiting."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.bots.registry import BotSpecError
from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.texts.translator import Translator
from flametable.web.cluster import OPS, Answer
from flametable.web.common import client_id, fail, hall_of, language_of, no_room, read_body, room_or_404
from flametable.web.messages import CLOSE_REQUEST, JOIN_REQUEST, ROOM_REQUEST
from flametable.web.replays import problem_of
from flametable.web.rooms import MOVED, Hall, Room, RoomError, game_of, moved
from flametable.web.routes import players
from flametable.web.sessions import give_seats
from flametable.web.store import PLAYING


async def create_room(request: Request) -> Response:
    tr = language_of(request)
    body = await read_body(request, tr, ROOM_REQUEST)
    if isinstance(body, Response):
        return body
    rated_by = await players.rated_creation(request, tr, body)  # a rated room: its creator's account, signed in
    if isinstance(rated_by, Response):
        return rated_by
    try:
        room, tokens = await hall_of(request).create(body["game"], body.get("options"), body["seats"],
                                                      client_id(request), body.get("clock"))
    except RoomError as exc:
        return fail(tr, exc.code, exc, exc.status)
    except registry.UnknownGame as exc:
        return fail(tr, "unknown_game", exc, 400)
    except BotSpecError as exc:
        return fail(tr, "bad_seats", exc, 400)
    except FlametableError as exc:
        return fail(tr, "bad_options", exc, 400)
    await give_seats(request, room.id, tokens)  # a signed-in creator's seats belong to the account
    player = min(tokens) if tokens else None
    if rated_by is not None and player is not None:
        refused = await players.rated_made(request, tr, room.id, rated_by, tokens[player])
        if refused is not None:
            return refused
    return JSONResponse({"room": room.id, "link": f"/rooms/{room.id}", "player": player,
                         "token": tokens.get(player) if player is not None else None,
                         "tokens": {str(p): t for p, t in tokens.items()}}, status_code=201)


async def list_rooms(request: Request) -> Response:
    hall = hall_of(request)
    rows = await hall.store.waiting_rooms(since=hall.cutoff())  # none past its time, swept or not
    out = []
    now = hall.clock()
    if hall.cluster is not None:  # each room as its owner knows it; a room nobody holds, from the store
        known = await hall.cluster.summaries([row.id for row in rows])
        for row in rows:
            summary = known.get(row.id) or await stored_summary(hall, row.id)
            if summary is not None and summary["status"] == PLAYING:
                out.append({**summary, "waited": max(0.0, now - row.created_at)})
    else:
        for row in rows:
            room = await hall.room(row.id)
            if room is not None and room.playing:
                out.append({**room.summary(), "waited": max(0.0, now - row.created_at)})  # seconds (issue 25)
                hall.maybe_forget(room)
    await players.with_ratings(request, out)  # rated, and the creator's name and rating (an account's room)
    return JSONResponse({"rooms": out})


async def stored_summary(hall: Hall, room_id: str) -> dict[str, Any] | None:
    """What anyone may know of a room nobody holds, from the store (nobody is connected to it): the room is not
    taken for it."""
    row = await hall.store.load_room(room_id)
    return None if row is None else Room(hall, row, game_of(row.game)).summary()


async def show_answer(hall: Hall, request: Mapping[str, Any], tr: Translator, remote: bool) -> Answer:
    room_id = str(request["room"])
    room = hall.rooms.get(room_id)
    if room is not None:
        return 200, room.summary()
    if remote:  # asked as its owner: it is not this process's any more
        raise moved()
    summary = await stored_summary(hall, room_id)
    if summary is None:
        return 404, {"error": "no_room", "message": tr.error(no_room(room_id))}
    return 200, summary


async def summaries_answer(hall: Hall, request: Mapping[str, Any], tr: Translator, remote: bool) -> Answer:
    return 200, {"rooms": {room_id: hall.rooms[room_id].summary() for room_id in request["rooms"]
                           if isinstance(room_id, str) and room_id in hall.rooms}}


async def join_answer(hall: Hall, request: Mapping[str, Any], tr: Translator, remote: bool) -> Answer:
    room_id = str(request["room"])
    try:
        room, player, token, brought = await hall.join(room_id, request.get("player"), request.get("brings"))
    except RoomError as exc:
        refused = hall.rooms.get(room_id)  # loaded to be asked: not kept for a seat it could not give
        if refused is not None:
            hall.maybe_forget(refused)
        if exc.code == MOVED:
            raise
        return exc.status, {"error": exc.code, "message": tr.error(exc)}
    except FlametableError as exc:  # what the joiner brought, refused by the game: as a creator's options are
        refused = hall.rooms.get(room_id)
        if refused is not None:
            hall.maybe_forget(refused)
        return 400, {"error": "bad_options", "message": tr.error(exc), "problem": problem_of(exc, tr)}
    return 200, {"room": room.id, "player": player, "token": token, "brought": brought}


async def close_answer(hall: Hall, request: Mapping[str, Any], tr: Translator, remote: bool) -> Answer:
    try:
        room = await hall.close_room(str(request["room"]), str(request["token"]))
    except RoomError as exc:
        if exc.code == MOVED:
            raise
        return exc.status, {"error": exc.code, "message": tr.error(exc)}
    return 200, room.summary()


OPS.update({"show": show_answer, "summaries": summaries_answer, "join": join_answer, "close": close_answer})


async def answered(request: Request, op: str, fields: Mapping[str, Any], *, take: bool) -> Response:
    """The answer to a request on the path's room: here on a single server; in a cluster, where the room is."""
    status, body = await answer_of(request, op, fields, take=take)
    return JSONResponse(body, status_code=status)


async def answer_of(request: Request, op: str, fields: Mapping[str, Any], *, take: bool) -> Answer:
    """:func:`answered`'s status and JSON body."""
    hall, tr = hall_of(request), language_of(request)
    room_id = request.path_params["room"]
    if len(room_id) > 64:
        return 404, {"error": "no_room", "message": tr.error(no_room(room_id))}
    if hall.cluster is not None:
        return await hall.cluster.forward(op, room_id, tr, fields, take=take)
    return await OPS[op](hall, {"room": room_id, **fields}, tr, False)


async def show_room(request: Request) -> Response:
    if hall_of(request).cluster is not None:
        status, answer = await answer_of(request, "show", {}, take=False)
        if status == 200:
            answer["rated"] = await players.is_rated(request, answer["room"])
            await players.with_names(request, answer)
        return JSONResponse(answer, status_code=status)
    room = await room_or_404(request, language_of(request))
    if isinstance(room, Response):
        return room
    summary = room.summary()
    hall_of(request).maybe_forget(room)
    summary["rated"] = await players.is_rated(request, room.id)
    await players.with_names(request, summary)  # who is waiting there, by their account's name (issue 25)
    return JSONResponse(summary)


async def join_room(request: Request) -> Response:
    body = await read_body(request, language_of(request), JOIN_REQUEST)
    if isinstance(body, Response):
        return body
    tr = language_of(request)
    joiner = await players.rated_joining(request, tr, request.path_params["room"][:64], body)  # a rated room
    if isinstance(joiner, Response):
        return joiner
    status, answer = await answer_of(request, "join", {"player": body.get("player"), "brings": body.get("brings")},
                                     take=True)
    if status == 200:
        await give_seats(request, answer["room"], [answer["player"]])  # a signed-in player's seat: the account's
        if joiner is not None:
            await players.rated_joined(request, answer["room"], joiner)
    return JSONResponse(answer, status_code=status)


async def close_room(request: Request) -> Response:
    body = await read_body(request, language_of(request), CLOSE_REQUEST)
    if isinstance(body, Response):
        return body
    return await answered(request, "close", {"token": body["token"]}, take=True)


routes: list[BaseRoute] = [
    Route("/api/rooms", create_room, methods=["POST"]),
    Route("/api/rooms", list_rooms, methods=["GET"]),
    Route("/api/rooms/{room}", show_room),
    Route("/api/rooms/{room}/join", join_room, methods=["POST"]),
    Route("/api/rooms/{room}/close", close_room, methods=["POST"]),
]
