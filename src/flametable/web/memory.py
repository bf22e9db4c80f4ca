"""Memory given back after a wave of connections (issue 21, point 9).

Once a wave of WebSockets has closed, the server holds none of their objects (``tests/web/test_connection_leaks.py``)
but its resident memory stays near the peak: the allocators keep the freed pages for the next wave. Python's own
allocator (pymalloc) returns a 1 MiB arena only once every object in it is gone, and the few objects that outlive a
wave (caches filled on first use, the rooms still played) are spread over most of them; glibc keeps the free chunks
of its heap mapped. Only glibc's part can be had back, by ``malloc_trim(0)``, which returns every free page of its
heap to the system: :class:`Connections` counts the server's WebSockets and, once they have fallen to half their
peak (at least :data:`TRIM_DROP` fewer) and no connection has closed for :data:`TRIM_QUIET` seconds, calls it once,
in a worker thread. Measured with ``python -m benchmarks.server --levels 1000`` (``docs/server.md``, "Memory"): the
server's 133.8 MiB while 1,000 connections played came down to 113.0 MiB once they had closed (it stayed at 133.8
MiB without the trim), the trim taking 1 to 2 ms. Where there is no glibc (macOS, musl) nothing is done.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket

TRIM_DROP = 100
"""The fewest connections closed since the peak that make a wave worth trimming after."""
TRIM_QUIET = 1.0
"""Seconds without a connection closing before the trim: once per wave, when it is over."""


def malloc_trim() -> Callable[[], int] | None:
    """glibc's ``malloc_trim(0)`` (every free page of the heap given back to the system), or None where there is
    none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Any = libc.malloc_trim  # musl has no malloc_trim: AttributeError
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int

    def call() -> int:
        return int(trim(0))

    return call


class Connections:
    """The server's open WebSockets, counted; after a wave of them has closed, the allocator's free memory given
    back (``trim`` in a worker thread: ctypes lets go of the GIL, the event loop goes on)."""

    def __init__(self, trim: Callable[[], int] | None = None, *, drop: int = TRIM_DROP,
                 quiet: float = TRIM_QUIET) -> None:
        self.trim = trim
        self.drop = drop
        self.quiet = quiet
        self.count = 0
        self.peak = 0
        self.trims = 0  # trims started
        self._closed_at = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._running: asyncio.Future[int] | None = None

    @classmethod
    def of_this_system(cls) -> Connections:
        return cls(malloc_trim())

    def opened(self) -> None:
        self.count += 1
        self.peak = max(self.peak, self.count)

    def closed(self) -> None:
        self.count -= 1
        if self.trim is None:
            return
        loop = asyncio.get_running_loop()
        self._closed_at = loop.time()
        if self._timer is None and self.peak - self.count >= self.drop and 2 * self.count <= self.peak:
            self._timer = loop.call_later(self.quiet, self._after_wave)

    def _after_wave(self) -> None:
        loop = asyncio.get_running_loop()
        wait = self._closed_at + self.quiet - loop.time()
        if wait > 0:  # connections are still closing: the wave is not over
            self._timer = loop.call_later(wait, self._after_wave)
            return
        self._timer = None
        self.peak = self.count
        if self.trim is not None and (self._running is None or self._running.done()):
            self._running = loop.run_in_executor(None, self.trim)
            self.trims += 1


def counted(endpoint: Callable[[WebSocket], Awaitable[None]]) -> Callable[[WebSocket], Awaitable[None]]:
    """A WebSocket endpoint whose connections ``app.state.connections`` (a :class:`Connections`) counts."""

    async def endpoint_counted(websocket: WebSocket) -> None:
        connections: Connections = websocket.app.state.connections
        connections.opened()
        try:
            await endpoint(websocket)
        finally:
            connections.closed()

    return endpoint_counted
