"""Tests that need a service of the machine (PostgreSQL, Redis, a browser): without it they are skipped, saying
why, unless ``FLAMETABLE_REQUIRE_SERVICES=1`` is set (as CI does), when its absence is a failure."""

from __future__ import annotations

import asyncio
import os
import secrets
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
