"""Quick pairing's seeks in the store (issue 24, point 2): the players waiting in a pool, each paired once at most
however many server processes pair the pool at the same time.

- :func:`add` a seek (``since`` by the database's clock, so the processes' clocks never matter); a player has one
  waiting seek per pool at most (a unique index on the waiting ones: a second is refused, :func:`add` False).
- :func:`cancel` a waiting seek (its player's own).
- :func:`pair` the pool now: the waiting seeks are read and locked ``FOR UPDATE SKIP LOCKED`` (PostgreSQL; SQLite
  has one writer), paired by :func:`flametable.service.pairing.pairs`, and each pair's two rows marked ``paired``
  with their partner in the same transaction. A process pairing the pool at the same moment skips the rows another
  holds, so no seek is paired twice, and none waits for another process's pairing. On PostgreSQL the step first
  takes the pool's advisory lock for its transaction (``pg_try_advisory_xact_lock``; held by another process: the
  pool is left to it this time), so every step sees the whole pool and pairs it closest first, never around seeks
  another process holds.

What the server's pairing (:mod:`flametable.web.seeking`, migration 0008) adds: a seek's secret's hash and its
account, :func:`seated` (the room made for a pair), :func:`unpair` (a pair whose room could not be made waits
again), :func:`seen` and :func:`expire` (a seek nobody asks after stops waiting), :func:`counts` (each pool's
players waiting and matches going on).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection

from flametable.service.pairing import Gap, Seek, pairs
from flametable.web.store.leases import database_now
from flametable.web.store.rows import PLAYING
from flametable.web.store.tables import current_match, matches, rooms, seeks

WAITING, PAIRED, CANCELLED, EXPIRED = "waiting", "paired", "cancelled", "expired"
POOL_LOCK_CLASS = 24
"""The first key of the transaction-level advisory lock (PostgreSQL) a pool's pairing holds: ``(24, hashtext(pool))``
(a two-key lock: never the server lock's one-key space)."""


@dataclass(frozen=True)
class SeekRow:
    """One seek as stored: ``waited`` is how long it has been waiting (or waited), ``ago`` how long since its client
    last asked after it (seconds, the database's clock)."""

    id: str
    pool: str
    player: str
    rating: float
    status: str
    partner: str | None
    paired_at: float | None
    secret_hash: str | None
    account_id: int | None
    room_id: str | None
    seat: int | None
    waited: float
    ago: float


async def add(connection: AsyncConnection, seek_id: str, pool: str, player: str, rating: float,
              secret_hash: str | None = None, account_id: int | None = None) -> bool:
    """Put ``player`` in ``pool``: False if they already wait there."""
    try:
        async with connection.begin_nested():
            await connection.execute(seeks.insert().values(id=seek_id, pool=pool, player=player, rating=rating,
                                                           since=database_now(), status=WAITING,
                                                           secret_hash=secret_hash, account_id=account_id,
                                                           seen=database_now()))
    except sa_exc.IntegrityError:
        return False
    return True


async def cancel(connection: AsyncConnection, seek_id: str, player: str) -> bool:
    """End ``player``'s waiting seek ``seek_id``: whether there was one."""
    done = await connection.execute(sa.update(seeks).where(seeks.c.id == seek_id, seeks.c.player == player,
                                                           seeks.c.status == WAITING).values(status=CANCELLED))
    return bool(done.rowcount == 1)


async def pair(connection: AsyncConnection, pool: str, gap: Gap) -> list[tuple[str, str]]:
    """Pair the waiting seeks of ``pool`` that no other transaction holds (see the module); the pairs made, the
    seek that waited longer first."""
    if connection.dialect.name == "postgresql" and not (await connection.execute(
            sa.select(sa.func.pg_try_advisory_xact_lock(POOL_LOCK_CLASS, sa.func.hashtext(pool))))).scalar_one():
        return []  # another process pairs this pool right now
    now = float((await connection.execute(sa.select(database_now()))).scalar_one())
    rows = (await connection.execute(
        sa.select(seeks.c.id, seeks.c.rating, seeks.c.since)
        .where(seeks.c.pool == pool, seeks.c.status == WAITING)
        .order_by(seeks.c.since, seeks.c.id)
        .with_for_update(skip_locked=True))).all()
    made = pairs([Seek(str(r[0]), float(r[1]), float(r[2])) for r in rows], now, gap)
    if made:
        partner: sa.BindParameter[str] = sa.bindparam("partner_of", type_=sa.String())
        await connection.execute(
            sa.update(seeks).where(seeks.c.id == sa.bindparam("seek"), seeks.c.status == WAITING)
            .values(status=PAIRED, partner=partner, paired_at=now),
            [{"seek": a, "partner_of": b} for x, y in made for a, b in ((x.id, y.id), (y.id, x.id))])
    return [(a.id, b.id) for a, b in made]


async def seated(connection: AsyncConnection, places: Sequence[tuple[str, str, str, int]]) -> int:
    """The room made for paired seeks: ``places`` are (seek, its partner, room, seat). A seek given its room is
    still paired with that partner and has no room yet (one whose room took longer than the grace was put back by
    :func:`unseated` and may be paired again since): how many seeks were given their room."""
    if not places:
        return 0
    await connection.execute(
        sa.update(seeks).where(seeks.c.id == sa.bindparam("seek"), seeks.c.status == PAIRED,
                               seeks.c.partner == sa.bindparam("partner_is"), seeks.c.room_id.is_(None))
        .values(room_id=sa.bindparam("room"), seat=sa.bindparam("place")),
        [{"seek": seek, "partner_is": partner, "room": room, "place": seat} for seek, partner, room, seat in places])
    given = await connection.execute(  # (a driver's rowcount of many parameter sets is not to be trusted)
        sa.select(sa.func.count()).where(seeks.c.id.in_([p[0] for p in places]),
                                         seeks.c.room_id.in_(sorted({p[2] for p in places}))))
    return int(given.scalar_one())


async def unseated(connection: AsyncConnection, grace: float) -> int:
    """The seeks paired more than ``grace`` seconds ago that still have no room (the process that paired them
    stopped, or could not store their room) wait again, with the time they had waited: how many."""
    done = await connection.execute(sa.update(seeks).where(
        seeks.c.status == PAIRED, seeks.c.room_id.is_(None), seeks.c.paired_at < database_now() - grace)
        .values(status=WAITING, partner=None, paired_at=None))
    return int(done.rowcount or 0)


async def purge(connection: AsyncConnection, older: float) -> int:
    """Delete the seeks done with for ``older`` seconds, so that the table does not grow forever: the cancelled and
    expired ones last heard of (made, or asked after) that long ago, and the paired ones paired that long ago whose
    room's match is no longer going on. How many were deleted."""
    before = database_now() - older
    playing = sa.exists().where(rooms.c.id == seeks.c.room_id, current_match(), matches.c.status == PLAYING)
    done = await connection.execute(sa.delete(seeks).where(sa.or_(
        sa.and_(seeks.c.status.in_((CANCELLED, EXPIRED)), sa.func.coalesce(seeks.c.seen, seeks.c.since) < before),
        sa.and_(seeks.c.status == PAIRED, seeks.c.room_id.is_not(None), seeks.c.paired_at < before, ~playing))))
    return int(done.rowcount or 0)


async def unpair(connection: AsyncConnection, seek_ids: Iterable[str]) -> None:
    """Paired seeks whose room could not be made wait again (with the time they had waited)."""
    await connection.execute(sa.update(seeks).where(seeks.c.id.in_(sorted(set(seek_ids))), seeks.c.status == PAIRED,
                                                    seeks.c.room_id.is_(None))
                             .values(status=WAITING, partner=None, paired_at=None))


async def seen(connection: AsyncConnection, seek_ids: Iterable[str]) -> None:
    """The seeks' clients asked after them (now, or since the last time this was said)."""
    wanted = sorted(set(seek_ids))
    for start in range(0, len(wanted), 1000):
        await connection.execute(sa.update(seeks).where(seeks.c.id.in_(wanted[start:start + 1000]))
                                 .values(seen=database_now()))


async def expire(connection: AsyncConnection, after: float) -> int:
    """The waiting seeks whose client has not asked after them for ``after`` seconds stop waiting: how many."""
    done = await connection.execute(sa.update(seeks).where(
        seeks.c.status == WAITING, sa.func.coalesce(seeks.c.seen, seeks.c.since) < database_now() - after)
        .values(status=EXPIRED))
    return int(done.rowcount or 0)


async def read(connection: AsyncConnection, seek_ids: Iterable[str]) -> dict[str, SeekRow]:
    """The seeks of ``seek_ids`` there are."""
    wanted = sorted(set(seek_ids))
    if not wanted:
        return {}
    now = database_now()
    rows = (await connection.execute(sa.select(seeks, (now - seeks.c.since).label("waited"),
                                               (now - sa.func.coalesce(seeks.c.seen, seeks.c.since)).label("ago"))
                                     .where(seeks.c.id.in_(wanted)))).mappings().all()
    return {str(r["id"]): SeekRow(str(r["id"]), str(r["pool"]), str(r["player"]), float(r["rating"]),
                                  str(r["status"]), r["partner"], r["paired_at"], r["secret_hash"],
                                  r["account_id"], r["room_id"], r["seat"], float(r["waited"]), float(r["ago"]))
            for r in rows}


async def waiting_pools(connection: AsyncConnection) -> list[str]:
    """The pools where two seeks or more wait."""
    rows = await connection.execute(sa.select(seeks.c.pool).where(seeks.c.status == WAITING)
                                    .group_by(seeks.c.pool).having(sa.func.count() >= 2).order_by(seeks.c.pool))
    return [str(r[0]) for r in rows]


async def counts(connection: AsyncConnection) -> dict[str, tuple[int, int]]:
    """Each pool's players waiting and matches going on (of the rooms its pairs were given)."""
    waiting = await connection.execute(sa.select(seeks.c.pool, sa.func.count()).where(seeks.c.status == WAITING)
                                       .group_by(seeks.c.pool))
    playing = await connection.execute(
        sa.select(seeks.c.pool, sa.func.count(sa.distinct(seeks.c.room_id)))
        .join(rooms, rooms.c.id == seeks.c.room_id).join(matches, current_match())
        .where(seeks.c.status == PAIRED, matches.c.status == PLAYING).group_by(seeks.c.pool))
    out: dict[str, tuple[int, int]] = {str(pool): (int(n), 0) for pool, n in waiting}
    for pool, n in playing:
        out[str(pool)] = (out.get(str(pool), (0, 0))[0], int(n))
    return out
