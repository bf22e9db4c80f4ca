"""Fixtures of the server's tests: an empty database of each kind (an SQLite file, a fresh PostgreSQL database,
skipped when PostgreSQL does not answer: see :mod:`tests.services`), and a store open on it; a Redis server of the
test's own, which it may stop and start again."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from flametable.web.store import Store, database_url
from tests.services import (
    RedisServer,
    empty_postgresql_database,
    fresh_postgresql_database,
    own_redis_server,
    postgresql_url,
)


@pytest.fixture(scope="session")
def _postgresql_session_database() -> Iterator[str]:
    """One new PostgreSQL database for the session's tests, dropped at the end (skipped where there is none)."""
    with fresh_postgresql_database() as name:
        yield name


@pytest.fixture
def postgresql_database(_postgresql_session_database: str) -> str:
    """The URL of an empty PostgreSQL database (the session's, emptied before the test)."""
    empty_postgresql_database(_postgresql_session_database)
    return postgresql_url(_postgresql_session_database)


@pytest.fixture
def sqlite_database(tmp_path: Path) -> str:
    """The URL of an SQLite file not made yet, in a directory not made yet."""
    return database_url(str(tmp_path / "data" / "flametable.db"))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    """An empty database of each kind."""
    url: str = request.getfixturevalue(f"{request.param}_database")
    return url


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(db_url: str, anyio_backend: str) -> AsyncIterator[Store]:
    """A store open (and migrated) on an empty database of each kind."""
    opened = await Store.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def two(postgresql_database: str, anyio_backend: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two processes' stores on one PostgreSQL database."""
    first = await Store.open(postgresql_database)
    second = await Store.open(postgresql_database, migrate=False)
    try:
        yield first, second
    finally:
        await second.close()
        await first.close()


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A ``redis-server`` of the test's own on a free port (skipped where there is none): ``stop()`` it and
    ``start()`` it again to take Redis away and bring it back."""
    with own_redis_server() as server:
        yield server
