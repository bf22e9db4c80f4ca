"""Quick pairing over HTTP (issue 24, point 2), the app on a real store (SQLite and PostgreSQL): two seeks of a pool
are paired into a room with the pool's game and clock, both seats held, each player's seat token the secret of
their seek; a seek is cancelled; a player waits once per pool; a guest's seeks are casual; a rated pool's pair
plays a rated match; bad requests are told in the player's language; a seek nobody asks after expires; the pools
show their players waiting and matches going on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from flametable.web.accounts import HashCost
from flametable.web.app import create_app
from flametable.web.seeking import Seeker
from flametable.web.store import Store
from flametable.web.store.tables import seeks
from tests.web.client import settings

COOKIE = "flametable_session"
THREE_TWO = {"kind": "fischer", "minutes": 3, "increment": 2}


class App:
    def __init__(self, url: str) -> None:
        self.http = TestClient(create_app(settings(db_url=url, open_store=Store.open, pairing_every=None,
                                                   password_cost=HashCost(1, 1024, 1))))

    def call(self, make: Any) -> Any:
        async def run() -> Any:
            return await make(self.http.app.state)  # type: ignore[attr-defined]

        return self.http.portal.call(run)  # type: ignore[union-attr]

    def step(self) -> list[tuple[str, str, str]]:
        """One pairing step of the server (its loop is off: the test steps it)."""

        async def step(state: Any) -> list[tuple[str, str, str]]:
            seeker: Seeker = state.seeker
            return await seeker.step()

        made: list[tuple[str, str, str]] = self.call(step)
        return made

    def sql(self, statement: Any) -> None:
        async def run(state: Any) -> None:
            async with state.store.engine.begin() as connection:
                await connection.execute(statement)

        self.call(run)


class Player:
    """A browser: its guest id, its session (once signed up), its seeks' secrets."""

    count = 0

    def __init__(self, app: App, name: str | None = None) -> None:
        Player.count += 1
        self.app, self.guest = app, f"guest-{Player.count}"
        self.cookie: str | None = None
        self.csrf: str | None = None
        self.secrets: dict[str, str] = {}
        if name is not None:
            answer = self.send("POST", "/api/account", {"name": name, "password": "correct horse battery"})
            assert answer.status_code == 201, answer.text

    def send(self, method: str, path: str, body: Any = None, seek: str | None = None) -> Any:
        self.app.http.cookies.clear()
        headers = {"x-guest-id": self.guest}
        if self.cookie is not None:
            headers["cookie"] = f"{COOKIE}={self.cookie}"
        if self.csrf is not None:
            headers["x-csrf-token"] = self.csrf
        if seek is not None:
            headers["x-seek-secret"] = self.secrets[seek]
        answer = self.app.http.request(method, path, headers=headers,
                                       content=None if body is None else json.dumps(body).encode())
        if COOKIE in answer.cookies:
            self.cookie = answer.cookies[COOKIE] or None
        data = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else None
        if isinstance(data, dict) and "csrf" in data:
            self.csrf = data["csrf"]
        return answer

    def seek(self, game: str = "duel", clock: Any = None, rated: bool = False) -> dict[str, Any]:
        answer = self.send("POST", "/api/seeks", {"game": game, "clock": clock or THREE_TWO, "rated": rated})
        assert answer.status_code == 201, answer.text
        made: dict[str, Any] = answer.json()
        self.secrets[made["seek"]] = made["secret"]
        return made

    def refused(self, body: Any, status: int, code: str, lang: str = "en") -> str:
        answer = self.send("POST", f"/api/seeks?lang={lang}", body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text
        message: str = answer.json()["message"]
        return message

    def poll(self, seek: str) -> dict[str, Any]:
        answer = self.send("GET", f"/api/seeks/{seek}", seek=seek)
        assert answer.status_code == 200, answer.text
        got: dict[str, Any] = answer.json()
        return got


@pytest.fixture
def app(db_url: str) -> Iterator[App]:
    made = App(db_url)
    with made.http:
        yield made


def pools(app: App) -> dict[str, tuple[int, int]]:
    answer = app.http.get("/api/pools")
    assert answer.status_code == 200
    return {p["pool"]: (p["waiting"], p["playing"]) for p in answer.json()["pools"]}


def test_two_seeks_of_a_pool_are_paired_into_a_room_with_its_clock_both_seats_held(app: App) -> None:
    ana, bea = Player(app), Player(app)
    a, b = ana.seek()["seek"], bea.seek()["seek"]
    assert ana.poll(a)["status"] == "waiting"
    assert pools(app)["duel 3+2 casual"] == (2, 0)
    [(room, *paired)] = app.step()
    assert sorted(paired) == sorted([a, b])
    got = {seek: who.poll(seek) for seek, who in ((a, ana), (b, bea))}
    assert {g["status"] for g in got.values()} == {"paired"}
    assert {g["room"] for g in got.values()} == {room}
    assert sorted(g["player"] for g in got.values()) == [0, 1]
    assert all(g["token"] == who.secrets[seek] for seek, who, g in ((a, ana, got[a]), (b, bea, got[b])))
    summary = ana.send("GET", f"/api/rooms/{room}").json()
    assert (summary["game"], summary["clock"], summary["rated"]) == ("duel", THREE_TWO, False)
    assert [p["open"] for p in summary["players"]] == [False, False]  # both seats held
    assert pools(app)["duel 3+2 casual"] == (0, 1)  # none waiting, one match going on
    for seek, who in ((a, ana), (b, bea)):  # each secret is its seat's token: the seat's player at the table
        with app.http.websocket_connect(f"/api/rooms/{room}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": who.secrets[seek]}))
            while (message := json.loads(ws.receive_text()))["type"] != "welcome":
                pass
            assert message["player"] == got[seek]["player"]
    assert app.step() == []  # each seek paired once


def test_pools_pair_apart_and_ratings_too_far_apart_wait(app: App) -> None:
    players = [Player(app) for _ in range(3)]
    players[0].seek()
    players[1].seek(clock={"kind": "fischer", "minutes": 5, "increment": 3})
    players[2].seek(game="duals")
    assert app.step() == []  # three pools, one seek each
    assert pools(app)["duel 5+3 casual"] == (1, 0)


def test_a_seek_is_cancelled_by_its_own_client_and_then_never_paired(app: App) -> None:
    ana, bea, cid = Player(app), Player(app), Player(app)
    a = ana.seek()["seek"]
    assert ana.send("DELETE", f"/api/seeks/{a}", seek=a).json()["status"] == "cancelled"
    cid.secrets[a] = "x" * 32  # another's secret: as if there were no such seek
    assert cid.send("DELETE", f"/api/seeks/{a}", seek=a).status_code == 404
    assert ana.poll(a)["status"] == "cancelled"
    bea.seek()
    assert app.step() == []
    b2 = cid.seek()["seek"]
    [(room, *_)] = app.step()
    answer = cid.send("DELETE", f"/api/seeks/{b2}", seek=b2)  # too late: paired
    assert (answer.status_code, answer.json()["error"], answer.json()["room"]) == (409, "paired", room)


def test_a_player_waits_once_per_pool_and_is_told_so_in_their_language(app: App) -> None:
    ana = Player(app)
    ana.seek()
    assert "already waiting" in ana.refused({"game": "duel", "clock": THREE_TWO}, 409, "already_seeking")
    assert "Ya esperas" in ana.refused({"game": "duel", "clock": THREE_TWO}, 409, "already_seeking", "es")
    ana.seek(clock={"kind": "fischer", "minutes": 10, "increment": 5})  # another pool
    ana.seek(game="duals")
    assert app.step() == []  # never paired with themself


def test_a_guest_s_seeks_are_casual_and_a_rated_pool_pairs_two_accounts_into_a_rated_room(app: App) -> None:
    guest = Player(app)
    assert "sign in" in guest.refused({"game": "duel", "clock": THREE_TWO, "rated": True}, 401,
                                      "rated_needs_account")
    assert "cuenta" in guest.refused({"game": "duel", "clock": THREE_TWO, "rated": True}, 401,
                                     "rated_needs_account", "es")
    ana, bea = Player(app, "Ana"), Player(app, "Bea")
    a, b = ana.seek(rated=True)["seek"], bea.seek(rated=True)["seek"]
    guest.seek()  # the casual pool: not theirs
    [(room, *_)] = app.step()
    assert ana.send("GET", f"/api/rooms/{room}").json()["rated"] is True
    mine = ana.send("GET", "/api/me/matches").json()
    assert room in json.dumps(mine)  # the seat is the account's
    seat_of_bea = bea.poll(b)["player"]
    with app.http.websocket_connect(f"/api/rooms/{room}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": bea.secrets[b]}))
        ws.send_text(json.dumps({"type": "resign"}))
        while json.loads(ws.receive_text())["type"] != "ended":
            pass
    change = ana.send("GET", f"/api/rooms/{room}/matches/0/rating").json()
    assert change["rated"] is True
    assert {p["name"]: p["delta"] > 0 for p in change["players"]} == {"Ana": True, "Bea": False}
    assert ana.poll(a)["player"] == 1 - seat_of_bea


def test_a_rated_pool_is_never_untimed(app: App) -> None:
    ana = Player(app, "Ana")  # signed in: the pool would be rated
    untimed = {"game": "duel", "clock": {"kind": "untimed"}, "rated": True}
    assert ana.refused(untimed, 400, "rated_needs_clock") == (
        "A rated match is played with a clock: choose a time control.")
    assert "reloj" in ana.refused(untimed, 400, "rated_needs_clock", "es")
    assert "real-time clock" in ana.refused({**untimed, "rated": False}, 400, "bad_clock")  # casual: no pool either
    assert all(waiting == 0 for waiting, _ in pools(app).values())  # nobody waits


@pytest.mark.parametrize(("body", "code", "english", "spanish"), [
    ({"game": "duel", "clock": {"kind": "fischer", "minutes": 0, "increment": 2}}, "bad_clock", "minutes",
     "minutos"),
    ({"game": "duel", "clock": {"kind": "turn", "days": 3}}, "bad_clock", "real-time clock", "reloj en tiempo real"),
    ({"game": "duel", "clock": {"kind": "untimed"}}, "bad_clock", "real-time clock", "reloj en tiempo real"),
    ({"game": "duel", "clock": None}, "bad_request", "clock: must be an object",
     "clock de la petición: debe ser un objeto"),
    ({"game": "chess", "clock": THREE_TWO}, "unknown_game", "chess", "chess"),
    ({"game": "duel"}, "bad_request", "clock: missing", "clock de la petición: falta"),
])
def test_a_bad_seek_is_refused_saying_why_in_english_and_spanish(app: App, body: Any, code: str, english: str,
                                                                 spanish: str) -> None:
    ana = Player(app)
    assert english in ana.refused(body, 400, code)
    assert spanish in ana.refused(body, 400, code, "es")


def test_a_seek_nobody_asks_after_expires_and_is_not_paired(app: App) -> None:
    ana, bea = Player(app), Player(app)
    a = ana.seek()["seek"]
    app.sql(sa.update(seeks).where(seeks.c.id == a).values(seen=seeks.c.seen - 31))  # its client left 31 s ago
    bea.seek()
    assert app.step() == []
    assert ana.poll(a)["status"] == "expired"
    assert pools(app)["duel 3+2 casual"] == (1, 0)


def test_another_s_seek_is_never_shown(app: App) -> None:
    ana, bea = Player(app), Player(app)
    a = ana.seek()["seek"]
    assert bea.send("GET", f"/api/seeks/{a}").status_code == 404  # no secret
    answer = bea.send("GET", f"/api/seeks/{a}?lang=es", seek=None)
    assert answer.json()["error"] == "no_seek"


def test_a_seek_its_client_asks_after_keeps_waiting(app: App) -> None:
    ana = Player(app)
    a = ana.seek()["seek"]
    app.sql(sa.update(seeks).where(seeks.c.id == a).values(seen=seeks.c.seen - 31))
    assert ana.poll(a)["status"] == "waiting"  # asked now: written at the next step, before the expiry
    assert app.step() == []
    assert ana.poll(a)["status"] == "waiting"
