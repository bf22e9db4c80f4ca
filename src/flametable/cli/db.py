"""``flametable db upgrade``: bring the game server's database to the latest migration (:mod:`flametable.web.store`),
saying which database (its password hidden) and the revision reached; a bad URL or a database that does not answer
ends in one line, never a traceback."""

from __future__ import annotations

import asyncio

from flametable.cli.console import fail, out
from flametable.cli.i18n import _


def resolve_url(db: str | None) -> str:
    """The database URL of ``--db`` (``None``: the default one), or one clear line and exit 1."""
    from flametable.web.store import UnsupportedDatabase, database_url, default_url, shown_url

    try:
        return default_url() if db is None else database_url(db)
    except UnsupportedDatabase as exc:
        fail(_("Unsupported database {url}: give a file path, sqlite:///FILE or postgresql://USER@HOST/DATABASE.")
             .format(url=shown_url(exc.url)))


def upgrade_or_fail(url: str) -> str:
    """Bring the database to the latest migration; the revision reached, or one clear line and exit 1."""
    from flametable.web.store import StoreError, first_line, shown_url, upgrade

    try:
        return asyncio.run(upgrade(url))
    except StoreError as exc:
        fail(_("The database {database} cannot be upgraded: {error}").format(database=shown_url(url),
                                                                             error=first_line(exc.__cause__ or exc)))


def run_upgrade(db: str | None) -> None:
    """Upgrade the database ``db`` (a file path, ``sqlite:///FILE`` or ``postgresql://...``; ``None``: the
    default one in the user's data directory)."""
    from flametable.web.store import shown_url

    url = resolve_url(db)
    revision = upgrade_or_fail(url)
    out().print(_("The database {database} is up to date (revision {revision}).").format(
        database=shown_url(url), revision=revision), markup=False, highlight=False, soft_wrap=True)
