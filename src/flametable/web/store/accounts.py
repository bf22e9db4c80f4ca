"""Accounts in the store (issue 23): players' accounts, their sessions, and the seats that belong to them (the
tables ``accounts``, ``sessions`` and ``seat_accounts`` of migration 0004).

Nothing secret is stored as it was given: a password only as its Argon2id hash (made by
:mod:`flametable.web.accounts`, never here), a session's cookie only as the SHA-256 of its random id, a seat's token
only as its SHA-256 (in ``seats``, as before). A deleted account keeps its row as a tombstone, its name, key and
hash gone (the name is free for others at once), so that the seats it held, and their finished matches, still name
an account that no longer resolves to a name.

Every write goes through the store's one writer, in its turn among the rooms' writes (:mod:`flametable.web.store`);
reads use pooled connections and see what is committed. A database failure is :class:`StoreError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from flametable.bots.registry import HUMAN
from flametable.web.store.errors import Conflict, database_errors
from flametable.web.store.queries import Store
from flametable.web.store.rows import PLAYING, UNPLAYED
from flametable.web.store.tables import (
    accounts,
    current_match,
    matches,
    open_seat,
    rooms,
    seat_accounts,
    seats,
    sessions,
)

MAX_ATTACHED = 50
"""The most seats one request may attach to an account (the seat tokens a tab holds)."""


@dataclass(frozen=True)
class AccountRow:
    """A live account: its id, its name as shown, the PHC string of its password's hash, when it was made."""

    id: int
    name: str
    password_hash: str
    created_at: float


@dataclass(frozen=True)
class SessionRow:
    """A live session (its account not deleted, not past its time): the hash of its id, its account."""

    id_hash: str
    account: AccountRow
    created_at: float
    last_seen: float


@dataclass(frozen=True)
class AccountSeat:
    """A seat of an account in a room whose current match is being played: what a browser needs to take it up
    (``player``: the room's player; ``seat``: where that player sits in the current match)."""

    room_id: str
    game: str
    match: int
    player: int
    seat: int
    waiting: bool  # a person's seat of the room is still open
    created_at: float


@dataclass(frozen=True)
class Reissued:
    """What :meth:`AccountStore.replace_token` did: the player whose token it replaced (None: the account has no
    seat there), or ``closed`` (the room's match was closed unplayed: nothing replaced)."""

    player: int | None
    closed: bool = False


def _account(row: sa.RowMapping) -> AccountRow:
    return AccountRow(id=int(row["id"]), name=str(row["name"]), password_hash=str(row["password_hash"]),
                      created_at=float(row["created_at"]))


_LIVE = accounts.c.name_key.is_not(None)  # not deleted


class AccountStore:
    """The accounts of a :class:`Store`: made once per server, beside the store (``app.state.accounts``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def engine(self) -> AsyncEngine:
        return self.store.engine

    # --- accounts -------------------------------------------------------------------------------------------

    async def create(self, name: str, key: str, password_hash: str, now: float) -> AccountRow | None:
        """A new account; ``None`` if the key ``key`` is taken (by a live account: a deleted one's is free)."""

        async def work(connection: AsyncConnection) -> int:
            result = await connection.execute(sa.insert(accounts).values(
                name=name, name_key=key, password_hash=password_hash, created_at=now))
            found = result.inserted_primary_key
            assert found is not None
            return int(found[0])

        try:
            account_id = await self.store._write("cannot make an account", work)
        except Conflict:  # the unique key: the name is taken
            return None
        return AccountRow(account_id, name, password_hash, now)

    async def by_key(self, key: str) -> AccountRow | None:
        """The live account of the name key ``key``."""
        with database_errors("cannot read an account"):
            async with self.engine.connect() as connection:
                row = (await connection.execute(sa.select(accounts).where(accounts.c.name_key == key))).mappings()
                found = row.first()
        return None if found is None else _account(found)

    async def names(self, account_ids: Iterable[int]) -> dict[int, str | None]:
        """The names of the accounts ``account_ids`` (``None``: a deleted account)."""
        wanted = sorted(set(account_ids))
        if not wanted:
            return {}
        with database_errors("cannot read the accounts' names"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(sa.select(accounts.c.id, accounts.c.name)
                                                 .where(accounts.c.id.in_(wanted)))).all()
        return {int(row[0]): (None if row[1] is None else str(row[1])) for row in rows}

    async def rehash(self, account_id: int, old_hash: str, new_hash: str) -> bool:
        """Store ``new_hash`` (the same password, hashed with the current parameters) if the account's hash is still
        ``old_hash`` (a password changed meanwhile is left alone); whether it was."""

        async def work(connection: AsyncConnection) -> bool:
            done = await connection.execute(sa.update(accounts).where(
                accounts.c.id == account_id, accounts.c.password_hash == old_hash, _LIVE).values(
                password_hash=new_hash))
            return done.rowcount == 1

        return await self.store._write(f"cannot rehash the password of account {account_id}", work)

    async def change_password(self, account_id: int, new_hash: str, session_hash: str, now: float) -> bool:
        """In one transaction: the account's new hash, every one of its sessions ended, and one new session
        (``session_hash``) for whoever changed it; whether the account was still there (else nothing changed)."""

        async def work(connection: AsyncConnection) -> bool:
            done = await connection.execute(sa.update(accounts).where(accounts.c.id == account_id, _LIVE).values(
                password_hash=new_hash))
            if done.rowcount != 1:
                return False
            await connection.execute(sa.delete(sessions).where(sessions.c.account_id == account_id))
            await connection.execute(sa.insert(sessions).values(id_hash=session_hash, account_id=account_id,
                                                                created_at=now, last_seen=now))
            return True

        return await self.store._write(f"cannot change the password of account {account_id}", work)

    async def delete(self, account_id: int, now: float) -> None:
        """Delete the account: its name, key and hash removed (the name free at once), its sessions ended; the row
        stays as a tombstone that its seats (and their matches) still name."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.delete(sessions).where(sessions.c.account_id == account_id))
            await connection.execute(sa.update(accounts).where(accounts.c.id == account_id).values(
                name=None, name_key=None, password_hash=None, deleted_at=now))

        await self.store._write(f"cannot delete account {account_id}", work)

    # --- sessions -------------------------------------------------------------------------------------------

    async def start_session(self, account_id: int, id_hash: str, now: float, *, ending: str | None = None,
                            expired_before: float | None = None) -> None:
        """A new session of the account (``id_hash``: the SHA-256 of its fresh id); in the same transaction the
        session ``ending`` (the one the request came with, whoever's) ends, and with ``expired_before`` the
        account's sessions made before it (past their time) are deleted."""

        async def work(connection: AsyncConnection) -> None:
            if ending is not None:
                await connection.execute(sa.delete(sessions).where(sessions.c.id_hash == ending))
            if expired_before is not None:
                await connection.execute(sa.delete(sessions).where(sessions.c.account_id == account_id,
                                                                   sessions.c.created_at < expired_before))
            await connection.execute(sa.insert(sessions).values(id_hash=id_hash, account_id=account_id,
                                                                created_at=now, last_seen=now))

        await self.store._write(f"cannot start a session of account {account_id}", work)

    async def session(self, id_hash: str, since: float) -> SessionRow | None:
        """The session of ``id_hash`` if it was made at or after ``since`` and its account is live."""
        query = (sa.select(sessions.c.created_at.label("session_created_at"), sessions.c.last_seen, accounts)
                 .join(accounts, accounts.c.id == sessions.c.account_id)
                 .where(sessions.c.id_hash == id_hash, sessions.c.created_at >= since, _LIVE))
        with database_errors("cannot read a session"):
            async with self.engine.connect() as connection:
                row = (await connection.execute(query)).mappings().first()
        if row is None:
            return None
        return SessionRow(id_hash, _account(row), float(row["session_created_at"]), float(row["last_seen"]))

    async def touch(self, id_hash: str, now: float) -> None:
        """Note that the session was used ``now``."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.update(sessions).where(sessions.c.id_hash == id_hash).values(last_seen=now))

        await self.store._write("cannot note a session's use", work)

    async def end_session(self, id_hash: str) -> None:
        """End the session of ``id_hash`` (none: nothing happens)."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.delete(sessions).where(sessions.c.id_hash == id_hash))

        await self.store._write("cannot end a session", work)

    async def session_count(self, account_id: int) -> int:
        """How many sessions the account has (ended ones are deleted; those past their time until its next
        sign-in)."""
        with database_errors(f"cannot count the sessions of account {account_id}"):
            async with self.engine.connect() as connection:
                return int((await connection.execute(sa.select(sa.func.count()).select_from(sessions).where(
                    sessions.c.account_id == account_id))).scalar_one())

    # --- seats ----------------------------------------------------------------------------------------------

    async def attach_players(self, account_id: int, room_id: str, players: Iterable[int]) -> None:
        """The seats ``players`` of the room (just made or joined by the account) belong to the account."""
        rows = [{"room_id": room_id, "player": p, "account_id": account_id} for p in sorted(set(players))]
        if not rows:
            return

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.insert(seat_accounts), rows)

        await self.store._write(f"cannot give the seats of the room {room_id} to account {account_id}", work)

    async def attach_tokens(self, account_id: int, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
        """The seats whose token hashes ``pairs`` gives (room id, token hash) belong to the account, except those
        that belong to another account already (and a pair that proves no seat): the seats of the account among
        them, as (room id, player), in the order of ``pairs``."""
        pairs = list(dict.fromkeys(pairs))[:MAX_ATTACHED]
        if not pairs:
            return []

        async def work(connection: AsyncConnection) -> list[tuple[str, int]]:
            found = {(str(r[0]), str(r[1])): int(r[2]) for r in await connection.execute(
                sa.select(seats.c.room_id, seats.c.token_hash, seats.c.player)
                .where(sa.tuple_(seats.c.room_id, seats.c.token_hash).in_(pairs), seats.c.kind == HUMAN))}
            if not found:
                return []
            held = {(str(r[0]), int(r[1])): int(r[2]) for r in await connection.execute(
                sa.select(seat_accounts.c.room_id, seat_accounts.c.player, seat_accounts.c.account_id)
                .where(sa.tuple_(seat_accounts.c.room_id, seat_accounts.c.player).in_(
                    [(room, player) for (room, _), player in found.items()])))}
            new = [{"room_id": room, "player": player, "account_id": account_id}
                   for (room, _), player in found.items() if (room, player) not in held]
            if new:
                await connection.execute(sa.insert(seat_accounts), new)
            mine = []
            for pair in pairs:
                player = found.get(pair)
                if player is not None and held.get((pair[0], player), account_id) == account_id:
                    mine.append((pair[0], player))
            return mine

        return await self.store._write(f"cannot give seats to account {account_id}", work)

    async def seats_of(self, account_id: int, since: float, limit: int = 100) -> list[AccountSeat]:
        """The account's seats in rooms whose current match is being played, the newest rooms first; a room still
        waiting for a player counts only if made at or after ``since`` (an older one is past its time)."""
        waiting = open_seat().label("waiting")
        query = (sa.select(rooms.c.id, rooms.c.game, rooms.c.created_at, matches.c.number, matches.c.first_player,
                           seat_accounts.c.player, waiting)
                 .select_from(seat_accounts)
                 .join(rooms, rooms.c.id == seat_accounts.c.room_id)
                 .join(matches, current_match())
                 .where(seat_accounts.c.account_id == account_id, matches.c.status == PLAYING,
                        sa.or_(rooms.c.created_at >= since, ~open_seat()))
                 .order_by(rooms.c.created_at.desc(), rooms.c.id, seat_accounts.c.player).limit(limit))
        with database_errors(f"cannot list the seats of account {account_id}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).mappings().all()
        return [AccountSeat(room_id=str(r["id"]), game=str(r["game"]), match=int(r["number"]),
                            player=int(r["player"]), seat=int(r["player"]) ^ int(r["first_player"]),
                            waiting=bool(r["waiting"]), created_at=float(r["created_at"])) for r in rows]

    async def seat_holders(self, room_id: str) -> dict[int, int]:
        """The room's seats that belong to an account: player -> account id."""
        with database_errors(f"cannot read the seats of the room {room_id}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(sa.select(seat_accounts.c.player, seat_accounts.c.account_id)
                                                 .where(seat_accounts.c.room_id == room_id))).all()
        return {int(r[0]): int(r[1]) for r in rows}

    async def replace_token(self, account_id: int, room_id: str, player: int | None, token_hash: str) -> Reissued:
        """Give the account's seat in the room (``player``, or its first there) the token of ``token_hash``, the old
        token no longer proving it; nothing once the room's match was closed unplayed."""

        async def work(connection: AsyncConnection) -> Reissued:
            query = (sa.select(seat_accounts.c.player).where(seat_accounts.c.room_id == room_id,
                                                               seat_accounts.c.account_id == account_id,
                                                               *(() if player is None else
                                                                 (seat_accounts.c.player == player,)))
                     .order_by(seat_accounts.c.player).limit(1))
            chosen = (await connection.execute(query)).scalar()
            if chosen is None:
                return Reissued(None)
            status = (await connection.execute(sa.select(matches.c.status).select_from(rooms)
                                               .join(matches, current_match()).where(rooms.c.id == room_id))).scalar()
            if status in UNPLAYED:
                return Reissued(int(chosen), closed=True)
            await connection.execute(sa.update(seats).where(seats.c.room_id == room_id, seats.c.player == chosen)
                                     .values(token_hash=token_hash))
            return Reissued(int(chosen))

        return await self.store._write(f"cannot give account {account_id} a new token in the room {room_id}", work)
