"""A store in memory with the interface of :class:`flametable.web.store.Store`, for protocol tests that need no
database (the store's own tests run it on SQLite and PostgreSQL)."""

from __future__ import annotations

import copy
import time
from collections.abc import Mapping
from typing import Any

from flametable.bots.registry import HUMAN
from flametable.web.store import (
    EXPIRED,
    PLAYING,
    UNPLAYED,
    Conflict,
    LeaseLost,
    MatchOver,
    MatchRow,
    RoomRow,
    StoreError,
)


class MemoryStore:
    def __init__(self) -> None:
        self.rooms: dict[str, RoomRow] = {}
        self.matches: dict[int, MatchRow] = {}
        self.commits = 0
        self.owners: dict[str, tuple[str, int, float]] = {}  # room: owner, fence, end (time.monotonic)

    @classmethod
    async def open(cls, url: str, *, migrate: bool = True) -> MemoryStore:
        return cls()

    async def close(self) -> None:
        pass

    async def ping(self) -> bool:
        return True

    async def create_room(self, room: RoomRow) -> None:
        room.match.id = len(self.matches) + 1
        self.rooms[room.id] = copy.deepcopy(room)
        self.matches[room.match.id] = self.rooms[room.id].match

    async def load_room(self, room_id: str) -> RoomRow | None:
        room = self.rooms.get(room_id)
        return copy.deepcopy(room) if room is not None else None

    async def claim_seat(self, room_id: str, player: int, token_hash: str, *, fence: int | None = None,
                         options: dict[str, Any] | None = None) -> bool:
        room = self.rooms[room_id]
        seat = room.seats[player]
        if seat.token_hash is not None or seat.kind != HUMAN or room.match.status in UNPLAYED:
            return False
        seat.token_hash = token_hash
        if options is not None:
            room.options = copy.deepcopy(options)
            room.match.options = copy.deepcopy(options)
        return True

    def _writable(self, match_id: int, fence: int | None, *, playing: bool = True) -> MatchRow:
        """The match, if the lease of its room is held with ``fence`` (None: no check) and, with ``playing``,
        it is still being played: else what the store raises."""
        match = self.matches.get(match_id)
        if match is None:
            raise StoreError(f"there is no match {match_id}")
        if fence is not None:
            self._check_fence(match.room_id, fence)
        if playing and match.status != PLAYING:
            raise MatchOver(f"cannot write to the match {match_id}", match_id, match.status)
        return match

    def _check_fence(self, room_id: str, fence: int) -> None:
        lease = self.owners.get(room_id)
        if lease is None or lease[1] != fence or lease[2] <= time.monotonic():
            raise LeaseLost(f"cannot write to the room {room_id}", fence, room_id)

    async def append_action(self, match_id: int, index: int, notation: str, seat: int, *,
                            status: str = "playing", result: dict[str, Any] | None = None,
                            fence: int | None = None, spent_ms: int | None = None) -> None:
        match = self._writable(match_id, fence)
        if index != len(match.actions):
            raise Conflict(f"action {index} of match {match_id}")
        match.actions.append(notation)
        match.spent.append(spent_ms)
        match.status, match.result = status, result
        self.commits += 1

    async def end_match(self, match_id: int, status: str, result: dict[str, Any] | None, *,
                        fence: int | None = None) -> None:
        match = self._writable(match_id, fence)
        match.status, match.result = status, result

    async def undo(self, match_id: int, keep: int, base: int, *, fence: int | None = None) -> None:
        match = self._writable(match_id, fence)
        del match.actions[keep:]
        del match.spent[keep:]
        match.base = base

    async def replace_seat(self, room_id: str, player: int, kind: str, *, fence: int | None = None) -> None:
        if fence is not None:
            self._check_fence(room_id, fence)
        seat = self.rooms[room_id].seats[player]
        seat.kind, seat.token_hash = kind, None

    async def timed_rooms(self, limit: int = 10_000) -> list[str]:
        return [r.id for r in self.rooms.values() if r.match.status == PLAYING and r.match.clock is not None][:limit]

    async def start_match(self, match: MatchRow, *, fence: int | None = None) -> None:
        if fence is not None:
            self._check_fence(match.room_id, fence)
        match.id = len(self.matches) + 1
        self.matches[match.id] = copy.deepcopy(match)
        self.rooms[match.room_id].match = self.matches[match.id]

    async def load_match(self, room_id: str, number: int) -> MatchRow | None:
        for match in self.matches.values():
            if match.room_id == room_id and match.number == number:
                return copy.deepcopy(match)
        return None

    async def close_waiting(self, match_id: int, status: str, *, fence: int | None = None) -> bool:
        match = self._writable(match_id, fence, playing=False)
        room = self.rooms[match.room_id]
        if match.status != PLAYING or room.match is not match or not _waiting(room):
            return False
        match.status, match.result = status, None
        return True

    async def expire_waiting(self, before: float) -> list[str]:
        ids = sorted(r.id for r in self.rooms.values()
                     if r.match.status == PLAYING and _waiting(r) and r.created_at < before)
        for room_id in ids:
            self.rooms[room_id].match.status = EXPIRED
        return ids

    async def take_room(self, room_id: str, owner: str, seconds: float) -> int | None:
        if room_id not in self.rooms:
            raise StoreError(f"cannot take the room {room_id}: there is no such room")
        now = time.monotonic()
        held, fence, end = self.owners.get(room_id, ("", 0, now))
        if end > now and held != owner:
            return None
        fence = fence if end > now else fence + 1
        self.owners[room_id] = (owner, fence, now + seconds)
        return fence

    async def renew_rooms(self, owner: str, fences: Mapping[str, int], seconds: float) -> set[str]:
        now = time.monotonic()
        lost = set()
        for room_id, fence in fences.items():
            lease = self.owners.get(room_id)
            if lease is None or lease[:2] != (owner, fence) or lease[2] <= now:
                lost.add(room_id)
            else:
                self.owners[room_id] = (owner, fence, now + seconds)
        return lost

    async def release_room(self, room_id: str, owner: str, fence: int) -> bool:
        lease = self.owners.get(room_id)
        now = time.monotonic()
        if lease is None or lease[:2] != (owner, fence) or lease[2] <= now:
            return False
        self.owners[room_id] = (owner, fence, now)
        return True

    async def room_owner(self, room_id: str) -> tuple[str, int, float] | None:
        lease = self.owners.get(room_id)
        return None if lease is None else (lease[0], lease[1], lease[2] - time.monotonic())

    async def waiting_rooms(self, limit: int = 50, *, since: float | None = None) -> list[RoomRow]:
        out = [copy.deepcopy(r) for r in self.rooms.values()
               if r.match.status == PLAYING and _waiting(r) and (since is None or r.created_at >= since)]
        return out[-limit:]

    async def playing_seats(self, room_ids: Any) -> dict[str, dict[int, str]]:
        return {room_id: {s.player: s.token_hash for s in room.seats if s.token_hash is not None}
                for room_id in set(room_ids) if (room := self.rooms.get(room_id)) is not None
                and room.match.status == PLAYING}

    async def open_rooms_by(self, creator: str, *, since: float | None = None, bots_only: bool = False) -> int:
        return sum(1 for r in self.rooms.values() if r.creator == creator and r.match.status == PLAYING
                   and all(s.kind != HUMAN for s in r.seats) == bots_only
                   and (since is None or r.created_at >= since or not _waiting(r)))


def _waiting(room: RoomRow) -> bool:
    return any(s.kind == HUMAN and s.token_hash is None for s in room.seats)
