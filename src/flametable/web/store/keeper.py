"""Renewing a process's leases from a thread of its own (issue 22), on PostgreSQL.

A process renews the lease of every room it drives once a second (:mod:`flametable.web.store.leases`). Renewed by
a task of its event loop, a lease ran out whenever that loop was held for longer than the lease (a process starved
of CPU on a loaded machine: load 6-8 with two server processes at 1,000 connections), and the process dropped
rooms it was driving well, its clients sent to reconnect. :class:`LeaseKeeper` renews them from a thread with its
own event loop and its own connection, so that it needs neither the server's loop nor its writer: it reads which
rooms the process holds (``fences``, called in the keeper's thread: it must only read) and hands what it learns
back to the server's loop (``on_lost``, ``on_unreachable``, called there with ``call_soon_threadsafe``). A process
that is stopped (SIGSTOP) or dead stops renewing as before, threads and all: fencing still holds.

SQLite has one writer, the server's; there a process renews on its loop, through the writer
(:meth:`~flametable.web.store.queries.Store.renew_rooms`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Mapping

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

import flametable.web.store.leases as leases
from flametable.web.store.errors import StoreError, database_errors

log = logging.getLogger("flametable.web")


class LeaseKeeper:
    """Renews ``owner``'s leases every ``every`` seconds for ``seconds`` more, in a thread of its own.

    - ``fences()``: the rooms held and their fences (called in the keeper's thread);
    - ``on_lost(lost)``: the rooms (room id: the fence renewed) whose lease was not renewed: it ended, was given
      back or changed hands (called on ``loop``);
    - ``on_unreachable()``: the database could not be reached for longer than a lease: the process cannot know it
      still holds any room (called on ``loop``, once each time that happens).
    """

    def __init__(self, url: sa.URL, owner: str, *, seconds: float, every: float,
                 fences: Callable[[], Mapping[str, int]], on_lost: Callable[[dict[str, int]], None],
                 on_unreachable: Callable[[], None], loop: asyncio.AbstractEventLoop) -> None:
        self.url = url
        self.owner = owner
        self.seconds = seconds
        self.every = every
        self.fences = fences
        self.on_lost = on_lost
        self.on_unreachable = on_unreachable
        self.loop = loop
        self.renewals = 0  # statements that renewed (counted for tests)
        self._stop = threading.Event()
        self._wake: asyncio.Event | None = None
        self._own_loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._main, name=f"flametable-leases-{owner[:12]}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop renewing (the leases then run out unless given back) and wait for the thread."""
        self._stop.set()
        own, wake = self._own_loop, self._wake
        if own is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # its loop already closed
                own.call_soon_threadsafe(wake.set)
        self._thread.join(timeout)

    # ------------------------------------------------------------------ the thread

    def _main(self) -> None:
        try:
            asyncio.run(self._run())
        except Exception:  # pragma: no cover - the loop below catches what the database raises
            log.exception("cluster: the lease keeper stopped")

    async def _run(self) -> None:
        self._own_loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        engine = create_async_engine(self.url, pool_size=1, max_overflow=0)
        renewed = time.monotonic()
        unreachable = False
        try:
            while not self._stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.every)
                if self._stop.is_set():
                    break
                fences = dict(self.fences())
                try:
                    lost = await asyncio.wait_for(self._renew(engine, fences), max(self.seconds, self.every))
                except (StoreError, TimeoutError) as exc:
                    log.warning("cluster: the leases could not be renewed: %s", exc or "no answer in time")
                    if not unreachable and time.monotonic() - renewed > self.seconds:
                        unreachable = True
                        self._tell(self.on_unreachable)
                    continue
                renewed, unreachable = time.monotonic(), False
                if lost:
                    self._tell(self.on_lost, {room: fences[room] for room in lost})
        finally:
            await engine.dispose()

    async def _renew(self, engine: AsyncEngine, fences: Mapping[str, int]) -> set[str]:
        if not fences:
            return set()
        kept: set[str] = set()
        with database_errors(f"cannot renew the rooms of {self.owner}"):
            async with engine.begin() as connection:
                for chunk in leases.chunks(fences):
                    kept.update((await connection.execute(leases.renew(self.owner, chunk, self.seconds))).scalars())
        self.renewals += 1
        return set(fences) - kept

    def _tell(self, callback: Callable[..., None], *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the server's loop is closed: it stops
            self.loop.call_soon_threadsafe(callback, *args)
