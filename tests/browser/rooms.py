"""Rooms for the browser tests, made through the server's HTTP API, and a page seated at one of them (its seat
token put where the client keeps it). Every room made is resigned at the end of its test, so that a session of
tests never reaches the server's limit of rooms playing per address."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect
from websockets.exceptions import ConnectionClosed

from tests.web.live import LiveServer


@dataclass(frozen=True)
class Room:
    id: str
    link: str
    tokens: dict[int, str]  # by player (0: the room's first player)


class Rooms:
    """The rooms one test made."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.made: list[Room] = []

    def make(self, game: str, seats: list[str], options: dict[str, Any] | None = None) -> Room:
        body: dict[str, Any] = {"game": game, "seats": seats}
        if options is not None:
            body["options"] = options
        made = self.server.post("/api/rooms", body, expect=201)
        room = Room(made["room"], made["link"], {int(p): t for p, t in made["tokens"].items()})
        self.made.append(room)
        return room

    def adopt(self, page: Page, link: str) -> Room:
        """A room made in ``page`` (through the lobby), to be resigned at the end like the others."""
        room_id = link.rsplit("/", 1)[1]
        token = page.evaluate("(room) => localStorage.getItem(`flametable.seat.${room}`)", room_id)
        room = Room(room_id, f"/rooms/{room_id}", {0: token} if token else {})
        self.made.append(room)
        return room

    def join(self, room: Room) -> str:
        """Take the room's open seat through the API: its token."""
        token: str = self.server.post(f"/api/rooms/{room.id}/join", {}, expect=200)["token"]
        return token

    def sit(self, page: Page, room: Room, player: int | None = 0, token: str | None = None) -> None:
        """Open the room's table in ``page`` as ``player`` or with ``token`` (neither: as a spectator)."""
        page.goto(self.server.base + "/healthz")
        token = token or (room.tokens[player] if player is not None else None)
        if token is not None:
            page.evaluate("([room, token]) => localStorage.setItem(`flametable.seat.${room}`, token)",
                          [room.id, token])
        page.goto(self.server.base + room.link)
        expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")

    def resign_all(self) -> None:
        for room in self.made:
            if not room.tokens:
                continue
            socket = self.server.connect(room.id)
            try:
                socket.send(type="hello", token=next(iter(room.tokens.values())))
                socket.until("welcome")
                socket.send(type="resign")
                while socket.recv()["type"] not in ("ended", "error"):
                    pass
            except ConnectionClosed:
                pass
            finally:
                socket.close()

