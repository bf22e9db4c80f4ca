"""Tests that need a service of the machine (PostgreSQL, Redis, a browser): without it they are skipped, saying
why, unless ``FLAMETABLE_REQUIRE_SERVICES=1`` is set (as CI does), when its absence is a failure."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

REQUIRE_VARIABLE = "FLAMETABLE_REQUIRE_SERVICES"


def services_required() -> bool:
    return os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0")


def require_or_skip(what: str, reason: str) -> None:
    """``what`` (a service) is missing because of ``reason``: skip the test, or fail it when services are
    required."""
    message = f"{what} is not available: {reason}"
    if services_required():
        pytest.fail(f"{message} ({REQUIRE_VARIABLE}=1: the services are required)", pytrace=False)
    pytest.skip(message)


PG_HOST = "127.0.0.1"
PG_PORT = 5432
PG_USER = "postgres"
PG_ADMIN_DATABASE = "postgres"


def postgresql_url(database: str, password: str | None = None) -> str:
    secret = f":{password}" if password else ""
    return f"postgresql+asyncpg://{PG_USER}{secret}@{PG_HOST}:{PG_PORT}/{database}"


async def _admin(*statements: str, database: str = PG_ADMIN_DATABASE) -> None:
    """Run ``sql`` (outside a transaction) on PostgreSQL's own database (or ``database``)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(postgresql_url(database), isolation_level="AUTOCOMMIT",
                                 connect_args={"timeout": 5})
    try:
        async with engine.connect() as connection:
            for sql in statements:
                await connection.execute(sa.text(sql))
    finally:
        await engine.dispose()


@contextmanager
def fresh_postgresql_database() -> Iterator[str]:
    """The name of a new, empty PostgreSQL database (``ft_`` and random hex), dropped afterwards; the test is
    skipped (or failed: :func:`require_or_skip`) when PostgreSQL does not answer."""
    import sqlalchemy as sa

    name = f"ft_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, TimeoutError, ImportError, sa.exc.SQLAlchemyError) as exc:
        require_or_skip("PostgreSQL", f"cannot create a database as {PG_USER} on {PG_HOST}:{PG_PORT} ({exc})")
    try:
        yield name
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def empty_postgresql_database(name: str) -> None:
    """Empty the database ``name`` (a new public schema): much quicker than making a database per test."""
    asyncio.run(_admin("DROP SCHEMA public CASCADE", "CREATE SCHEMA public", database=name))


REDIS_URL = "redis://127.0.0.1:6379/0"


def machine_redis_url() -> str:
    """The URL of the machine's Redis (127.0.0.1:6379), after one PING; the test is skipped (or failed:
    :func:`require_or_skip`) when it does not answer. Tests keep apart by a key prefix of their own."""
    try:
        answer = _ask_redis("127.0.0.1", 6379, b"PING\r\n")
    except OSError as exc:
        require_or_skip("Redis", f"nothing answers on 127.0.0.1:6379 ({exc})")
    if not answer.startswith(b"+PONG"):
        require_or_skip("Redis", f"127.0.0.1:6379 answered {answer[:80]!r} to PING")
    return REDIS_URL


def _ask_redis(host: str, port: int, command: bytes, timeout: float = 1.0) -> bytes:
    with socket.create_connection((host, port), timeout=timeout) as connection:
        connection.sendall(command)
        return connection.recv(256)


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """A ``redis-server`` of the test's own on 127.0.0.1 (no persistence, nothing kept on disk), which the test may
    stop and start again on the same port (a Redis gone and back: what the failover tests need)."""

    def __init__(self, executable: str, port: int, workdir: str) -> None:
        self.executable = executable
        self.port = port
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 5.0) -> None:
        """Start it and wait until it answers PING (:class:`RuntimeError` if it does not within ``timeout``)."""
        assert self.process is None, "already running"
        self.process = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.workdir, "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                error = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                self.process = None
                raise RuntimeError(f"redis-server on port {self.port} ended at start: {error.strip()}")
            with contextlib.suppress(OSError):
                if _ask_redis("127.0.0.1", self.port, b"PING\r\n", 0.5).startswith(b"+PONG"):
                    return
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server on port {self.port} did not answer within {timeout} s")

    def stop(self) -> None:
        """Stop it (SIGKILL: nothing saved, connections cut) and wait for its end."""
        if self.process is not None:
            self.resume()
            self.process.kill()
            self.process.wait(timeout=10)
            if self.process.stderr:
                self.process.stderr.close()
            self.process = None

    def pause(self) -> None:
        """Freeze it (SIGSTOP): its connections stay open and nothing answers, as a network that drops packets."""
        if self.process is not None:
            self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let a paused server go on (SIGCONT)."""
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)

    @property
    def running(self) -> bool:
        return self.process is not None


@contextmanager
def own_redis_server() -> Iterator[RedisServer]:
    """A running :class:`RedisServer` on a free port, stopped at the end; the test is skipped (or failed:
    :func:`require_or_skip`) where ``redis-server`` is not installed."""
    executable = shutil.which("redis-server")
    if executable is None:
        require_or_skip("redis-server", "the program is not on PATH (apt install redis-server)")
    assert executable is not None
    with tempfile.TemporaryDirectory(prefix="ft-redis-") as workdir:
        server = None
        for _ in range(5):  # a free port may be taken between the probe and the server's bind
            candidate = RedisServer(executable, free_port(), workdir)
            with contextlib.suppress(RuntimeError):
                candidate.start()
                server = candidate
                break
        if server is None:
            raise RuntimeError("redis-server did not start on any of 5 free ports")
        try:
            yield server
        finally:
            server.stop()
