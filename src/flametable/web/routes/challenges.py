"""Direct challenges over HTTP (issue 24, point 6; ``docs/server.md``, Challenges): a signed-in player challenges
another account to a match with chosen options, time control and rated or not; the challenged player sees it in
their lobby and accepts it (with their own deck where the game takes one, checked as a joiner's) or declines it;
the challenger may cancel it while it waits. Accepting makes the room with both seats held, the challenger's as
room player 0 (their seat token asked with ``POST /api/rooms/ID/seat``, as for any seat of their account), the
accepter's as room player 1 (its token in the answer). The table is :mod:`flametable.web.store.challenges`'."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.core.protocol import complete
from flametable.service.clock import TimeControl, TimeControlError
from flametable.texts.translator import Translator
from flametable.web.accounts import name_key
from flametable.web.common import client_id, fail, hall_of, language_of, read_body
from flametable.web.messages import ACCEPT_REQUEST, CHALLENGE_REQUEST
from flametable.web.ratings import needs_clock
from flametable.web.replays import problem_of
from flametable.web.rooms import RoomError, game_of
from flametable.web.routes.accounts import store_failed
from flametable.web.sessions import Current, accounts_of, session_of
from flametable.web.store import RatingStore, Store, StoreError
from flametable.web.store.challenges import ACCEPTED, CANCELLED, DECLINED, PENDING, Challenge, ChallengeStore

log = logging.getLogger("flametable.web")

MAX_PENDING = 20
"""The challenges one account may have waiting for an answer at once."""
SHOWN_ACCEPTED = 24 * 3600.0
"""An accepted challenge stays in its players' lists this long after it was made (the way to its table)."""
CHALLENGER, ACCEPTER = 0, 1
"""The room players of an accepted challenge's two accounts."""


def challenges_of(request: Request) -> ChallengeStore | None:
    """The server's challenges (None for a store in memory: tests of the protocol, where nobody signs in)."""
    store = hall_of(request).store
    return ChallengeStore(store) if isinstance(store, Store) else None


def needs_account() -> FlametableError:
    return FlametableError(N_("Challenges are between signed-in players: sign in (or sign up) first."))


def no_challenge(challenge_id: str) -> FlametableError:
    return FlametableError(N_("You have no challenge {challenge!r}."), challenge=challenge_id)


def settled() -> FlametableError:
    return FlametableError(N_("This challenge was answered already (accepted, declined or cancelled)."))


async def signed_in(request: Request, tr: Translator) -> tuple[Current, ChallengeStore] | Response:
    """The asker's session and the challenges, or the refusal (a guest: 401 ``challenge_needs_account``)."""
    try:
        current = await session_of(request)
    except StoreError:
        log.exception("reading a session failed")
        return store_failed(tr)
    store = challenges_of(request)
    if current is None or store is None:
        return fail(tr, "challenge_needs_account", needs_account(), 401)
    return current, store


def challenge_json(challenge: Challenge, me: int, tr: Translator) -> dict[str, Any]:
    """A challenge as its players read it: the options only as the game shows them to anyone (the challenger's own
    deck stays theirs), and once accepted the room and the reader's room player there."""
    entry = registry.find(challenge.game)
    public = complete(game_of(entry.name)).public_options(challenge.options) if entry is not None else {}
    sent = challenge.from_id == me

    def who(name: str | None) -> dict[str, Any]:
        return {"name": name, "profile": f"/players/{name}" if name is not None else None}

    room = challenge.room_id
    return {"id": challenge.id, "game": challenge.game,
            "title": tr.translate(entry.title) if entry is not None else challenge.game,
            "options": public, "clock": challenge.clock, "rated": challenge.rated, "status": challenge.status,
            "created_at": challenge.created_at, "direction": "sent" if sent else "received",
            "from": who(challenge.from_name), "to": who(challenge.to_name), "room": room,
            "link": f"/rooms/{room}" if room is not None else None,
            "player": (CHALLENGER if sent else ACCEPTER) if room is not None else None}


async def create_challenge(request: Request) -> Response:
    """``POST /api/challenges``: ``{"to": NAME, "game": GAME, "options": {...}, "clock": {...}, "rated": bool}``."""
    tr = language_of(request)
    body = await read_body(request, tr, CHALLENGE_REQUEST)
    if isinstance(body, Response):
        return body
    asker = await signed_in(request, tr)
    if isinstance(asker, Response):
        return asker
    current, store = asker
    me = current.row.account
    try:
        entry = registry.get(body["game"])
    except registry.UnknownGame as exc:
        return fail(tr, "unknown_game", exc, 400)
    options = dict(body.get("options") or {})
    try:
        game_of(entry.name).new_match(options, 0)  # the game checks the options, the challenger's deck among them
    except FlametableError as exc:
        return JSONResponse({"error": "bad_options", "message": tr.error(exc), "problem": problem_of(exc, tr)},
                            status_code=400)
    try:
        control = TimeControl.from_json(body.get("clock"))
    except TimeControlError as exc:
        return fail(tr, "bad_clock", FlametableError(N_("The time control: {problem}"), problem=exc), 400)
    if body.get("rated") and not control.timed:  # a rated match is played with a clock (issue 24 point 5)
        refusal = needs_clock()
        return fail(tr, refusal.code, refusal, refusal.status)
    clock = control.to_json()
    try:
        other = await accounts_of(request).store.by_key(name_key(body["to"]))
        if other is None:
            return fail(tr, "no_player", FlametableError(N_("There is no player named {name!r}."), name=body["to"]),
                        404)
        if other.id == me.id:
            return fail(tr, "own_challenge", FlametableError(N_("You cannot challenge yourself.")), 400)
        if await store.pending_count(me.id) >= MAX_PENDING:
            return fail(tr, "too_many_challenges", FlametableError(
                N_("You already have {count} challenges waiting for an answer: cancel one first."),
                count=MAX_PENDING), 429)
        challenge_id = secrets.token_urlsafe(12)
        now = hall_of(request).clock()
        await store.add(challenge_id, me.id, other.id, entry.name, options, clock, bool(body.get("rated")), now)
        made = await store.get(challenge_id)
    except StoreError:
        log.exception("a challenge could not be stored")
        return store_failed(tr)
    assert made is not None
    return JSONResponse(challenge_json(made, me.id, tr), status_code=201)


async def list_challenges(request: Request) -> Response:
    """``GET /api/challenges``: the reader's challenges, ``received`` (waiting for their answer) and ``sent``
    (waiting, or accepted lately: the way to the table), newest first."""
    tr = language_of(request)
    asker = await signed_in(request, tr)
    if isinstance(asker, Response):
        return asker
    current, store = asker
    me = current.row.account.id
    try:
        mine = await store.of(me)
    except StoreError:
        log.exception("the challenges of account %s could not be read", me)
        return store_failed(tr)
    since = hall_of(request).clock() - SHOWN_ACCEPTED
    shown = [c for c in mine if (c.status == PENDING or c.created_at >= since)
             and c.from_name is not None and c.to_name is not None]  # a deleted account's are gone with it
    return JSONResponse({
        "received": [challenge_json(c, me, tr) for c in shown if c.to_id == me and c.status == PENDING],
        "sent": [challenge_json(c, me, tr) for c in shown if c.from_id == me],
        "accepted": [challenge_json(c, me, tr) for c in shown if c.to_id == me and c.status == ACCEPTED],
    })


async def answer(request: Request, status: str) -> Response:
    """Decline (the challenged) or cancel (the challenger) a pending challenge."""
    tr = language_of(request)
    asker = await signed_in(request, tr)
    if isinstance(asker, Response):
        return asker
    current, store = asker
    me = current.row.account.id
    challenge_id = request.path_params["challenge"][:64]
    try:
        challenge = await store.get(challenge_id)
        if challenge is None or me != (challenge.to_id if status == DECLINED else challenge.from_id):
            return fail(tr, "no_challenge", no_challenge(challenge_id), 404)
        ours = {"to_id": me} if status == DECLINED else {"from_id": me}
        if not await store.settle(challenge_id, status, **ours):
            return fail(tr, "challenge_answered", settled(), 409)
        done = await store.get(challenge_id)
    except StoreError:
        log.exception("the challenge %s could not be answered", challenge_id)
        return store_failed(tr)
    assert done is not None
    return JSONResponse(challenge_json(done, me, tr))


async def decline(request: Request) -> Response:
    return await answer(request, DECLINED)


async def cancel(request: Request) -> Response:
    return await answer(request, CANCELLED)


async def accept(request: Request) -> Response:
    """``POST /api/challenges/ID/accept`` (``{"brings": ...}``): the room made with both seats held; the accepter's
    seat token in the answer. A refusal (the accepter's deck, too many rooms...) leaves the challenge pending."""
    tr = language_of(request)
    body = await read_body(request, tr, ACCEPT_REQUEST)
    if isinstance(body, Response):
        return body
    asker = await signed_in(request, tr)
    if isinstance(asker, Response):
        return asker
    current, store = asker
    me = current.row.account.id
    challenge_id = request.path_params["challenge"][:64]
    hall = hall_of(request)
    try:
        challenge = await store.get(challenge_id)
        if challenge is None or challenge.to_id != me or challenge.from_name is None:  # (the challenger deleted
            return fail(tr, "no_challenge", no_challenge(challenge_id), 404)  # their account: it is gone)
        if not await store.settle(challenge_id, ACCEPTED, to_id=me):  # one answer wins, whatever comes at once
            return fail(tr, "challenge_answered", settled(), 409)
    except StoreError:
        log.exception("the challenge %s could not be accepted", challenge_id)
        return store_failed(tr)
    refused = None
    try:
        room, tokens = await hall.create(challenge.game, challenge.options, ["me", "me"], client_id(request),
                                         challenge.clock, brought=(ACCEPTER, body.get("brings")))
    except RoomError as exc:
        refused = fail(tr, exc.code, exc, exc.status)
    except registry.UnknownGame as exc:
        refused = fail(tr, "unknown_game", exc, 400)
    except FlametableError as exc:  # the accepter's deck, refused as a joiner's would be
        refused = JSONResponse({"error": "bad_options", "message": tr.error(exc), "problem": problem_of(exc, tr)},
                               status_code=400)
    if refused is not None:
        try:
            await store.reopen(challenge_id)
        except StoreError:
            log.exception("the challenge %s could not be reopened", challenge_id)
        return refused
    try:
        seats = accounts_of(request).store
        await seats.attach_players(challenge.from_id, room.id, [CHALLENGER])
        await seats.attach_players(me, room.id, [ACCEPTER])
        if challenge.rated:  # a rated room made by the challenger, joined asking by the accepter (issue 23)
            ratings = RatingStore(hall.store) if isinstance(hall.store, Store) else None
            assert ratings is not None  # challenges_of gave a store
            await ratings.make_rated(room.id, challenge.from_id, hall.clock())
            await ratings.accept(room.id, me)
        await store.made_room(challenge_id, room.id)
        done = await store.get(challenge_id)
    except StoreError:
        log.exception("room %s of the challenge %s: its seats or rating could not be stored", room.id, challenge_id)
        return store_failed(tr)
    assert done is not None
    return JSONResponse({"room": room.id, "link": f"/rooms/{room.id}", "player": ACCEPTER,
                         "token": tokens[ACCEPTER], "challenge": challenge_json(done, me, tr)})


routes: list[BaseRoute] = [
    Route("/api/challenges", create_challenge, methods=["POST"]),
    Route("/api/challenges", list_challenges, methods=["GET"]),
    Route("/api/challenges/{challenge}/accept", accept, methods=["POST"]),
    Route("/api/challenges/{challenge}/decline", decline, methods=["POST"]),
    Route("/api/challenges/{challenge}/cancel", cancel, methods=["POST"]),
]
