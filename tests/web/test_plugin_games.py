"""Plug-in games are served too (issue 11), in plain notation: the server knows no game but through the registry
and the common protocol. Secret Nim (tests/service/tiny.py) has a hidden bid, kept from the other seat."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from flametable.core import registry
from flametable.core.registry import GROUP, Registry, builtins
from flametable.web import botpool
from tests.web.client import Server


@pytest.fixture
def tiny_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    plugin = EntryPoint(name="tiny", value="tests.service.tiny:TinyGame", group=GROUP)
    monkeypatch.setattr(registry, "GAMES", Registry(builtins(), [plugin]))
    botpool.clear_games()
    yield
    botpool.clear_games()


def test_a_plug_in_game_is_played_through_the_server(tiny_installed: None) -> None:
    with Server() as server:
        games = {g["name"]: g for g in server.http.get("/api/games").json()["games"]}
        assert games["tiny"]["bots"] == ["bot:random"]  # its bots know no determiniser
        room, t0, t1 = server.pair("tiny")
        with server.connect(room) as a, server.connect(room) as b, server.connect(room) as watcher:
            assert a.hello(t0)["options"] == {}  # a game that declares no public options shows none
            b.hello(t1), watcher.hello(None)
            a.event(), b.event(), watcher.event()
            a.send(type="act", action="bid 3", version=0)
            assert a.event()["action"] == "bid 3"
            assert b.event()["action"] is None  # a bid is secret
            assert watcher.event()["action"] is None
            b.send(type="act", action="bid 1", version=1)
            a.event(), b.event(), watcher.event()
            a.send(type="act", action="take 2", version=2)
            assert b.event()["action"] == "take 2"  # taking stones is public
            b.send(type="log")
            lines = b.until("log")["lines"]
            assert "bid 3" not in " ".join(lines)
            assert "take 2" in " ".join(lines)
