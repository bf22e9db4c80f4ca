"""The :class:`Store`: a server's database, its writes done in order by its :class:`~.writer.Writer`, its reads on
pooled connections that see what is committed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

import flametable.web.store.leases as leases
import flametable.web.store.seeks as seeks
from flametable.bots.registry import HUMAN
from flametable.service.pairing import Gap
from flametable.web.store.errors import MatchOver, StoreError, caused, database_errors
from flametable.web.store.migrate import upgrade_engine
from flametable.web.store.rows import EXPIRED, PLAYING, UNPLAYED, MatchRow, RoomRow, SeatRow
from flametable.web.store.setup import make_engine
from flametable.web.store.tables import (
    actions,
    current_match,
    match_row,
    match_values,
    matches,
    open_seat,
    room_owners,
    room_row,
    rooms,
    seats,
)
from flametable.web.store.writer import Writer

T = TypeVar("T")


class Store:
    """The database of one server. Made with :meth:`open`; every method is a coroutine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._writer = Writer(engine)
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        """Connect to ``url`` (a SQLAlchemy async URL: ``sqlite+aiosqlite:///path``,
        ``postgresql+asyncpg://...``) and, with ``migrate``, bring its tables to the latest migration."""
        engine = make_engine(url)
        try:
            if migrate:
                await upgrade_engine(engine)
        except BaseException:
            await engine.dispose()
            raise
        store = cls(engine)
        store._writer.start()
        return store

    async def close(self) -> None:
        """Finish the writes asked for, then close the connections (writes and reads asked for later:
        :class:`StoreError`; a read no longer opens a connection that nothing would close)."""
        if self._closed:
            return
        self._closed = True
        await self._writer.stop()
        sa.event.listen(self.engine.sync_engine, "do_connect", _refuse_closed)
        await self.engine.dispose()

    async def ping(self) -> bool:
        """Whether the database answers (for ``/healthz``)."""
        try:
            async with self.engine.connect() as connection:
                await connection.execute(sa.text("SELECT 1"))
        except (sa_exc.SQLAlchemyError, OSError, TimeoutError):
            return False
        return True

    # --- writes: through the writer -------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed or not self._writer.running:
            raise StoreError("the store is closed")

    async def _write(self, what: str, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Do ``work`` in a transaction of its own, in its turn among the writes."""
        self._check_open()
        return await self._writer.job(what, work)

    async def create_room(self, room: RoomRow) -> None:
        """Insert the room, its seats and its first match in one transaction (sets ``room.match.id``)."""

        async def work(connection: AsyncConnection) -> int:
            await connection.execute(sa.insert(rooms).values(
                id=room.id, game=room.game, options=room.options, creator=room.creator, created_at=room.created_at,
                current=room.match.number))
            if room.seats:
                await connection.execute(sa.insert(seats), [
                    {"room_id": room.id, "player": s.player, "kind": s.kind, "token_hash": s.token_hash}
                    for s in room.seats])
            return await self._insert_match(connection, room.match, room.id)

        room.match.id = await self._write(f"cannot create the room {room.id}", work)

    async def create_rooms(self, made: list[RoomRow]) -> None:
        """:meth:`create_room` for several rooms, in one transaction (quick pairing's step)."""
        if not made:
            return

        async def work(connection: AsyncConnection) -> list[int]:
            await connection.execute(sa.insert(rooms), [
                {"id": room.id, "game": room.game, "options": room.options, "creator": room.creator,
                 "created_at": room.created_at, "current": room.match.number} for room in made])
            await connection.execute(sa.insert(seats), [
                {"room_id": room.id, "player": s.player, "kind": s.kind, "token_hash": s.token_hash}
                for room in made for s in room.seats])
            return [await self._insert_match(connection, room.match, room.id) for room in made]

        ids = await self._write(f"cannot create {len(made)} rooms", work)
        for room, match_id in zip(made, ids, strict=True):
            room.match.id = match_id

    @staticmethod
    async def _insert_match(connection: AsyncConnection, match: MatchRow, room_id: str) -> int:
        result = await connection.execute(sa.insert(matches).values(**match_values(match, room_id)))
        key = result.inserted_primary_key
        if key is None:
            raise StoreError(f"the database gave no id to match {match.number} of the room {room_id}")
        return int(key[0])

    async def claim_seat(self, room_id: str, player: int, token_hash: str, *, fence: int | None = None,
                         options: dict[str, Any] | None = None) -> bool:
        """Give the open person's seat ``player`` its token, atomically: ``False`` if it was taken meanwhile, or
        the room was closed (its current match expired or closed). With ``fence``, :class:`LeaseLost` unless the
        room's lease is still held with it (a new owner that loaded the room before would not know the seat).
        ``options``: the room's and its current match's options from now on, in the same transaction (what the
        joiner brought of their own: :meth:`~flametable.core.protocol.GameBase.brought_options`)."""

        not_closed = (sa.exists().where(rooms.c.id == room_id, current_match(),
                                        matches.c.status.not_in(sorted(UNPLAYED))))
        what = f"cannot claim seat {player} of the room {room_id}"

        async def work(connection: AsyncConnection) -> bool:
            await leases.check_room(connection, room_id, fence, what)
            result = await connection.execute(
                sa.update(seats)
                .where(seats.c.room_id == room_id, seats.c.player == player, seats.c.kind == HUMAN,
                       seats.c.token_hash.is_(None), not_closed)
                .values(token_hash=token_hash))
            if result.rowcount != 1:
                return False
            if options is not None:
                await connection.execute(sa.update(rooms).where(rooms.c.id == room_id).values(options=options))
                current = sa.select(rooms.c.current).where(rooms.c.id == room_id).scalar_subquery()
                await connection.execute(sa.update(matches).where(matches.c.room_id == room_id,
                                                                  matches.c.number == current)
                                         .values(options=options))
            return True

        return await self._write(what, work)

    async def append_action(self, match_id: int, index: int, notation: str, seat: int, *,
                            status: str = "playing", result: dict[str, Any] | None = None,
                            fence: int | None = None, spent_ms: int | None = None) -> None:
        """Append action ``index`` (0-based) of the match and, in the same transaction, its status and result
        (the last action of a match ends it). Returns once committed; :class:`Conflict` if ``index`` exists,
        :class:`MatchOver` if the stored match is no longer being played, and with ``fence``, :class:`LeaseLost`
        unless the room's lease is still held with it (these three write nothing). ``spent_ms``: the time the
        decision took, in a timed match (issue 24)."""
        self._check_open()
        await self._writer.append(match_id, index, notation, seat, status, result, fence, spent_ms)

    async def end_match(self, match_id: int, status: str, result: dict[str, Any] | None, *,
                        fence: int | None = None) -> None:
        """Mark a match ended outside the rules (``"resigned"``, ``"timeout"``, ``"forfeit"``; ``"aborted"`` with no
        result) with its result. :class:`MatchOver` if it is no
        longer being played (its stored result is kept); with ``fence``, :class:`LeaseLost` unless the room's lease
        is still held with it."""
        what = f"cannot end the match {match_id}"

        async def work(connection: AsyncConnection) -> None:
            await leases.check_match(connection, match_id, fence, what)
            done = await connection.execute(
                sa.update(matches).where(matches.c.id == match_id, matches.c.status == PLAYING)
                .values(status=status, result=result))
            if done.rowcount != 1:
                await _refuse(connection, match_id, what)

        await self._write(what, work)

    async def replace_seat(self, room_id: str, player: int, kind: str, *, fence: int | None = None) -> None:
        """A bot (``kind``) takes the room player ``player``'s seat, which a person left (issue 24): its token no
        longer proves it. With ``fence``, :class:`LeaseLost` unless the room's lease is still held with it."""
        what = f"cannot give seat {player} of the room {room_id} to a bot"

        async def work(connection: AsyncConnection) -> None:
            await leases.check_room(connection, room_id, fence, what)
            done = await connection.execute(
                sa.update(seats).where(seats.c.room_id == room_id, seats.c.player == player)
                .values(kind=kind, token_hash=None))
            if done.rowcount != 1:
                raise StoreError(f"{what}: there is no such seat")

        await self._write(what, work)

    async def timed_rooms(self, limit: int = 10_000) -> list[str]:
        """The rooms whose current match is being played with a clock (issue 24): a single server takes them up at
        its start, so that their clocks run whether or not anyone reconnects."""
        query = (sa.select(rooms.c.id).join(matches, current_match())
                 .where(matches.c.status == PLAYING, matches.c.clock.is_not(None)).limit(limit))
        with database_errors("cannot list the rooms with a clock"):
            async with self.engine.connect() as connection:
                return [str(room_id) for room_id in (await connection.execute(query)).scalars()]

    async def undo(self, match_id: int, keep: int, base: int, *, fence: int | None = None) -> None:
        """Delete the actions from index ``keep`` on and set the match's ``base``, in one transaction.
        :class:`MatchOver` if it is no longer being played; with ``fence``, :class:`LeaseLost` unless the room's
        lease is still held with it."""
        what = f"cannot undo in the match {match_id}"

        async def work(connection: AsyncConnection) -> None:
            await leases.check_match(connection, match_id, fence, what)
            done = await connection.execute(
                sa.update(matches).where(matches.c.id == match_id, matches.c.status == PLAYING).values(base=base))
            if done.rowcount != 1:
                await _refuse(connection, match_id, what)
            await connection.execute(sa.delete(actions).where(actions.c.match_id == match_id, actions.c.idx >= keep))

        await self._write(what, work)

    async def close_waiting(self, match_id: int, status: str, *, fence: int | None = None) -> bool:
        """End the match ``match_id`` unplayed (``status``: ``"expired"`` or ``"closed"``, no result) if it is its
        room's current match, still playing, and a person's seat of the room is still open; whether it was. With
        ``fence``, :class:`LeaseLost` unless the room's lease is still held with it."""
        what = f"cannot close the match {match_id}"

        async def work(connection: AsyncConnection) -> bool:
            await leases.check_match(connection, match_id, fence, what)
            done = await connection.execute(
                sa.update(matches)
                .where(matches.c.id == match_id, matches.c.status == PLAYING, _waiting_room())
                .values(status=status, result=None))
            return done.rowcount == 1

        return await self._write(what, work)

    async def expire_waiting(self, before: float) -> list[str]:
        """End as ``"expired"``, in one statement, the current match of every room made before ``before`` that is
        still playing with a person's seat open; the ids of those rooms."""

        async def work(connection: AsyncConnection) -> list[str]:
            done = await connection.execute(
                sa.update(matches)
                .where(matches.c.status == PLAYING, _waiting_room(before))
                .values(status=EXPIRED, result=None)
                .returning(matches.c.room_id))
            return sorted(done.scalars())

        return await self._write("cannot expire the waiting rooms", work)

    async def start_match(self, match: MatchRow, *, fence: int | None = None) -> None:
        """Insert a new match of ``match.room_id`` (a rematch) and make it the room's current one (sets
        ``match.id``). With ``fence``, :class:`LeaseLost` unless the room's lease is still held with it."""
        what = f"cannot start match {match.number} of the room {match.room_id}"

        async def work(connection: AsyncConnection) -> int:
            await leases.check_room(connection, match.room_id, fence, what)
            match_id = await self._insert_match(connection, match, match.room_id)
            done = await connection.execute(
                sa.update(rooms).where(rooms.c.id == match.room_id).values(current=match.number))
            if done.rowcount != 1:
                raise StoreError(f"there is no room {match.room_id}")
            return match_id

        match.id = await self._write(what, work)

    # --- quick pairing's seeks (:mod:`.seeks`): through the writer ----------------------------------------------

    async def add_seek(self, seek_id: str, pool: str, player: str, rating: float, secret_hash: str | None = None,
                       account_id: int | None = None) -> bool:
        """Put ``player`` in ``pool`` (False: they already wait there); ``secret_hash``: the seek's secret's (its
        seat token once paired), ``account_id``: a signed-in player's."""
        return await self._write(f"cannot add the seek {seek_id}",
                                 lambda connection: seeks.add(connection, seek_id, pool, player, rating, secret_hash,
                                                              account_id))

    async def cancel_seek(self, seek_id: str, player: str) -> bool:
        """End ``player``'s waiting seek (whether there was one)."""
        return await self._write(f"cannot cancel the seek {seek_id}",
                                 lambda connection: seeks.cancel(connection, seek_id, player))

    async def pair_seeks(self, pool: str, gap: Gap | None = None) -> list[tuple[str, str]]:
        """Pair what waits in ``pool`` now and no other process is pairing (:func:`.seeks.pair`)."""
        return await self._write(f"cannot pair the pool {pool}",
                                 lambda connection: seeks.pair(connection, pool, gap or Gap()))

    async def seat_seeks(self, places: list[tuple[str, str, str, int]]) -> int:
        """The room made for paired seeks: (seek, partner, room, seat) each (:func:`.seeks.seated`): how many were
        still waiting for it."""
        return await self._write("cannot give paired seeks their room",
                                 lambda connection: seeks.seated(connection, places))

    async def unseat_seeks(self, grace: float) -> int:
        """Seeks paired over ``grace`` seconds ago that still have no room wait again (:func:`.seeks.unseated`)."""
        return await self._write("cannot put back paired seeks without a room",
                                 lambda connection: seeks.unseated(connection, grace))

    async def purge_seeks(self, older: float) -> int:
        """Delete the seeks done with for ``older`` seconds (:func:`.seeks.purge`)."""
        return await self._write("cannot delete old seeks", lambda connection: seeks.purge(connection, older))

    async def unpair_seeks(self, seek_ids: list[str]) -> None:
        """Paired seeks whose room could not be made wait again."""
        await self._write("cannot put seeks back in their pool", lambda connection: seeks.unpair(connection, seek_ids))

    async def seeks_seen(self, seek_ids: list[str]) -> None:
        """The seeks' clients asked after them (one statement for them all)."""
        await self._write("cannot touch seeks", lambda connection: seeks.seen(connection, seek_ids))

    async def expire_seeks(self, after: float) -> int:
        """Waiting seeks nobody asked after for ``after`` seconds stop waiting (how many)."""
        return await self._write("cannot expire seeks", lambda connection: seeks.expire(connection, after))

    async def load_seeks(self, seek_ids: Iterable[str]) -> dict[str, seeks.SeekRow]:
        """The stored seeks among ``seek_ids``."""
        with database_errors("cannot read seeks"):
            async with self.engine.connect() as connection:
                return await seeks.read(connection, seek_ids)

    async def waiting_pools(self) -> list[str]:
        """The pools where two seeks or more wait."""
        with database_errors("cannot list the pools"):
            async with self.engine.connect() as connection:
                return await seeks.waiting_pools(connection)

    async def pool_counts(self) -> dict[str, tuple[int, int]]:
        """Each pool's players waiting and matches going on."""
        with database_errors("cannot count the pools"):
            async with self.engine.connect() as connection:
                return await seeks.counts(connection)

    # --- rooms' owners (:mod:`.leases`): through the writer too, in their turn among the writes ------------------

    async def take_room(self, room_id: str, owner: str, seconds: float) -> int | None:
        """Own the room for ``seconds`` (by the database's clock) if it has no owner, its lease has ended, or it is
        ``owner``'s and live (then renewed); the fence to give with the room's writes (raised when the room
        changes hands, the same on a renewal), or ``None`` when another process holds a live lease."""
        what = f"cannot take the room {room_id}"

        async def work(connection: AsyncConnection) -> int | None:
            try:
                if connection.dialect.name == "postgresql":  # the fenced writes under way end first
                    await connection.execute(leases.lock_for_take(room_id))
                fence = (await connection.execute(
                    leases.take(connection.dialect.name, room_id, owner, seconds))).scalar()
            except sa_exc.IntegrityError as exc:
                raise caused(StoreError(f"{what}: there is no such room"), exc) from None
            return None if fence is None else int(fence)

        return await self._write(what, work)

    async def renew_rooms(self, owner: str, fences: Mapping[str, int], seconds: float) -> set[str]:
        """Extend by ``seconds`` (from now, by the database's clock) ``owner``'s live leases on the rooms of
        ``fences`` (room id: fence) that still have those fences, in one statement; the rooms **lost** (not
        renewed: their lease ended, was released or changed hands)."""
        if not fences:
            return set()

        async def work(connection: AsyncConnection) -> set[str]:
            kept: set[str] = set()
            for chunk in leases.chunks(fences):
                kept.update((await connection.execute(leases.renew(owner, chunk, seconds))).scalars())
            return set(fences) - kept

        what = f"cannot renew the rooms of {owner}"
        if self.engine.dialect.name == "sqlite":  # one writer at a time on its file
            return await self._write(what, work)
        # PostgreSQL: on a connection of its own, not behind the writer's queue of appends, so that a busy process
        # keeps its leases (renewed late behind batches of appends, they ran out under load and every room was
        # dropped: benchmarks.server --workers 2 at 1,000 connections). It needs no turn among the writes: it
        # extends only a live lease with its fence, so it never brings back one given back or taken meanwhile.
        self._check_open()
        with database_errors(what):
            async with self.engine.begin() as connection:
                return await work(connection)

    async def release_room(self, room_id: str, owner: str, fence: int) -> bool:
        """Give the room up (its lease ends now) if it is still ``owner``'s with ``fence``; whether it was."""

        async def work(connection: AsyncConnection) -> bool:
            return (await connection.execute(leases.release(room_id, owner, fence))).rowcount == 1

        return await self._write(f"cannot release the room {room_id}", work)

    async def room_owner(self, room_id: str) -> tuple[str, int, float] | None:
        """The room's owner, fence and seconds left of its lease (<= 0: ended), by the database's clock; ``None``
        if it never had one."""
        with database_errors(f"cannot read the owner of the room {room_id}"):
            async with self.engine.connect() as connection:
                row = (await connection.execute(leases.owner_of(room_id))).first()
        return None if row is None else (str(row[0]), int(row[1]), float(row[2]))

    async def room_owners(self, room_ids: Iterable[str]) -> dict[str, tuple[str, int, float]]:
        """:meth:`room_owner` of many rooms in one query (a room that never had an owner is absent)."""
        ids = sorted(set(room_ids))
        found: dict[str, tuple[str, int, float]] = {}
        if not ids:
            return found
        with database_errors("cannot read the owners of rooms"):
            async with self.engine.connect() as connection:
                for start in range(0, len(ids), leases.RENEW_CHUNK):
                    for row in await connection.execute(leases.owners_of(ids[start:start + leases.RENEW_CHUNK])):
                        found[str(row[0])] = (str(row[1]), int(row[2]), float(row[3]))
        return found

    async def abandoned_bot_rooms(self, limit: int) -> list[str]:
        """Rooms whose lease ran out without being given back (their owner died or hung) while their current
        match is being played with a bot's seat (a bot may have a move to make, and nobody to make it) or with a
        clock (issue 24: a clock to run, and nobody to run it). The lease ended longest ago first."""
        query = leases.abandoned(sa.or_(sa.exists().where(seats.c.room_id == room_owners.c.room_id,
                                                          seats.c.kind.like("bot:%")),
                                        matches.c.clock.is_not(None)), limit)  # a clock to run (issue 24)
        with database_errors("cannot list the rooms left by their owners"):
            async with self.engine.connect() as connection:
                return [str(room_id) for room_id in (await connection.execute(query)).scalars()]

    # --- reads ---------------------------------------------------------------------------------------------

    async def load_room(self, room_id: str) -> RoomRow | None:
        """The room with its seats and its current match, actions included; ``None`` if there is no such room."""
        with database_errors(f"cannot load the room {room_id}"):
            async with self.engine.connect() as connection:
                row = (await connection.execute(sa.select(rooms).where(rooms.c.id == room_id))).mappings().first()
                if row is None:
                    return None
                match = await self._load_match(connection, room_id, row["current"])
                if match is None:
                    raise StoreError(f"the room {room_id} has no match {row['current']}")
                seat_rows = await self._load_seats(connection, [room_id])
                return room_row(row, seat_rows.get(room_id, []), match)

    async def load_match(self, room_id: str, number: int) -> MatchRow | None:
        """Match ``number`` of the room, actions included."""
        with database_errors(f"cannot load match {number} of the room {room_id}"):
            async with self.engine.connect() as connection:
                return await self._load_match(connection, room_id, number)

    @staticmethod
    async def _load_match(connection: AsyncConnection, room_id: str, number: int) -> MatchRow | None:
        row = (await connection.execute(sa.select(matches).where(
            matches.c.room_id == room_id, matches.c.number == number))).mappings().first()
        if row is None:
            return None
        match = match_row(row)
        stored = (await connection.execute(sa.select(actions.c.notation, actions.c.spent_ms)
                                           .where(actions.c.match_id == match.id).order_by(actions.c.idx))).all()
        match.actions = [str(row[0]) for row in stored]
        match.spent = [None if row[1] is None else int(row[1]) for row in stored]
        return match

    @staticmethod
    async def _load_seats(connection: AsyncConnection, room_ids: list[str]) -> dict[str, list[SeatRow]]:
        found: dict[str, list[SeatRow]] = {}
        if not room_ids:
            return found
        result = await connection.execute(
            sa.select(seats).where(seats.c.room_id.in_(room_ids)).order_by(seats.c.room_id, seats.c.player))
        for row in result.mappings():
            found.setdefault(row["room_id"], []).append(SeatRow(row["player"], row["kind"], row["token_hash"]))
        return found

    async def waiting_rooms(self, limit: int = 50, *, since: float | None = None) -> list[RoomRow]:
        """The newest rooms whose current match is playing and that still have an open person's seat (their
        matches' actions not loaded); with ``since``, only those made at or after it (older ones are past their
        time, swept or not)."""
        query = (sa.select(rooms, matches).join(matches, current_match())
                 .where(matches.c.status == PLAYING, open_seat(),
                        *(() if since is None else (rooms.c.created_at >= since,)))
                 .order_by(rooms.c.created_at.desc(), rooms.c.id).limit(limit)
                 .set_label_style(sa.LABEL_STYLE_TABLENAME_PLUS_COL))
        with database_errors("cannot list the waiting rooms"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).mappings().all()
                seat_rows = await self._load_seats(connection, [row["rooms_id"] for row in rows])
        return [room_row(row, seat_rows.get(row["rooms_id"], []), match_row(row, "matches_"), "rooms_")
                for row in rows]

    async def playing_seats(self, room_ids: Iterable[str]) -> dict[str, dict[int, str]]:
        """The rooms among ``room_ids`` whose current match is playing: each taken seat's token hash by player (My
        matches: a token that proves no seat of a room still playing costs no more than this one query)."""
        ids = sorted(set(room_ids))
        if not ids:
            return {}
        query = (sa.select(seats.c.room_id, seats.c.player, seats.c.token_hash)
                 .join(rooms, rooms.c.id == seats.c.room_id).join(matches, current_match())
                 .where(seats.c.room_id.in_(ids), matches.c.status == PLAYING, seats.c.token_hash.is_not(None)))
        with database_errors("cannot read the seats of rooms playing"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).all()
        found: dict[str, dict[int, str]] = {}
        for room_id, player, digest in rows:
            found.setdefault(str(room_id), {})[int(player)] = str(digest)
        return found

    async def open_rooms_by(self, creator: str, *, since: float | None = None, bots_only: bool = False) -> int:
        """How many rooms made by ``creator`` have a match still playing: those with a person's seat (taken or
        open), or with ``bots_only`` those whose seats are all bots (the two limits of a client); with ``since``,
        a room still waiting for a player counts only if made at or after it (an older one is past its time,
        swept or not)."""
        person = sa.exists().where(seats.c.room_id == rooms.c.id, seats.c.kind == HUMAN)
        query = (sa.select(sa.func.count()).select_from(rooms).join(matches, current_match())
                 .where(rooms.c.creator == creator, matches.c.status == PLAYING, ~person if bots_only else person,
                        *(() if since is None else (sa.or_(rooms.c.created_at >= since, ~open_seat()),))))
        with database_errors(f"cannot count the rooms of {creator}"):
            async with self.engine.connect() as connection:
                return int((await connection.execute(query)).scalar_one())


async def _refuse(connection: AsyncConnection, match_id: int, what: str) -> None:
    """The write of ``what`` changed no row of the match: :class:`MatchOver` if it exists (no longer playing),
    else :class:`StoreError`."""
    status = (await connection.execute(sa.select(matches.c.status).where(matches.c.id == match_id))).scalar()
    if status is None:
        raise StoreError(f"{what}: there is no match {match_id}")
    raise MatchOver(what, match_id, str(status))


def _refuse_closed(*_: Any) -> None:
    """A closed store's engine (``do_connect``): no new connection (its reads get :class:`StoreError`)."""
    raise sa_exc.InvalidRequestError("the store is closed")


def _waiting_room(before: float | None = None) -> sa.Exists:
    """The match (of the enclosing statement) is its room's current one, the room has a person's seat open and,
    with ``before``, was made before it."""
    made = () if before is None else (rooms.c.created_at < before,)
    return sa.exists().where(rooms.c.id == matches.c.room_id, rooms.c.current == matches.c.number, *made,
                             open_seat())
