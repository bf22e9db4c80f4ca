"""Rooms' owners: when several server processes share one database, each room is driven by one of them at a time,
its *owner*, which holds a *lease* on it (a row of ``room_owners``) until ``expires``, and renews it while it drives
the room. Every time a room changes hands its *fence* number is raised; the owner gives it with each write of the
room's match, and the write, in its own transaction, first checks that the lease is still held with that fence and
unexpired: a process that lost its lease (a long pause, a lost connection, a partition) can never write again.

Times are the **database's clock**: ``expires`` is seconds since 1970 as the database counts them (PostgreSQL's
``clock_timestamp()``, SQLite's ``julianday('now')``), never a server's, so the machines' clocks never matter.

The rules, each one statement:

- :func:`take` owns the room for ``seconds`` if it has no owner, its lease has ended, or it is ours and still live
  (a renewal, the fence unchanged). A lease that ended is lost even to its own process: taking the room again is a
  change of hands, the fence raised (what the process knew of the room is stale). Of processes racing for a free
  room exactly one wins (the row is locked by the first; the others then see it held).
- :func:`renew` extends many of our live leases at once: those where owner and fence still match.
- :func:`release` ends our lease now.
- a fenced write locks the room's owner row (``FOR KEY SHARE``) as it checks it, and a take locks it first
  (:func:`lock_for_take`, ``FOR UPDATE``, which waits for every such lock): a process taking the room over waits for
  that write's commit, so once :func:`take` returns a new fence no write under an older one can still commit.
  A renewal (an ``UPDATE`` of ``expires`` alone: ``FOR NO KEY UPDATE``) does not wait for the writes, nor they for
  it. (With ``FOR SHARE`` they did: at 1,000 connections a renewal of hundreds of rows waited behind the appends
  until leases ran out, and PostgreSQL found deadlocks between a renewal and the appends.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from flametable.web.store.errors import LeaseLost
from flametable.web.store.rows import PLAYING
from flametable.web.store.tables import matches, room_owners, rooms

RENEW_CHUNK = 4000
"""The most rooms renewed by one statement (two bound values a room: well under the drivers' 32,767)."""


class database_now(FunctionElement[float]):  # an SQL function, named as SQL's are
    """The database's clock: seconds since 1970 (a double), by the database, not by the server."""

    type = sa.Double()
    inherit_cache = True
    name = "database_now"


@compiles(database_now, "postgresql")
def _postgresql_now(_element: Any, _compiler: Any, **_kw: Any) -> str:
    return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"


@compiles(database_now, "sqlite")
def _sqlite_now(_element: Any, _compiler: Any, **_kw: Any) -> str:
    return "((julianday('now') - 2440587.5) * 86400.0)"


def _seconds(seconds: float) -> sa.BindParameter[float]:
    return sa.bindparam(None, float(seconds), type_=sa.Double())


def live() -> sa.ColumnElement[bool]:
    """The lease (of the enclosing statement's ``room_owners`` row) has not ended."""
    return room_owners.c.expires > database_now()


def take(dialect: str, room_id: str, owner: str, seconds: float) -> Any:
    """The upsert of :meth:`Store.take_room <flametable.web.store.Store.take_room>`: returns the fence, or no row
    when another process holds a live lease."""
    from sqlalchemy.dialects import postgresql, sqlite

    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    new = insert(room_owners).values(room_id=room_id, owner=owner, fence=1,
                                     expires=database_now() + _seconds(seconds))
    ours = room_owners.c.owner == new.excluded.owner
    return new.on_conflict_do_update(
        index_elements=[room_owners.c.room_id],
        set_={"owner": new.excluded.owner, "expires": new.excluded.expires,
              "fence": sa.case((sa.and_(ours, live()), room_owners.c.fence), else_=room_owners.c.fence + 1)},
        where=sa.or_(ours, ~live()),
    ).returning(room_owners.c.fence)


def lock_for_take(room_id: str) -> sa.Select[Any]:
    """Lock the room's owner row, if it has one, ``FOR UPDATE`` (PostgreSQL; SQLite has one writer): a take waits
    for the fenced writes under way (their ``FOR KEY SHARE``), which :func:`take`'s upsert alone would not (an
    update of no key locks ``FOR NO KEY UPDATE``)."""
    return sa.select(room_owners.c.room_id).where(room_owners.c.room_id == room_id).with_for_update()


def renew(owner: str, fences: Iterable[tuple[str, int]], seconds: float) -> sa.Update:
    """Extend the live leases of ``owner`` on those rooms whose fence is still the one given; returns their ids."""
    return (sa.update(room_owners)
            .where(room_owners.c.owner == owner, live(),
                   sa.tuple_(room_owners.c.room_id, room_owners.c.fence).in_(list(fences)))
            .values(expires=database_now() + _seconds(seconds))
            .returning(room_owners.c.room_id))


def chunks(fences: Mapping[str, int]) -> Iterable[list[tuple[str, int]]]:
    pairs = sorted(fences.items())
    for start in range(0, len(pairs), RENEW_CHUNK):
        yield pairs[start:start + RENEW_CHUNK]


RELEASED = 0.0
"""The ``expires`` of a lease given back (:func:`release`): it ended, and at no time a lease runs out at, so that a
room its owner gave back (nobody in it, no bot to move) is never taken for a lease that ran out (:func:`abandoned`)."""


def release(room_id: str, owner: str, fence: int) -> sa.Update:
    """End the lease now if it is still ``owner``'s with ``fence`` and live."""
    return (sa.update(room_owners)
            .where(room_owners.c.room_id == room_id, room_owners.c.owner == owner, room_owners.c.fence == fence,
                   live())
            .values(expires=_seconds(RELEASED)))


def owners_of(room_ids: list[str]) -> sa.Select[Any]:
    """Each room's id, owner, fence and seconds left (<= 0: ended)."""
    return sa.select(room_owners.c.room_id, room_owners.c.owner, room_owners.c.fence,
                     room_owners.c.expires - database_now()).where(room_owners.c.room_id.in_(room_ids))


def abandoned(extra: sa.ColumnElement[bool], limit: int) -> sa.Select[Any]:
    """The rooms whose lease ran out (not given back) and whose current match is being played, with ``extra``."""
    return (sa.select(room_owners.c.room_id)
            .join(rooms, rooms.c.id == room_owners.c.room_id)
            .join(matches, sa.and_(matches.c.room_id == rooms.c.id, matches.c.number == rooms.c.current))
            .where(room_owners.c.expires > RELEASED, ~live(), matches.c.status == PLAYING, extra)
            .order_by(room_owners.c.expires).limit(limit))


def owner_of(room_id: str) -> sa.Select[Any]:
    """The room's owner, fence and seconds left (<= 0: ended)."""
    return sa.select(room_owners.c.owner, room_owners.c.fence,
                     room_owners.c.expires - database_now()).where(room_owners.c.room_id == room_id)


async def match_leases(connection: AsyncConnection, match_ids: Iterable[int]) -> dict[int, tuple[str, int, bool]]:
    """The lease of each match's room (its id, fence, and whether it is live), the owner rows locked ``FOR KEY
    SHARE`` until the transaction ends (PostgreSQL; SQLite has one writer); a match whose room has no owner is
    absent."""
    result = await connection.execute(
        sa.select(matches.c.id, room_owners.c.room_id, room_owners.c.fence, live())
        .select_from(room_owners.join(matches, matches.c.room_id == room_owners.c.room_id))
        .where(matches.c.id.in_(sorted(set(match_ids))))
        .order_by(room_owners.c.room_id)
        .with_for_update(read=True, key_share=True, of=room_owners))
    return {int(row[0]): (str(row[1]), int(row[2]), bool(row[3])) for row in result}


def held(lease: tuple[str, int, bool] | None, fence: int) -> bool:
    """Whether ``lease`` (of :func:`match_leases`) is live and still has ``fence``."""
    return lease is not None and lease[1] == fence and lease[2]


async def check_match(connection: AsyncConnection, match_id: int, fence: int | None, what: str) -> None:
    """:class:`LeaseLost` unless the lease of the match's room is live with ``fence`` (``None``: no check), its
    owner row locked until the transaction ends."""
    if fence is None:
        return
    lease = (await match_leases(connection, [match_id])).get(match_id)
    if not held(lease, fence):
        raise LeaseLost(what, fence, lease[0] if lease is not None else None)


async def check_room(connection: AsyncConnection, room_id: str, fence: int | None, what: str) -> None:
    """:class:`LeaseLost` unless the room's lease is live with ``fence`` (``None``: no check), its owner row locked
    until the transaction ends."""
    if fence is None:
        return
    row = (await connection.execute(
        sa.select(room_owners.c.fence, live()).where(room_owners.c.room_id == room_id)
        .with_for_update(read=True, key_share=True))).first()
    if row is None or not (int(row[0]) == fence and bool(row[1])):
        raise LeaseLost(what, fence, room_id)
