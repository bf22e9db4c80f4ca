"""A room's WebSocket (issue 20): every client message its declaration names is handled, and each event message
carries the legal actions its own event brought, not a second asking of the match service."""

from __future__ import annotations

from typing import Any

import pytest

from flametable.service import MatchService
from flametable.web.messages import CLIENT, base_after_undo, service_version, wire_version
from flametable.web.socket import HANDLERS
from tests.web.client import Client, Server


def test_every_client_message_the_declarations_name_has_its_handler_and_no_other() -> None:
    assert list(HANDLERS) == list(CLIENT)


def test_wire_versions_are_the_service_s_moved_by_the_base_and_an_undo_moves_the_base_past_them() -> None:
    assert wire_version(10, 3) == 13
    assert service_version(10, 13) == 3
    assert service_version(10, 9) == -1  # chosen before the undo: stale whatever the count of actions
    base = base_after_undo(13, 2)  # at wire version 13, back to the first 2 actions
    assert wire_version(base, 2) == 14  # the next version a client sees is new


def message_of(client: Client) -> dict[str, Any]:
    return client.until("event")


@pytest.mark.parametrize("game", ["duel", "duals"])
def test_the_seat_to_act_is_sent_the_legal_actions_of_its_own_event(monkeypatch: pytest.MonkeyPatch,
                                                                    game: str) -> None:
    """The legal actions come with the event (its view holds them): the service is not asked for them again."""

    def asked_again(self: MatchService, seat: int) -> list[Any]:
        raise AssertionError("the legal actions were asked again")

    with Server() as server:
        room, t0, t1 = server.pair(game)
        with server.connect(room) as a, server.connect(room) as b, server.connect(room) as watcher:
            monkeypatch.setattr(MatchService, "legal", asked_again)
            a.hello(t0)
            b.hello(t1)
            watcher.hello()
            for _ in range(3):
                got = {0: message_of(a), 1: message_of(b)}
                seen = message_of(watcher)
                to_act = got[0]["event"]["to_act"]
                assert got[to_act]["legal"] == got[to_act]["event"]["view"]["legal"] != []
                assert got[1 - to_act]["legal"] == seen["legal"] == []
                (a if to_act == 0 else b).send(type="act", action=got[to_act]["legal"][0],
                                              version=got[to_act]["event"]["version"])
