"""The one writer of a store: every write is queued in the order it was asked for and done by a single task, a
run of consecutive appends as one transaction (group commit), any other write as a transaction of its own in its
place in the queue (see :mod:`flametable.web.store`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

import flametable.web.store.leases as leases
from flametable.web.store.errors import Conflict, LeaseLost, MatchOver, StoreError, caused, first_line
from flametable.web.store.rows import PLAYING
from flametable.web.store.tables import actions, matches, room_owners

T = TypeVar("T")

MAX_BATCH = 1000
"""The most writes the writer takes from the queue at once."""


@dataclass
class _Append:
    match_id: int
    index: int
    notation: str
    seat: int
    status: str
    result: dict[str, Any] | None
    fence: int | None
    future: asyncio.Future[None]
    spent_ms: int | None = None

    def ends(self) -> bool:
        return self.status != PLAYING or self.result is not None


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


class Writer:
    """The queue of a store's writes and the task that does them, in order, on ``engine``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._guarded = engine.dialect.name == "sqlite"  # appends checked by the insert itself (see _write_run)
        self._queue: asyncio.Queue[_Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="flametable-store-writer")

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def stop(self) -> None:
        """Do the writes queued so far, then stop (the writes queued later: :class:`StoreError`)."""
        if self._task is not None:
            self._queue.put_nowait(None)
            await self._task

    async def job(self, what: str, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Do ``work`` in a transaction of its own, in its turn among the writes (``what``: what failed, if it
        does)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Job(work, what, future))
        return await future

    async def append(self, match_id: int, index: int, notation: str, seat: int, status: str,
                     result: dict[str, Any] | None, fence: int | None = None, spent_ms: int | None = None) -> None:
        """Append action ``index`` of the match with its status and result (with ``fence``: if the room's lease
        is still held with it); returns once committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(match_id, index, notation, seat, status, result, fence, future, spent_ms))
        await future

    async def _loop(self) -> None:
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
            _settle(job.future, error=caused(Conflict(f"{job.what}: {first_line(exc)}"), exc))
        except (sa_exc.SQLAlchemyError, OSError, TimeoutError) as exc:
            _settle(job.future, error=caused(StoreError(f"{job.what}: {first_line(exc)}"), exc))
        except Exception as exc:  # a bug in the work: its caller sees it, the writer goes on
            _settle(job.future, error=exc)
        else:
            _settle(job.future, value)

    async def _commit_appends(self, run: list[_Append]) -> None:
        """The appends of ``run`` in one transaction, less those refused (:meth:`_judge`: their callers get the
        refusal, the others' appends commit); on a constraint failure, one transaction each."""
        refused: list[StoreError | None] = []
        try:
            try:
                async with self.engine.begin() as connection:
                    refused = await self._write_run(connection, run, checked_first=not self._guarded)
            except _Refused:  # the guarded insert left some out: again, the checks read first, to say why
                async with self.engine.begin() as connection:
                    refused = await self._write_run(connection, run, checked_first=True)
        except sa_exc.IntegrityError as exc:
            if len(run) == 1:
                await self._settle_conflict(run[0], exc)
                return
            for item in run:
                await self._commit_appends([item])
        except (sa_exc.SQLAlchemyError, OSError, TimeoutError) as exc:
            for item in run:
                _settle(item.future, error=caused(StoreError(f"{_append_what(item)}: {first_line(exc)}"), exc))
        except Exception as exc:  # a bug: every caller sees it, the writer goes on
            for item in run:
                _settle(item.future, error=exc)
        else:
            for item, refusal in zip(run, refused, strict=True):
                _settle(item.future, error=refusal)

    async def _write_run(self, connection: AsyncConnection, run: list[_Append], *,
                         checked_first: bool) -> list[StoreError | None]:
        """Insert the appends of ``run`` that may be written, end the matches they end; why each of the others
        may not (in order, ``None`` for those written).

        ``checked_first`` (PostgreSQL): the matches' statuses and the fenced rooms' leases are read first, their rows
        locked until the commit: the owners' ``FOR KEY SHARE`` (a take's ``FOR UPDATE`` waits for it), then the matches'
        ``FOR NO KEY UPDATE`` (what an ``UPDATE`` of their status takes), so that no other process ends a match or takes
        a room over between the check and the commit; one statement more per run (two when some appends are fenced).
        Else (SQLite, one process, whose write lock is taken at the insert's start): each row is inserted only where its
        match is playing and its fence held, one ``executemany`` as before; if the count falls short, :class:`_Refused`
        (the transaction is rolled back, to be done again checked first)."""
        if checked_first:
            status, owned = await self._state(connection, run)
            refusals = self._judge(run, status, owned)
        else:
            refusals = self._judge(run, None, {})
        kept = [item for item, refusal in zip(run, refusals, strict=True) if refusal is None]
        if kept:
            done = await connection.execute(actions.insert() if checked_first else _GUARDED_INSERT, [
                {"match_id": a.match_id, "idx": a.index, "notation": a.notation, "seat": a.seat, "fence": a.fence,
                 "spent_ms": a.spent_ms}
                for a in kept])
            if not checked_first and done.rowcount != len(kept):
                raise _Refused
            ending = {a.match_id for a in kept if a.ends()}
            last = {a.match_id: a for a in kept if a.match_id in ending}  # the last append of each match wins
            for match_id, item in last.items():
                await connection.execute(sa.update(matches).where(matches.c.id == match_id)
                                         .values(status=item.status, result=item.result))
        return refusals

    @staticmethod
    async def _state(connection: AsyncConnection,
                     run: list[_Append]) -> tuple[dict[int, str], dict[int, tuple[str, int, bool]]]:
        """The status of each match of ``run`` and the lease of each fenced one's room, their rows locked (see
        :meth:`_write_run`)."""
        fenced = {a.match_id for a in run if a.fence is not None}
        owned = await leases.match_leases(connection, fenced) if fenced else {}
        status: dict[int, str] = {int(row[0]): str(row[1]) for row in await connection.execute(
            sa.select(matches.c.id, matches.c.status).where(matches.c.id.in_(sorted({a.match_id for a in run})))
            .order_by(matches.c.id).with_for_update(key_share=True))}
        return status, owned

    @staticmethod
    def _judge(run: list[_Append], status: dict[int, str] | None,
               owned: dict[int, tuple[str, int, bool]]) -> list[StoreError | None]:
        """Why each append of ``run`` may not be written (``None``: it may), in order: its match is unknown; it is
        fenced and the room's lease is no longer held with its fence (:class:`LeaseLost`); its match is no longer
        being played (:class:`MatchOver`), as stored or as an earlier append of the run leaves it. ``status``
        ``None``: not read (every match playing, every lease held: only the run's own ends are judged)."""
        now_of: dict[int, str] = dict(status) if status is not None else {}
        refusals: list[StoreError | None] = []
        for item in run:
            now = now_of.get(item.match_id, PLAYING if status is None else None)
            refusal: StoreError | None = None
            if now is None:
                refusal = StoreError(f"{_append_what(item)}: there is no match {item.match_id}")
            elif (status is not None and item.fence is not None
                  and not leases.held(lease := owned.get(item.match_id), item.fence)):
                refusal = LeaseLost(_append_what(item), item.fence, lease[0] if lease is not None else None)
            elif now != PLAYING:
                refusal = MatchOver(_append_what(item), item.match_id, now)
            elif item.ends():
                now_of[item.match_id] = item.status
            refusals.append(refusal)
        return refusals

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
        _settle(item.future, error=caused(error, exc))


class _Refused(Exception):
    """A guarded insert of a run inserted fewer rows than asked: some of its appends are refused."""


_GUARDED_INSERT = actions.insert().from_select(
    ["match_id", "idx", "notation", "seat", "spent_ms"],
    sa.select(sa.bindparam("match_id", type_=sa.Integer()), sa.bindparam("idx", type_=sa.Integer()),
              sa.bindparam("notation", type_=sa.Text()), sa.bindparam("seat", type_=sa.Integer()),
              sa.bindparam("spent_ms", type_=sa.Integer()))
    .where(sa.exists().where(
        matches.c.id == sa.bindparam("match_id", type_=sa.Integer()), matches.c.status == PLAYING,
        sa.or_(sa.bindparam("fence", type_=sa.BigInteger()).is_(None), sa.exists().where(
            room_owners.c.room_id == matches.c.room_id, room_owners.c.fence == sa.bindparam("fence"),
            leases.live())))))
"""An append's row, inserted only if its match is playing and, with a fence, the room's lease is held with it
(SQLite: its count tells whether any was refused)."""


def _append_what(item: _Append) -> str:
    return f"cannot append action {item.index} to the match {item.match_id}"
