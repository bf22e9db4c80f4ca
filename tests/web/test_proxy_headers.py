"""Whose address a request comes from (issue 21, point 4): the socket's, unless ``serve`` was told the address of
its proxy (``--forwarded-allow-ips``); only then is ``X-Forwarded-For`` read. Otherwise a client (from 127.0.0.1
too, where uvicorn trusts the header by default) would get a fresh allowance of rooms with each new value."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flametable.web.rooms import Limits
from flametable.web.store import database_url
from tests.web.live import LiveServer
from tests.web.wire import post

ROOMS = Limits().rooms_per_client
DUEL = {"game": "duel", "seats": ["me", "open"]}


@contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[int]:
    server = LiveServer(database_url(str(tmp_path / "t.db")), tmp_path / "data", args=args)
    server.start()
    try:
        yield server.port
    finally:
        server.kill()


def make_room(port: int, forwarded_for: str) -> tuple[int, str | None]:
    status, answer = post(port, "/api/rooms", DUEL, {"x-forwarded-for": forwarded_for})
    return status, answer.get("error")


def test_without_a_proxy_named_a_rotating_x_forwarded_for_from_127_0_0_1_is_still_one_client(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        for n in range(ROOMS):
            assert make_room(port, f"203.0.113.{n}") == (201, None)
        assert make_room(port, "203.0.113.250") == (429, "too_many_rooms")


def test_with_its_proxy_named_the_forwarded_address_is_the_client_s(tmp_path: Path) -> None:
    with serving(tmp_path, "--forwarded-allow-ips", "127.0.0.1") as port:
        for _ in range(ROOMS):
            assert make_room(port, "203.0.113.7") == (201, None)
        assert make_room(port, "203.0.113.7") == (429, "too_many_rooms")
        assert make_room(port, "203.0.113.8") == (201, None)  # another client behind the proxy
        # the proxy appends the address it saw: what the client wrote before it is not believed
        assert make_room(port, "203.0.113.9, 203.0.113.7") == (429, "too_many_rooms")

