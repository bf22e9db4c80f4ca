"""The server's storage: rooms, their seats, their matches and each match's ordered action log, in a SQL
database through SQLAlchemy 2 (async), its tables made and changed by Alembic migrations.

A match is kept as what is needed to rebuild it exactly (the engines are deterministic): its game, options,
card-set id and hash, seed, optional setup, and every action in order. Nothing else about its state is stored.

**An action is committed before anyone is told of it**: :meth:`Store.append_action` returns only once the action
is durable. Actions arriving together are committed together (one transaction for all the actions that wait
while the previous commit runs: group commit), so a busy server pays one disk flush per batch, not per action.

Seat tokens are never stored: only their SHA-256 (``token_hash``).

Seeds run to 2**64 - 1, beyond a signed 64-bit column: they are stored as decimal text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class StoreError(Exception):
    """The database refused or failed (connection lost, constraint): the caller keeps its state as it was."""


class Conflict(StoreError):
    """A row that should be new exists already (an action index taken twice): another writer got there first."""


@dataclass
class SeatRow:
    """One of the room's two players. ``kind``: ``"person"`` or a bot spec (``"bot:hard"``); ``token_hash``:
    the SHA-256 hex digest of the seat's secret token, ``None`` while a person's seat is open (bots have none)."""

    player: int  # 0 or 1: the room's player, not the seat in the current match (see MatchRow.first_player)
    kind: str
    token_hash: str | None = None


@dataclass
class MatchRow:
    """One match of a room (the first, or a rematch). ``first_player`` is the room player at seat 0 (rematches
    swap them). ``actions`` are the notations in order (loaded with the match). ``base`` is added to the number of
    actions to make the version clients see (an undo raises it, so a version is never reused)."""

    room_id: str
    number: int  # 0 for the room's first match, 1 for the first rematch...
    game: str
    rules_version: str
    content_id: str
    content_hash: str
    options: dict[str, Any]
    seed: int
    players: list[str]  # the seats' players as specs, seat 0 first, as in the record
    first_player: int = 0
    setup: dict[str, Any] | None = None
    status: str = "playing"  # "playing", "over" (the rules ended it), "resigned"
    result: dict[str, Any] | None = None  # the outcome's JSON (or the resignation's) once not playing
    base: int = 0
    actions: list[str] = field(default_factory=list)
    id: int | None = None  # set by the store


@dataclass
class RoomRow:
    id: str
    game: str
    options: dict[str, Any]
    creator: str  # who made it (a hash of the client's address), for the rooms-per-client limit
    created_at: float
    seats: list[SeatRow]
    match: MatchRow  # the current match


class Store:
    """The database of one server. Made with :meth:`open`; every method is a coroutine."""

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> Store:
        """Connect to ``url`` (a SQLAlchemy async URL: ``sqlite+aiosqlite:///path``,
        ``postgresql+asyncpg://...``) and, with ``migrate``, bring its tables to the latest migration."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def ping(self) -> bool:
        """Whether the database answers (for ``/healthz``)."""
        raise NotImplementedError

    async def create_room(self, room: RoomRow) -> None:
        """Insert the room, its seats and its first match in one transaction (sets ``room.match.id``)."""
        raise NotImplementedError

    async def load_room(self, room_id: str) -> RoomRow | None:
        """The room with its seats and its current match, actions included; ``None`` if there is no such room."""
        raise NotImplementedError

    async def claim_seat(self, room_id: str, player: int, token_hash: str) -> bool:
        """Give the open person's seat ``player`` its token, atomically: ``False`` if it was taken meanwhile."""
        raise NotImplementedError

    async def append_action(self, match_id: int, index: int, notation: str, seat: int, *,
                            status: str = "playing", result: dict[str, Any] | None = None) -> None:
        """Append action ``index`` (0-based) of the match and, in the same transaction, its status and result
        (the last action of a match ends it). Returns once committed; :class:`Conflict` if ``index`` exists."""
        raise NotImplementedError

    async def end_match(self, match_id: int, status: str, result: dict[str, Any]) -> None:
        """Mark a match ended outside the rules (``"resigned"``) with its result."""
        raise NotImplementedError

    async def undo(self, match_id: int, keep: int, base: int) -> None:
        """Delete the actions from index ``keep`` on and set the match's ``base``, in one transaction."""
        raise NotImplementedError

    async def start_match(self, match: MatchRow) -> None:
        """Insert a new match of ``match.room_id`` (a rematch) and make it the room's current one (sets
        ``match.id``)."""
        raise NotImplementedError

    async def load_match(self, room_id: str, number: int) -> MatchRow | None:
        """Match ``number`` of the room, actions included."""
        raise NotImplementedError

    async def waiting_rooms(self, limit: int = 50) -> list[RoomRow]:
        """The newest rooms whose current match is playing and that still have an open person's seat (their
        matches' actions not loaded)."""
        raise NotImplementedError

    async def open_rooms_by(self, creator: str) -> int:
        """How many rooms made by ``creator`` have a match still playing."""
        raise NotImplementedError


def database_url(text: str) -> str:
    """A database URL as SQLAlchemy's async drivers take it (to be built)."""
    raise NotImplementedError


def default_url() -> str:
    """The embedded SQLite database in the user's data directory (to be built)."""
    raise NotImplementedError


def shown_url(url: str) -> str:
    """``url`` as it may be printed: its password hidden."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
