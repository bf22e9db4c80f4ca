"""Bots on the server think off the event loop (issue 11): while a bot thinks, every other room is served; the
process pool of ``serve`` plays too."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from flametable.web import botpool
from tests.web.client import Server


def test_a_thinking_bot_does_not_hold_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    thinking = threading.Event()
    real_think = botpool.think

    def slow_think(*args: Any) -> int:
        thinking.set()
        assert release.wait(30), "the test never released the bot"
        return real_think(*args)

    monkeypatch.setattr(botpool, "think", slow_think)
    with Server() as server:
        bot_room = server.room("duel", ["bot:easy", "me"])  # Flame Duel: seat 0 lines up first
        assert thinking.wait(10)
        room, t0, t1 = server.pair("duals")
        with server.connect(room) as a, server.connect(room) as b, server.connect(bot_room["room"]) as c:
            a.hello(t0), b.hello(t1), c.hello(bot_room["token"])
            assert c.event()["version"] == 0  # the bot has not moved: it is still thinking
            first = {0: a.event(), 1: b.event()}
            seat = first[0]["to_act"]
            (a if seat == 0 else b).send(type="act", action=first[seat]["view"]["legal"][0], version=0)
            assert a.event()["version"] == 1  # answered while the bot thinks
            release.set()
            assert c.event()["actor"] == 0  # and the bot's move comes when it has chosen


def test_bots_play_in_worker_processes() -> None:
    """bot:easy thinks in the quick bots' worker process (bot:random would decide on the loop)."""
    with Server(bots="process", bot_workers=1) as server:
        made = server.room("duals", ["me", "bot:easy"])
        with server.connect(made["room"]) as c:
            c.hello(made["token"])
            event = c.event()
            while event["to_act"] != 1 and event["result"] is None:
                c.send(type="act", action=event["view"]["legal"][0], version=event["version"])
                event = c.event()
            if event["result"] is None:
                while event["actor"] != 1:
                    event = c.event()
                assert event["actor"] == 1
