"""Rooms over HTTP: make one, list those waiting for a player, show one, take an open seat, close one still
waiting."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.bots.registry import BotSpecError
from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.web.common import client_id, fail, hall_of, language_of, read_body, room_or_404
from flametable.web.messages import CLOSE_REQUEST, JOIN_REQUEST, ROOM_REQUEST
from flametable.web.rooms import RoomError
from flametable.web.routes import players
from flametable.web.sessions import give_seats


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
                                                      client_id(request))
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
    for row in rows:
        room = await hall.room(row.id)
        if room is not None and room.playing:
            out.append(room.summary())
            hall.maybe_forget(room)
    await players.with_ratings(request, out)  # rated, and the creator's name and rating (an account's room)
    return JSONResponse({"rooms": out})


async def show_room(request: Request) -> Response:
    room = await room_or_404(request, language_of(request))
    if isinstance(room, Response):
        return room
    summary = room.summary()
    hall_of(request).maybe_forget(room)
    summary["rated"] = await players.is_rated(request, room.id)
    return JSONResponse(summary)


async def join_room(request: Request) -> Response:
    tr = language_of(request)
    body = await read_body(request, tr, JOIN_REQUEST)
    if isinstance(body, Response):
        return body
    hall, room_id = hall_of(request), request.path_params["room"][:64]
    joiner = await players.rated_joining(request, tr, room_id, body)  # a rated room: the joiner's account
    if isinstance(joiner, Response):
        return joiner
    try:
        room, player, token = await hall.join(room_id, body.get("player"))
    except RoomError as exc:
        refused = hall.rooms.get(room_id)  # loaded to be asked: not kept for a seat it could not give
        if refused is not None:
            hall.maybe_forget(refused)
        return fail(tr, exc.code, exc, exc.status)
    await give_seats(request, room.id, [player])  # a signed-in player's seat belongs to the account
    if joiner is not None:
        await players.rated_joined(request, room.id, joiner)
    return JSONResponse({"room": room.id, "player": player, "token": token})


async def close_room(request: Request) -> Response:
    tr = language_of(request)
    body = await read_body(request, tr, CLOSE_REQUEST)
    if isinstance(body, Response):
        return body
    try:
        room = await hall_of(request).close_room(request.path_params["room"][:64], body["token"])
    except RoomError as exc:
        return fail(tr, exc.code, exc, exc.status)
    return JSONResponse(room.summary())


routes: list[BaseRoute] = [
    Route("/api/rooms", create_room, methods=["POST"]),
    Route("/api/rooms", list_rooms, methods=["GET"]),
    Route("/api/rooms/{room}", show_room),
    Route("/api/rooms/{room}/join", join_room, methods=["POST"]),
    Route("/api/rooms/{room}/close", close_room, methods=["POST"]),
]
