"""The database's migrations (Alembic, run programmatically: no alembic.ini): bring a database to the latest one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from flametable.web.store.errors import database_errors
from flametable.web.store.setup import make_engine

MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"


def alembic_config(connection: sa.Connection | None = None) -> Any:
    """Alembic's configuration for the package's migrations (no alembic.ini): ``connection``, when given, is the
    one ``env.py`` migrates."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade_sync(connection: sa.Connection) -> str:
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    command.upgrade(alembic_config(connection), "head")
    return MigrationContext.configure(connection).get_current_revision() or ""


async def upgrade_engine(engine: AsyncEngine) -> str:
    with database_errors("cannot migrate the database"):
        async with engine.begin() as connection:
            return await connection.run_sync(_upgrade_sync)


async def upgrade(url: str) -> str:
    """Bring the database at ``url`` to the latest migration; the revision reached."""
    engine = make_engine(url)
    try:
        return await upgrade_engine(engine)
    finally:
        await engine.dispose()
