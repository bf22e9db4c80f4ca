"""The server's storage: rooms, their seats, their matches and each match's ordered action log, in a SQL
database through SQLAlchemy 2 (async), its tables made and changed by Alembic migrations.

A match is kept as what is needed to rebuild it exactly (the engines are deterministic): its game, options,
card-set id and hash, seed, optional setup, and every action in order. Nothing else about its state is stored.

**An action is committed before anyone is told of it**: :meth:`Store.append_action` returns only once the action
is durable. Actions arriving together are committed together (one transaction for all the actions that wait
while the previous commit runs: group commit), so a busy server pays one disk flush per batch, not per action.

Seat tokens are never stored: only their SHA-256 (``token_hash``).

Seeds run to 2**64 - 1, beyond a signed 64-bit column: they are stored as decimal text.

How writes are done (one writer)
--------------------------------
Every write (``create_room``, ``claim_seat``, ``append_action``, ``end_match``, ``undo``, ``start_match``) is put
on one queue, in the order it was asked for, and awaited; a single writer task (started by :meth:`Store.open`)
takes everything queued at once and does it in that order:

- a run of consecutive appends is one transaction: the actions are inserted together (one ``executemany``), the
  matches the run ends get their status and result, then one commit; every caller of the run is answered after
  that commit. Appends that arrive while it commits wait in the queue and make the next run: the busier the
  server, the bigger the batches.
- any other write is a transaction of its own, in its place in the queue: an ``undo`` is never overtaken by an
  append asked for before it, nor an append by an ``undo`` asked for before it.
- when a run of appends fails on a constraint (an index taken twice), it is rolled back and its appends are
  done again one transaction each: only the conflicting caller gets :class:`Conflict`, the others succeed.

One writer also means SQLite never sees two writers fight for its lock. Reads (``load_room``, ``load_match``,
``waiting_rooms``, ``open_rooms_by``, ``ping``) use their own pooled connections and see what is committed.

A caller that stops waiting (its task cancelled) does not take its write back: it is done all the same.

Every database failure reaches the caller as :class:`StoreError` (the driver's exception as ``__cause__``), its
transaction rolled back. SQLite connections use WAL, ``synchronous=FULL`` (a commit survives a power cut) and
foreign keys.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from flametable.bots.registry import HUMAN
from flametable.core.record import MatchRecord

T = TypeVar("T")

DATA_DIR_VARIABLE = "FLAMETABLE_DATA_DIR"
"""An environment variable: the directory of the default database (instead of the user's data directory)."""
MAX_BATCH = 1000
"""The most writes the writer takes from the queue at once."""




class StoreError(Exception):
    """The database refused or failed (connection lost, constraint): the caller keeps its state as it was."""


class Conflict(StoreError):
    """A row that should be new exists already (an action index taken twice): another writer got there first."""


class UnsupportedDatabase(StoreError):
    """A database URL the server cannot use (``url``: as it was given)."""

    def __init__(self, url: str) -> None:
        self.url = url
        super().__init__(f"unsupported or malformed database URL {url!r}: give a file path, sqlite:///FILE or "
                         "postgresql://USER@HOST/DATABASE")


@dataclass
class SeatRow:
    """One of the room's two players. ``kind``: :data:`HUMAN` (``"human"``, as records name a person's seat) or
    a bot spec (``"bot:hard"``); ``token_hash``: the SHA-256 hex digest of the seat's secret token, ``None`` while
    a person's seat is open (bots have none)."""

    player: int  # 0 or 1: the room's player, not the seat in the current match (see MatchRow.first_player)
    kind: str
    token_hash: str | None = None


@dataclass
class MatchRow:
    """One match of a room (the first, or a rematch). ``first_player`` is the room player at seat 0 (rematches
    swap them). ``actions`` are the notations in order (loaded with the match). ``base`` is added to the number of
    actions to make the version clients see (an undo raises it, so a version is never reused)."""

    room_id: str
    number: int  # 0 for the room's first match, 1 for the first rematch...
    game: str
    rules_version: str
    content_id: str
    content_hash: str
    options: dict[str, Any]
    seed: int
    players: list[str]  # the seats' players as specs, seat 0 first, as in the record
    first_player: int = 0
    setup: dict[str, Any] | None = None
    status: str = "playing"  # "playing", "over" (the rules ended it), "resigned"
    result: dict[str, Any] | None = None  # the outcome's JSON (or the resignation's) once not playing
    base: int = 0
    actions: list[str] = field(default_factory=list)
    id: int | None = None  # set by the store


def record_of(match: MatchRow, *, actions: bool = True, result: bool = True) -> MatchRecord:
    """The match record of a stored match (the terminal's record file): with its actions and result, or only its
    start (``actions=False, result=False``: what a match is rebuilt from)."""
    return MatchRecord(game=match.game, rules_version=match.rules_version,
                       content={"id": match.content_id, "hash": match.content_hash}, options=match.options,
                       seed=match.seed, players=list(match.players), actions=list(match.actions) if actions else [],
                       setup=match.setup, result=match.result if result else None)


@dataclass
class RoomRow:
    id: str
    game: str
    options: dict[str, Any]
    creator: str  # who made it (a hash of the client's address), for the rooms-per-client limit
    created_at: float
    seats: list[SeatRow]
    match: MatchRow  # the current match


# --- the tables (the migrations in ``migrations/versions`` make the same: tests/web compare them) ---------------

metadata = sa.MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})
JSON = sa.JSON(none_as_null=True)  # a Python None is SQL NULL, not the JSON null

rooms = sa.Table(
    "rooms", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", JSON, nullable=False),
    sa.Column("creator", sa.String(128), nullable=False),
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("current", sa.Integer(), nullable=False),  # the number of the room's current match
    sa.Index(None, "created_at"),  # waiting_rooms: the newest first
    sa.Index(None, "creator"),  # open_rooms_by
)
seats = sa.Table(
    "seats", metadata,
    sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
)
matches = sa.Table(
    "matches", metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    sa.Column("number", sa.Integer(), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("rules_version", sa.String(64), nullable=False),
    sa.Column("content_id", sa.String(128), nullable=False),
    sa.Column("content_hash", sa.String(128), nullable=False),
    sa.Column("options", JSON, nullable=False),
    sa.Column("seed", sa.String(20), nullable=False),  # decimal text: up to 2**64 - 1
    sa.Column("players", JSON, nullable=False),
    sa.Column("first_player", sa.Integer(), nullable=False),
    sa.Column("setup", JSON, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("result", JSON, nullable=True),
    sa.Column("base", sa.Integer(), nullable=False),
    sa.UniqueConstraint("room_id", "number"),  # also the index of a room's current match
)
actions = sa.Table(
    "actions", metadata,
    sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer(), primary_key=True),
    sa.Column("notation", sa.Text(), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=False),
)

# --- URLs ------------------------------------------------------------------------------------------------------

_DRIVERS = {"sqlite": "sqlite+aiosqlite", "sqlite+aiosqlite": "sqlite+aiosqlite",
            "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
            "postgresql+asyncpg": "postgresql+asyncpg"}


def database_url(text: str) -> str:
    """The SQLAlchemy async URL of ``text``: a file path (an SQLite database), ``sqlite:///FILE`` or
    ``postgresql://...`` (given their async drivers); :class:`UnsupportedDatabase` for anything else."""
    text = text.strip()
    if not text:
        raise UnsupportedDatabase(text)
    if "://" not in text:
        return URL.create("sqlite+aiosqlite", database=str(Path(text).expanduser().absolute())).render_as_string(
            hide_password=False)
    try:
        url = make_url(text)
    except (sa_exc.ArgumentError, ValueError) as exc:
        raise UnsupportedDatabase(text) from exc
    driver = _DRIVERS.get(url.drivername)
    if driver is None:
        raise UnsupportedDatabase(text)
    return url.set(drivername=driver).render_as_string(hide_password=False)


def default_url() -> str:
    """The default database: ``flametable.db`` in the user's data directory (or in ``$FLAMETABLE_DATA_DIR``)."""
    import platformdirs

    base = os.environ.get(DATA_DIR_VARIABLE) or platformdirs.user_data_dir("flametable")
    return database_url(str(Path(base) / "flametable.db"))


def shown_url(url: str) -> str:
    """``url`` as it may be shown or logged: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (sa_exc.ArgumentError, ValueError):  # malformed: hide what stands where a password would
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _sqlite_file(url: URL) -> Path | None:
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=10000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url`` (normalised by :func:`database_url`); an SQLite file's directory is made if
    missing, and its connections use WAL, ``synchronous=FULL`` and foreign keys."""
    parsed = make_url(database_url(url))
    file = _sqlite_file(parsed)
    if file is not None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot make the directory of {file}: {exc}") from exc
    try:
        engine = create_async_engine(parsed)
    except ImportError as exc:  # asyncpg is the postgres extra
        raise StoreError(f"the driver of {parsed.drivername} is not installed ({exc}): "
                         "pip install 'flametable[postgres]'") from exc
    if parsed.get_backend_name() == "sqlite":
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


# --- migrations --------------------------------------------------------------------------------------------------

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: sa.Connection | None = None) -> Any:
    """Alembic's configuration for the package's migrations (no alembic.ini): ``connection``, when given, is the
    one ``env.py`` migrates."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade_sync(connection: sa.Connection) -> str:
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    command.upgrade(alembic_config(connection), "head")
    return MigrationContext.configure(connection).get_current_revision() or ""


async def _upgrade(engine: AsyncEngine) -> str:
    with _database_errors("cannot migrate the database"):
        async with engine.begin() as connection:
            return await connection.run_sync(_upgrade_sync)


async def upgrade(url: str) -> str:
    """Bring the database at ``url`` to the latest migration; the revision reached."""
    engine = make_engine(url)
    try:
        return await _upgrade(engine)
    finally:
        await engine.dispose()


@contextmanager
def _database_errors(what: str) -> Iterator[None]:
    """A database failure in the block becomes :class:`StoreError` (``what`` failed), its cause kept."""
    try:
        yield
    except StoreError:
        raise
    except (sa_exc.SQLAlchemyError, OSError, TimeoutError) as exc:
        raise StoreError(f"{what}: {first_line(exc)}") from exc


def first_line(exc: BaseException) -> str:
    """What went wrong, in the words of the database or its driver: the first line of its message."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# --- rows ------------------------------------------------------------------------------------------------------

def _match_values(match: MatchRow, room_id: str) -> dict[str, Any]:
    return {"room_id": room_id, "number": match.number, "game": match.game, "rules_version": match.rules_version,
            "content_id": match.content_id, "content_hash": match.content_hash, "options": match.options,
            "seed": str(match.seed), "players": match.players, "first_player": match.first_player,
            "setup": match.setup, "status": match.status, "result": match.result, "base": match.base}


def _match_row(row: Any, prefix: str = "") -> MatchRow:
    def get(name: str) -> Any:
        return row[prefix + name]

    return MatchRow(room_id=get("room_id"), number=get("number"), game=get("game"),
                    rules_version=get("rules_version"), content_id=get("content_id"),
                    content_hash=get("content_hash"), options=get("options"), seed=int(get("seed")),
                    players=list(get("players")), first_player=get("first_player"), setup=get("setup"),
                    status=get("status"), result=get("result"), base=get("base"), id=get("id"))


def _room_row(row: Any, seat_rows: list[SeatRow], match: MatchRow, prefix: str = "") -> RoomRow:
    return RoomRow(id=row[prefix + "id"], game=row[prefix + "game"], options=row[prefix + "options"],
                   creator=row[prefix + "creator"], created_at=row[prefix + "created_at"], seats=seat_rows,
                   match=match)


def _current_match() -> sa.ColumnElement[bool]:
    return sa.and_(matches.c.room_id == rooms.c.id, matches.c.number == rooms.c.current)


@dataclass
class _Append:
    match_id: int
    index: int
    notation: str
    seat: int
    status: str
    result: dict[str, Any] | None
    future: asyncio.Future[None]

    def ends(self) -> bool:
        return self.status != "playing" or self.result is not None


@dataclass
class _Job:
    work: Callable[[AsyncConnection], Awaitable[Any]]
    what: str
    future: asyncio.Future[Any]


_Item = _Append | _Job | None  # None: the writer stops


def _settle(future: asyncio.Future[Any], value: Any = None, error: BaseException | None = None) -> None:
    if future.done():  # its caller stopped waiting
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


class Store:
    """The database of one server. Made with :meth:`open`; every method is a coroutine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._queue: asyncio.Queue[_Item] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        """Connect to ``url`` (a SQLAlchemy async URL: ``sqlite+aiosqlite:///path``,
        ``postgresql+asyncpg://...``) and, with ``migrate``, bring its tables to the latest migration."""
        engine = make_engine(url)
        try:
            if migrate:
                await _upgrade(engine)
        except BaseException:
            await engine.dispose()
            raise
        store = cls(engine)
        store._writer = asyncio.get_running_loop().create_task(store._write_loop(), name="flametable-store-writer")
        return store

    async def close(self) -> None:
        """Finish the writes asked for, then close the connections (writes asked for later: :class:`StoreError`)."""
        if self._closed:
            return
        self._closed = True
        if self._writer is not None:
            self._queue.put_nowait(None)
            await self._writer
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
        if self._closed or self._writer is None or self._writer.done():
            raise StoreError("the store is closed")

    async def _write(self, what: str, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Do ``work`` in a transaction of its own, in its turn among the writes."""
        self._check_open()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(work, what, future))
        return await future

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

    @staticmethod
    async def _insert_match(connection: AsyncConnection, match: MatchRow, room_id: str) -> int:
        result = await connection.execute(sa.insert(matches).values(**_match_values(match, room_id)))
        key = result.inserted_primary_key
        if key is None:
            raise StoreError(f"the database gave no id to match {match.number} of the room {room_id}")
        return int(key[0])

    async def claim_seat(self, room_id: str, player: int, token_hash: str) -> bool:
        """Give the open person's seat ``player`` its token, atomically: ``False`` if it was taken meanwhile."""

        async def work(connection: AsyncConnection) -> bool:
            result = await connection.execute(
                sa.update(seats)
                .where(seats.c.room_id == room_id, seats.c.player == player, seats.c.kind == HUMAN,
                       seats.c.token_hash.is_(None))
                .values(token_hash=token_hash))
            return result.rowcount == 1

        return await self._write(f"cannot claim seat {player} of the room {room_id}", work)

    async def append_action(self, match_id: int, index: int, notation: str, seat: int, *,
                            status: str = "playing", result: dict[str, Any] | None = None) -> None:
        """Append action ``index`` (0-based) of the match and, in the same transaction, its status and result
        (the last action of a match ends it). Returns once committed; :class:`Conflict` if ``index`` exists."""
        self._check_open()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(match_id, index, notation, seat, status, result, future))
        await future

    async def end_match(self, match_id: int, status: str, result: dict[str, Any]) -> None:
        """Mark a match ended outside the rules (``"resigned"``) with its result."""

        async def work(connection: AsyncConnection) -> None:
            done = await connection.execute(
                sa.update(matches).where(matches.c.id == match_id).values(status=status, result=result))
            if done.rowcount != 1:
                raise StoreError(f"there is no match {match_id}")

        await self._write(f"cannot end the match {match_id}", work)

    async def undo(self, match_id: int, keep: int, base: int) -> None:
        """Delete the actions from index ``keep`` on and set the match's ``base``, in one transaction."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.delete(actions).where(actions.c.match_id == match_id, actions.c.idx >= keep))
            done = await connection.execute(sa.update(matches).where(matches.c.id == match_id).values(base=base))
            if done.rowcount != 1:
                raise StoreError(f"there is no match {match_id}")

        await self._write(f"cannot undo in the match {match_id}", work)

    async def start_match(self, match: MatchRow) -> None:
        """Insert a new match of ``match.room_id`` (a rematch) and make it the room's current one (sets
        ``match.id``)."""

        async def work(connection: AsyncConnection) -> int:
            match_id = await self._insert_match(connection, match, match.room_id)
            done = await connection.execute(
                sa.update(rooms).where(rooms.c.id == match.room_id).values(current=match.number))
            if done.rowcount != 1:
                raise StoreError(f"there is no room {match.room_id}")
            return match_id

        match.id = await self._write(f"cannot start match {match.number} of the room {match.room_id}", work)

    # --- the writer ------------------------------------------------------------------------------------------

    async def _write_loop(self) -> None:
        """Take everything queued, do it in order (runs of appends as one transaction each), and again."""
        while True:
            batch = [await self._queue.get()]
            while len(batch) < MAX_BATCH and not self._queue.empty():
                batch.append(self._queue.get_nowait())
            run: list[_Append] = []
            for item in batch:
                if isinstance(item, _Append):
                    run.append(item)
                    continue
                if run:
                    await self._commit_appends(run)
                    run = []
                if item is None:
                    self._fail_queued()
                    return
                await self._do_job(item)
            if run:
                await self._commit_appends(run)

    def _fail_queued(self) -> None:
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not None:
                _settle(item.future, error=StoreError("the store is closed"))

    async def _do_job(self, job: _Job) -> None:
        try:
            async with self.engine.begin() as connection:
                value = await job.work(connection)
        except StoreError as exc:
            _settle(job.future, error=exc)
        except sa_exc.IntegrityError as exc:
            _settle(job.future, error=_caused(Conflict(f"{job.what}: {first_line(exc)}"), exc))
        except (sa_exc.SQLAlchemyError, OSError, TimeoutError) as exc:
            _settle(job.future, error=_caused(StoreError(f"{job.what}: {first_line(exc)}"), exc))
        except Exception as exc:  # a bug in the work: its caller sees it, the writer goes on
            _settle(job.future, error=exc)
        else:
            _settle(job.future, value)

    async def _commit_appends(self, run: list[_Append]) -> None:
        """The appends of ``run`` in one transaction; on a constraint failure, one transaction each."""
        try:
            async with self.engine.begin() as connection:
                await self._insert_actions(connection, run)
        except sa_exc.IntegrityError as exc:
            if len(run) == 1:
                await self._settle_conflict(run[0], exc)
                return
            for item in run:
                await self._commit_appends([item])
        except (sa_exc.SQLAlchemyError, OSError, TimeoutError) as exc:
            for item in run:
                _settle(item.future, error=_caused(StoreError(f"{_append_what(item)}: {first_line(exc)}"), exc))
        except Exception as exc:  # a bug: every caller sees it, the writer goes on
            for item in run:
                _settle(item.future, error=exc)
        else:
            for item in run:
                _settle(item.future)

    @staticmethod
    async def _insert_actions(connection: AsyncConnection, run: list[_Append]) -> None:
        await connection.execute(sa.insert(actions), [
            {"match_id": a.match_id, "idx": a.index, "notation": a.notation, "seat": a.seat} for a in run])
        ending = {a.match_id for a in run if a.ends()}
        last = {a.match_id: a for a in run if a.match_id in ending}  # the last append of each match wins
        for match_id, item in last.items():
            await connection.execute(
                sa.update(matches).where(matches.c.id == match_id).values(status=item.status, result=item.result))

    async def _settle_conflict(self, item: _Append, exc: sa_exc.IntegrityError) -> None:
        """An append refused by a constraint: :class:`Conflict` if its index is taken, else :class:`StoreError`
        (no such match)."""
        try:
            async with self.engine.connect() as connection:
                taken = (await connection.execute(sa.select(sa.literal(1)).where(
                    actions.c.match_id == item.match_id, actions.c.idx == item.index))).first() is not None
        except (sa_exc.SQLAlchemyError, OSError, TimeoutError):
            taken = False
        what = _append_what(item)
        error = (Conflict(f"{what}: it exists already") if taken else StoreError(f"{what}: {first_line(exc)}"))
        _settle(item.future, error=_caused(error, exc))

    # --- reads ---------------------------------------------------------------------------------------------

    async def load_room(self, room_id: str) -> RoomRow | None:
        """The room with its seats and its current match, actions included; ``None`` if there is no such room."""
        with _database_errors(f"cannot load the room {room_id}"):
            async with self.engine.connect() as connection:
                row = (await connection.execute(sa.select(rooms).where(rooms.c.id == room_id))).mappings().first()
                if row is None:
                    return None
                match = await self._load_match(connection, room_id, row["current"])
                if match is None:
                    raise StoreError(f"the room {room_id} has no match {row['current']}")
                seat_rows = await self._load_seats(connection, [room_id])
                return _room_row(row, seat_rows.get(room_id, []), match)

    async def load_match(self, room_id: str, number: int) -> MatchRow | None:
        """Match ``number`` of the room, actions included."""
        with _database_errors(f"cannot load match {number} of the room {room_id}"):
            async with self.engine.connect() as connection:
                return await self._load_match(connection, room_id, number)

    @staticmethod
    async def _load_match(connection: AsyncConnection, room_id: str, number: int) -> MatchRow | None:
        row = (await connection.execute(sa.select(matches).where(
            matches.c.room_id == room_id, matches.c.number == number))).mappings().first()
        if row is None:
            return None
        match = _match_row(row)
        match.actions = list((await connection.execute(
            sa.select(actions.c.notation).where(actions.c.match_id == match.id).order_by(actions.c.idx))).scalars())
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

    async def waiting_rooms(self, limit: int = 50) -> list[RoomRow]:
        """The newest rooms whose current match is playing and that still have an open person's seat (their
        matches' actions not loaded)."""
        open_seat = sa.exists().where(seats.c.room_id == rooms.c.id, seats.c.kind == HUMAN,
                                      seats.c.token_hash.is_(None))
        query = (sa.select(rooms, matches).join(matches, _current_match())
                 .where(matches.c.status == "playing", open_seat)
                 .order_by(rooms.c.created_at.desc(), rooms.c.id).limit(limit)
                 .set_label_style(sa.LABEL_STYLE_TABLENAME_PLUS_COL))
        with _database_errors("cannot list the waiting rooms"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).mappings().all()
                seat_rows = await self._load_seats(connection, [row["rooms_id"] for row in rows])
        return [_room_row(row, seat_rows.get(row["rooms_id"], []), _match_row(row, "matches_"), "rooms_")
                for row in rows]

    async def open_rooms_by(self, creator: str) -> int:
        """How many rooms made by ``creator`` have a match still playing."""
        query = (sa.select(sa.func.count()).select_from(rooms).join(matches, _current_match())
                 .where(rooms.c.creator == creator, matches.c.status == "playing"))
        with _database_errors(f"cannot count the rooms of {creator}"):
            async with self.engine.connect() as connection:
                return int((await connection.execute(query)).scalar_one())


def _append_what(item: _Append) -> str:
    return f"cannot append action {item.index} to the match {item.match_id}"


def _caused(error: StoreError, cause: BaseException) -> StoreError:
    error.__cause__ = cause
    return error
