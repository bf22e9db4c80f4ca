"""Direct challenges over HTTP (issue 24, point 6), the app on a real SQLite store: a signed-in player challenges
another by name with chosen options, clock and rated or not; the challenged sees it (received), the challenger too
(sent), neither sees the challenger's own deck; the challenged declines it or accepts it, with their own deck
checked as a joiner's (R2); accepting makes the room with both seats held, each player learning their seat token;
a rated challenge is a rated match (Glicko-2 at its end); a guest is refused in their language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flametable.web.store import database_url
from tests.web.test_ratings_api import PASSWORD, App, Player

CHALLENGER_DECK = {"characters": [18, 26, 27], "supports": [1, 2, 3, 4, 8, 11, 12, 13, 14, 18]}
ACCEPTER_DECK = {"characters": [3, 7, 12], "supports": [5, 6, 7, 9, 10, 15, 16, 17, 19]}
CLOCK = {"kind": "fischer", "minutes": 5, "increment": 3}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    made = App(database_url(str(tmp_path / "t.db")))
    with made.http:
        yield made


def first_view(app: App, room: str, token: str) -> dict[str, Any]:
    with app.http.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        while True:
            message: dict[str, Any] = json.loads(ws.receive_text())
            if message["type"] == "event":
                view: dict[str, Any] = message["event"]["view"]
                return view


def challenge(ana: Player, to: str = "Bea", **body: Any) -> dict[str, Any]:
    made: dict[str, Any] = ana.post("/api/challenges", {"to": to, "game": "duel", **body}, status=201)
    return made


def test_a_challenge_is_seen_by_both_and_accepted_into_a_room_where_both_are_seated(app: App) -> None:
    ana, bea, cem = Player(app, "Ana"), Player(app, "Bea"), Player(app, "Cem")
    made = challenge(ana, options={"mode": "decks", "decks": [CHALLENGER_DECK, None]}, clock=CLOCK)
    assert (made["status"], made["direction"], made["to"]["name"], made["clock"]) == ("pending", "sent", "Bea", CLOCK)
    received = bea.get("/api/challenges")["received"]
    assert [(c["id"], c["from"]["name"], c["options"]) for c in received] == [
        (made["id"], "Ana", {"mode": "decks", "pick": "random"})]  # the challenger's deck is theirs alone
    assert json.dumps(CHALLENGER_DECK["supports"])[1:-1] not in json.dumps(bea.get("/api/challenges"))
    assert [c["id"] for c in ana.get("/api/challenges")["sent"]] == [made["id"]]
    assert cem.get("/api/challenges") == {"received": [], "sent": [], "accepted": []}  # nobody else's
    assert cem.refused(f"/api/challenges/{made['id']}/accept", {}, 404, "no_challenge")

    accepted = bea.post(f"/api/challenges/{made['id']}/accept", {"brings": ACCEPTER_DECK})
    assert (accepted["player"], accepted["link"]) == (1, f"/rooms/{accepted['room']}")
    room = accepted["room"]
    summary = bea.get(f"/api/rooms/{room}")
    assert [(p["open"], p["name"]) for p in summary["players"]] == [(False, "Ana"), (False, "Bea")]
    assert summary["clock"] == CLOCK
    sent = ana.get("/api/challenges")["sent"]
    assert [(c["status"], c["room"], c["player"]) for c in sent] == [("accepted", room, 0)]
    ana_seat = ana.post(f"/api/rooms/{room}/seat", {"player": 0})  # the challenger's token, as for any own seat
    assert first_view(app, room, ana_seat["token"])["my_characters"] == CHALLENGER_DECK["characters"]
    assert first_view(app, room, accepted["token"])["my_characters"] == ACCEPTER_DECK["characters"]
    assert bea.get("/api/challenges")["received"] == []
    assert bea.refused(f"/api/challenges/{made['id']}/accept", {}, 409, "challenge_answered")


def test_a_bad_deck_is_refused_as_a_joiner_s_and_the_challenge_waits_on(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    made = challenge(ana, options={"mode": "decks"})
    bad = {"characters": [3, 7], "supports": ACCEPTER_DECK["supports"]}
    answer = bea.send("POST", f"/api/challenges/{made['id']}/accept?lang=es", {"brings": bad})
    assert (answer.status_code, answer.json()["error"]) == (400, "bad_options")
    assert answer.json()["problem"] == "un mazo tiene exactamente 3 personajes, no 2"
    assert "options.decks[1]" in answer.json()["message"]
    assert [c["status"] for c in bea.get("/api/challenges")["received"]] == ["pending"]
    random = bea.post(f"/api/challenges/{made['id']}/accept", {"brings": None})  # a random deck, said so
    assert len(first_view(app, random["room"], random["token"])["my_characters"]) == 3


def test_a_declined_or_cancelled_challenge_is_gone_and_cannot_be_accepted(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    declined, cancelled = challenge(ana), challenge(ana, game="duals")
    assert ana.refused(f"/api/challenges/{declined['id']}/decline", {}, 404, "no_challenge")  # Bea's to decline
    assert bea.post(f"/api/challenges/{declined['id']}/decline")["status"] == "declined"
    assert bea.refused(f"/api/challenges/{cancelled['id']}/cancel", {}, 404, "no_challenge")  # Ana's to cancel
    assert ana.post(f"/api/challenges/{cancelled['id']}/cancel")["status"] == "cancelled"
    for gone in (declined, cancelled):
        assert bea.refused(f"/api/challenges/{gone['id']}/accept", {}, 409, "challenge_answered")
    assert bea.get("/api/challenges")["received"] == []
    assert ana.get("/api/challenges")["sent"] == []


def test_a_rated_challenge_is_made_with_a_clock_never_untimed(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    for clock in ({}, {"clock": None}, {"clock": {"kind": "untimed"}}):
        for lang, words in (("en", "A rated match is played with a clock: choose a time control."),
                            ("es", "Una partida puntuable se juega con reloj: elige un control de tiempo.")):
            answer = ana.send("POST", f"/api/challenges?lang={lang}", {"to": "Bea", "game": "duel", "rated": True,
                                                                       **clock})
            assert (answer.status_code, answer.json()["error"], answer.json()["message"]) == (
                400, "rated_needs_clock", words)
    assert bea.get("/api/challenges")["received"] == []  # nothing was sent
    assert challenge(ana, rated=True, clock={"kind": "turn", "days": 1})["rated"] is True  # turn-based: a clock
    assert challenge(ana)["rated"] is False  # casual and untimed: as before


def test_a_rated_challenge_is_a_rated_match(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    made = challenge(ana, rated=True, clock=CLOCK)
    accepted = bea.post(f"/api/challenges/{made['id']}/accept")
    room = accepted["room"]
    assert bea.get(f"/api/rooms/{room}")["rated"] is True
    assert bea.resign(room, accepted["token"])["status"] == "resigned"
    change = ana.get(f"/api/rooms/{room}/matches/0/rating")
    assert change["rated"] is True
    assert [(p["name"], p["delta_display"]) for p in change["players"]] == [("Ana", "+162"), ("Bea", "-162")]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"to": "Nobody", "game": "duel"}, 404, "no_player"),
    ({"to": "Ana", "game": "duel"}, 400, "own_challenge"),
    ({"to": "Bea", "game": "chess"}, 400, "unknown_game"),
    ({"to": "Bea", "game": "duel", "options": {"mode": "both"}}, 400, "bad_options"),
    ({"to": "Bea", "game": "duel", "clock": {"kind": "hourglass"}}, 400, "bad_clock"),
])
def test_a_challenge_that_cannot_be_made_is_refused_saying_why(app: App, body: dict[str, Any], status: int,
                                                                code: str) -> None:
    ana, _bea = Player(app, "Ana"), Player(app, "Bea")
    assert ana.refused("/api/challenges", body, status, code)
    assert ana.get("/api/challenges")["sent"] == []


@pytest.mark.parametrize(("lang", "words"), [("en", "signed-in players"), ("es", "jugadores con la sesión iniciada")])
def test_a_guest_is_told_to_sign_in_in_their_language(app: App, lang: str, words: str) -> None:
    guest = Player(app)
    for method, path, body in (("GET", "/api/challenges", None), ("POST", "/api/challenges",
                                                                  {"to": "Bea", "game": "duel"}),
                               ("POST", "/api/challenges/x/accept", {}), ("POST", "/api/challenges/x/decline", {})):
        answer = guest.send(method, f"{path}?lang={lang}", body)
        assert (answer.status_code, answer.json()["error"]) == (401, "challenge_needs_account")
        assert words in answer.json()["message"]


def test_a_deleted_account_s_challenges_are_gone(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    made = challenge(ana)
    assert ana.send("DELETE", "/api/account", {"password": PASSWORD}).status_code == 200
    assert bea.get("/api/challenges")["received"] == []
    assert bea.refused(f"/api/challenges/{made['id']}/accept", {}, 404, "no_challenge")
