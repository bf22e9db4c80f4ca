"""My matches (issue 25, point 4; issue 24, point 3): ``POST /api/my-matches`` with the browser's seat tokens lists
each match going on of theirs, with its game, opponent, whose turn (is it mine), time control and time left, and
the last move's time, "your turn" first; signed in, the account's seats too. A token proves its own seat only: a
wrong one, or one of another room, lists nothing; nothing of a view is told. A room another process holds is
answered by its owner."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flametable.bots.registry import HUMAN
from flametable.service.clock import ManualClock
from flametable.web.store import MatchRow, RoomRow, SeatRow, Store, database_url
from tests.web.client import Client, Server
from tests.web.halls import UNLIMITED, Halls
from tests.web.test_cluster import local_buses
from tests.web.test_ratings_api import App, Player

DAY_MS = 24 * 3600 * 1000
TURN = {"kind": "turn", "days": 1}
ENTRY_KEYS = {"room", "link", "game", "options", "match", "player", "seat", "waiting", "my_turn", "opponent",
              "clock", "left_ms", "opponent_left_ms", "running", "last_move_at", "moves", "created_at", "token"}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def app(tmp_path: Path, clock: ManualClock) -> Iterator[App]:
    made = App(database_url(str(tmp_path / "t.db")), clock=clock)
    with made.http:
        yield made


def pair(guest: Player, other: Player, game: str = "duel", clock: Any = TURN) -> tuple[str, str, str]:
    """A room of ``game`` made by ``guest`` (player 0, seat 0) and joined by ``other``: its id and both tokens."""
    made = guest.post("/api/rooms", {"game": game, "seats": ["me", "open"], "clock": clock}, status=201)
    joined = other.post(f"/api/rooms/{made['room']}/join", {})
    return made["room"], made["token"], joined["token"]


def move(app: App, room: str, token: str) -> int:
    """The seat of ``token`` plays its first legal action until it is no longer its turn (a Flame Duel line-up is
    several decisions); how many it played."""
    played = 0
    with app.http.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        client = Client(ws)
        seat = client.hello(token)["seat"]
        message = client.until("event")
        assert message["legal"], "not this seat's turn"
        while message["event"]["to_act"] == seat:
            client.send(type="act", action=message["legal"][0], version=message["event"]["version"])
            message = client.until("event")
            played += 1
    return played


def mine(player: Player, seats: list[tuple[str, str]], lang: str = "en") -> list[dict[str, Any]]:
    answer = player.send("POST", f"/api/my-matches?lang={lang}",
                         {"seats": [{"room": room, "token": token} for room, token in seats]})
    assert answer.status_code == 200, answer.text
    matches: list[dict[str, Any]] = answer.json()["matches"]
    return matches


def test_a_turn_based_match_is_listed_with_whose_turn_the_clocks_and_the_last_move(
        app: App, clock: ManualClock) -> None:
    ana, bea = Player(app), Player(app)
    room, t0, t1 = pair(ana, bea)
    [first] = mine(ana, [(room, t0)])
    assert set(first) == ENTRY_KEYS
    assert (first["room"], first["link"], first["game"], first["player"], first["seat"]) == (
        room, f"/rooms/{room}", "duel", 0, 0)
    assert (first["my_turn"], first["waiting"], first["opponent"], first["clock"]) == (
        True, False, {"kind": "guest"}, TURN)
    assert (first["left_ms"], first["opponent_left_ms"], first["moves"], first["last_move_at"]) == (
        DAY_MS, DAY_MS, 0, None)
    [theirs] = mine(bea, [(room, t1)])
    assert (theirs["player"], theirs["seat"], theirs["my_turn"]) == (1, 1, False)

    clock.advance(3600)
    played = move(app, room, t0)
    moved_at = clock.now()
    clock.advance(7200)  # two hours of Bea's day have gone
    [after] = mine(ana, [(room, t0)])
    assert (after["my_turn"], after["moves"], after["last_move_at"]) == (False, played, moved_at)
    assert (after["left_ms"], after["opponent_left_ms"], after["running"]) == (DAY_MS, DAY_MS - 7200_000, [1])
    [hers] = mine(bea, [(room, t1)])
    assert (hers["my_turn"], hers["left_ms"], hers["last_move_at"]) == (True, DAY_MS - 7200_000, moved_at)


def test_your_turn_comes_first_and_many_matches_are_listed_at_once(app: App, clock: ManualClock) -> None:
    ana, bea = Player(app), Player(app)
    rooms = [pair(ana, bea, game) for game in ("duel", "duals", "duel")]
    clock.advance(60)
    move(app, rooms[0][0], rooms[0][1])  # Ana played in the first: it is Bea's turn there
    listed = mine(ana, [(room, t0) for room, t0, _ in rooms])
    assert {m["room"] for m in listed} == {room for room, _, _ in rooms}
    turns = [m["my_turn"] for m in listed]
    assert turns == sorted(turns, reverse=True)  # "your turn" first
    assert True in turns
    waiting_for_bea = [m["room"] for m in listed if not m["my_turn"]]
    assert waiting_for_bea[0] == rooms[0][0]  # then the latest move first
    hers = {m["room"]: m["my_turn"] for m in mine(bea, [(room, t1) for room, _, t1 in rooms])}
    assert all(hers[m["room"]] != m["my_turn"] for m in listed)  # one seat's turn in each, never both


def test_a_token_proves_its_own_seat_only_and_nothing_of_a_view_is_told(app: App) -> None:
    ana, bea = Player(app), Player(app)
    room, t0, t1 = pair(ana, bea)
    other, o0, _ = pair(ana, bea)
    made_up = "A" * 32
    assert mine(ana, [(room, made_up)]) == []  # a wrong token: not listed
    assert mine(ana, [(room, o0)]) == []  # a token of another room's seat: nothing of this room
    assert [m["room"] for m in mine(ana, [(other, o0)])] == [other]  # (it proves its own)
    assert mine(ana, [("no-such-room", t0)]) == []
    [seat1] = mine(bea, [(room, t1)])  # seat 1's token: seat 1 only
    assert (seat1["player"], seat1["seat"]) == (1, 1)
    answer = ana.send("POST", "/api/my-matches", {"seats": [{"room": room, "token": t0}]})
    text = answer.text
    for hidden in ("view", "hand", "legal", "seed", "token_hash", t1, "actions"):
        assert hidden not in text  # no view, no legal actions, no secret of the other seat
    assert set(json.loads(text)["matches"][0]) == ENTRY_KEYS


def test_a_match_over_or_against_a_bot_or_waiting(app: App) -> None:
    ana, bea = Player(app), Player(app)
    room, t0, t1 = pair(ana, bea, clock=None)
    bea.resign(room, t1)
    assert mine(ana, [(room, t0)]) == []  # over: not going on
    bot = ana.post("/api/rooms", {"game": "duals", "seats": ["me", "bot:random"]}, status=201)
    waiting = ana.post("/api/rooms", {"game": "duel", "seats": ["me", "open"]}, status=201)
    listed = {m["room"]: m for m in mine(ana, [(bot["room"], bot["token"]), (waiting["room"], waiting["token"])])}
    assert listed[bot["room"]]["opponent"] == {"kind": "bot", "bot": "bot:random"}
    assert (listed[bot["room"]]["clock"], listed[bot["room"]]["left_ms"]) == (None, None)
    assert (listed[waiting["room"]]["opponent"], listed[waiting["room"]]["waiting"]) == ({"kind": "open"}, True)
    assert listed[waiting["room"]]["my_turn"] is False  # nobody's turn while the seat is open


def test_signed_in_the_account_s_seats_are_listed_with_the_opponent_s_name(app: App) -> None:
    ana, bea = Player(app, "ana_turns"), Player(app, "bea_turns")
    room, t0, _ = pair(ana, bea)
    [listed] = mine(ana, [])  # no token sent: the account's seat, from the store
    assert (listed["room"], listed["player"], listed["token"]) == (room, 0, False)
    assert listed["opponent"] == {"kind": "account", "name": "bea_turns", "profile": "/players/bea_turns"}
    [once] = mine(ana, [(room, t0)])  # proven twice, listed once
    assert once["token"] is True
    assert mine(Player(app), []) == []  # a guest with no token: nothing


@pytest.mark.parametrize(("body", "lang", "message"), [
    ({"seats": [{"room": "r", "token": "A" * 32}] * 51}, "en", "The request's seats: "),
    ({"seats": [{"room": "r", "token": "short"}]}, "es", "Campo token de la petición: no es una clave de asiento"),
    ({}, "en", "The request's seats: "),
])
def test_a_bad_request_is_refused_in_the_reader_s_language(app: App, body: Any, lang: str, message: str) -> None:
    answer = Player(app).send("POST", f"/api/my-matches?lang={lang}", body)
    assert (answer.status_code, answer.json()["error"]) == (400, "bad_request")
    assert answer.json()["message"].startswith(message), answer.json()["message"]


def test_a_room_held_by_another_process_is_answered_by_its_owner(postgresql_database: str) -> None:
    with Halls(postgresql_database, local_buses(), count=2,
               settings=lambda i: {"limits": UNLIMITED, "cluster_every": 0.2, "lease_seconds": 1.0}) as halls:
        status, made = halls.request(0, "POST", "/api/rooms", {"game": "duel", "seats": ["me", "open"],
                                                               "clock": TURN})
        assert status == 201
        room = made["room"]
        status, joined = halls.request(0, "POST", f"/api/rooms/{room}/join", {})
        assert status == 200
        assert halls.owner(room) == 0  # held (its clock runs there)
        seats = {"seats": [{"room": room, "token": made["token"]}, {"room": room, "token": joined["token"]}]}
        status, body = halls.request(1, "POST", "/api/my-matches", seats)
        assert status == 200, body
        assert [(m["player"], m["my_turn"], m["clock"]) for m in body["matches"]] == [(0, True, TURN),
                                                                                     (1, False, TURN)]
        assert halls.owner(room) == 0  # read from its owner, not taken
        status, body = halls.request(1, "POST", "/api/my-matches", {"seats": [{"room": room, "token": "B" * 30}]})
        assert (status, body["matches"]) == (200, [])


def wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + 5
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def test_the_profile_counts_the_turn_based_matches_lost_on_time(app: App, clock: ManualClock) -> None:
    """Issue 24, point 4: a player who lets many matches time out is shown so on their profile; a resignation, a
    win on time and a real-time match are not counted."""
    ana, bea = Player(app, "ana_late"), Player(app, "bea_late")
    late = []
    for _ in range(2):
        room, t0, _t1 = pair(ana, bea)
        move(app, room, t0)  # Bea's turn now, a day to decide
        late.append(room)
    resigned, _, r1 = pair(ana, bea)
    bea.resign(resigned, r1)
    real_time, a0, b1 = pair(ana, bea, clock={"kind": "fischer", "minutes": 1, "increment": 0})
    move(app, real_time, a0)
    move(app, real_time, b1)  # both made their first decisions: Ana's minute runs
    wait_for(lambda: clock.sleepers >= 3, "the clocks' timers are set")
    clock.advance(24 * 3600 + 1)
    for room, loser in [(late[0], 1), (late[1], 1), (real_time, 0)]:
        wait_for(lambda room=room: ana.get(f"/api/rooms/{room}")["status"] == "timeout", "lost on time")
        assert ana.get(f"/api/rooms/{room}")["result"]["winner"] == 1 - loser
    assert ana.get("/api/players/bea_late")["turn_timeouts"] == 2
    assert ana.get("/api/players/ana_late")["turn_timeouts"] == 0  # she won both on time; lost in real time
    assert mine(bea, []) == []  # over: no longer going on


def test_the_lobby_s_waiting_rooms_say_game_options_and_how_long_they_have_waited(
        app: App, clock: ManualClock) -> None:
    ana = Player(app)
    made = ana.post("/api/rooms", {"game": "duel", "seats": ["me", "open"],
                                   "options": {"mode": "shared", "pick": "draft"}}, status=201)
    clock.advance(90)
    [row] = [r for r in ana.get("/api/rooms")["rooms"] if r["room"] == made["room"]]
    assert (row["game"], row["options"], row["waited"]) == ("duel", {"mode": "shared", "pick": "draft"}, 90.0)


def test_rooms_nobody_holds_are_read_from_the_store_once_their_seats_are_proven() -> None:
    """An untimed room nobody is connected to is not in memory: the store says whether it plays and whose seats its
    tokens prove, and only then is it loaded (the memory store of the protocol tests says the same)."""
    with Server() as server:
        room, _t0, t1 = server.pair("duel")
        hall = server.app.state.hall
        if room in hall.rooms:
            hall.maybe_forget(hall.rooms[room])  # nobody connected: forgotten
        assert room not in hall.rooms
        answer = server.http.post("/api/my-matches", json={"seats": [{"room": room, "token": t1},
                                                                     {"room": room, "token": "C" * 40}]})
        assert [(m["player"], m["my_turn"]) for m in answer.json()["matches"]] == [(1, False)]
        assert room not in hall.rooms  # read, not taken


@pytest.mark.anyio
async def test_the_store_says_which_rooms_play_and_their_seats_token_hashes(store: Store) -> None:
    """``playing_seats``, on SQLite and PostgreSQL: the rooms asked for whose current match plays, each taken
    seat's hash by player; a room over, an open seat and an unknown room are left out."""
    for room_id in ("playing", "over"):
        match = MatchRow(room_id=room_id, number=0, game="duel", rules_version="3", content_id="base",
                         content_hash="ab" * 32, options={}, seed=1, players=[HUMAN, HUMAN])
        await store.create_room(RoomRow(id=room_id, game="duel", options={}, creator="c", created_at=1.0,
                                        seats=[SeatRow(0, HUMAN, "h0"), SeatRow(1, HUMAN, None)], match=match))
    over = await store.load_room("over")
    assert over is not None
    await store.end_match(over.match.id or 0, "resigned", {"winner": 1, "reason": "resigned", "scores": [0, 0]})
    assert await store.playing_seats(["playing", "over", "nowhere"]) == {"playing": {0: "h0"}}
    assert await store.playing_seats([]) == {}
