"""A test's view of the game server: the app on Starlette's TestClient, rooms made over HTTP, seats and spectators
over WebSockets, every message they receive kept."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.testclient import TestClient

from flametable.web.app import Settings, create_app
from flametable.web.rooms import Limits
from flametable.web.sessions import COOKIE
from tests.web.memory_store import MemoryStore


def settings(**changes: Any) -> Settings:
    """A server for tests: rooms in memory, bots on threads, seeds 1, 2, 3..."""
    seeds = itertools.count(1)
    limits = Limits(actions_per_second=1e6, burst=10**6, expensive_per_second=1e6, expensive_burst=10**6,
                    bodies_per_second=1e6, bodies_burst=10**6, replays_per_second=1e6, replays_burst=10**6)
    base: dict[str, Any] = {"db_url": "memory", "bots": "thread", "open_store": MemoryStore.open,
                            "seeds": lambda: next(seeds), "limits": limits}
    base.update(changes)
    return Settings(**base)


class Client:
    """One WebSocket of a room: what it sends and every message it received, in order."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.got: list[dict[str, Any]] = []

    def send(self, **message: Any) -> None:
        self.ws.send_text(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.got.append(message)
        return message

    def until(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind`` (those before it are kept in ``got``)."""
        while True:
            message = self.recv()
            if message["type"] == kind:
                return message

    def hello(self, token: str | None = None, **seen: Any) -> dict[str, Any]:
        """Say hello; returns the welcome (the sync or missed events and the presence follow)."""
        self.send(type="hello", token=token, **seen)
        return self.until("welcome")

    def event(self) -> dict[str, Any]:
        event: dict[str, Any] = self.until("event")["event"]
        return event

    def error(self) -> dict[str, Any]:
        return self.until("error")


class Server:
    """The app on a TestClient (its lifespan running while the ``with`` lasts)."""

    def __init__(self, **changes: Any) -> None:
        self.app = create_app(settings(**changes))
        self.http = TestClient(self.app)

    def __enter__(self) -> Server:
        self.http.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.__exit__(*exc)

    def room(self, game: str, seats: list[str], options: dict[str, Any] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "seats": seats}
        if options is not None:
            body["options"] = options
        response = self.http.post("/api/rooms", json=body)
        assert response.status_code == 201, response.text
        made: dict[str, Any] = response.json()
        return made

    def join(self, room: str, **body: Any) -> dict[str, Any]:
        response = self.http.post(f"/api/rooms/{room}/join", json=body)
        assert response.status_code == 200, response.text
        joined: dict[str, Any] = response.json()
        return joined

    def pair(self, game: str, options: dict[str, Any] | None = None) -> tuple[str, str, str]:
        """A room of two people: its id and both seat tokens."""
        made = self.room(game, ["me", "open"], options)
        return made["room"], made["token"], self.join(made["room"])["token"]

    @contextmanager
    def connect(self, room: str, lang: str | None = None) -> Iterator[Client]:
        url = f"/api/rooms/{room}/ws" + (f"?lang={lang}" if lang else "")
        with self.http.websocket_connect(url) as ws:
            yield Client(ws)

    def service(self, room: str) -> Any:
        return self.app.state.hall.rooms[room].service

    def record(self, room: str, number: int = 0) -> Any:
        return self.http.get(f"/api/rooms/{room}/matches/{number}/record")


class Session:
    """What a browser keeps between its calls to the server: the session's cookie and its CSRF token, as each answer
    (a ``TestClient`` response) sets or clears them, and the headers that send them back."""

    def __init__(self) -> None:
        self.cookie: str | None = None
        self.csrf: str | None = None

    def headers(self) -> dict[str, str]:
        sent = {}
        if self.cookie is not None:
            sent["cookie"] = f"{COOKIE}={self.cookie}"
        if self.csrf is not None:
            sent["x-csrf-token"] = self.csrf
        return sent

    def keep(self, answer: Any) -> Any:
        """Take the cookie and the token ``answer`` gives (a cleared cookie: signed out); ``answer`` itself back."""
        if COOKIE in answer.cookies:
            self.cookie = answer.cookies[COOKIE] or None
        data = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else None
        if isinstance(data, dict) and "csrf" in data:
            self.csrf = data["csrf"]
        return answer
