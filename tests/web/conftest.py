"""Fixtures of the server's tests: an empty database of each kind (an SQLite file, a fresh PostgreSQL database,
skipped when PostgreSQL does not answer: see :mod:`tests.services`), and a store open on it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from flametable.web.store import Store, database_url
from tests.services import fresh_postgresql_database, postgresql_url


@pytest.fixture
def postgresql_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    with fresh_postgresql_database() as name:
        yield postgresql_url(name)


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
