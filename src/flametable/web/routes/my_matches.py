"""My matches (issue 25, point 4; issue 24, point 3): the matches going on for this browser's seat tokens and, signed
in, for the account's seats, each with whose turn it is, its opponent, its time control, the time left and the
last move's time, "your turn" first.

A token proves its own seat only, compared by the room as a hello's is (:meth:`Room.player_of`): a wrong token, or
one of another room's, is simply not listed. An account's seats are proven by the store (its ``seat_accounts``).
Nothing of a view is told: only what the lobby's list may show its player.

Each room is read where it is: from this process's memory, from its owner's in a cluster (one ``mine`` request per
other owner, at once: the clocks and the last move are the owner's), or, nobody holding it, from the store (the
room made to be read, not taken)."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.bots.registry import HUMAN
from flametable.texts.translator import Translator
from flametable.web.cluster import OPS, Answer, Cluster
from flametable.web.common import hall_of, language_of, read_body
from flametable.web.messages import MY_MATCHES_REQUEST
from flametable.web.rooms import Hall, Room, game_of, token_hash
from flametable.web.routes.accounts import store_failed
from flametable.web.routes.players import ratings_of
from flametable.web.sessions import session_of
from flametable.web.store import PLAYING, StoreError

log = logging.getLogger("flametable.web")
LOADS = 4
"""The rooms one request loads from the store at once (the pool's other connections stay free for the others)."""

Proof = tuple[str, str | None, int | None]
"""A seat asked for: its room, and the token that proves it (a browser's) or the player it is (an account's, the
store's word)."""


def seat_entry(room: Room, proof: Proof, now: float) -> dict[str, Any] | None:
    """What the list shows of the seat ``proof`` names in ``room``; None if the proof proves no seat of it (a
    wrong token) or the room's match is not going on (over, closed, or waiting past its time)."""
    _room_id, token, player = proof
    if token is not None:
        player = room.player_of(token)
    if player not in (0, 1) or not room.playing or room.past_time(now):
        return None
    assert player is not None
    seat = room.seat_of(player)
    assert seat is not None
    other = room.row.seats[1 - player]
    if other.kind.startswith("bot:"):
        opponent: dict[str, Any] = {"kind": "bot", "bot": other.kind}
    elif other.kind == HUMAN and other.token_hash is None:
        opponent = {"kind": "open"}
    else:
        opponent = {"kind": "guest"}  # an account's name is added by the asker (:func:`with_names`)
    awaited = room.awaited()
    clock = room.clock_json()
    left = clock["remaining"] if clock is not None else None
    return {"room": room.id, "link": f"/rooms/{room.id}", "game": room.row.game, "options": room.public_options(),
            "match": room.match.number, "player": player, "seat": seat, "waiting": room.waiting,
            "my_turn": seat in awaited and not room.waiting, "opponent": opponent, "clock": room.match.clock,
            "left_ms": left[seat] if left is not None else None,
            "opponent_left_ms": left[1 - seat] if left is not None else None,
            "running": clock["running"] if clock is not None else [],
            "last_move_at": room.moved_at, "moves": len(room.match.actions), "created_at": room.row.created_at,
            "token": token is not None}


def proven(hashes: Mapping[int, str], proof: Proof) -> bool:
    """Whether ``proof`` names a seat among ``hashes`` (a room's taken seats' token hashes, by player): its token's
    hash (compared in constant time), or its player."""
    _room_id, token, player = proof
    if token is None:
        return player in hashes
    digest = token_hash(token)
    return any(hmac.compare_digest(digest, known) for known in hashes.values())


def _proofs(items: Any) -> list[Proof]:
    out: list[Proof] = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, list) and len(item) == 3 and isinstance(item[0], str):
            token, player = item[1], item[2]
            out.append((item[0][:64], token if isinstance(token, str) else None,
                        player if type(player) is int else None))
    return out


async def mine_answer(hall: Hall, request: Mapping[str, Any], tr: Translator, remote: bool) -> Answer:
    """The cluster's ``mine``: the entries of the seats asked for in the rooms this process holds, and which of
    the rooms it holds (the asker reads the others from the store)."""
    now = hall.clock()
    found, held = [], []
    for proof in _proofs(request.get("seats")):
        room = hall.rooms.get(proof[0])
        if room is None:
            continue
        held.append(room.id)
        entry = seat_entry(room, proof, now)
        if entry is not None:
            found.append(entry)
    return 200, {"matches": found, "held": held}


OPS["mine"] = mine_answer


async def entries(hall: Hall, proofs: list[Proof]) -> list[dict[str, Any]]:
    """The entries of every seat ``proofs`` prove, each room read where it is (see the module). :class:`StoreError`
    if the store failed."""
    now = hall.clock()
    out: list[dict[str, Any]] = []
    rest: list[Proof] = []  # the seats of rooms this process does not hold
    for proof in proofs:
        room = hall.rooms.get(proof[0])
        if room is None:
            rest.append(proof)
            continue
        entry = seat_entry(room, proof, now)
        if entry is not None:
            out.append(entry)
    if hall.cluster is not None and rest:
        rest = await _from_owners(hall, hall.cluster, rest, out)
    return out + await _from_store(hall, rest, now)


async def _from_owners(hall: Hall, cluster: Cluster, rest: list[Proof], out: list[dict[str, Any]]) -> list[Proof]:
    """The entries of ``rest`` that the processes holding their rooms give (one ``mine`` request per other owner,
    at once), added to ``out``; the proofs of the rooms nobody answered for."""
    by_owner: dict[str, list[Proof]] = {}
    for room_id, (owner, _fence, left) in (await hall.store.room_owners({p[0] for p in rest})).items():
        if owner != hall.process and left > 0:
            by_owner.setdefault(owner, []).extend(p for p in rest if p[0] == room_id)
    replies = await asyncio.gather(*(cluster.ask(owner, "mine", {"seats": [list(p) for p in seats], "lang": "en"})
                                     for owner, seats in by_owner.items()))
    answered: set[str] = set()
    for reply in replies:
        if reply is not None and reply[0] == 200:
            out.extend(entry for entry in reply[1].get("matches", []) if isinstance(entry, dict))
            answered.update(str(room_id) for room_id in reply[1].get("held", []))
    return [p for p in rest if p[0] not in answered]


async def _from_store(hall: Hall, rest: list[Proof], now: float) -> list[dict[str, Any]]:
    """The entries of ``rest``, whose rooms nobody holds (or whose owners did not answer), as the store has them: only
    the seats the store proves of matches being played are loaded, a few rooms at once."""
    live = await hall.store.playing_seats(p[0] for p in rest) if rest else {}
    rest = [p for p in rest if proven(live.get(p[0], {}), p)]  # not playing, or a token of no seat of it: neither
    # loaded nor replayed
    loads = asyncio.Semaphore(LOADS)

    async def stored(room_id: str) -> tuple[str, Room | None]:
        async with loads:
            row = await hall.store.load_room(room_id)
        playing = row is not None and row.match.status == PLAYING  # (ended meanwhile: not replayed to say so)
        return room_id, Room(hall, row, game_of(row.game)) if playing and row is not None else None

    rooms = dict(await asyncio.gather(*(stored(room_id) for room_id in sorted({p[0] for p in rest}))))
    out = []
    for proof in rest:
        room = rooms[proof[0]]
        entry = seat_entry(room, proof, now) if room is not None else None
        if entry is not None:
            out.append(entry)
    return out


async def with_names(request: Request, found: Iterable[dict[str, Any]]) -> None:
    """Each opponent who is an account (``guest`` so far) named, with its profile; a deleted one said so. A store
    failure leaves them guests (logged)."""
    ratings = ratings_of(request)
    rows = [entry for entry in found if entry["opponent"]["kind"] == "guest"]
    if ratings is None or not rows:
        return
    try:
        holders = await ratings.holders({entry["room"] for entry in rows})
    except StoreError:
        log.exception("the names of my matches' opponents could not be read")
        return
    for entry in rows:
        held = holders.get(entry["room"], {}).get(1 - entry["player"])
        if held is not None:
            name = held[1]
            entry["opponent"] = ({"kind": "deleted"} if name is None else
                                 {"kind": "account", "name": name, "profile": f"/players/{name}"})


def ordered(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per seat (a seat proven twice, by a token and by the account, once: the token's), "your turn"
    first, then the latest move first, then the newest room."""
    seen: dict[tuple[str, int], dict[str, Any]] = {}
    for entry in found:
        key = (entry["room"], entry["player"])
        if key not in seen or entry["token"]:
            seen[key] = entry
    return sorted(seen.values(), key=lambda e: (not e["my_turn"], -(e["last_move_at"] or 0.0), -e["created_at"],
                                                e["room"], e["player"]))


async def my_matches(request: Request) -> Response:
    """``POST /api/my-matches`` ``{"seats": [{"room", "token"}...]}``: ``{"matches": [...]}``, see the module."""
    tr = language_of(request)
    body = await read_body(request, tr, MY_MATCHES_REQUEST)
    if isinstance(body, Response):
        return body
    hall = hall_of(request)
    proofs: list[Proof] = [(seat["room"], seat["token"], None) for seat in body["seats"]]
    try:
        current = await session_of(request)
        if current is not None:
            accounts = request.app.state.accounts
            proofs += [(s.room_id, None, s.player)
                       for s in await accounts.store.seats_of(current.row.account.id, since=hall.cutoff())]
        found = await entries(hall, proofs)
    except StoreError:
        log.exception("listing my matches failed")
        return store_failed(tr)
    await with_names(request, found)
    return JSONResponse({"matches": ordered(found)})


routes: list[BaseRoute] = [Route("/api/my-matches", my_matches, methods=["POST"])]
