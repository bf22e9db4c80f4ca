"""The online table: a Starlette application that serves matches of every registry game to browsers and other
clients over HTTP and WebSockets, with the matches stored (SQLAlchemy 2 + Alembic) so that none is lost when the
server stops. See ``docs/server.md``.

Modules, one per concern: ``store`` (the database: rooms, seats, matches, the action log; a package), ``messages``
(what clients send and what they are sent, each message checked against a declared schema; versions on the wire),
``rooms`` (the rooms in memory: one match service each, its connections, its bots), ``replays`` (ended matches
replayed for every audience), ``routes`` (the HTTP endpoints, a module per concern), ``socket`` (a room's
WebSocket: each client message to its handler), ``common`` (what the routes share), ``settings`` (how a server
runs), ``app`` (``create_app``: the routes assembled, the shared objects on ``app.state``).
"""
