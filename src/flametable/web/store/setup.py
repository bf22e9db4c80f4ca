"""Database URLs (a file path, ``sqlite:///FILE``, ``postgresql://...``) and the engine made for one: an SQLite
file's directory made if missing, its connections in WAL mode, ``synchronous=FULL`` and with foreign keys."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from flametable.web.store.errors import StoreError, UnsupportedDatabase

DATA_DIR_VARIABLE = "FLAMETABLE_DATA_DIR"
"""An environment variable: the directory of the default database (instead of the user's data directory)."""

_DRIVERS = {"sqlite": "sqlite+aiosqlite", "sqlite+aiosqlite": "sqlite+aiosqlite",
            "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
            "postgresql+asyncpg": "postgresql+asyncpg"}


def database_url(text: str) -> str:
    """The SQLAlchemy async URL of ``text``: a file path (an SQLite database), ``sqlite:///FILE`` or
    ``postgresql://...`` (given their async drivers); :class:`UnsupportedDatabase` for anything else."""
    text = text.strip()
    if not text:
        raise UnsupportedDatabase(text)
    if "://" not in text:
        return URL.create("sqlite+aiosqlite", database=str(Path(text).expanduser().absolute())).render_as_string(
            hide_password=False)
    try:
        url = make_url(text)
    except (sa_exc.ArgumentError, ValueError) as exc:
        raise UnsupportedDatabase(text) from exc
    driver = _DRIVERS.get(url.drivername)
    if driver is None:
        raise UnsupportedDatabase(text)
    return url.set(drivername=driver).render_as_string(hide_password=False)


def default_url() -> str:
    """The default database: ``flametable.db`` in the user's data directory (or in ``$FLAMETABLE_DATA_DIR``)."""
    import platformdirs

    base = os.environ.get(DATA_DIR_VARIABLE) or platformdirs.user_data_dir("flametable")
    return database_url(str(Path(base) / "flametable.db"))


def shown_url(url: str) -> str:
    """``url`` as it may be shown or logged: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (sa_exc.ArgumentError, ValueError):  # malformed: hide what stands where a password would
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _sqlite_file(url: URL) -> Path | None:
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=10000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url`` (normalised by :func:`database_url`); an SQLite file's directory is made if
    missing, and its connections use WAL, ``synchronous=FULL`` and foreign keys."""
    parsed = make_url(database_url(url))
    file = _sqlite_file(parsed)
    if file is not None:
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot make the directory of {file}: {exc}") from exc
    try:
        engine = create_async_engine(parsed)
    except ImportError as exc:  # asyncpg is the postgres extra
        raise StoreError(f"the driver of {parsed.drivername} is not installed ({exc}): "
                         "pip install 'flametable[postgres]'") from exc
    if parsed.get_backend_name() == "sqlite":
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine
