"""Players and ratings over HTTP (issue 23; ``docs/server.md``, Ratings): a player's profile, a game's leaderboard,
a match's rating change; what the rooms' routes ask of ratings (a rated room made, joined, listed); the pages that
show them (``/players/NAME``, ``/leaderboard/GAME``, ``/account``: the browser client draws them). The rules are
:mod:`flametable.web.ratings`'; the tables :mod:`flametable.web.store.ratings`'."""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.service.clock import TURN, TimeControl, TimeControlError
from flametable.service.ratings import Rating
from flametable.texts.translator import Translator
from flametable.web.accounts import name_key
from flametable.web.common import fail, hall_of, language_of
from flametable.web.ratings import (
    RatingError,
    change_json,
    needs_account,
    needs_clock,
    not_rated,
    own_room,
    rate_if_rated,
    rated_room,
    rated_seats,
    rating_json,
)
from flametable.web.routes.accounts import store_failed
from flametable.web.routes.pages import page
from flametable.web.sessions import Current, accounts_of, session_of
from flametable.web.store import PLAYING, TIMEOUT, UNPLAYED, RatingStore, Store, StoreError
from flametable.web.store.ratings import BOARD_SIZE, ENDED, Played

log = logging.getLogger("flametable.web")

PER_PAGE = 20
"""Places on one page of a leaderboard (its best 100: five pages)."""
RECENT = 20
"""The recent matches a profile lists."""
OUTCOMES = {1.0: "win", 0.5: "draw", 0.0: "loss"}


def refuse(tr: Translator, exc: RatingError) -> Response:
    return fail(tr, exc.code, exc, exc.status)


def ratings_of(request: Request) -> RatingStore | None:
    """The server's ratings (None for a store in memory: tests of the protocol, where nothing is rated)."""
    store = hall_of(request).store
    return RatingStore(store) if isinstance(store, Store) else None


def title_of(game: str, tr: Translator) -> str:
    entry = registry.find(game)
    return tr.translate(entry.title) if entry is not None else game


def game_order(games: set[str]) -> list[str]:
    """``games`` in the registry's order (a game no longer installed last, by name)."""
    known = [name for name in registry.names() if name in games]
    return known + sorted(games - set(known))


# ------------------------------------------------------------------ what the rooms' routes ask


async def rated_creation(request: Request, tr: Translator, body: Mapping[str, Any]) -> int | Response | None:
    """For ``POST /api/rooms``: None for a casual room; for ``"rated": true`` the creator's account (signed in, the
    seats ``"me"`` and ``"open"``, a clock: never untimed), else the refusal (a clock that is not one at all is
    the room's to refuse, as for any room)."""
    if not body.get("rated"):
        return None
    try:
        current = await session_of(request)
    except StoreError:
        log.exception("reading a session failed")
        return store_failed(tr)
    if current is None or ratings_of(request) is None:
        return refuse(tr, needs_account())
    if sorted(body["seats"]) != ["me", "open"]:
        return refuse(tr, rated_seats())
    try:
        if not TimeControl.from_json(body.get("clock")).timed:
            return refuse(tr, needs_clock())
    except TimeControlError:
        pass  # the hall refuses it ("bad_clock")
    return current.row.account.id


async def rated_made(request: Request, tr: Translator, room_id: str, account_id: int, token: str) -> Response | None:
    """The room just made (by ``account_id``, who asked for a rated match) is rated: None once stored; if that
    fails, the room is closed again (its ``token``: the creator's seat) and the answer says so."""
    ratings = ratings_of(request)
    assert ratings is not None  # rated_creation refused a rated room without them
    try:
        await ratings.make_rated(room_id, account_id, hall_of(request).clock())
        return None
    except StoreError:
        log.exception("room %s: it could not be made rated; it is closed", room_id)
    try:
        await hall_of(request).close_room(room_id, token)
    except FlametableError:
        log.exception("room %s: closing it after its rating could not be stored failed", room_id)
    return store_failed(tr)


async def rated_joining(request: Request, tr: Translator, room_id: str,
                        body: Mapping[str, Any]) -> int | Response | None:
    """For ``POST /api/rooms/ID/join``: None for a casual room joined as one; for a rated room the joiner's account
    (signed in, asking ``"rated": true``, not the creator's), else the refusal."""
    ratings = ratings_of(request)
    asked = bool(body.get("rated"))
    try:
        rated = await ratings.rated_room(room_id) if ratings is not None else None
        current = await session_of(request) if rated is not None else None
    except StoreError:
        log.exception("room %s: reading whether it is rated failed", room_id)
        return store_failed(tr)
    if rated is None:
        return refuse(tr, not_rated()) if asked else None
    if current is None:
        return refuse(tr, needs_account())
    if not asked:
        return refuse(tr, rated_room())
    if current.row.account.id == rated.creator_id:
        return refuse(tr, own_room())
    return current.row.account.id


async def rated_joined(request: Request, room_id: str, account_id: int) -> None:
    """The account took the open seat of the rated room asking for a rated match: it is the room's second account
    (a failure is logged: the room's matches are then not rated, never rated wrongly)."""
    ratings = ratings_of(request)
    assert ratings is not None
    try:
        if not await ratings.accept(room_id, account_id):
            log.warning("room %s: its second account was not stored (taken already?)", room_id)
    except StoreError:
        log.exception("room %s: its second account could not be stored; its matches are not rated", room_id)


async def with_ratings(request: Request, rooms: list[dict[str, Any]]) -> None:
    """The lobby's rows (``GET /api/rooms``), each given ``rated`` and ``creator``: the account seated in the room
    waiting for a player, its name and rating in the room's game (``null`` for a guest's room); a store failure
    leaves them out (logged), the list stands."""
    ratings = ratings_of(request)
    for row in rooms:
        row["rated"], row["creator"] = False, None
    if ratings is None or not rooms:
        return
    try:
        ids = [row["room"] for row in rooms]
        rated, holders = await ratings.rated_rooms(ids), await ratings.holders(ids)
        accounts = {account for seats in holders.values() for account, _ in seats.values()}
        standings = {(s.account_id, s.game): s.rating for s in await ratings.standings(accounts)}
    except StoreError:
        log.exception("the lobby's ratings could not be read")
        return
    now = hall_of(request).clock()
    for row in rooms:
        room_id = row["room"]
        row["rated"] = room_id in rated and rated[room_id].joiner_id is None
        seated = sorted(holders.get(room_id, {}).items())
        if room_id in rated:  # the creator's seat
            seated = [(p, held) for p, held in seated if held[0] == rated[room_id].creator_id] or seated
        if seated and seated[0][1][1] is not None:
            account_id, name = seated[0][1]
            rating = standings.get((account_id, row["game"]), Rating())
            row["creator"] = {"name": name, "rating": rating_json(rating, now)["display"],
                              "profile": f"/players/{name}"}


async def with_names(request: Request, summary: dict[str, Any]) -> None:
    """``GET /api/rooms/ID``'s seats, each given ``name``: the account seated there (``null`` for a guest's seat, an
    open one, a bot's, or when that cannot be read: logged). Room player ``p`` sits at seat ``p ^ (match % 2)``: a
    rematch swaps them."""
    for seat in summary["players"]:
        seat["name"] = None
    ratings = ratings_of(request)
    if ratings is None:
        return
    try:
        held = (await ratings.holders([summary["room"]])).get(summary["room"], {})
    except StoreError:
        log.exception("room %s: reading its seats' accounts failed", summary["room"])
        return
    first = int(summary["match"]) % 2
    for seat in summary["players"]:
        holder = held.get(seat["seat"] ^ first)
        if holder is not None and not seat["open"]:
            seat["name"] = holder[1]


async def is_rated(request: Request, room_id: str) -> bool:
    """Whether the room was made rated (for ``GET /api/rooms/ID``; False when that cannot be read: logged)."""
    ratings = ratings_of(request)
    if ratings is None:
        return False
    try:
        return await ratings.rated_room(room_id) is not None
    except StoreError:
        log.exception("room %s: reading whether it is rated failed", room_id)
        return False


# ------------------------------------------------------------------ a match's rating change


def _number(given: str) -> int:
    return int(given) if given.isascii() and given.isdigit() and len(given) <= 7 else -1


async def match_rating(request: Request) -> Response:
    """``GET /api/rooms/ID/matches/N/rating``: whether the match is rated and, once it ended, each seat's change
    (rated here if that had not happened yet: at most once, whoever asks)."""
    tr = language_of(request)
    room_id, given = request.path_params["room"][:64], request.path_params["number"]
    number = _number(given)
    hall = hall_of(request)
    ratings = ratings_of(request)
    try:
        match = await hall.store.load_match(room_id, number) if number >= 0 else None
        if match is None:
            return fail(tr, "no_match", FlametableError(N_("This room has no match {number}."), number=given[:20]), 404)
        rated = await ratings.rated_room(room_id) if ratings is not None else None
        both = rated is not None and rated.joiner_id is not None
        players: list[dict[str, Any]] = []
        if both and ratings is not None and match.status in ENDED and match.id is not None:
            changes = await ratings.changes(match.id)
            if not changes:
                done = await rate_if_rated(hall.store, match, hall.clock())
                changes = {c.account_id: c for c in done.changes} if done is not None else {}
            holders = (await ratings.holders([room_id])).get(room_id, {})
            for seat in (0, 1):
                account_id, name = holders.get(seat ^ match.first_player, (None, None))
                change = changes.get(account_id) if account_id is not None else None
                if change is not None:
                    players.append({"seat": seat, "name": name, **change_json(change.before, change.after)})
    except StoreError:
        log.exception("room %s: reading the rating change of match %s failed", room_id, given[:20])
        return store_failed(tr)
    status = "unplayed" if match.status in UNPLAYED else "playing" if match.status == PLAYING else "ended"
    return JSONResponse({"room": room_id, "match": number, "status": status,
                         "rated": both and match.status not in UNPLAYED, "players": players})


# ------------------------------------------------------------------ a profile


def _opponent(played: Played) -> dict[str, Any]:
    if played.opponent_kind.startswith("bot:"):
        return {"kind": "bot", "bot": played.opponent_kind}
    if played.opponent_id is None:
        return {"kind": "guest"}
    if played.opponent_name is None:
        return {"kind": "deleted"}
    return {"kind": "account", "name": played.opponent_name, "profile": f"/players/{played.opponent_name}"}


async def profile(request: Request) -> Response:
    """``GET /api/players/NAME``: the player's ratings per game with their history, wins, losses and draws per game,
    places on the leaderboards, the recent matches (opponent, result, rating change, replay)."""
    tr = language_of(request)
    name = request.path_params["name"]
    ratings = ratings_of(request)
    try:
        account = await accounts_of(request).store.by_key(name_key(name)) if len(name) <= 64 else None
        if account is None or ratings is None:
            return fail(tr, "no_player", FlametableError(N_("There is no player named {name!r}."), name=name[:64]),
                        404)
        now = hall_of(request).clock()
        standings = {s.game: s for s in await ratings.standings([account.id])}
        history = await ratings.history(account.id)
        played = await ratings.finished(account.id)
        changes = await ratings.changes_of(account.id, [p.match_id for p in played[:RECENT]])
        games = game_order({p.game for p in played} | set(standings))
        places = {game: await ratings.place(account.id, game, now) for game in standings}
    except StoreError:
        log.exception("the profile of account %s could not be read", name[:64])
        return store_failed(tr)
    out = []
    for game in games:
        mine = [p for p in played if p.game == game]
        standing = standings.get(game)
        points = [c for c in history if c.game == game]
        out.append({
            "game": game, "title": title_of(game, tr),
            "rating": rating_json(standing.rating, now) if standing is not None else None,
            "rated_matches": standing.matches if standing is not None else 0,
            "place": places.get(game), "leaderboard": f"/leaderboard/{game}",
            "wins": sum(1 for p in mine if p.score == 1.0), "losses": sum(1 for p in mine if p.score == 0.0),
            "draws": sum(1 for p in mine if p.score == 0.5),
            "history": ([{"at": points[0].at, "rating": round(points[0].before.rating, 1),
                          "rd": round(points[0].before.rd, 1), "start": True}] if points else [])
            + [{"at": c.at, "rating": round(c.after.rating, 1), "rd": round(c.after.rd, 1)} for c in points],
        })
    recent = []
    for p in played[:RECENT]:
        change = changes.get(p.match_id)
        recent.append({
            "room": p.room_id, "match": p.number, "game": p.game, "title": title_of(p.game, tr),
            "at": change.at if change is not None else p.created_at, "opponent": _opponent(p),
            "result": OUTCOMES[p.score], "reason": p.result.get("reason"), "rated": change is not None,
            "change": change_json(change.before, change.after) if change is not None else None,
            "replay": f"/replay?room={p.room_id}&match={p.number}",
        })
    return JSONResponse({"name": account.name, "created_at": account.created_at, "games": out, "recent": recent,
                         "turn_timeouts": turn_timeouts(played)})


def turn_timeouts(played: list[Played]) -> int:
    """How many turn-based matches the player lost on time (issue 24, point 4: a player who lets many matches time
    out is shown so on their profile)."""
    return sum(1 for p in played if p.status == TIMEOUT and p.score == 0.0 and (p.clock or {}).get("kind") == TURN)


# ------------------------------------------------------------------ a leaderboard


def _page(given: str | None) -> int | None:
    if given is None:
        return 1
    number = _number(given)
    return number if 1 <= number <= BOARD_SIZE else None


async def _reader(request: Request) -> Current | None:
    try:
        return await session_of(request)
    except StoreError:
        log.exception("reading a session failed")
        return None


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard/GAME?page=N``: a page of the game's best 100 non-provisional ratings, and the reader's
    own place (signed in)."""
    tr = language_of(request)
    game = request.path_params["game"]
    try:
        entry = registry.get(game[:100])
    except registry.UnknownGame as exc:
        return fail(tr, "unknown_game", exc, 404)
    page_number = _page(request.query_params.get("page"))
    if page_number is None:
        return fail(tr, "bad_page", FlametableError(N_("A page is a whole number from 1 to {max}."),
                                                    max=BOARD_SIZE), 400)
    ratings = ratings_of(request)
    now = hall_of(request).clock()
    rows: list[tuple[int, str, Rating]] = []
    count = 0
    me: dict[str, Any] | None = None
    reader = await _reader(request)
    try:
        if ratings is not None:
            offset = (page_number - 1) * PER_PAGE
            rows = await ratings.board(entry.name, now, offset, PER_PAGE)
            count = await ratings.board_count(entry.name, now)
            if reader is not None:
                account = reader.row.account
                mine = await ratings.standings([account.id], entry.name)
                place = await ratings.place(account.id, entry.name, now)
                me = {"name": account.name, "place": place, "listed": place is not None and place <= BOARD_SIZE,
                      "rating": rating_json(mine[0].rating, now) if mine else None}
    except StoreError:
        log.exception("the leaderboard of %s could not be read", entry.name)
        return store_failed(tr)
    total = min(count, BOARD_SIZE)
    first = (page_number - 1) * PER_PAGE
    return JSONResponse({
        "game": entry.name, "title": tr.translate(entry.title), "page": page_number,
        "pages": max(1, math.ceil(total / PER_PAGE)), "per_page": PER_PAGE, "total": total, "ranked": count,
        "rows": [{"place": first + i + 1, "name": name, "profile": f"/players/{name}",
                  **rating_json(rating, now)} for i, (_, name, rating) in enumerate(rows)],
        "me": me,
    })


routes: list[BaseRoute] = [
    Route("/api/players/{name}", profile),
    Route("/api/leaderboard/{game}", leaderboard),
    Route("/api/rooms/{room}/matches/{number}/rating", match_rating),
    Route("/players/{name}", page),
    Route("/leaderboard/{game}", page),
    Route("/account", page),
]
