"""Direct challenges in the store (issue 24, point 6; the table ``challenges`` of migration 0009).

A signed-in player challenges another account to a match of a game with chosen options, a time control and rated or
not (:meth:`ChallengeStore.add`): the challenge is *pending*. The challenged player accepts it or declines it, the
challenger may cancel it while it is pending: each is one conditional update (:meth:`ChallengeStore.settle`), so of
two answers at once (an accept in two tabs, an accept and a cancel) exactly one is taken. An accepted challenge
keeps the room made for it (:meth:`ChallengeStore.made_room`); one whose room could not be made goes back to
pending (:meth:`ChallengeStore.reopen`). Writes go through the store's one writer; a database failure is
:class:`~flametable.web.store.StoreError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from flametable.web.store.errors import database_errors
from flametable.web.store.queries import Store
from flametable.web.store.tables import accounts, challenges

PENDING, ACCEPTED, DECLINED, CANCELLED = "pending", "accepted", "declined", "cancelled"
SETTLED = (ACCEPTED, DECLINED, CANCELLED)


@dataclass(frozen=True)
class Challenge:
    """One challenge, with both accounts' names (None once an account is deleted)."""

    id: str
    from_id: int
    from_name: str | None
    to_id: int
    to_name: str | None
    game: str
    options: dict[str, Any]
    clock: dict[str, Any] | None
    rated: bool
    status: str
    created_at: float
    room_id: str | None


class ChallengeStore:
    """The challenges of a :class:`~flametable.web.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def engine(self) -> AsyncEngine:
        return self.store.engine

    async def add(self, challenge_id: str, from_id: int, to_id: int, game: str, options: dict[str, Any],
                  clock: dict[str, Any] | None, rated: bool, now: float) -> None:
        """A new pending challenge of ``from_id`` to ``to_id``."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.insert(challenges).values(
                id=challenge_id, from_id=from_id, to_id=to_id, game=game, options=options, clock=clock, rated=rated,
                status=PENDING, created_at=now, room_id=None))

        await self.store._write(f"cannot store the challenge {challenge_id}", work)

    async def pending_count(self, from_id: int) -> int:
        """How many of ``from_id``'s challenges are pending (a bound on what one account may send)."""
        query = sa.select(sa.func.count()).select_from(challenges).where(challenges.c.from_id == from_id,
                                                                         challenges.c.status == PENDING)
        with database_errors("cannot count the pending challenges"):
            async with self.engine.connect() as connection:
                return int((await connection.execute(query)).scalar_one())

    async def settle(self, challenge_id: str, status: str, *, to_id: int | None = None,
                     from_id: int | None = None) -> bool:
        """Answer the pending challenge: ``status`` accepted or declined (by ``to_id``, the challenged) or cancelled
        (by ``from_id``, the challenger). False if it is not pending, or not theirs: nothing changes."""
        assert status in SETTLED

        async def work(connection: AsyncConnection) -> bool:
            query = sa.update(challenges).where(challenges.c.id == challenge_id, challenges.c.status == PENDING)
            if to_id is not None:
                query = query.where(challenges.c.to_id == to_id)
            if from_id is not None:
                query = query.where(challenges.c.from_id == from_id)
            done = await connection.execute(query.values(status=status))
            return bool(done.rowcount == 1)

        return await self.store._write(f"cannot answer the challenge {challenge_id}", work)

    async def made_room(self, challenge_id: str, room_id: str) -> None:
        """The room made for the accepted challenge."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.update(challenges).where(challenges.c.id == challenge_id)
                                     .values(room_id=room_id))

        await self.store._write(f"cannot keep the room of the challenge {challenge_id}", work)

    async def reopen(self, challenge_id: str) -> None:
        """The challenge taken as accepted, whose room could not be made (a deck refused...), is pending again."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.update(challenges).where(challenges.c.id == challenge_id,
                                                                 challenges.c.status == ACCEPTED,
                                                                 challenges.c.room_id.is_(None))
                                     .values(status=PENDING))

        await self.store._write(f"cannot reopen the challenge {challenge_id}", work)

    async def get(self, challenge_id: str) -> Challenge | None:
        found = await self._read(challenges.c.id == challenge_id, limit=1)
        return found[0] if found else None

    async def of(self, account_id: int, limit: int = 50) -> list[Challenge]:
        """The account's challenges, received and sent, newest first: the pending ones, and the ones accepted with
        their room (the challenger learns of it here)."""
        return await self._read(sa.and_(sa.or_(challenges.c.to_id == account_id, challenges.c.from_id == account_id),
                                        sa.or_(challenges.c.status == PENDING,
                                               sa.and_(challenges.c.status == ACCEPTED,
                                                       challenges.c.room_id.is_not(None)))), limit=limit)

    async def _read(self, where: sa.ColumnElement[bool], limit: int) -> list[Challenge]:
        sender, receiver = accounts.alias("sender"), accounts.alias("receiver")
        query = (sa.select(challenges, sender.c.name.label("from_name"), receiver.c.name.label("to_name"))
                 .join(sender, sender.c.id == challenges.c.from_id)
                 .join(receiver, receiver.c.id == challenges.c.to_id)
                 .where(where).order_by(challenges.c.created_at.desc(), challenges.c.id).limit(limit))
        with database_errors("cannot read the challenges"):
            async with self.engine.connect() as connection:
                rows: Sequence[sa.RowMapping] = (await connection.execute(query)).mappings().all()
        return [Challenge(str(r["id"]), int(r["from_id"]), r["from_name"], int(r["to_id"]), r["to_name"],
                          str(r["game"]), dict(r["options"]), None if r["clock"] is None else dict(r["clock"]),
                          bool(r["rated"]), str(r["status"]), float(r["created_at"]), r["room_id"])
                for r in rows]
