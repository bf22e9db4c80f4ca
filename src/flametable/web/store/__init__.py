"""The server's storage: rooms, their seats, their matches and each match's ordered action log, in a SQL
database through SQLAlchemy 2 (async), its tables made and changed by Alembic migrations.

A match is kept as what is needed to rebuild it exactly (the engines are deterministic): its game, options,
card-set id and hash, seed, optional setup, and every action in order. Nothing else about its state is stored.

**An action is committed before anyone is told of it**: :meth:`Store.append_action` returns only once the action
is durable. Actions arriving together are committed together (one transaction for all the actions that wait
while the previous commit runs: group commit), so a busy server pays one disk flush per batch, not per action.

Seat tokens are never stored: only their SHA-256 (``token_hash``).

Seeds run to 2**64 - 1, beyond a signed 64-bit column: they are stored as decimal text.

How writes are done (one writer)
--------------------------------
Every write (``create_room``, ``claim_seat``, ``append_action``, ``end_match``, ``undo``, ``start_match``,
``close_waiting``, ``expire_waiting``, and the leases' ``take_room``, ``renew_rooms``, ``release_room``) is put on
one queue, in the order it was asked for, and awaited; a single writer task (started by :meth:`Store.open`) takes
everything queued at once and does it in that order:

- a run of consecutive appends is one transaction: the actions are inserted together (one ``executemany``), the
  matches the run ends get their status and result, then one commit; every caller of the run is answered after
  that commit. Appends that arrive while it commits wait in the queue and make the next run: the busier the
  server, the bigger the batches.
- any other write is a transaction of its own, in its place in the queue: an ``undo`` is never overtaken by an
  append asked for before it, nor an append by an ``undo`` asked for before it.
- when a run of appends fails on a constraint (an index taken twice), it is rolled back and its appends are
  done again one transaction each: only the conflicting caller gets :class:`Conflict`, the others succeed.

An append, an end (``end_match``) or an undo of a match that is no longer being played (its stored status
``"over"``, ``"resigned"``, ``"closed"`` or ``"expired"``) is refused, changing nothing: :class:`MatchOver`. A stored
result is never overwritten, whoever asks (another process, a room's stale memory).

Several processes on one database (PostgreSQL): each room is driven by one process at a time, its owner, holding a
lease on it (:meth:`Store.take_room`, :meth:`Store.renew_rooms`, :meth:`Store.release_room`,
:meth:`Store.room_owner`; the table ``room_owners``, times by the database's clock: :mod:`.leases`). The writes of
a match (``append_action``, ``end_match``, ``undo``, ``close_waiting``, ``start_match``) take the lease's ``fence``;
in the same transaction they check that the lease is still held with it and unexpired, else they write nothing and
raise :class:`LeaseLost`. In a run of appends, one refused append fails only its own caller. ``fence=None``: one
process, no check.

One writer also means SQLite never sees two writers fight for its lock. Reads (``load_room``, ``load_match``,
``waiting_rooms``, ``open_rooms_by``, ``room_owner``, ``ping``) use their own pooled connections and see what is
committed.

A caller that stops waiting (its task cancelled) does not take its write back: it is done all the same.

Every database failure reaches the caller as :class:`StoreError` (the driver's exception as ``__cause__``), its
transaction rolled back. SQLite connections use WAL, ``synchronous=FULL`` (a commit survives a power cut) and
foreign keys.

The package, one module per concern: :mod:`.rows` (the values kept), :mod:`.tables` (the SQL tables),
:mod:`.setup` (database URLs and engines), :mod:`.migrate` (Alembic), :mod:`.writer` (the one writer),
:mod:`.queries` (the :class:`Store`: its writes and reads), :mod:`.leases` (rooms' owners), :mod:`.guard` (one
plain server per PostgreSQL database: :class:`ServerLock`), :mod:`.errors`. What other modules use is here.
"""

from flametable.web.store.errors import Conflict, LeaseLost, MatchOver, StoreError, UnsupportedDatabase, first_line
from flametable.web.store.guard import SERVER_LOCK_KEY, ServerLock
from flametable.web.store.migrate import MIGRATIONS, alembic_config, upgrade
from flametable.web.store.queries import Store
from flametable.web.store.rows import (
    ABORTED,
    CLOSED,
    EXPIRED,
    FORFEIT,
    PLAYING,
    TIMEOUT,
    UNPLAYED,
    MatchRow,
    RoomRow,
    SeatRow,
    record_of,
)
from flametable.web.store.setup import DATA_DIR_VARIABLE, database_url, default_url, make_engine, shown_url
from flametable.web.store.tables import actions, matches, metadata, room_owners, rooms, seats
from flametable.web.store.writer import MAX_BATCH

__all__ = [
    "ABORTED",
    "CLOSED",
    "DATA_DIR_VARIABLE",
    "EXPIRED",
    "FORFEIT",
    "MAX_BATCH",
    "MIGRATIONS",
    "PLAYING",
    "SERVER_LOCK_KEY",
    "TIMEOUT",
    "UNPLAYED",
    "Conflict",
    "LeaseLost",
    "MatchOver",
    "MatchRow",
    "RoomRow",
    "SeatRow",
    "ServerLock",
    "Store",
    "StoreError",
    "UnsupportedDatabase",
    "actions",
    "alembic_config",
    "database_url",
    "default_url",
    "first_line",
    "make_engine",
    "matches",
    "metadata",
    "record_of",
    "room_owners",
    "rooms",
    "seats",
    "shown_url",
    "upgrade",
]

# accounts (issue 23): the tables of migration 0004 and what reads and writes them
from flametable.web.store.accounts import AccountRow, AccountSeat, AccountStore, Reissued, SessionRow

# direct challenges (issue 24): the table of migration 0009 and what reads and writes it
from flametable.web.store.challenges import Challenge, ChallengeStore

# ratings (issue 23): the tables of migration 0005 and what reads and writes them
from flametable.web.store.ratings import Change, Played, Rated, RatedRoom, RatingStore, Standing
from flametable.web.store.tables import (
    accounts,
    challenges,
    rated_rooms,
    rating_history,
    ratings,
    seat_accounts,
    sessions,
)

__all__ += ["AccountRow", "AccountSeat", "AccountStore", "Reissued", "SessionRow", "accounts", "seat_accounts",
            "sessions"]
__all__ += ["Change", "Played", "Rated", "RatedRoom", "RatingStore", "Standing", "rated_rooms", "rating_history",
            "ratings"]
__all__ += ["Challenge", "ChallengeStore", "challenges"]
