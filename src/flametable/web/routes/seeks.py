"""Quick pairing over HTTP (issue 24, point 2; ``docs/server.md``, Quick pairing): wait in a pool, ask after the
seek until it is paired, cancel it; each pool's players waiting and matches going on. The pairing itself is
:mod:`flametable.web.seeking`'s.

- ``POST /api/seeks`` ``{"game", "clock", "rated"}``: the seek's ``id`` and ``secret``. A rated pool needs a
  signed-in player (a guest's seeks are casual); a player waits in a pool once at most (a signed-in player is their
  account; a guest is their address and the ``X-Guest-Id`` their browser sends, a random id it keeps).
- ``GET /api/seeks/ID`` with ``X-Seek-Secret``: ``waiting`` (how long, the rating gap allowed now), ``paired``
  (``room``, ``player``, ``token``: the secret, now the seat's token), ``cancelled`` or ``expired`` (its client
  stopped asking after it).
- ``DELETE /api/seeks/ID`` with ``X-Seek-Secret``: cancel a waiting seek (409 ``paired`` once paired).
- ``GET /api/pools``: every pool the lobby offers and every other with someone in it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.service.clock import TimeControl, TimeControlError
from flametable.service.ratings import Rating
from flametable.texts.translator import Translator
from flametable.web.common import client_id, fail, hall_of, language_of, read_body, settings_of
from flametable.web.messages import SEEK_REQUEST
from flametable.web.ratings import needs_account, needs_clock
from flametable.web.rooms import new_token, token_hash
from flametable.web.routes.accounts import store_failed
from flametable.web.seeking import Pool, Seeker, offered
from flametable.web.sessions import session_of
from flametable.web.store import RatingStore, Store, StoreError
from flametable.web.store.seeks import PAIRED, WAITING, SeekRow

log = logging.getLogger("flametable.web")

SECRET_HEADER = "x-seek-secret"
GUEST_HEADER = "x-guest-id"


def store_of(request: Request) -> Store | None:
    store = hall_of(request).store
    return store if isinstance(store, Store) else None


def no_seek(seek_id: str) -> FlametableError:
    return FlametableError(N_("There is no seek {seek!r} of yours: it may have ended."), seek=seek_id[:64])


def guest_of(request: Request) -> str:
    """A guest's name as a player of the pools: their address and their browser's ``X-Guest-Id``."""
    given = request.headers.get(GUEST_HEADER, "")[:64]
    return "client:" + hashlib.sha256(f"{client_id(request)}|{given}".encode()).hexdigest()[:32]


async def create_seek(request: Request) -> Response:
    tr = language_of(request)
    body = await read_body(request, tr, SEEK_REQUEST)
    if isinstance(body, Response):
        return body
    try:
        control = TimeControl.from_json(body["clock"])
    except TimeControlError as exc:
        return fail(tr, "bad_clock", FlametableError(N_("The time control: {problem}"), problem=exc), 400)
    if body.get("rated") and not control.timed:  # a rated match is played with a clock (issue 24 point 5)
        refusal = needs_clock()
        return fail(tr, refusal.code, refusal, refusal.status)
    if not control.real_time:
        return fail(tr, "bad_clock", FlametableError(N_("Quick pairing plays with a real-time clock (minutes and "
                                                        "seconds added per decision); make a room for an untimed or "
                                                        "a turn-based match.")), 400)
    try:
        entry = registry.get(body["game"])
    except registry.UnknownGame as exc:
        return fail(tr, "unknown_game", exc, 400)
    store = store_of(request)
    try:
        current = await session_of(request)
    except StoreError:
        log.exception("reading a session failed")
        return store_failed(tr)
    rated = bool(body.get("rated"))
    if rated and (current is None or store is None):
        refusal = needs_account()
        return fail(tr, refusal.code, refusal, refusal.status)
    if store is None:  # a store in memory (tests of the protocol): no pools
        return fail(tr, "no_pairing", FlametableError(N_("This server does not pair players.")), 503)
    pool = Pool(entry.name, control, rated)
    account_id = current.row.account.id if current is not None else None
    player = f"account:{account_id}" if account_id is not None else guest_of(request)
    secret, seek_id = new_token(), secrets.token_urlsafe(12)
    try:
        rating = Rating().rating
        if account_id is not None:
            standing = await RatingStore(store).standings([account_id], entry.name)
            rating = standing[0].rating.rating if standing else rating
        added = await store.add_seek(seek_id, pool.key, player, rating, token_hash(secret), account_id)
    except StoreError:
        log.exception("a seek in pool %s could not be stored", pool.key)
        return store_failed(tr)
    if not added:
        return fail(tr, "already_seeking", FlametableError(N_("You are already waiting in this pool: cancel that "
                                                              "quick pairing first.")), 409)
    return JSONResponse({"seek": seek_id, "secret": secret, "status": WAITING, "rating": round(rating),
                         **pool.to_json()}, status_code=201)


async def _own_seek(request: Request, tr: Translator) -> tuple[Store, SeekRow, str] | Response:
    """The path's seek, its ``X-Seek-Secret`` its own; else the answer that there is none (a wrong secret is told
    as no seek: nobody learns what another's seek is)."""
    seek_id = request.path_params["seek"][:64]
    secret = request.headers.get(SECRET_HEADER, "")[:64]
    store = store_of(request)
    if store is None:
        return fail(tr, "no_seek", no_seek(seek_id), 404)
    try:
        row = (await store.load_seeks([seek_id])).get(seek_id)
    except StoreError:
        log.exception("the seek %s could not be read", seek_id)
        return store_failed(tr)
    if row is None or row.secret_hash is None or not hmac.compare_digest(
            token_hash(secret).encode("ascii"), row.secret_hash.encode("ascii")):
        return fail(tr, "no_seek", no_seek(seek_id), 404)
    return store, row, secret


def seek_json(request: Request, row: SeekRow, secret: str) -> dict[str, Any]:
    pool = Pool.parse(row.pool)
    out: dict[str, Any] = {"seek": row.id, **(pool.to_json() if pool is not None else {"pool": row.pool}),
                           "status": row.status, "waited": round(row.waited, 1), "rating": round(row.rating)}
    if row.status == WAITING:
        out["gap"] = settings_of(request).seek_gap.allowed(row.waited)
    elif row.status == PAIRED:
        if row.room_id is None:
            out["status"] = "pairing"  # its room is being made
        else:
            out.update(room=row.room_id, link=f"/rooms/{row.room_id}", player=row.seat, token=secret)
    return out


async def show_seek(request: Request) -> Response:
    tr = language_of(request)
    found = await _own_seek(request, tr)
    if isinstance(found, Response):
        return found
    _store, row, secret = found
    seeker: Seeker | None = getattr(request.app.state, "seeker", None)
    if (row.status == WAITING or (row.status == PAIRED and row.room_id is None)) and seeker is not None:
        seeker.touch(row.id)  # written at the pairing's next step (a pair put back waits on if still asked after)
    return JSONResponse(seek_json(request, row, secret))


async def cancel_seek(request: Request) -> Response:
    tr = language_of(request)
    found = await _own_seek(request, tr)
    if isinstance(found, Response):
        return found
    store, row, secret = found
    try:
        cancelled = await store.cancel_seek(row.id, row.player)
        now = (await store.load_seeks([row.id]))[row.id]
    except StoreError:
        log.exception("the seek %s could not be cancelled", row.id)
        return store_failed(tr)
    if not cancelled and now.status == PAIRED:
        refusal = FlametableError(N_("Too late to cancel: you have been paired, your match is waiting for you."))
        return JSONResponse({"error": "paired", "message": tr.error(refusal), **seek_json(request, now, secret)},
                            status_code=409)
    return JSONResponse(seek_json(request, now, secret))


async def list_pools(request: Request) -> Response:
    tr = language_of(request)
    store = store_of(request)
    try:
        counts = await store.pool_counts() if store is not None else {}
    except StoreError:
        log.exception("the pools could not be counted")
        return store_failed(tr)
    pools = {pool.key: pool for pool in offered()}
    for key in sorted(counts):
        pool = Pool.parse(key)
        if pool is not None and key not in pools and registry.find(pool.game) is not None:
            pools[key] = pool
    out = []
    for key, pool in pools.items():
        entry = registry.find(pool.game)
        waiting, playing = counts.get(key, (0, 0))
        out.append({**pool.to_json(), "title": tr.translate(entry.title) if entry is not None else pool.game,
                    "waiting": waiting, "playing": playing})
    return JSONResponse({"pools": out})


routes: list[BaseRoute] = [
    Route("/api/seeks", create_seek, methods=["POST"]),
    Route("/api/seeks/{seek}", show_seek, methods=["GET"]),
    Route("/api/seeks/{seek}", cancel_seek, methods=["DELETE"]),
    Route("/api/pools", list_pools, methods=["GET"]),
]
