"""The Alembic migrations of the server's database (run by :func:`flametable.web.store.migrate.upgrade`)."""
