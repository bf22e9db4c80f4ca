"""What the store keeps, as Python values: a room, its seats, its matches (each with its ordered actions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flametable.core.record import MatchRecord

PLAYING = "playing"
EXPIRED = "expired"  # the room's open seat stayed empty past its time: closed by the server
CLOSED = "closed"  # closed by a seated player while a seat was still open
ABORTED = "aborted"  # real time: a seat made no first decision in time (issue 24); unrated
UNPLAYED = frozenset({EXPIRED, CLOSED, ABORTED})
"""The statuses of a match closed before it was played out: no winner, no result, no record released."""
TIMEOUT = "timeout"  # a clock reached zero: the other seat won (result reason "time")
FORFEIT = "forfeit"  # a player left a real-time match and the other claimed the win (result reason "left")


@dataclass
class SeatRow:
    """One of the room's two players. ``kind``: :data:`HUMAN` (``"human"``, as records name a person's seat) or
    a bot spec (``"bot:hard"``); ``token_hash``: the SHA-256 hex digest of the seat's secret token, ``None`` while
    a person's seat is open (bots have none)."""

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
    status: str = PLAYING  # "playing", "over" (the rules ended it), "resigned", TIMEOUT, FORFEIT, or one of UNPLAYED
    result: dict[str, Any] | None = None  # the outcome's JSON (or the resignation's) once over; None if unplayed
    base: int = 0
    actions: list[str] = field(default_factory=list)
    id: int | None = None  # set by the store
    clock: dict[str, Any] | None = None  # the time control's JSON (issue 24); None: untimed
    spent: list[int | None] = field(default_factory=list)  # each action's time (ms), as ``actions``; None: untimed


def record_of(match: MatchRow, *, actions: bool = True, result: bool = True) -> MatchRecord:
    """The match record of a stored match (the terminal's record file): with its actions and result, or only its
    start (``actions=False, result=False``: what a match is rebuilt from)."""
    return MatchRecord(game=match.game, rules_version=match.rules_version,
                       content={"id": match.content_id, "hash": match.content_hash}, options=match.options,
                       seed=match.seed, players=list(match.players), actions=list(match.actions) if actions else [],
                       setup=match.setup, result=match.result if result else None, clock=match.clock,
                       times=list(match.spent) if actions and match.clock is not None else None)


@dataclass
class RoomRow:
    id: str
    game: str
    options: dict[str, Any]
    creator: str  # who made it (a hash of the client's address), for the rooms-per-client limit
    created_at: float
    seats: list[SeatRow]
    match: MatchRow  # the current match
