"""Fixtures of the server's tests: an empty database of each kind (an SQLite file, a fresh PostgreSQL database,
skipped when PostgreSQL does not answer: see :mod:`tests.services`), and a store open on it."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from flametable.web.store import Store, database_url
from tests.services import require_or_skip

PG_HOST = "127.0.0.1"
PG_PORT = 5432
PG_USER = "postgres"
PG_ADMIN_DATABASE = "postgres"


async def _admin(sql: str) -> None:
    """Run ``sql`` (outside a transaction) on PostgreSQL's own database."""
    engine = create_async_engine(postgres_url(PG_ADMIN_DATABASE), isolation_level="AUTOCOMMIT",
                                 connect_args={"timeout": 5})
    try:
        async with engine.connect() as connection:
            await connection.execute(sa.text(sql))
    finally:
        await engine.dispose()


def postgres_url(name: str) -> str:
    return f"postgresql+asyncpg://{PG_USER}@{PG_HOST}:{PG_PORT}/{name}"


@pytest.fixture
def postgresql_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    name = f"ft_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, TimeoutError, ImportError, sa.exc.SQLAlchemyError) as exc:
        require_or_skip("PostgreSQL", f"cannot create a database as {PG_USER} on {PG_HOST}:{PG_PORT} ({exc})")
    try:
        yield postgres_url(name)
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


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
