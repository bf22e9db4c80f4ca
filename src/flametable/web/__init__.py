"""The online table: a Starlette application that serves matches of every registry game to browsers and other
clients over HTTP and WebSockets, with the matches stored (SQLAlchemy 2 + Alembic) so that none is lost when the
server stops. See ``docs/server.md``.

Modules, one per concern: ``store`` (the database: rooms, seats, matches, the action log), ``messages`` (what
clients send and what they are sent, each message checked against a declared schema), ``rooms`` (the rooms in
memory: one match service each, its connections, its bots), ``app`` (the HTTP and WebSocket routes).
"""
