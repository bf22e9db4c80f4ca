"""Alembic's environment for the server's database, run programmatically (:func:`flametable.web.store.migrate.upgrade`:
no alembic.ini): the connection to migrate comes in ``config.attributes["connection"]``; without one (Alembic's
own command line, with ``sqlalchemy.url`` set), an async engine is made for the URL and its connection is used."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import Connection

from flametable.web.store.setup import make_engine
from flametable.web.store.tables import metadata

config = context.config


def _migrate(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def _migrate_url(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(_migrate)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    given = config.attributes.get("connection")
    if given is not None:
        _migrate(given)
    else:
        asyncio.run(_migrate_url(config.get_main_option("sqlalchemy.url") or ""))
