"""Issue 24, point 6: each player brings their own Flame Duel deck (R2), the one joining a room by its link too. The
joiner's deck comes in the join body, checked exactly as the creator's (the same errors, in the reader's language,
naming what is wrong), or a random one, said so; the creator's deck stays theirs, and neither deck reaches the other
seat, the room's summary or the lobby."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flametable.bots.registry import HUMAN
from flametable.web.store import SeatRow, Store
from tests.web.client import Server
from tests.web.test_store import a_room, made

CREATOR = {"characters": [18, 26, 27], "supports": [1, 2, 3, 4, 8, 11, 12, 13, 14, 18]}
JOINER = {"characters": [3, 7, 12], "supports": [5, 6, 7, 9, 10, 15, 16, 17, 19]}
OWN_DECKS = {"mode": "decks", "decks": [CREATOR, None]}


@pytest.fixture
def server(sqlite_database: str) -> Any:
    """The server on a real store (an SQLite file): what the joiner brings is kept in the stored match."""
    with Server(db_url=sqlite_database, open_store=Store.open) as s:
        yield s


def first_view(server: Server, room: str, token: str) -> dict[str, Any]:
    with server.connect(room) as c:
        c.hello(token)
        view: dict[str, Any] = c.event()["view"]
        return view


@pytest.mark.parametrize(("deck", "lang", "problem"), [
    ({"characters": [1, 2], "supports": JOINER["supports"]}, "en", "a deck has exactly 3 characters, got 2"),
    ({"characters": [1, 2], "supports": JOINER["supports"]}, "es", "un mazo tiene exactamente 3 personajes, no 2"),
    ({"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7]}, "en", "a deck has 8 to 12 support cards, got 7"),
    ({"characters": [1, 1, 3], "supports": JOINER["supports"]}, "en",
     "no card may appear twice within one deck: 1 is there twice"),
])
def test_a_bad_deck_is_refused_as_the_creator_s_would_be_and_the_seat_stays_open(
        server: Server, deck: dict[str, Any], lang: str, problem: str) -> None:
    made = server.room("duel", ["me", "open"], OWN_DECKS)
    joined = server.http.post(f"/api/rooms/{made['room']}/join?lang={lang}", json={"brings": deck})
    as_creator = server.http.post(f"/api/rooms?lang={lang}", json={
        "game": "duel", "seats": ["open", "me"], "options": {"mode": "decks", "decks": [None, deck]}})
    assert joined.status_code == as_creator.status_code == 400
    body = joined.json()
    assert body["error"] == as_creator.json()["error"] == "bad_options"
    assert body["problem"] == problem
    assert "options.decks[1]" in body["message"]
    assert body["message"].endswith(problem)
    assert body["message"] == as_creator.json()["message"]  # the same words as the creator's check
    summary = server.http.get(f"/api/rooms/{made['room']}").json()
    assert summary["players"][1]["open"]  # the seat was not given
    server.join(made["room"], brings=JOINER)  # and a good deck takes it


def test_the_joiner_plays_their_own_deck_and_the_creator_theirs(server: Server) -> None:
    made = server.room("duel", ["me", "open"], OWN_DECKS)
    joined = server.join(made["room"], brings=JOINER)
    assert joined["brought"] == "own"
    joiner_view = first_view(server, made["room"], joined["token"])
    assert joiner_view["my_characters"] == JOINER["characters"]
    assert sorted(joiner_view["my_pile"]) == JOINER["supports"]
    creator_view = first_view(server, made["room"], made["token"])
    assert creator_view["my_characters"] == CREATOR["characters"]
    assert sorted(creator_view["my_pile"]) == CREATOR["supports"]
    assert creator_view["seats"][1]["known_characters"] == []  # the joiner's deck is not the creator's to see


def test_neither_deck_reaches_the_other_seat_the_room_or_the_lobby(server: Server) -> None:
    made = server.room("duel", ["me", "open"], OWN_DECKS)
    with server.connect(made["room"]) as creator:
        creator.hello(made["token"])
        creator.event()
        joined = server.join(made["room"], brings=JOINER)
        with server.connect(made["room"]) as joiner, server.connect(made["room"]) as spectator:
            joiner.hello(joined["token"])
            joiner.event()
            spectator.hello()
            spectator.event()
            creator.send(type="sync")
            creator.event()
            room = server.http.get(f"/api/rooms/{made['room']}").json()
            assert room["options"] == {"mode": "decks", "pick": "random"}
            lobby = server.http.get("/api/rooms").json()
            for seen, secret in ((creator.got, JOINER), (joiner.got, CREATOR), (spectator.got, JOINER),
                                 (spectator.got, CREATOR), ([room, lobby], JOINER), ([room, lobby], CREATOR)):
                told = json.dumps(seen)
                assert json.dumps(secret["characters"])[1:-1] not in told
                assert json.dumps(secret["supports"])[1:-1] not in told


@pytest.mark.parametrize("body", [{"brings": None}, {}], ids=["random-asked", "nothing-said"])
def test_a_random_deck_is_said_so(server: Server, body: dict[str, Any]) -> None:
    made = server.room("duel", ["me", "open"], OWN_DECKS)
    joined = server.join(made["room"], **body)
    assert joined["brought"] == "random"
    view = first_view(server, made["room"], joined["token"])
    assert len(view["my_characters"]) == 3
    assert 8 <= len(view["my_pile"]) <= 12
    assert first_view(server, made["room"], made["token"])["my_characters"] == CREATOR["characters"]


def test_a_creator_s_random_deck_stays_the_one_they_were_dealt(server: Server) -> None:
    """The creator of a room with a random deck of their own has seen its characters (the line-up, R3): what the
    joiner brings changes none of them, even when the creator placed one before the joiner came."""
    made = server.room("duel", ["me", "open"], {"mode": "decks"})
    with server.connect(made["room"]) as creator:
        creator.hello(made["token"])
        dealt = creator.event()
        placed = dealt["view"]["legal"][0]
        creator.send(type="act", action=placed, version=dealt["version"])
        assert creator.event()["view"]["lineup"] == [int(placed.split("C")[1])]
    joined = server.join(made["room"], brings=JOINER)
    view = first_view(server, made["room"], made["token"])
    assert view["my_characters"] == dealt["view"]["my_characters"]
    assert view["lineup"] == [int(placed.split("C")[1])]
    assert first_view(server, made["room"], joined["token"])["my_characters"] == JOINER["characters"]


def test_a_joiner_at_seat_0_brings_their_deck_and_the_creator_keeps_the_one_dealt(server: Server) -> None:
    made = server.room("duel", ["open", "me"], {"mode": "decks"})
    dealt = first_view(server, made["room"], made["token"])
    joined = server.join(made["room"], brings=JOINER)
    assert joined["player"] == 0
    assert first_view(server, made["room"], joined["token"])["my_characters"] == JOINER["characters"]
    assert first_view(server, made["room"], made["token"])["my_characters"] == dealt["my_characters"]


def test_a_rematch_keeps_each_player_s_own_deck(server: Server) -> None:
    """The seats swap in a rematch (player 0 at seat 1): each player still plays the deck they brought."""
    made = server.room("duel", ["me", "open"], OWN_DECKS)
    joined = server.join(made["room"], brings=JOINER)
    with server.connect(made["room"]) as a, server.connect(made["room"]) as b:
        a.hello(made["token"])
        b.hello(joined["token"])
        a.send(type="resign")
        a.until("ended")
        b.until("ended")
        a.send(type="rematch")
        b.send(type="rematch")
        assert b.until("welcome")["seat"] == 0
        assert b.event()["view"]["my_characters"] == JOINER["characters"]
        assert a.until("welcome")["seat"] == 1
        assert a.event()["view"]["my_characters"] == CREATOR["characters"]


def test_the_brought_deck_is_the_stored_match_s(server: Server) -> None:
    """After a restart (the room loaded again from the store), the joiner still plays the deck they brought."""
    made = server.room("duel", ["me", "open"], OWN_DECKS)
    joined = server.join(made["room"], brings=JOINER)
    server.app.state.hall.rooms.clear()
    assert first_view(server, made["room"], joined["token"])["my_characters"] == JOINER["characters"]


def test_a_shared_match_takes_nothing_of_the_joiner_s(server: Server) -> None:
    made = server.room("duel", ["me", "open"], {"mode": "shared"})
    assert server.join(made["room"], brings=JOINER)["brought"] is None
    made = server.room("duals", ["me", "open"])
    assert server.join(made["room"])["brought"] is None


@pytest.mark.anyio
async def test_a_seat_claimed_with_options_keeps_them_in_the_store(store: Store) -> None:
    await made(store, a_room(seats=[SeatRow(0, HUMAN), SeatRow(1, HUMAN)]))
    options = {"mode": "decks", "pick": "random", "decks": [CREATOR, JOINER]}
    assert await store.claim_seat("r1", 0, "a" * 64, options=options)
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.options == loaded.match.options == options
    assert not await store.claim_seat("r1", 0, "b" * 64, options={"mode": "shared"})  # taken: nothing changes
    again = await store.load_room("r1")
    assert again is not None
    assert again.match.options == options
