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
from flametable.web.store import Store, StoreError
from flametable.web.store.tables import seeks
from tests.web.client import Session, settings

THREE_TWO = {"kind": "fischer", "minutes": 3, "increment": 2}


class App:
    def __init__(self, url: str, **changes: Any) -> None:
        self.http = TestClient(create_app(settings(db_url=url, open_store=Store.open, pairing_every=None,
                                                   password_cost=HashCost(1, 1024, 1), **changes)))

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

    def ids(self) -> set[str]:
        """The seeks stored."""

        async def run(state: Any) -> set[str]:
            async with state.store.engine.connect() as connection:
                return {str(r[0]) for r in await connection.execute(sa.select(seeks.c.id))}

        got: set[str] = self.call(run)
        return got


class Player(Session):
    """A browser: its guest id, its session (once signed up), its seeks' secrets."""

    count = 0

    def __init__(self, app: App, name: str | None = None) -> None:
        super().__init__()
        Player.count += 1
        self.app, self.guest = app, f"guest-{Player.count}"
        self.secrets: dict[str, str] = {}
        if name is not None:
            answer = self.send("POST", "/api/account", {"name": name, "password": "correct horse battery"})
            assert answer.status_code == 201, answer.text

    def send(self, method: str, path: str, body: Any = None, seek: str | None = None) -> Any:
        self.app.http.cookies.clear()
        headers = {"x-guest-id": self.guest, **self.headers()}
        if seek is not None:
            headers["x-seek-secret"] = self.secrets[seek]
        return self.keep(self.app.http.request(method, path, headers=headers,
                                               content=None if body is None else json.dumps(body).encode()))

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


GRACE = 10.0  # Settings.seek_grace_seconds: a pair still without a room this long after its pairing waits again


def paired_long_ago(app: App, *ids: str, seconds: float = GRACE + 1) -> None:
    app.sql(sa.update(seeks).where(seeks.c.id.in_(ids)).values(paired_at=seeks.c.paired_at - seconds))


def seated_in_one_room(app: App, seats: list[tuple[Player, str]]) -> str:
    """Both seeks are paired into one room, each seat held by its seek's secret: the room."""
    got = [who.poll(seek) for who, seek in seats]
    assert [g["status"] for g in got] == ["paired", "paired"]
    assert got[0]["room"] == got[1]["room"]
    assert sorted(g["player"] for g in got) == [0, 1]
    for (who, seek), g in zip(seats, got, strict=True):
        with app.http.websocket_connect(f"/api/rooms/{g['room']}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": who.secrets[seek]}))
            while (message := json.loads(ws.receive_text()))["type"] != "welcome":
                pass
            assert message["player"] == g["player"]
    room: str = got[0]["room"]
    return room


def test_a_pair_whose_process_stopped_before_making_its_room_waits_again_after_the_grace_and_is_paired(
        app: App) -> None:
    ana, bea = Player(app), Player(app)
    a, b = ana.seek()["seek"], bea.seek()["seek"]

    async def pair_then_stop(state: Any) -> list[tuple[str, str]]:  # the process stops right after pairing
        made: list[tuple[str, str]] = await state.store.pair_seeks("duel 3+2 casual")
        return made

    assert len(app.call(pair_then_stop)) == 1
    assert [ana.poll(a)["status"], bea.poll(b)["status"]] == ["pairing", "pairing"]
    assert app.step() == []  # within the grace: its process may still be making the room
    assert ana.poll(a)["status"] == "pairing"
    paired_long_ago(app, a, b)
    [(room, *paired)] = app.step()  # put back, then paired again in the same step
    assert sorted(paired) == sorted([a, b])
    assert seated_in_one_room(app, [(ana, a), (bea, b)]) == room
    assert app.step() == []


def test_a_pair_whose_room_could_not_be_stored_waits_again_after_the_grace_and_is_paired(app: App) -> None:
    ana, bea = Player(app), Player(app)
    a, b = ana.seek()["seek"], bea.seek()["seek"]
    store = app.http.app.state.store  # type: ignore[attr-defined]
    seat_seeks = store.seat_seeks
    failed: list[list[tuple[str, str, str, int]]] = []

    async def fails_once(places: list[tuple[str, str, str, int]]) -> int:
        if not failed:
            failed.append(places)
            raise StoreError("cannot give paired seeks their room: the database went away")
        given: int = await seat_seeks(places)
        return given

    store.seat_seeks = fails_once
    with pytest.raises(StoreError):
        app.step()  # the loop logs it and steps again
    assert len(failed) == 1
    assert [ana.poll(a)["status"], bea.poll(b)["status"]] == ["pairing", "pairing"]
    assert app.step() == []
    paired_long_ago(app, a, b)
    [(room, *_)] = app.step()
    assert room != failed[0][0][2]  # a room of its own: the first one is never told to anyone (it goes unplayed)
    assert seated_in_one_room(app, [(ana, a), (bea, b)]) == room


def test_a_room_made_after_its_pair_was_put_back_is_not_given_to_its_seeks(app: App) -> None:
    ana, bea, cid = Player(app), Player(app), Player(app)
    a, b = ana.seek()["seek"], bea.seek()["seek"]

    async def pair(state: Any) -> list[tuple[str, str]]:
        made: list[tuple[str, str]] = await state.store.pair_seeks("duel 3+2 casual")
        return made

    [(first, second)] = app.call(pair)  # a slow process paired them...
    paired_long_ago(app, a, b)
    cid.seek()
    [(room, *_)] = app.step()  # ...the grace ran out: they waited again, and the first two were paired again

    async def late(state: Any) -> int:  # ...then the slow process stores its room
        given: int = await state.store.seat_seeks([(first, second, "late-room", 0), (second, first, "late-room", 1)])
        return given

    assert app.call(late) == 0
    assert seated_in_one_room(app, [(ana, a), (bea, b)]) == room


def test_seeks_done_with_for_an_hour_are_deleted_and_the_others_kept(db_url: str) -> None:
    now = [1_000_000.0]
    app = App(db_url, clock=lambda: now[0])
    with app.http:
        players = [Player(app) for _ in range(8)]
        cancelled, expired, cancelled_lately, waiting = (p.seek(clock=clock)["seek"] for p, clock in zip(
            players[:4], [None, {"kind": "fischer", "minutes": 5, "increment": 3}, None,
                          {"kind": "fischer", "minutes": 10, "increment": 5}], strict=True))
        for who, seek in ((players[0], cancelled), (players[2], cancelled_lately)):
            assert who.send("DELETE", f"/api/seeks/{seek}", seek=seek).status_code == 200
        app.sql(sa.update(seeks).where(seeks.c.id == expired).values(status="expired"))
        played = [players[4].seek()["seek"], players[5].seek()["seek"]]
        [(played_room, *_)] = app.step()
        with app.http.websocket_connect(f"/api/rooms/{played_room}/ws") as ws:  # its match is over
            ws.send_text(json.dumps({"type": "hello", "token": players[4].secrets[played[0]]}))
            ws.send_text(json.dumps({"type": "resign"}))
            while json.loads(ws.receive_text())["type"] != "ended":
                pass
        playing = [players[6].seek()["seek"], players[7].seek()["seek"]]
        assert len(app.step()) == 1
        hour = 3601.0  # Settings.seek_keep_seconds is an hour
        app.sql(sa.update(seeks).where(seeks.c.id.in_([cancelled, expired, *played, *playing]))
                .values(since=seeks.c.since - hour, seen=seeks.c.seen - hour, paired_at=seeks.c.paired_at - hour))
        app.sql(sa.update(seeks).where(seeks.c.id == waiting).values(since=seeks.c.since - hour))  # still asked after
        everyone = {cancelled, expired, cancelled_lately, waiting, *played, *playing}
        assert app.ids() == everyone
        app.step()
        assert app.ids() == everyone  # old seeks are looked for once a minute (the first step did it)
        now[0] += 60.0
        app.step()
        assert app.ids() == {cancelled_lately, waiting, *playing}  # the match of the pair `playing` goes on
