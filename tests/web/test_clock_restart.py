"""A server restart charges no time for its own downtime and loses none already charged (issue 24): a real server
(``flametable serve`` in a subprocess, on SQLite and on PostgreSQL) is killed with SIGKILL in the middle of a timed
match, left down for seconds, and started again on the same database. The clocks come back as the stored stamps
make them: the seat that was not to act has to the millisecond what it had, the seat to act loses only the time
since the server came back. The real clock runs here (the server is another process): the waits are short."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.live import LiveServer, Socket

DOWN_SECONDS = 4.0


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(db_url, tmp_path / "server")
    try:
        yield live
    finally:
        live.kill()


def hello(server: LiveServer, room: str, token: str) -> tuple[Socket, dict[str, Any], dict[str, Any]]:
    """A seat's socket, its last event and its clocks as of now (the ``clock`` message a hello is answered with)."""
    sock = server.connect(room)
    sock.send(type="hello", token=token)
    event = sock.until("event")["event"]
    clock = sock.until("clock")["clock"]
    sock.until("presence")
    return sock, event, clock


def test_a_server_killed_and_started_again_charges_no_one_for_the_time_it_was_down(server: LiveServer) -> None:
    server.start()
    made = server.post("/api/rooms", {"game": "duals", "seats": ["me", "open"],
                                      "clock": {"kind": "fischer", "minutes": 10, "increment": 5}}, 201)
    room = made["room"]
    tokens = {0: made["token"], 1: server.post(f"/api/rooms/{room}/join", {}, 200)["token"]}
    socks = {}
    last = {}
    for seat in (0, 1):
        socks[seat], last[seat], _ = hello(server, room, tokens[seat])
    moved: set[int] = set()
    clock: dict[str, Any] = {}

    def play() -> None:
        nonlocal clock
        seat = last[0]["to_act"]
        moved.add(seat)
        socks[seat].send(type="act", action=last[seat]["view"]["legal"][0], version=last[seat]["version"])
        for s in (0, 1):
            message = socks[s].until("event")
            last[s], clock = message["event"], message["clock"]

    while len(moved) < 2 or last[0]["to_act"] not in moved:  # both made a first decision, a clock runs
        play()
    time.sleep(0.3)  # a decision that takes time: charged, then the increment
    play()
    to_act = last[0]["to_act"]
    assert clock["running"] == [to_act]
    before = clock["remaining"]
    assert before[1 - to_act] != 600_000 or before[to_act] != 600_000  # some time was charged
    server.kill()
    time.sleep(DOWN_SECONDS)
    server.start()
    sock, event, after = hello(server, room, tokens[0])
    try:
        assert event["version"] == last[0]["version"]
        assert after["running"] == [to_act]
        assert after["remaining"][1 - to_act] == before[1 - to_act]  # stood still: to the millisecond
        charged = before[to_act] - after["remaining"][to_act]
        # the time since the start at most; less the moment between the last stamp and its event (``before``
        # was read then), which a crash leaves uncharged: a few milliseconds, more on a loaded machine
        assert -500 < charged < DOWN_SECONDS * 1000 / 2, (before, after)
    finally:
        sock.close()
