"""Quick pairing's seeks in the store (issue 24, point 2): the players waiting in a pool, each paired once at most
however many server processes pair the pool at the same time.

- :func:`add` a seek (``since`` by the database's clock, so the processes' clocks never matter); a player has one
  waiting seek per pool at most (a unique index on the waiting ones: a second is refused, :func:`add` False).
- :func:`cancel` a waiting seek (its player's own).
- :func:`pair` the pool now: the waiting seeks are read and locked ``FOR UPDATE SKIP LOCKED`` (PostgreSQL; SQLite
  has one writer), paired by :func:`flametable.service.pairing.pairs`, and each pair's two rows marked ``paired``
  with their partner in the same transaction. A process pairing the pool at the same moment skips the rows another
  holds, so no seek is paired twice, and none waits for another process's pairing.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection

from flametable.service.pairing import Gap, Seek, pairs
from flametable.web.store.leases import database_now
from flametable.web.store.tables import seeks

WAITING, PAIRED, CANCELLED = "waiting", "paired", "cancelled"


async def add(connection: AsyncConnection, seek_id: str, pool: str, player: str, rating: float) -> bool:
    """Put ``player`` in ``pool``: False if they already wait there."""
    try:
        async with connection.begin_nested():
            await connection.execute(seeks.insert().values(id=seek_id, pool=pool, player=player, rating=rating,
                                                           since=database_now(), status=WAITING))
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
            .values(status=PAIRED, partner=partner),
            [{"seek": a, "partner_of": b} for x, y in made for a, b in ((x.id, y.id), (y.id, x.id))])
    return [(a.id, b.id) for a, b in made]
