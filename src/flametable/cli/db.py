"""``flametable db upgrade``: bring the game server's database to the latest migration (:mod:`flametable.web.store`),
saying which database (its password hidden) and the revision reached; a bad URL or a database that does not answer
ends in one line, never a traceback."""

from __future__ import annotations

import asyncio

from flametable.cli.console import fail, out
from flametable.cli.i18n import _


def _first_line(exc: BaseException) -> str:
    """What went wrong, in the words of the database or its driver: the cause's first line."""
    cause = exc.__cause__ or exc
    orig = getattr(cause, "orig", None)
    lines = str(orig if orig is not None else cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


def run_upgrade(db: str | None) -> None:
    """Upgrade the database ``db`` (a file path, ``sqlite:///FILE`` or ``postgresql://...``; ``None``: the
    default one in the user's data directory)."""
    from flametable.web.store import StoreError, UnsupportedDatabase, database_url, default_url, shown_url, upgrade

    try:
        url = default_url() if db is None else database_url(db)
    except UnsupportedDatabase as exc:
        fail(_("Unsupported database {url}: give a file path, sqlite:///FILE or postgresql://USER@HOST/DATABASE.")
             .format(url=shown_url(exc.url)))
    shown = shown_url(url)
    try:
        revision = asyncio.run(upgrade(url))
    except StoreError as exc:
        fail(_("The database {database} cannot be upgraded: {error}").format(database=shown, error=_first_line(exc)))
    out().print(_("The database {database} is up to date (revision {revision}).").format(
        database=shown, revision=revision), markup=False, highlight=False, soft_wrap=True)
