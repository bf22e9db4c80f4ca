"""A WebSocket text frame that is not UTF-8 (issue 21, point 8): the client gets the protocol's close (1007), and the
server's log gets no traceback, only one INFO line now and then (uvicorn wrote an ERROR with a traceback for each:
a client could fill the log)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from flametable.web.app import create_app
from flametable.web.socket import NotUtf8
from flametable.web.store import database_url
from tests.web.client import settings
from tests.web.live import LiveServer
from tests.web.wire import TEXT, RawSocket, post, uvicorn_thread

NOT_UTF8 = b'{"type": "hello", "token": "\xff\xfe"}'
CONNECTIONS = 50


def send_bad_frames(port: int, room: str) -> list[int]:
    """A text frame that is not UTF-8 on each of :data:`CONNECTIONS` sockets (every other one after its hello): the
    close codes the server answered with."""
    codes = []
    for n in range(CONNECTIONS):
        client = RawSocket(port, f"/api/rooms/{room}/ws")
        if n % 2:
            client.send(type="hello", token=None)
            client.until("welcome")
        client.send_frame(TEXT, NOT_UTF8)
        codes.append(client.close_code())
        client.sock.close()
    return codes


def still_serves(port: int, room: str) -> bool:
    client = RawSocket(port, f"/api/rooms/{room}/ws")
    client.send(type="hello", token=None)
    welcome = client.until("welcome")
    client.close()
    return bool(welcome["room"] == room)


def test_a_served_server_closes_each_with_1007_and_writes_no_traceback(tmp_path: Path) -> None:
    server = LiveServer(database_url(str(tmp_path / "t.db")), tmp_path / "data")
    server.start()
    try:
        room = server.post("/api/rooms", {"game": "duel", "seats": ["me", "open"]}, 201)["room"]
        before = server.output().splitlines()
        assert send_bad_frames(server.port, room) == [1007] * CONNECTIONS
        assert still_serves(server.port, room)
        written = server.output().splitlines()[len(before):]
    finally:
        server.kill()
    assert not [line for line in written if "Traceback" in line or "ERROR" in line], "\n".join(written)
    assert len(written) <= 2, "\n".join(written)


def test_at_info_the_log_has_one_line_for_them_all(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="uvicorn.error")
    app = create_app(settings())
    with uvicorn_thread(app) as port:
        status, made = post(port, "/api/rooms", {"game": "duel", "seats": ["me", "open"]})
        assert status == 201
        assert send_bad_frames(port, made["room"]) == [1007] * CONNECTIONS
        assert still_serves(port, made["room"])
    told = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert [(r.levelno, r.exc_info, r.exc_text) for r in told] == [(logging.INFO, None, None)]
    assert "closed with 1007 (0 more since the last such line" in told[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info is not None]


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_line_a_minute_at_most_and_it_counts_those_it_did_not_tell() -> None:
    now = [1000.0]
    quiet = NotUtf8(interval=60.0, clock=lambda: now[0])
    logger = logging.getLogger("tests.not_utf8")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    handler = Kept()
    kept = handler.records
    logger.addHandler(handler)
    logger.addFilter(quiet)
    try:
        def bad_frame() -> None:
            try:
                b"\xff".decode()
            except UnicodeDecodeError:
                logger.exception(NotUtf8.MESSAGE)

        for _ in range(30):
            bad_frame()
            now[0] += 1.0
        now[0] += 60.0
        bad_frame()
        logger.error("something else")
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(quiet)
    assert [r.levelname for r in kept] == ["INFO", "INFO", "ERROR"]
    first = kept[0].getMessage()
    assert "closed with 1007 (0 more since the last such line; one such line every 60 s at most)" in first
    assert "(29 more since the last such line" in kept[1].getMessage()
    assert kept[2].getMessage() == "something else"
