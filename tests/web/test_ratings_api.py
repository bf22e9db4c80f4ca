"""Ratings over HTTP (issue 23), the app on a real SQLite store: a rated room is made by a signed-in creator and
joined by another signed-in account, both asking, and its match is rated at its end (a resignation: a loss), the
change read by both players; every other room (a guest's, against a bot, casual, one's own) is refused or never
rated; the lobby's rows name the creator and its rating; the profile's JSON (ratings, history, results, recent
matches, a deleted opponent); the leaderboard's (pages of the best 100 settled ratings, the reader's own place,
provisional ratings, deleted accounts and ratings gone stale left out)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from flametable.core.schema import validate
from flametable.service.ratings import Rating
from flametable.web import messages
from flametable.web.accounts import HashCost
from flametable.web.app import create_app
from flametable.web.messages import LEADERBOARD_ANSWER, PROFILE_ANSWER, RATING_CHANGE_ANSWER
from flametable.web.ratings import change_json, rating_json
from flametable.web.store import Store, database_url, ratings
from flametable.web.store.tables import accounts
from tests.web.client import Session, settings

PASSWORD = "correct horse battery"
START = 1_800_000_000.0
TEN_FIVE = {"kind": "fischer", "minutes": 10, "increment": 5}
"""A rated match is played with a clock (issue 24 point 5): 10+5, one of the lobby's presets."""


def declared(data: Any, schema: Any) -> Any:
    """``data``, checked against the answer's declared schema (docs/schemas/*-answer.schema.json)."""
    validate(data, schema, "answer", messages.MESSAGE, error=messages.request_error, json=True)
    return data


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


class App:
    """The app on one TestClient; each :class:`Player` keeps its own session cookie and CSRF token."""

    def __init__(self, url: str, clock: Any = None) -> None:
        self.url = url
        self.clock = clock if clock is not None else Clock()
        self.http = TestClient(create_app(settings(db_url=url, open_store=Store.open, clock=self.clock,
                                                   password_cost=HashCost(1, 1024, 1))))

    def request(self, method: str, path: str, body: Any = None, session: Session | None = None) -> Any:
        self.http.cookies.clear()
        return self.http.request(method, path, headers=session.headers() if session is not None else {},
                                 content=None if body is None else json.dumps(body).encode())

    def sql(self, statement: Any) -> None:
        async def run() -> None:
            store = self.http.app.state.store  # type: ignore[attr-defined]
            async with store.engine.begin() as connection:
                await connection.execute(statement)

        self.http.portal.call(run)  # type: ignore[union-attr]


class Player(Session):
    def __init__(self, app: App, name: str | None = None) -> None:
        super().__init__()
        self.app = app
        self.name = name
        if name is not None:
            answer = self.send("POST", "/api/account", {"name": name, "password": PASSWORD})
            assert answer.status_code == 201, answer.text

    def send(self, method: str, path: str, body: Any = None) -> Any:
        return self.keep(self.app.request(method, path, body, self))

    def get(self, path: str) -> Any:
        answer = self.send("GET", path)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        answer = self.send("POST", path, body if body is not None else {})
        assert answer.status_code == status, answer.text
        return answer.json()

    def refused(self, path: str, body: Any, status: int, code: str) -> str:
        answer = self.send("POST", path, body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
        message: str = answer.json()["message"]
        return message

    def resign(self, room: str, token: str) -> dict[str, Any]:
        with self.app.http.websocket_connect(f"/api/rooms/{room}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            ws.send_text(json.dumps({"type": "resign"}))
            while True:
                message: dict[str, Any] = json.loads(ws.receive_text())
                if message["type"] == "ended":
                    return message


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    made = App(database_url(str(tmp_path / "t.db")))
    with made.http:
        yield made


def rated_room(creator: Player, joiner: Player, game: str = "duel") -> tuple[str, str, str]:
    """A rated room of ``game`` made by ``creator`` (player 0) and joined by ``joiner``: its id and both tokens."""
    made = creator.post("/api/rooms", {"game": game, "seats": ["me", "open"], "rated": True, "clock": TEN_FIVE},
                        status=201)
    joined = joiner.post(f"/api/rooms/{made['room']}/join", {"rated": True})
    return made["room"], made["token"], joined["token"]


# --- rated matches ------------------------------------------------------------------------------------------

def test_a_rated_match_is_rated_at_its_end_and_both_players_read_the_change(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    room, ana_token, bea_token = rated_room(ana, bea)
    assert ana.get(f"/api/rooms/{room}")["rated"] is True
    before = declared(ana.get(f"/api/rooms/{room}/matches/0/rating"), RATING_CHANGE_ANSWER)
    assert (before["status"], before["rated"], before["players"]) == ("playing", True, [])

    ended = bea.resign(room, bea_token)  # a resignation is a loss
    assert ended["status"] == "resigned"
    for reader in (ana, bea):  # told once the end is out: the change is stored before the "ended" message
        change = declared(reader.get(f"/api/rooms/{room}/matches/0/rating"), RATING_CHANGE_ANSWER)
        assert change["rated"] is True
        assert [(p["seat"], p["name"], p["before"]["display"], p["after"]["display"], p["delta_display"])
                for p in change["players"]] == [(0, "Ana", "1500?", "1662?", "+162"), (1, "Bea", "1500?", "1338?",
                                                                                       "-162")]
        assert change["players"][0]["after"]["rd"] == pytest.approx(290.2, abs=0.05)
    assert ana.get(f"/api/rooms/{room}/matches/0/rating") == bea.get(f"/api/rooms/{room}/matches/0/rating")

    # the rematch of a rated room is rated too (the seats swapped: Bea at seat 0); Ana resigns
    with app.http.websocket_connect(f"/api/rooms/{room}/ws") as a, app.http.websocket_connect(
            f"/api/rooms/{room}/ws") as b:
        for ws, token in ((a, ana_token), (b, bea_token)):
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            ws.send_text(json.dumps({"type": "rematch"}))
        while json.loads(a.receive_text()).get("match") != 1:
            pass
    ana.resign(room, ana_token)
    second = ana.get(f"/api/rooms/{room}/matches/1/rating")
    assert [(p["seat"], p["name"], p["delta"] > 0) for p in second["players"]] == [(0, "Bea", True),
                                                                                 (1, "Ana", False)]
    assert second["players"][1]["before"]["display"] == "1662?"


def test_only_two_signed_in_accounts_who_both_asked_make_a_rated_room(app: App) -> None:
    ana, bea, guest = Player(app, "Ana"), Player(app, "Bea"), Player(app)
    duel = {"game": "duel", "rated": True, "clock": TEN_FIVE}
    assert "sign in" in guest.refused("/api/rooms", {**duel, "seats": ["me", "open"]}, 401, "rated_needs_account")
    spanish = guest.refused("/api/rooms?lang=es", {**duel, "seats": ["me", "open"]}, 401, "rated_needs_account")
    assert "cuenta" in spanish
    for seats in (["me", "bot:easy"], ["me", "me"], ["open", "open"]):
        ana.refused("/api/rooms", {**duel, "seats": seats}, 400, "rated_seats")
    room = ana.post("/api/rooms", {**duel, "seats": ["open", "me"]}, status=201)["room"]
    guest.refused(f"/api/rooms/{room}/join", {"rated": True}, 401, "rated_needs_account")
    bea.refused(f"/api/rooms/{room}/join", {}, 409, "rated_room")  # signed in, not asking
    ana.refused(f"/api/rooms/{room}/join", {"rated": True}, 409, "own_rated_room")
    casual = ana.post("/api/rooms", {"game": "duel", "seats": ["me", "open"]}, status=201)["room"]
    bea.refused(f"/api/rooms/{casual}/join", {"rated": True}, 409, "not_rated")
    assert bea.post(f"/api/rooms/{room}/join", {"rated": True})["player"] == 0  # the open seat: player 0


def test_a_rated_room_is_made_with_a_clock_never_untimed(app: App) -> None:
    ana = Player(app, "Ana")
    rated = {"game": "duel", "seats": ["me", "open"], "rated": True}
    for clock in ({}, {"clock": None}, {"clock": {"kind": "untimed"}}):  # untimed: today's rooms, always casual
        english = ana.refused("/api/rooms", {**rated, **clock}, 400, "rated_needs_clock")
        assert english == "A rated match is played with a clock: choose a time control."
        spanish = ana.refused("/api/rooms?lang=es", {**rated, **clock}, 400, "rated_needs_clock")
        assert spanish == "Una partida puntuable se juega con reloj: elige un control de tiempo."
    assert ana.get("/api/rooms")["rooms"] == []  # nothing was made
    ana.refused("/api/rooms", {**rated, "clock": {"kind": "fischer", "minutes": 0}}, 400, "bad_clock")
    for control in (TEN_FIVE, {"kind": "turn", "days": 3}):  # real time or turn-based: both are clocks
        made = ana.post("/api/rooms", {**rated, "clock": control}, status=201)
        room = ana.get(f"/api/rooms/{made['room']}")
        assert (room["rated"], room["clock"]) == (True, control)
    ana.post("/api/rooms", {"game": "duel", "seats": ["me", "open"]}, status=201)  # casual and untimed: as today


def test_a_casual_match_between_two_accounts_and_a_match_against_a_bot_are_never_rated(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    made = ana.post("/api/rooms", {"game": "duals", "seats": ["me", "open"]}, status=201)
    bea.post(f"/api/rooms/{made['room']}/join", {})
    ana.resign(made["room"], made["token"])
    bot = ana.post("/api/rooms", {"game": "duel", "seats": ["me", "bot:easy"]}, status=201)
    ana.resign(bot["room"], bot["token"])
    for room in (made["room"], bot["room"]):
        assert ana.get(f"/api/rooms/{room}/matches/0/rating")["rated"] is False
    profile = declared(ana.get("/api/players/ana"), PROFILE_ANSWER)
    assert [(g["game"], g["rating"], g["losses"]) for g in profile["games"]] == [("duel", None, 1),
                                                                                  ("duals", None, 1)]
    assert {r["opponent"]["kind"] for r in profile["recent"]} == {"bot", "account"}
    assert all(not r["rated"] and r["change"] is None for r in profile["recent"])


def test_the_lobby_names_the_creator_of_a_room_and_its_rating_in_the_game(app: App) -> None:
    ana, bea, cai, guest = Player(app, "Ana"), Player(app, "Bea"), Player(app, "Cai"), Player(app)
    room, _, bea_token = rated_room(ana, bea)
    bea.resign(room, bea_token)  # Ana: 1662? in Flame Duel
    waiting_rated = ana.post("/api/rooms", {"game": "duel", "seats": ["me", "open"], "rated": True, "clock": TEN_FIVE},
                             status=201)
    waiting_duals = ana.post("/api/rooms", {"game": "duals", "seats": ["open", "me"]}, status=201)
    by_cai = cai.post("/api/rooms", {"game": "duel", "seats": ["me", "open"]}, status=201)
    by_guest = guest.post("/api/rooms", {"game": "duel", "seats": ["me", "open"]}, status=201)
    rows = {r["room"]: r for r in guest.get("/api/rooms")["rooms"]}
    assert (rows[waiting_rated["room"]]["rated"], rows[waiting_rated["room"]]["creator"]) == (
        True, {"name": "Ana", "rating": "1662?", "profile": "/players/Ana"})
    assert (rows[waiting_duals["room"]]["rated"], rows[waiting_duals["room"]]["creator"]["rating"]) == (False,
                                                                                                       "1500?")
    assert rows[by_cai["room"]]["creator"]["name"] == "Cai"
    assert rows[by_guest["room"]]["creator"] is None
    assert room not in rows  # played: not waiting


# --- profiles -----------------------------------------------------------------------------------------------

def test_a_profile_shows_ratings_with_their_history_results_and_recent_matches(app: App) -> None:
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    for loser in ("bea", "ana", "bea"):
        room, ana_token, bea_token = rated_room(ana, bea)
        app.clock.now += 3600
        (bea if loser == "bea" else ana).resign(room, bea_token if loser == "bea" else ana_token)
    profile = declared(Player(app).get("/api/players/ANA"), PROFILE_ANSWER)  # any case: one name
    assert profile["name"] == "Ana"
    [duel] = profile["games"]
    assert (duel["game"], duel["title"], duel["wins"], duel["losses"], duel["draws"]) == ("duel", "Flame Duel",
                                                                                          2, 1, 0)
    assert duel["rated_matches"] == 3
    assert duel["rating"]["provisional"] is True
    assert duel["place"] is None
    assert next(p["rating"] for p in duel["history"]) == 1500
    assert len(duel["history"]) == 4
    assert duel["history"][0]["start"] is True
    assert duel["history"][-1]["rating"] == duel["rating"]["rating"]
    assert [p["at"] for p in duel["history"][1:]] == [START + 3600, START + 7200, START + 10800]
    recent = profile["recent"]
    assert [(r["result"], r["opponent"], r["rated"]) for r in recent] == [
        ("win", {"kind": "account", "name": "Bea", "profile": "/players/Bea"}, True),
        ("loss", {"kind": "account", "name": "Bea", "profile": "/players/Bea"}, True),
        ("win", {"kind": "account", "name": "Bea", "profile": "/players/Bea"}, True)]
    assert recent[0]["replay"] == f"/replay?room={recent[0]['room']}&match=0"
    assert recent[1]["reason"] == "resigned"
    assert recent[1]["change"]["delta"] < 0 < recent[0]["change"]["delta"]
    spanish = Player(app).get("/api/players/ana?lang=es")
    assert spanish["games"][0]["title"] == "Duelo de llamas"

    bea.send("DELETE", "/api/account", {"password": PASSWORD})
    assert {r["opponent"]["kind"] for r in ana.get("/api/players/Ana")["recent"]} == {"deleted"}
    missing = Player(app).send("GET", "/api/players/Bea?lang=es")
    assert (missing.status_code, missing.json()["error"]) == (404, "no_player")
    assert "Bea" in missing.json()["message"]


# --- leaderboards -------------------------------------------------------------------------------------------

def seed(app: App, count: int, *, rd: float = 60.0, at: float = START, game: str = "duel",
         prefix: str = "p") -> list[int]:
    """``count`` accounts (no password: they never sign in) rated in ``game``, the first the best: rating 2000,
    1990, ... with RD ``rd``, last rated at ``at`` (the test's seeding of a leaderboard through the store)."""
    ids = []

    async def run() -> None:
        store = app.http.app.state.store  # type: ignore[attr-defined]
        async with store.engine.begin() as connection:
            for i in range(count):
                result = await connection.execute(sa.insert(accounts).values(
                    name=f"{prefix}{i:03d}", name_key=f"{prefix}{i:03d}", password_hash="x", created_at=1.0))
                key = result.inserted_primary_key
                assert key is not None
                ids.append(int(key[0]))
                await connection.execute(sa.insert(ratings).values(
                    account_id=ids[-1], game=game, rating=2000.0 - 10 * i, rd=rd, volatility=0.06, rated_at=at,
                    matches=30))

    app.http.portal.call(run)  # type: ignore[union-attr]
    return ids


def test_a_leaderboard_pages_the_settled_ratings_and_shows_the_reader_s_place(app: App) -> None:
    seed(app, 45)
    seed(app, 5, rd=200.0, prefix="q")  # provisional: left out
    seed(app, 3, rd=100.0, at=START - 60 * 86400, prefix="s")  # settled two months ago: provisional again now
    gone = seed(app, 1, prefix="z")
    app.sql(sa.update(accounts).where(accounts.c.id == gone[0]).values(name=None, name_key=None))  # deleted
    seed(app, 2, game="duals", prefix="d")
    reader = Player(app, "Ana")
    guest = Player(app)
    first = declared(guest.get("/api/leaderboard/duel"), LEADERBOARD_ANSWER)
    assert (first["page"], first["pages"], first["per_page"], first["total"], first["me"]) == (1, 3, 20, 45, None)
    assert [r["place"] for r in first["rows"]] == list(range(1, 21))
    assert [r["name"] for r in first["rows"]][:2] == ["p000", "p001"]
    assert first["rows"][0] | {"rd": None} == {"place": 1, "name": "p000", "profile": "/players/p000",
                                               "rating": 2000.0, "rd": None, "volatility": 0.06,
                                               "display": "2000", "provisional": False}
    third = guest.get("/api/leaderboard/duel?page=3")
    assert [r["name"] for r in third["rows"]] == [f"p{i:03d}" for i in range(40, 45)]
    assert guest.get("/api/leaderboard/duel?page=4")["rows"] == []
    assert not {r["name"][0] for p in (1, 2, 3) for r in guest.get(f"/api/leaderboard/duel?page={p}")["rows"]} - {"p"}

    mine = reader.get("/api/leaderboard/duel")["me"]
    assert mine == {"name": "Ana", "place": None, "listed": False, "rating": None}  # never rated
    ana_id = reader.get("/api/players/Ana")  # (exists)
    assert ana_id["games"] == []
    app.sql(sa.insert(ratings).values(account_id=sa.select(accounts.c.id).where(accounts.c.name == "Ana")
                                      .scalar_subquery(), game="duel", rating=1995.0, rd=80.0, volatility=0.06,
                                      rated_at=START, matches=20))
    board = declared(reader.get("/api/leaderboard/duel"), LEADERBOARD_ANSWER)
    assert board["me"]["place"] == 2
    assert board["me"]["listed"] is True
    assert [r["name"] for r in board["rows"]][:3] == ["p000", "Ana", "p001"]
    assert board["total"] == 46
    assert reader.get("/api/players/Ana")["games"][0]["place"] == 2
    app.clock.now += 400 * 86400  # a year away: the RD is back above 110
    assert reader.get("/api/leaderboard/duel")["total"] == 0


def test_a_leaderboard_lists_the_best_100_and_tells_a_place_past_them(app: App) -> None:
    ids = seed(app, 130)
    board = declared(Player(app).get("/api/leaderboard/duel?page=5"), LEADERBOARD_ANSWER)
    assert (board["total"], board["pages"], board["ranked"]) == (100, 5, 130)
    assert [r["place"] for r in board["rows"]] == list(range(81, 101))
    assert Player(app).get("/api/leaderboard/duel?page=6")["rows"] == []
    reader = Player(app, "Ana")
    app.sql(sa.insert(ratings).values(account_id=sa.select(accounts.c.id).where(accounts.c.name == "Ana")
                                      .scalar_subquery(), game="duel", rating=500.0, rd=50.0, volatility=0.06,
                                      rated_at=START, matches=20))
    assert reader.get("/api/leaderboard/duel")["me"] | {"rating": None} == {
        "name": "Ana", "place": 131, "listed": False, "rating": None}
    assert len(ids) == 130


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/api/leaderboard/chess", 404, "unknown_game"), ("/api/leaderboard/duel?page=0", 400, "bad_page"),
    ("/api/leaderboard/duel?page=x", 400, "bad_page"), ("/api/leaderboard/duel?page=101", 400, "bad_page"),
    ("/api/players/nobody", 404, "no_player"), ("/api/rooms/nope/matches/0/rating", 404, "no_match"),
])
def test_a_bad_request_is_a_translated_refusal(app: App, path: str, status: int, code: str) -> None:
    for lang in ("en", "es"):
        answer = Player(app).send("GET", f"{path}{'&' if '?' in path else '?'}lang={lang}")
        assert (answer.status_code, answer.json()["error"]) == (status, code)
        assert answer.json()["message"]


def test_a_rating_and_a_change_are_shown_as_players_read_them() -> None:
    assert rating_json(Rating(1662.44, 110.0)) == {"rating": 1662.4, "rd": 110.0, "volatility": 0.06,
                                                   "display": "1662", "provisional": False}
    assert rating_json(Rating(1662.5, 110.1))["display"] == "1663?"
    assert change_json(Rating(1500.4), Rating(1500.6))["delta_display"] == "+1"
    assert change_json(Rating(1500.0), Rating(1500.2))["delta_display"] == "0"
    assert change_json(Rating(1500.0), Rating(1337.8))["delta_display"] == "-162"
