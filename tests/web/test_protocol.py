"""The game server's protocol, message by message, for both games and in both languages (issue 11): HTTP rooms and
seats, the WebSocket's hello, act, undo, resign, rematch, log, sync and lang, and what each audience is told."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from flametable.cli.main import app as cli
from flametable.core.registry import make_game
from flametable.service import view_json
from flametable.web.store import Store
from tests.web.client import Client, Server

GAMES = ("duel", "duals")


@pytest.fixture
def server(sqlite_database: str) -> Any:
    """The server on a real store (an SQLite file; the store's own tests and the crash test also use PostgreSQL)."""
    with Server(db_url=sqlite_database, open_store=Store.open) as s:
        yield s


@pytest.fixture
def pg_server(postgresql_database: str) -> Any:
    with Server(db_url=postgresql_database, open_store=Store.open) as s:
        yield s


def legal(event: dict[str, Any]) -> list[str]:
    return list(event["view"]["legal"])


def play_to_end(seats: dict[int, Client], firsts: dict[int, dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    """Both seats play random legal actions from their own views until the match ends; the last event."""
    rng = random.Random(seed)
    events = dict(firsts)
    last = firsts[0]
    while last["to_act"] is not None:
        seat = last["to_act"]
        seats[seat].send(type="act", action=rng.choice(legal(events[seat])), version=last["version"])
        for s, client in seats.items():
            events[s] = client.event()
        last = events[seat]
    return last


# ------------------------------------------------------------------ HTTP


def test_healthz_answers_ok_once_the_database_is_ready(server: Server) -> None:
    """A single server: no Redis ("off"), its process's name, the rooms it holds in memory."""
    health = server.http.get("/healthz").json()
    assert (health["status"], health["redis"], health["rooms"]) == ("ok", "off", 0)
    assert health["process"] == server.app.state.hall.process
    server.room("duel", ["me", "open"])
    assert server.http.get("/healthz").json()["rooms"] == 1


@pytest.mark.parametrize(("lang", "title"), [("en", "Flame Duel"), ("es", "Duelo de llamas")])
def test_the_games_are_the_registry_s_with_titles_in_the_reader_s_language(server: Server, lang: str,
                                                                          title: str) -> None:
    games = server.http.get(f"/api/games?lang={lang}").json()["games"]
    assert [g["name"] for g in games][:2] == ["duel", "duals"]
    assert games[0]["title"] == title
    assert "bot:hard" in games[0]["bots"]


@pytest.mark.parametrize("game", GAMES)
def test_a_room_gives_its_creator_one_secret_token_and_leaves_the_other_seat_open(server: Server, game: str) -> None:
    made = server.room(game, ["me", "open"])
    assert made["player"] == 0
    assert len(made["token"]) >= 32
    room = server.http.get(f"/api/rooms/{made['room']}").json()
    assert [p["open"] for p in room["players"]] == [False, True]
    assert made["token"] not in json.dumps(room)
    assert made["room"] in [r["room"] for r in server.http.get("/api/rooms").json()["rooms"]]
    joined = server.join(made["room"])
    assert joined["player"] == 1
    assert joined["token"] != made["token"]
    assert made["room"] not in [r["room"] for r in server.http.get("/api/rooms").json()["rooms"]]
    full = server.http.post(f"/api/rooms/{made['room']}/join", json={})
    assert full.status_code == 409
    assert full.json()["error"] == "room_full"


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"game": "chess", "seats": ["me", "open"]}, "unknown_game", "chess"),
    ({"game": "duel", "seats": ["me"]}, "bad_request", "seats"),
    ({"game": "duel", "seats": ["me", "robot"]}, "bad_seats", "robot"),
    ({"game": "duel", "seats": ["me", "bot:genius"]}, "bad_seats", "bot:genius"),
    ({"game": "duel", "seats": ["me", "open"], "options": {"mode": "solo"}}, "bad_options", "solo"),
    ({"game": "duals", "seats": ["me", "open"], "options": {"colour": 1}}, "bad_options", "colour"),
    ({"game": "duel", "seats": ["me", "open"], "extra": 1}, "bad_request", "extra"),
])
def test_a_bad_room_request_is_refused_naming_what_is_wrong(server: Server, body: dict[str, Any], code: str,
                                                            words: str) -> None:
    response = server.http.post("/api/rooms", json=body)
    assert response.status_code == 400
    assert response.json()["error"] == code
    assert words in response.json()["message"]


def test_http_errors_come_in_the_reader_s_language(server: Server) -> None:
    english = server.http.post("/api/rooms", json={"game": "chess", "seats": ["me", "open"]}).json()["message"]
    spanish = server.http.post("/api/rooms?lang=es", json={"game": "chess", "seats": ["me", "open"]}).json()
    by_header = server.http.post("/api/rooms", json={"game": "chess", "seats": ["me", "open"]},
                                 headers={"accept-language": "es-ES,es;q=0.9"}).json()
    assert spanish["message"] != english
    assert by_header["message"] == spanish["message"]
    assert server.http.get("/api/rooms/nope").status_code == 404
    assert server.http.post("/api/rooms", content=b"{").json()["error"] == "bad_json"


# ------------------------------------------------------------------ hello, events, audiences


@pytest.mark.parametrize("game", GAMES)
def test_each_seat_and_the_spectators_get_only_their_own_view(server: Server, game: str) -> None:
    room, t0, t1 = server.pair(game)
    with server.connect(room) as a, server.connect(room) as b, server.connect(room) as watcher:
        welcome = a.hello(t0)
        assert (welcome["seat"], welcome["player"], welcome["version"]) == (0, 0, 0)
        assert b.hello(t1)["seat"] == 1
        assert watcher.hello(None)["seat"] is None
        engine = server.service(room).state
        for client, audience in ((a, 0), (b, 1), (watcher, None)):
            sync = client.event()
            assert sync["actor"] is None
            assert sync["audience"] == audience
            assert sync["view"] == view_json(engine.view(audience))


@pytest.mark.parametrize("game", GAMES)
def test_an_accepted_action_reaches_everyone_at_the_next_version(server: Server, game: str) -> None:
    room, t0, t1 = server.pair(game)
    with server.connect(room) as a, server.connect(room) as b, server.connect(room) as watcher:
        a.hello(t0), b.hello(t1), watcher.hello(None)
        first = a.event()
        b.event(), watcher.event()
        seat = first["to_act"]
        mover = a if seat == 0 else b
        mine = first if seat == 0 else mover.got[-1]["event"]
        action = legal(mine)[0]
        mover.send(type="act", action=action, version=0)
        events = [c.event() for c in (a, b, watcher)]
        assert [e["version"] for e in events] == [1, 1, 1]
        assert [e["audience"] for e in events] == [0, 1, None]
        public = make_game(game).public_action(make_game(game).action_from_text(action))
        for event in events:
            assert event["actor"] == seat
            assert event["action"] == (action if public or event["audience"] == seat else None)


def test_a_hidden_choice_is_not_named_to_the_other_seat_nor_the_spectators(server: Server) -> None:
    """Flame Duel's line-up is secret (R3): the other seat and the spectators learn that a card was placed, not
    which."""
    room, t0, t1 = server.pair("duel")
    with server.connect(room) as a, server.connect(room) as b, server.connect(room) as watcher:
        a.hello(t0), b.hello(t1), watcher.hello(None)
        first = a.event()
        b.event(), watcher.event()
        assert legal(first)[0].startswith("line")
        a.send(type="act", action=legal(first)[0], version=0)
        assert a.event()["action"] == legal(first)[0]
        assert b.event()["action"] is None
        assert watcher.event()["action"] is None


@pytest.mark.parametrize(("lang", "stale"), [("en", "version 0"), ("es", "versión 0")])
@pytest.mark.parametrize("game", GAMES)
def test_a_refused_action_gets_a_translated_error_and_changes_nothing(server: Server, game: str, lang: str,
                                                                      stale: str) -> None:
    room, t0, t1 = server.pair(game)
    with server.connect(room, lang) as a, server.connect(room, lang) as b, server.connect(room) as watcher:
        a.hello(t0), b.hello(t1), watcher.hello(None)
        first = a.event()
        to_act = first["to_act"]
        mover, other = (a, b) if to_act == 0 else (b, a)
        mine = first if to_act == 0 else b.event()
        before = server.service(room).record.actions[:]
        other.send(type="act", action=0, version=0)
        assert other.error()["code"] == "not_your_turn"
        mover.send(type="act", action=legal(mine)[0], version=7)
        error = mover.error()
        assert error["code"] == "stale"
        assert "7" in error["message"]
        assert stale in error["message"]
        mover.send(type="act", action="fly away", version=0)
        assert mover.error()["code"] == "unreadable"
        mover.send(type="act", action=10**6, version=0)
        assert mover.error()["code"] == "unreadable"
        watcher.send(type="act", action=legal(mine)[0], version=0)
        assert watcher.error()["code"] == "spectator"
        assert server.service(room).record.actions == before
        assert server.service(room).version == 0


def test_an_illegal_action_says_why_in_the_player_s_language(server: Server) -> None:
    room, t0, t1 = server.pair("duals")
    with server.connect(room, "es") as a, server.connect(room) as b:
        a.hello(t0), b.hello(t1)
        first = a.event()
        game = make_game("duals")
        seat = first["to_act"]
        mover = a if seat == 0 else b
        view = first if seat == 0 else b.event()
        illegal = next(x for x in range(game.num_actions)
                       if game.action_from_id(x).text() not in legal(view))
        mover.send(type="act", action=illegal, version=0)
        error = mover.error()
        assert error["code"] == "illegal"
        assert error["message"]
        assert error["detail"]["rejected"] == "illegal"


def test_a_forged_token_is_refused_and_the_connection_may_still_watch(server: Server) -> None:
    room, _t0, _t1 = server.pair("duel")
    with server.connect(room) as c:
        c.send(type="hello", token="A" * 32)
        assert c.error()["code"] == "bad_token"
        c.send(type="act", action=0, version=0)
        assert c.error()["code"] == "no_hello"
        assert c.hello(None)["seat"] is None


def test_an_unknown_room_s_socket_says_so_and_closes(server: Server) -> None:
    with server.connect("nothing-here") as c:
        assert c.error()["code"] == "no_room"


# ------------------------------------------------------------------ reconnect and presence


@pytest.mark.parametrize("game", GAMES)
def test_a_client_that_comes_back_gets_what_it_missed(server: Server, game: str) -> None:
    room, t0, t1 = server.pair(game)
    rng = random.Random(3)
    with server.connect(room) as a:
        a.hello(t0)
        seen = a.event()
        with server.connect(room) as b:
            b.hello(t1)
            current = {0: seen, 1: b.event()}
            moves = 0
            while moves < 3 or current[0]["to_act"] != 0:  # a few moves while both are here, then seat 0 to act
                moves += 1
                seat = current[0]["to_act"]
                (a if seat == 0 else b).send(type="act", action=rng.choice(legal(current[seat])),
                                             version=current[0]["version"])
                current = {0: a.event(), 1: b.event()}
            b_saw = current[1]["version"]
        assert a.until("presence")["connected"] == [True, False]
        for _ in range(3):  # seat 1 is away: seat 0 makes its moves (one at least)
            if current[0]["to_act"] != 0:
                break
            a.send(type="act", action=rng.choice(legal(current[0])), version=current[0]["version"])
            current[0] = a.event()
        with server.connect(room) as b:
            b.hello(t1, match=0, version=b_saw)
            missed: list[dict[str, Any]] = []
            while not missed or missed[-1]["version"] < current[0]["version"]:
                missed.append(b.event())
            assert [e["version"] for e in missed] == list(range(b_saw + 1, current[0]["version"] + 1))
            assert missed[-1]["view"] == view_json(server.service(room).state.view(1))
            assert a.until("presence")["connected"] == [True, True]
        with server.connect(room) as b:
            b.hello(t1, match=0, version=10**9)  # a version the match never had: a full sync
            sync = b.event()
            assert sync["actor"] is None
            assert sync["version"] == current[0]["version"]


@pytest.mark.parametrize("game", GAMES)
def test_a_sync_request_is_answered_with_the_view_now(server: Server, game: str) -> None:
    room, t0, _t1 = server.pair(game)
    with server.connect(room) as a:
        a.hello(t0)
        a.event()
        a.send(type="sync")
        sync = a.event()
        assert sync["actor"] is None
        assert sync["view"] == view_json(server.service(room).state.view(0))


# ------------------------------------------------------------------ the end, the record, rematch, resign


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", ["server", "pg_server"])
def test_a_finished_match_s_record_replays_and_verifies(where: str, game: str, tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    server: Server = request.getfixturevalue(where)
    room, t0, t1 = server.pair(game)
    assert server.record(room).status_code == 409  # never while playing: the seed decides every shuffle
    with server.connect(room) as a, server.connect(room) as b:
        a.hello(t0), b.hello(t1)
        firsts = {0: a.event(), 1: b.event()}
        last = play_to_end({0: a, 1: b}, firsts, seed=5)
        ended = a.until("ended")
        assert ended["status"] == "over"
        assert ended["result"] == last["result"]
    record = server.record(room)
    assert record.status_code == 200
    path = tmp_path / "match.json"
    path.write_bytes(record.content)
    out = CliRunner().invoke(cli, ["replay", str(path), "--verify", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["result"] == last["result"]


@pytest.mark.parametrize("game", GAMES)
def test_resigning_ends_the_match_for_the_other_player(server: Server, game: str, tmp_path: Path) -> None:
    room, t0, t1 = server.pair(game)
    with server.connect(room, "es") as a, server.connect(room) as b:
        a.hello(t0), b.hello(t1)
        a.send(type="resign")
        for client in (a, b):
            ended = client.until("ended")
            assert ended["status"] == "resigned"
            assert ended["result"]["winner"] == 1
        a.send(type="act", action=0, version=0)
        assert a.error()["code"] == "over"
        for client, said in ((a, "Jugador 1 abandonó."), (b, "Player 1 resigned.")):  # the log ends with it
            client.send(type="log")
            assert client.until("log")["lines"][-1] == said
    path = tmp_path / "resigned.json"
    path.write_bytes(server.record(room).content)
    out = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert out.exit_code == 0, out.output
    assert "Player 1 resigned after 0 actions" in out.output
    report = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--verify", "--json"]).output)
    assert report["ok"] is True
    assert report["resigned"] == 0
    assert report["result"]["winner"] == 1


@pytest.mark.parametrize(("game", "lang"), [("duel", "en"), ("duals", "es")])
def test_a_rematch_swaps_the_seats_and_deals_anew(server: Server, game: str, lang: str) -> None:
    room, t0, t1 = server.pair(game)
    with server.connect(room, lang) as a, server.connect(room) as b:
        a.hello(t0), b.hello(t1)
        a.send(type="rematch")
        assert a.error()["code"] == "playing"
        b.send(type="resign")
        a.until("ended")
        a.send(type="rematch")
        assert b.until("rematch")["offered_by"] == 0
        b.send(type="rematch")
        welcome_a, welcome_b = a.until("welcome"), b.until("welcome")
        assert (welcome_a["match"], welcome_a["seat"], welcome_b["seat"]) == (1, 1, 0)
        assert a.event()["audience"] == 1
        first = json.loads(server.record(room, 0).content)
        assert server.record(room, 1).status_code == 409
        assert server.app.state.hall.rooms[room].match.seed != first["seed"]  # the room its players are in


@pytest.mark.parametrize("game", GAMES)
def test_a_rematch_against_a_bot_starts_at_once(server: Server, game: str) -> None:
    made = server.room(game, ["me", "bot:random"])
    with server.connect(made["room"]) as a:
        a.hello(made["token"])
        a.send(type="resign")
        a.until("ended")
        a.send(type="rematch")
        assert a.until("welcome")["seat"] == 1


# ------------------------------------------------------------------ undo, bots, log, language


def test_a_bot_seat_plays_by_itself(server: Server) -> None:
    made = server.room("duel", ["bot:random", "me"])
    with server.connect(made["room"]) as c:
        c.hello(made["token"])
        event = c.event()
        while event["to_act"] != 1:
            event = c.event()
        assert event["version"] >= 1 or event["to_act"] == 1


@pytest.mark.parametrize("game", GAMES)
def test_undo_against_a_bot_takes_back_to_the_human_s_previous_decision(server: Server, game: str) -> None:
    """Taken back when the moves since showed nothing hidden; refused, changing nothing, when they did (the same
    seed deals the same cards: a card seen and taken back would be known, and the draw order could be probed)."""
    made = server.room(game, ["me", "bot:random"])
    outcomes: dict[str, int] = {}
    with server.connect(made["room"]) as c:
        c.hello(made["token"])
        event = c.event()
        just_undone = False
        while event["result"] is None and len(outcomes) < 2:
            while event["to_act"] != 0 and event["result"] is None:
                event = c.event()
            if event["result"] is not None:
                break
            before = event
            c.send(type="act", action=legal(event)[-1], version=event["version"])
            event = c.event()
            while event["to_act"] != 0 and event["result"] is None:
                event = c.event()
            if event["result"] is not None:
                break
            if just_undone:  # play on before the next undo, so the match moves forward
                just_undone = False
                continue
            just_undone = True
            c.send(type="undo", version=event["version"])
            answer = c.recv()
            if answer["type"] == "error":
                assert answer["code"] == "undo_reveals"
                outcomes["refused"] = outcomes.get("refused", 0) + 1
                c.send(type="sync")
                assert c.event()["version"] == event["version"]  # nothing changed
                continue
            back = answer["event"]
            assert back["actor"] is None
            assert back["version"] > event["version"]
            assert back["view"] == before["view"]
            outcomes["taken back"] = outcomes.get("taken back", 0) + 1
            c.send(type="act", action=legal(back)[0], version=before["version"])
            assert c.error()["code"] == "stale"  # a version from before the undo is never current again
            event = back
    assert set(outcomes) == {"refused", "taken back"}, outcomes


def test_can_undo_says_whether_a_seat_playing_a_bot_has_a_decision_to_take_back(server: Server) -> None:
    """So that the client offers Undo only when there is something to undo: never before the seat's first decision,
    never against a person, never to a spectator."""
    made = server.room("duel", ["me", "bot:random"], {"mode": "shared", "pick": "draft"})
    with server.connect(made["room"]) as c, server.connect(made["room"]) as watcher:
        c.hello(made["token"])
        watcher.hello(None)
        message = c.until("event")
        while message["event"]["to_act"] != 0:  # the bot may pick first
            assert message["can_undo"] is False
            message = c.until("event")
        assert message["can_undo"] is False  # nothing of mine to take back yet
        c.send(type="act", action=legal(message["event"])[0], version=message["event"]["version"])
        message = c.until("event")
        while message["event"]["to_act"] != 0:
            message = c.until("event")
        assert message["can_undo"] is True
        c.send(type="undo", version=message["event"]["version"])
        back = c.until("event")
        assert back["event"]["actor"] is None
        assert back["can_undo"] is False  # taken back to before my only decision
        assert all(m["can_undo"] is False for m in watcher.got if m["type"] == "event")
    made = server.room("duel", ["me", "open"])
    joined = server.join(made["room"])
    with server.connect(made["room"]) as a, server.connect(made["room"]) as b:
        a.hello(made["token"])
        b.hello(joined["token"])
        first = {0: a.event(), 1: b.event()}
        play_to_end({0: a, 1: b}, first)
        assert not any(m["can_undo"] for client in (a, b) for m in client.got if m["type"] == "event")


def test_a_stale_version_is_named_as_the_client_knows_it_after_an_undo(server: Server) -> None:
    made = server.room("duel", ["me", "bot:random"])
    hall = server.app.state.hall
    with server.connect(made["room"]) as c:
        c.hello(made["token"])
        event = c.event()
        room = hall.rooms[made["room"]]
        room.match.base = 40  # as after undos: the client's versions run ahead of the actions played
        c.send(type="act", action=legal(event)[0], version=3)
        error = c.error()
        assert error["code"] == "stale"
        assert "version 3" in error["message"]
        assert f"version {room.wire_version}" in error["message"]


@pytest.mark.parametrize("game", GAMES)
def test_undo_is_never_allowed_against_a_person(server: Server, game: str) -> None:
    room, t0, _t1 = server.pair(game)
    with server.connect(room, "es") as a:
        a.hello(t0)
        a.send(type="undo", version=0)
        error = a.error()
        assert error["code"] == "undo_person"


@pytest.mark.parametrize("game", GAMES)
def test_the_log_tells_each_player_the_match_in_their_language(server: Server, game: str) -> None:
    room, t0, t1 = server.pair(game)
    with server.connect(room, "es") as a, server.connect(room) as b:
        a.hello(t0), b.hello(t1)
        first = {0: a.event(), 1: b.event()}
        seat = first[0]["to_act"]
        (a if seat == 0 else b).send(type="act", action=legal(first[seat])[0], version=0)
        a.event(), b.event()
        a.send(type="log")
        b.send(type="log")
        log_a, log_b = a.until("log"), b.until("log")
        assert len(log_a["lines"]) >= 1
        assert len(log_b["lines"]) >= 1
        assert "Jugador" in " ".join(log_a["lines"])
        assert "Player" in " ".join(log_b["lines"])


@pytest.mark.parametrize("game", GAMES)
def test_the_lang_message_changes_the_language_of_the_errors(server: Server, game: str) -> None:
    room, _t0, _t1 = server.pair(game)
    with server.connect(room) as a:
        a.send(type="act", action=0, version=0)
        english = a.error()["message"]
        a.send(type="lang", lang="es")
        a.send(type="act", action=0, version=0)
        assert a.error()["message"] != english


def test_own_decks_are_played_and_never_shown_to_the_other_seat(server: Server) -> None:
    """Flame Duel with own decks (R2): the room shows only the mode and the pick; each seat's deck reaches only its
    own player, and a rematch keeps each player's deck."""
    deck = {"characters": [18, 26, 27], "supports": [1, 2, 3, 4, 8, 11, 12, 13, 14, 18]}
    made = server.room("duel", ["me", "open"], {"mode": "decks", "decks": [deck, None]})
    assert server.http.get(f"/api/rooms/{made['room']}").json()["options"] == {"mode": "decks", "pick": "random"}
    joined = server.join(made["room"])
    with server.connect(made["room"]) as a, server.connect(made["room"]) as b:
        assert a.hello(made["token"])["options"] == {"mode": "decks", "pick": "random"}
        b.hello(joined["token"])
        assert sorted(a.event()["view"]["my_characters"]) == deck["characters"]
        b.event()
        assert json.dumps(deck["supports"])[1:-1] not in json.dumps(b.got)  # the other seat is not told the deck
        a.send(type="resign")
        a.until("ended")
        a.send(type="rematch")
        b.send(type="rematch")
        assert a.until("welcome")["seat"] == 1
        assert sorted(a.event()["view"]["my_characters"]) == deck["characters"]


# ------------------------------------------------------------------ refusals and texts not met elsewhere


def test_undo_before_any_decision_of_one_s_own_is_refused(server: Server) -> None:
    made = server.room("duel", ["me", "bot:random"], {"mode": "shared", "pick": "draft"})
    with server.connect(made["room"]) as c:
        c.hello(made["token"])
        event = c.event()
        c.send(type="undo", version=event["version"])
        refused = c.error()
        while refused["code"] == "stale":  # the bot moved first: ask again at the version now
            c.send(type="sync")
            c.send(type="undo", version=c.event()["version"])
            refused = c.error()
        assert refused["code"] == "undo_none"


def test_a_seat_already_taken_is_not_given_twice(server: Server) -> None:
    made = server.room("duals", ["me", "open"])
    response = server.http.post(f"/api/rooms/{made['room']}/join", json={"player": 0})
    assert (response.status_code, response.json()["error"]) == (409, "seat_taken")
    server.join(made["room"])
    response = server.http.post(f"/api/rooms/{made['room']}/join", json={})
    assert (response.status_code, response.json()["error"]) == (409, "room_full")


def test_the_client_texts_are_the_catalogue_s_for_the_browser_with_plural_forms(server: Server) -> None:
    assert server.http.get("/api/texts/en").json() == {}  # the client's own words are the English
    texts = server.http.get("/api/texts/es").json()
    assert texts["Undo"] == "Deshacer"
    assert texts["Bag: {n} token"] == ["Bolsa: {n} ficha", "Bolsa: {n} fichas", "Bolsa: {n} fichas"]
    assert "Flame Duel" not in texts  # a message of the terminal's only is not sent
    response = server.http.get("/api/texts/fr")
    assert (response.status_code, response.json()["error"]) == (404, "no_language")


def test_a_game_without_pieces_to_draw_has_no_facts(server: Server) -> None:
    response = server.http.get("/api/games/nim/facts")
    assert (response.status_code, response.json()["error"]) == (404, "no_facts")
