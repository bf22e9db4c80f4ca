"""The server's shutdown (issue 24, the leak of the suite): the rooms' tasks (a bot's move under way, a clock's
wait) are cancelled and awaited before the store is closed, so none still writes to the store or opens a
connection once its engine is disposed (it showed as an aiosqlite connection garbage-collected unclosed, a
``ResourceWarning``, in a later test); every write asked for before the shutdown is done (the store's writer does
what was queued), and the room is taken up again as stored."""

from __future__ import annotations

import gc
import logging
import sys
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from flametable.web.app import create_app
from flametable.web.store import Store, database_url
from tests.web.client import Client, settings

SERVERS = 3
ROOMS = 5  # each server's: Duals against bot:random, the bot first in some (D3: the first player is drawn)


def test_a_server_shut_down_while_its_bots_play_leaves_no_connection_open_and_no_write_refused(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    unraisable: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: unraisable.append(repr(raised.exc_value)))
    caplog.set_level(logging.WARNING)
    url = database_url(str(tmp_path / "t.db"))
    made: list[dict[str, Any]] = []
    for _ in range(SERVERS):
        with TestClient(create_app(settings(db_url=url, open_store=Store.open))) as http:
            for _ in range(ROOMS):
                answer = http.post("/api/rooms", json={"game": "duals", "seats": ["me", "bot:random"]})
                assert answer.status_code == 201, answer.text
                made.append(answer.json())
        # the client exits at once: the server shuts down while the bots move
        gc.collect()  # a connection left unclosed is collected here, its ResourceWarning caught
    assert unraisable == []
    assert [record.getMessage() for record in caplog.records] == []  # no "storing action 1 failed" at shutdown

    # What was stored is a match the server takes up again: every room welcomes its player
    with TestClient(create_app(settings(db_url=url, open_store=Store.open))) as http:
        for room in made:
            with http.websocket_connect(f"/api/rooms/{room['room']}/ws") as ws:
                client = Client(ws)
                assert client.hello(room["token"])["seat"] == 0
                assert client.event()["version"] >= 0
    gc.collect()
    assert unraisable == []
