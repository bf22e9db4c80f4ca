"""What the deck builder and the replay viewer ask the server (issue 12): options (own decks) checked by the game
itself, Flame Duel's cards in the reader's language, and the steps of an ended match, from the store or from an
uploaded record file, ending with the record's own result."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from flametable.core.record import MatchRecord, replay
from flametable.web.rooms import game_of
from tests.web.client import Client, Server

GAMES = ("duel", "duals")
DECK = {"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}


@pytest.fixture
def server() -> Iterator[Server]:
    with Server() as s:
        yield s


def play_to_end(server: Server, game: str, seed: int, options: dict[str, Any] | None = None) -> str:
    """A room of two people who play random legal actions from their own views to the end: the room's id."""
    room, t0, t1 = server.pair(game, options)
    rng = random.Random(seed)
    with server.connect(room) as a, server.connect(room) as b:
        a.hello(t0), b.hello(t1)
        seats: dict[int, Client] = {0: a, 1: b}
        events = {0: a.event(), 1: b.event()}
        last = events[0]
        while last["to_act"] is not None:
            seat = last["to_act"]
            seats[seat].send(type="act", action=rng.choice(events[seat]["view"]["legal"]), version=last["version"])
            events = {s: client.event() for s, client in seats.items()}
            last = events[seat]
        a.until("ended")
    return room


def record_json(server: Server, room: str) -> dict[str, Any]:
    response = server.record(room)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


# ------------------------------------------------------------------ options and cards


def test_a_good_own_deck_is_accepted_by_the_game(server: Server) -> None:
    response = server.http.post("/api/games/duel/options/check", json={"options": {"mode": "decks",
                                                                                   "decks": [DECK, None]}})
    assert response.status_code == 200
    assert response.json() == {"ok": True}


@pytest.mark.parametrize(("deck", "lang", "problem"), [
    ({"characters": [1, 2], "supports": DECK["supports"]}, "en", "a deck has exactly 3 characters, got 2"),
    ({"characters": [1, 2], "supports": DECK["supports"]}, "es", "un mazo tiene exactamente 3 personajes, no 2"),
    ({"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7]}, "en", "a deck has 8 to 12 support cards, got 7"),
    ({"characters": [1, 2, 3], "supports": list(range(1, 14))}, "en", "a deck has 8 to 12 support cards, got 13"),
    ({"characters": [1, 1, 3], "supports": DECK["supports"]}, "en",
     "no card may appear twice within one deck: 1 is there twice"),
])
def test_a_bad_own_deck_is_refused_with_the_game_s_problem_in_the_reader_s_language(
        server: Server, deck: dict[str, Any], lang: str, problem: str) -> None:
    response = server.http.post(f"/api/games/duel/options/check?lang={lang}",
                                json={"options": {"mode": "decks", "decks": [deck, None]}})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "bad_options"
    assert body["problem"] == problem
    assert body["message"].endswith(problem)  # the whole message also says where: options.decks[0]: deck: ...


def test_options_of_an_unknown_game_or_a_bad_body_are_refused(server: Server) -> None:
    assert server.http.post("/api/games/chess/options/check", json={"options": {}}).status_code == 404
    response = server.http.post("/api/games/duel/options/check", json={"deck": DECK})
    assert response.status_code == 400
    assert "options" in response.json()["message"]


def test_the_deck_builder_gets_every_card_of_flame_duel_in_the_reader_s_language(server: Server) -> None:
    """The builder reads the game's facts: every card, its label and words in the reader's language, and the deck's
    sizes as the game's deck schema declares them (R2)."""
    en = server.http.get("/api/games/duel/facts?lang=en").json()
    es = server.http.get("/api/games/duel/facts?lang=es").json()
    cards = game_of("duel").cards
    assert [c["number"] for c in en["characters"]] == [c.number for c in cards.characters]
    assert [s["number"] for s in en["supports"]] == [s.number for s in cards.supports]
    assert en["characters"][0]["label"] == f"C1 {cards.characters[0].name['en']}"
    assert es["characters"][0]["label"] == f"C1 {cards.characters[0].name['es']}"
    assert es["supports"][0]["detail"].split(" · ")[0] in {"Objeto", "Lugar", "Evento"}
    assert en["deck"] == {"characters": [3, 3], "supports": [8, 12]}


# ------------------------------------------------------------------ replays


@pytest.mark.parametrize(("game", "seed"), [("duel", 1), ("duals", 2)])
def test_a_finished_match_replays_step_by_step_to_the_record_s_result(server: Server, game: str, seed: int) -> None:
    room = play_to_end(server, game, seed)
    record = record_json(server, room)
    response = server.http.get(f"/api/rooms/{room}/matches/0/replay")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["game"] == game
    assert data["result"] == record["result"]
    steps = data["steps"]
    assert [s["action"] for s in steps[1:]] == record["actions"]
    assert [s["version"] for s in steps] == list(range(len(record["actions"]) + 1))
    assert steps[0]["actor"] is None
    assert {s["actor"] for s in steps[1:]} == {0, 1}
    assert set(steps[-1]["views"]) == {"0", "1", "spectator"}
    assert steps[-1]["views"]["0"] != steps[-1]["views"]["1"]  # each seat's own view, both shown after the end
    assert steps[-1]["lines"]["spectator"], "the last step tells the result"
    assert data["log"][-1] == steps[-1]["lines"]["spectator"][-1]
    assert data["log"] == [line for s in steps for line in s["lines"]["spectator"]]


def test_an_own_deck_s_match_replays_with_the_deck_dealt(server: Server) -> None:
    room = play_to_end(server, "duel", 3, {"mode": "decks", "decks": [DECK, None]})
    data = server.http.get(f"/api/rooms/{room}/matches/0/replay").json()
    assert sorted(data["steps"][0]["views"]["0"]["my_characters"]) == DECK["characters"]
    assert data["result"] == record_json(server, room)["result"]


def test_an_uploaded_record_replays_like_the_server_s(server: Server) -> None:
    room = play_to_end(server, "duel", 4)
    stored = server.http.get(f"/api/rooms/{room}/matches/0/replay?lang=es").json()
    uploaded = server.http.post("/api/replay?lang=es", content=server.record(room).content)
    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json() == stored
    assert replay(game_of("duel"), MatchRecord.from_json(record_json(server, room))).outcome is not None


def test_a_resigned_match_replays_to_the_resignation(server: Server) -> None:
    made = server.room("duel", ["me", "bot:easy"])
    with server.connect(made["room"]) as a:
        a.hello(made["token"])
        a.send(type="resign")
        a.until("ended")
    data = server.http.get(f"/api/rooms/{made['room']}/matches/0/replay").json()
    assert data["result"] == {"winner": 1, "reason": "resigned", "scores": [0, 0]}
    assert data["steps"][-1]["lines"]["0"][-1] == "Player 1 resigned."


def test_a_match_being_played_is_not_replayed(server: Server) -> None:
    room, _, _ = server.pair("duel")
    response = server.http.get(f"/api/rooms/{room}/matches/0/replay?lang=es")
    assert response.status_code == 409
    assert response.json()["error"] == "playing"
    assert response.json()["message"] != "The record is released once the match is over."  # in Spanish
    assert server.http.get(f"/api/rooms/{room}/matches/7/replay").status_code == 404
    assert server.http.get("/api/rooms/nope/matches/0/replay").status_code == 404


@pytest.mark.parametrize("number", ["²", "+0", "-1", "0x0", "99999999999", "٠"])
@pytest.mark.parametrize("what", ["replay", "record"])
def test_a_match_number_is_ascii_digits_for_the_record_and_the_replay_alike(server: Server, number: str,
                                                                             what: str) -> None:
    room, _, _ = server.pair("duel")
    response = server.http.get(f"/api/rooms/{room}/matches/{number}/{what}")
    assert (response.status_code, response.json()["error"]) == (404, "no_match")


def _changed(record: dict[str, Any], **changes: Any) -> bytes:
    return json.dumps({**record, **changes}).encode()


@pytest.mark.parametrize(("change", "english", "spanish"), [
    (lambda r: b"{not json", "The file is not a match record: it is not valid JSON.", None),
    (lambda r: _changed(r, format="other"), "The file is not a match record: record: ", "record: registro: "),
    (lambda r: _changed(r, game="chess"), "Unknown game 'chess'", "chess"),
    (lambda r: _changed(r, actions=["zz", *r["actions"][1:]]), "Action 1 of the record (zz) is not legal", "zz"),
    (lambda r: _changed(r, actions=r["actions"][:-1], result=None), "The record stops after", None),
    (lambda r: _changed(r, actions=r["actions"][:-1]), "The record stops after", None),
    (lambda r: _changed(r, actions=r["actions"][:1], result=None), "The record stops after 1 action, before",
     "El registro se detiene tras 1 acción, antes"),
    (lambda r: _changed(r, actions=[*r["actions"], r["actions"][-1]]), "comes after the end of the match", None),
    (lambda r: _changed(r, result={**r["result"], "scores": [9, 9]}), "The record's result differs", None),
])
def test_a_bad_uploaded_record_is_refused_saying_why(server: Server, change: Any, english: str,
                                                     spanish: str | None) -> None:
    room = play_to_end(server, "duel", 5)
    bad = change(record_json(server, room))
    response = server.http.post("/api/replay", content=bad)
    assert response.status_code == 400
    assert response.json()["error"] in {"bad_record", "unknown_game"}
    assert english in response.json()["message"]
    in_spanish = server.http.post("/api/replay?lang=es", content=bad).json()["message"]
    if spanish is not None:  # the game's and the record's own words are in the catalogue already
        assert spanish in in_spanish
        assert in_spanish != response.json()["message"]


def test_a_record_file_too_big_is_refused(server: Server) -> None:
    response = server.http.post("/api/replay", content=b" " * (1024 * 1024 + 1))
    assert response.status_code == 413
