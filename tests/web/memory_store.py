"""A store in memory with the interface of :class:`flametable.web.store.Store`, for protocol tests that need no
database (the store's own tests run it on SQLite and PostgreSQL)."""

from __future__ import annotations

import copy
from typing import Any

from flametable.bots.registry import HUMAN
from flametable.web.store import EXPIRED, PLAYING, UNPLAYED, Conflict, MatchRow, RoomRow


class MemoryStore:
    def __init__(self) -> None:
        self.rooms: dict[str, RoomRow] = {}
        self.matches: dict[int, MatchRow] = {}
        self.commits = 0

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

    async def claim_seat(self, room_id: str, player: int, token_hash: str) -> bool:
        seat = self.rooms[room_id].seats[player]
        if seat.token_hash is not None or seat.kind != HUMAN or self.rooms[room_id].match.status in UNPLAYED:
            return False
        seat.token_hash = token_hash
        return True

    async def append_action(self, match_id: int, index: int, notation: str, seat: int, *,
                            status: str = "playing", result: dict[str, Any] | None = None) -> None:
        match = self.matches[match_id]
        if index != len(match.actions):
            raise Conflict(f"action {index} of match {match_id}")
        match.actions.append(notation)
        match.status, match.result = status, result
        self.commits += 1

    async def end_match(self, match_id: int, status: str, result: dict[str, Any]) -> None:
        self.matches[match_id].status = status
        self.matches[match_id].result = result

    async def undo(self, match_id: int, keep: int, base: int) -> None:
        del self.matches[match_id].actions[keep:]
        self.matches[match_id].base = base

    async def start_match(self, match: MatchRow) -> None:
        match.id = len(self.matches) + 1
        self.matches[match.id] = copy.deepcopy(match)
        self.rooms[match.room_id].match = self.matches[match.id]

    async def load_match(self, room_id: str, number: int) -> MatchRow | None:
        for match in self.matches.values():
            if match.room_id == room_id and match.number == number:
                return copy.deepcopy(match)
        return None

    async def close_waiting(self, match_id: int, status: str) -> bool:
        match = self.matches[match_id]
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

    async def waiting_rooms(self, limit: int = 50, *, since: float | None = None) -> list[RoomRow]:
        out = [copy.deepcopy(r) for r in self.rooms.values()
               if r.match.status == PLAYING and _waiting(r) and (since is None or r.created_at >= since)]
        return out[-limit:]

    async def open_rooms_by(self, creator: str, *, since: float | None = None, bots_only: bool = False) -> int:
        return sum(1 for r in self.rooms.values() if r.creator == creator and r.match.status == PLAYING
                   and all(s.kind != HUMAN for s in r.seats) == bots_only
                   and (since is None or r.created_at >= since or not _waiting(r)))


def _waiting(room: RoomRow) -> bool:
    return any(s.kind == HUMAN and s.token_hash is None for s in room.seats)
