"""Accounts over HTTP (issue 23; ``docs/server.md``, Accounts): signing up, in and out, the password changed, the
account deleted, who is signed in, their matches going on, and a fresh seat token for one of them (to take the
seat up on another device). The rules are :mod:`flametable.web.accounts`'; the cookie and the CSRF check
:mod:`flametable.web.sessions`'."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.texts.translator import Translator
from flametable.web.accounts import AccountError, csrf_token, session_hash, signed_out
from flametable.web.cluster import OPS, Answer
from flametable.web.common import client_id, fail, hall_of, language_of, read_body, refuse_unread
from flametable.web.messages import (
    DELETE_REQUEST,
    PASSWORD_REQUEST,
    SEAT_REQUEST,
    SIGN_IN_REQUEST,
    SIGN_UP_REQUEST,
)
from flametable.web.rooms import Hall, moved, new_token, room_closed, token_hash
from flametable.web.sessions import (
    COOKIE,
    Current,
    account_json,
    accounts_of,
    clear_cookie,
    cookie_of,
    cross_site,
    forget_session,
    same_origin,
    session_of,
    set_cookie,
)
from flametable.web.store import AccountRow, StoreError

log = logging.getLogger("flametable.web")


def store_failed(tr: Translator) -> Response:
    return fail(tr, "store", FlametableError(N_("The server could not reach its database: nothing was changed. "
                                                "Try again.")), 503)


async def _signed_in(request: Request, tr: Translator, account: AccountRow, seats: list[Mapping[str, str]],
                     status: int) -> Response:
    """The answer of a sign-up or a sign-in: a NEW session (the one the request came with, if any, ended: a cookie
    set before signing in is never the session after), the tab's seats given to the account, the cookie set."""
    accounts = accounts_of(request)
    sent = cookie_of(request)
    session_id = await accounts.new_session(account, ending=session_hash(sent) if sent is not None else None)
    attached = await accounts.store.attach_tokens(
        account.id, [(seat["room"], token_hash(seat["token"])) for seat in seats])
    body = {"account": {"name": account.name, "created_at": account.created_at},
            "csrf": csrf_token(session_id),
            "seats": [{"room": room, "player": player} for room, player in attached]}
    response = JSONResponse(body, status_code=status)
    set_cookie(response, request, session_id, accounts.limits.session_seconds)
    return response


async def sign_up(request: Request) -> Response:
    tr = language_of(request)
    if not same_origin(request):  # another site's form signing the browser up (and in): refused unread
        return refuse_unread(tr, "csrf", cross_site(), 403)
    body = await read_body(request, tr, SIGN_UP_REQUEST)
    if isinstance(body, Response):
        return body
    try:
        account = await accounts_of(request).sign_up(body["name"], body["password"], client_id(request))
        return await _signed_in(request, tr, account, body.get("seats", []), 201)
    except AccountError as exc:
        return fail(tr, exc.code, exc, exc.status)
    except StoreError:
        log.exception("signing up failed")
        return store_failed(tr)


async def sign_in(request: Request) -> Response:
    tr = language_of(request)
    if not same_origin(request):  # another site's form signing the browser into another account
        return refuse_unread(tr, "csrf", cross_site(), 403)
    body = await read_body(request, tr, SIGN_IN_REQUEST)
    if isinstance(body, Response):
        return body
    try:
        account = await accounts_of(request).sign_in(body["name"], body["password"], client_id(request))
        return await _signed_in(request, tr, account, body.get("seats", []), 200)
    except AccountError as exc:
        return fail(tr, exc.code, exc, exc.status)
    except StoreError:
        log.exception("signing in failed")
        return store_failed(tr)


def _guest(request: Request, status: int = 200) -> Response:
    """The answer that nobody is signed in, the cookie (if any) cleared."""
    response = JSONResponse(account_json(None), status_code=status)
    if COOKIE in request.cookies:
        clear_cookie(response, request)
    return response


async def sign_out(request: Request) -> Response:
    try:
        current = await session_of(request)
        if current is not None:
            await accounts_of(request).store.end_session(current.hash)
            forget_session(request)
    except StoreError:
        log.exception("signing out failed")
        return store_failed(language_of(request))
    return _guest(request)


async def me(request: Request) -> Response:
    try:
        current = await session_of(request)
    except StoreError:
        log.exception("reading a session failed")
        return store_failed(language_of(request))
    if current is None:
        return _guest(request)
    return JSONResponse(account_json(current))


async def _signed_in_only(request: Request, tr: Translator) -> Current | Response:
    try:
        current = await session_of(request)
    except StoreError:
        log.exception("reading a session failed")
        return store_failed(tr)
    if current is None:
        exc = signed_out()
        response = fail(tr, exc.code, exc, exc.status)
        if cookie_of(request) is not None:
            clear_cookie(response, request)
        return response
    return current


async def my_matches(request: Request) -> Response:
    tr = language_of(request)
    current = await _signed_in_only(request, tr)
    if isinstance(current, Response):
        return current
    try:
        seats = await accounts_of(request).store.seats_of(current.row.account.id, since=hall_of(request).cutoff())
    except StoreError:
        log.exception("listing an account's matches failed")
        return store_failed(tr)
    return JSONResponse({"matches": [
        {"room": s.room_id, "link": f"/rooms/{s.room_id}", "game": s.game, "match": s.match, "player": s.player,
         "seat": s.seat, "waiting": s.waiting, "created_at": s.created_at} for s in seats]})


async def _with_body(request: Request, tr: Translator, schema: Any) -> tuple[Current, dict[str, Any]] | Response:
    current = await _signed_in_only(request, tr)
    if isinstance(current, Response):
        return current
    body = await read_body(request, tr, schema)
    if isinstance(body, Response):
        return body
    return current, body


async def change_password(request: Request) -> Response:
    tr = language_of(request)
    asked = await _with_body(request, tr, PASSWORD_REQUEST)
    if isinstance(asked, Response):
        return asked
    current, body = asked
    accounts = accounts_of(request)
    try:
        session_id = await accounts.change_password(current.row.account, body["password"], body["new_password"],
                                                    client_id(request))
    except AccountError as exc:
        return fail(tr, exc.code, exc, exc.status)
    except StoreError:
        log.exception("changing a password failed")
        return store_failed(tr)
    account = current.row.account
    response = JSONResponse({"account": {"name": account.name, "created_at": account.created_at},
                             "csrf": csrf_token(session_id)})
    set_cookie(response, request, session_id, accounts.limits.session_seconds)
    return response


async def delete_account(request: Request) -> Response:
    tr = language_of(request)
    asked = await _with_body(request, tr, DELETE_REQUEST)
    if isinstance(asked, Response):
        return asked
    current, body = asked
    try:
        await accounts_of(request).delete(current.row.account, body["password"], client_id(request))
    except AccountError as exc:
        return fail(tr, exc.code, exc, exc.status)
    except StoreError:
        log.exception("deleting an account failed")
        return store_failed(tr)
    forget_session(request)
    return _guest(request)


async def take_seat(request: Request) -> Response:
    """A fresh token for the account's seat in the room: the seat's stored hash replaced (the old token no longer
    proves it), so the seat can be taken up on another device."""
    tr = language_of(request)
    asked = await _with_body(request, tr, SEAT_REQUEST)
    if isinstance(asked, Response):
        return asked
    current, body = asked
    room_id = request.path_params["room"][:64]
    token = new_token()
    digest = token_hash(token)
    try:
        done = await accounts_of(request).store.replace_token(current.row.account.id, room_id, body.get("player"),
                                                              digest)
    except StoreError:
        log.exception("giving a seat a new token failed")
        return store_failed(tr)
    if done.player is None:
        return fail(tr, "no_seat", FlametableError(N_("You have no seat in the room {room!r} (or not that one)."),
                                                   room=room_id), 404)
    if done.closed:
        exc = room_closed(410)
        return fail(tr, exc.code, exc, exc.status)
    await _follow_in_memory(request, room_id, done.player, digest)
    return JSONResponse({"room": room_id, "player": done.player, "token": token})


async def _follow_in_memory(request: Request, room_id: str, player: int, digest: str) -> None:
    """The room, where it is held in memory (this process, or in a cluster its owner), takes the seat's new token
    hash as the store has it (what ``Hall.join`` does for a seat it gives): the new token opens the seat at once,
    the old one no longer does. A room nobody holds reads it from the store when it is loaded."""
    hall = hall_of(request)
    fields = {"player": player, "digest": digest}
    if hall.cluster is not None:
        status, body = await hall.cluster.forward("reseat", room_id, language_of(request), fields, take=False)
        if status != 200:  # (the owner cannot be reached: it goes on with the old hash until it reloads the room)
            log.warning("room %s: its owner could not be told of a seat's new token (%s)", room_id,
                        body.get("error"))
        return
    await reseat_answer(hall, {"room": room_id, **fields}, language_of(request), False)


async def reseat_answer(hall: Hall, request: Mapping[str, Any], tr: Translator, remote: bool) -> Answer:
    """The cluster's ``reseat``: the room held here takes a seat's new token hash."""
    room = hall.rooms.get(str(request["room"]))
    if room is None:
        if remote:  # asked as its owner: it is not this process's any more
            raise moved()
        return 200, {}
    player, digest = request["player"], request["digest"]
    if type(player) is not int or not isinstance(digest, str):
        return 400, {"error": "bad_request"}
    async with room.lock:
        for seat in room.row.seats:
            if seat.player == player:
                seat.token_hash = digest
    return 200, {}


OPS["reseat"] = reseat_answer


routes: list[BaseRoute] = [
    Route("/api/account", sign_up, methods=["POST"]),
    Route("/api/account", delete_account, methods=["DELETE"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/session", sign_in, methods=["POST"]),
    Route("/api/session", sign_out, methods=["DELETE"]),
    Route("/api/me", me),
    Route("/api/me/matches", my_matches),
    Route("/api/rooms/{room}/seat", take_seat, methods=["POST"]),
]
