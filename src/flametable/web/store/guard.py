"""One plain server per PostgreSQL database (issue 22): two ``flametable serve`` processes on one database without a
bus between them would each drive the same rooms from their own memory (a resignation on one, moves on the other).
Until every process is given ``--redis``, a plain server holds :class:`ServerLock` for as long as it runs, and a
second one is refused at start.

The lock is PostgreSQL's session-level advisory lock :data:`SERVER_LOCK_KEY` (advisory locks belong to one database:
servers of other databases of the same PostgreSQL do not meet), taken with ``pg_try_advisory_lock`` on a connection
of its own, kept open in a thread of its own (its own event loop, apart from the server's). It ends when that
connection closes: when the server stops (:meth:`ServerLock.release`), or when its process dies and the operating
system closes the connection. SQLite is one process by design: no lock is taken there.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from flametable.web.store.errors import StoreError, database_errors
from flametable.web.store.setup import database_url, make_engine

SERVER_LOCK_KEY = int.from_bytes(hashlib.sha256(b"flametable serve: one plain server per database").digest()[:8],
                                 "big", signed=True)
"""The advisory lock's key (a signed 64-bit number, as PostgreSQL's ``bigint``), derived from a constant."""


class ServerLock:
    """The lock of one plain server on the database at ``url``: :meth:`take` it, :meth:`release` it when the server
    stops."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self._thread: threading.Thread | None = None
        self._taken = threading.Event()
        self._outcome: bool | BaseException = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    @property
    def needed(self) -> bool:
        """Whether the database is PostgreSQL (SQLite needs no lock)."""
        return make_url(self.url).get_backend_name() == "postgresql"

    def take(self) -> bool:
        """Take the lock and hold it until :meth:`release`: ``False`` if another server holds it (nothing is
        held then); :class:`StoreError` if the database fails. ``True`` at once where no lock is needed."""
        if not self.needed:
            return True
        assert self._thread is None, "held already"
        self._taken.clear()
        thread = threading.Thread(target=lambda: asyncio.run(self._hold()), name="flametable-server-lock",
                                  daemon=True)
        thread.start()
        self._taken.wait()
        if self._outcome is not True:  # nothing is held: the thread ends by itself
            thread.join()
            if isinstance(self._outcome, BaseException):
                raise self._outcome
            return False
        self._thread = thread
        return True

    def release(self, timeout: float = 10.0) -> None:
        """Let the lock go (its connection closed). Idempotent."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            with contextlib.suppress(RuntimeError):  # its loop has just closed: the lock is gone already
                self._loop.call_soon_threadsafe(self._stop.set)
        thread.join(timeout)

    def _tell(self, outcome: bool | BaseException) -> None:
        if not self._taken.is_set():
            self._outcome = outcome
            self._taken.set()

    async def _hold(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        try:
            engine = make_engine(self.url)
            try:
                with database_errors("cannot lock the database"):
                    async with engine.connect() as connection:
                        await connection.execution_options(isolation_level="AUTOCOMMIT")
                        key = sa.literal(SERVER_LOCK_KEY, sa.BigInteger())
                        got = bool((await connection.execute(
                            sa.select(sa.func.pg_try_advisory_lock(key)))).scalar_one())
                        self._tell(got)
                        if got:
                            await self._stop.wait()
            finally:
                await engine.dispose()  # the connection closed: the lock ends
        except BaseException as exc:  # told to the thread that waits in take(), whatever it is
            self._tell(exc if isinstance(exc, Exception) else StoreError(f"cannot lock the database: {exc!r}"))
