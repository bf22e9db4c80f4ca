"""Rooms waiting for a player expire (issue 21, point 6): a room whose open seat stays empty longer than
``Limits.waiting_room_ttl`` (24 h) is closed (its match ``"expired"``: no winner, no record). It leaves the lobby,
stops counting toward its creator's rooms, can no longer be joined or played, and whoever waits in it is told, in
their language; the lobby and the count follow the clock even before the sweep ran. The sweep closes them all in
one statement, at start-up and then every few minutes. A seated player closes their own waiting room with their
seat token (``POST /api/rooms/ID/close``) until the other seat is taken. On SQLite and PostgreSQL; time is the
hall's clock, never a sleep."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import pytest
import sqlalchemy as sa

from flametable.texts.translator import Translator
from flametable.web.rooms import Conn, Hall, Limits
from flametable.web.store import Store
from tests.web.client import Client, Server

DAY = 24 * 3600.0
START = 1_800_000_000.0

EXPIRED_EN = "Nobody took the open seat in time: the room is closed. Make a new room to play."
EXPIRED_ES = "Nadie ocupó el asiento libre a tiempo: la sala está cerrada. Crea una sala nueva para jugar."
CLOSED_EN = "The room was closed by its player while a seat was still open."


class Clock:
    """The hall's time, moved by the test."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@contextmanager
def serving(db_url: str, clock: Clock, **changes: Any) -> Iterator[Server]:
    """The server on the store at ``db_url`` (a real database), its time ``clock``."""
    with Server(db_url=db_url, open_store=Store.open, clock=clock, **changes) as server:
        yield server


def lobby(server: Server) -> list[str]:
    return [r["room"] for r in server.http.get("/api/rooms").json()["rooms"]]


def waiting_room(server: Server) -> dict[str, Any]:
    return server.room("duel", ["me", "open"])


def sweep(server: Server) -> list[str]:
    """One sweep of the running server's hall, now."""
    hall: Hall = server.app.state.hall
    closed: list[str] = server.http.portal.call(hall.sweep)  # type: ignore[union-attr]
    return closed


def told_until_presence(client: Client) -> list[dict[str, Any]]:
    """Every message up to the next presence (the last thing a hello is answered with)."""
    start = len(client.got)
    client.until("presence")
    return client.got[start:]


def test_a_room_waits_24_hours_by_default() -> None:
    assert Limits().waiting_room_ttl == DAY


# ------------------------------------------------------------------ the lobby, the count, joining: by the clock


def test_a_room_waiting_longer_than_its_time_leaves_the_lobby_and_cannot_be_joined(db_url: str,
                                                                                    clock: Clock) -> None:
    with serving(db_url, clock) as server:
        old = waiting_room(server)["room"]
        clock.advance(DAY / 2)
        young = waiting_room(server)["room"]
        clock.advance(DAY / 2 + 1)  # old: a day and a second; young: half a day and a second (no sweep yet)
        assert lobby(server) == [young]
        refused = server.http.post(f"/api/rooms/{old}/join", json={})
        assert refused.status_code == 410
        assert refused.json()["error"] == "room_closed"
        assert server.http.get(f"/api/rooms/{old}").json()["status"] == "expired"
        assert server.join(young)["player"] == 1


def test_a_room_younger_than_its_time_stays_in_the_lobby_and_can_be_joined(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        room = waiting_room(server)["room"]
        clock.advance(DAY - 1)
        assert sweep(server) == []
        assert lobby(server) == [room]
        assert server.http.get(f"/api/rooms/{room}").json()["status"] == "playing"
        assert server.join(room)["player"] == 1


def test_a_room_past_its_time_stops_counting_toward_its_creator_s_20(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock, limits=Limits()) as server:
        limit = Limits().rooms_per_client
        for _ in range(limit):
            waiting_room(server)
        refused = server.http.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]})
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_rooms"
        clock.advance(DAY + 1)  # every one of them is past its time; the sweep has not run
        made = server.http.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]})
        assert made.status_code == 201, made.text


def test_a_room_whose_seats_were_all_taken_never_expires(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock, limits=Limits(rooms_per_client=1)) as server:
        room, t0, _ = server.pair("duel")
        clock.advance(30 * DAY)
        assert sweep(server) == []
        assert server.http.get(f"/api/rooms/{room}").json()["status"] == "playing"
        assert server.http.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]}).status_code == 429
        with server.connect(room) as a:
            a.hello(t0)
            first = a.event()
            a.send(type="act", action=first["view"]["legal"][0], version=first["version"])
            assert a.event()["version"] == first["version"] + 1


# ------------------------------------------------------------------ whoever waits in the room is told


def test_the_creator_waiting_at_the_table_is_told_in_their_language_when_the_sweep_closes_it(
        db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        made = waiting_room(server)
        with server.connect(made["room"], lang="es") as creator, server.connect(made["room"]) as watcher:
            creator.hello(made["token"])
            told_until_presence(creator)
            watcher.hello(None)
            told_until_presence(watcher)
            creator.until("presence")  # the watcher came
            clock.advance(DAY + 1)
            assert sweep(server) == [made["room"]]
            ended = creator.recv()
            assert ended == {"type": "ended", "match": 0, "status": "expired", "result": None, "record": None,
                             "message": EXPIRED_ES}
            assert watcher.recv()["message"] == EXPIRED_EN
            creator.send(type="rematch")
            assert creator.recv()["code"] == "room_closed"


def test_a_creator_coming_back_after_the_time_finds_the_room_closed_before_any_sweep(db_url: str,
                                                                                     clock: Clock) -> None:
    with serving(db_url, clock) as server:
        made = waiting_room(server)
        clock.advance(DAY + 1)
        with server.connect(made["room"]) as creator:
            assert creator.hello(made["token"])["status"] == "expired"
            told = told_until_presence(creator)
            assert [m for m in told if m["type"] == "ended"] == [
                {"type": "ended", "match": 0, "status": "expired", "result": None, "record": None,
                 "message": EXPIRED_EN}]


def test_a_move_in_a_room_past_its_time_is_refused(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        made = waiting_room(server)
        with server.connect(made["room"]) as creator:
            creator.hello(made["token"])
            first = creator.event()
            told_until_presence(creator)
            clock.advance(DAY + 1)
            creator.send(type="act", action=first["view"]["legal"][0], version=first["version"])
            assert creator.recv()["status"] == "expired"
            refused = creator.recv()
            assert (refused["type"], refused["code"]) == ("error", "room_closed")


def test_an_expired_match_has_no_record(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        room = waiting_room(server)["room"]
        clock.advance(DAY + 1)
        sweep(server)
        summary = server.http.get(f"/api/rooms/{room}").json()
        assert (summary["status"], summary["result"], summary["record"]) == ("expired", None, None)
        record = server.record(room)
        assert record.status_code == 409
        assert record.json()["error"] == "no_record"


# ------------------------------------------------------------------ the sweep


def waiting_specs() -> list[list[str]]:
    return [["me", "open"], ["open", "open"], ["bot:easy", "open"]]


async def test_the_sweep_closes_in_one_statement_every_room_past_its_time_with_a_seat_open(store: Store) -> None:
    clock = Clock()
    hall = Hall(store, clock=clock)
    try:
        old = []
        for seats in waiting_specs() * 4:
            old.append((await hall.create("duel", None, seats, "creator"))[0].id)
        full, _ = await hall.create("duel", None, ["me", "open"], "creator")
        await hall.join(full.id, None)
        bots, _ = await hall.create("duel", None, ["me", "bot:easy"], "creator")
        clock.advance(DAY / 2)
        young, _ = await hall.create("duel", None, ["me", "open"], "creator")
        clock.advance(DAY / 2 + 1)
        statements: list[str] = []

        def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            statements.append(statement)

        sa.event.listen(store.engine.sync_engine, "before_cursor_execute", seen)
        try:
            closed = await hall.sweep()
        finally:
            sa.event.remove(store.engine.sync_engine, "before_cursor_execute", seen)
        assert closed == sorted(old)
        assert len(statements) == 1
        assert statements[0].lstrip().upper().startswith("UPDATE")
        for room_id in old:
            row = await store.load_room(room_id)
            assert row is not None
            assert (row.match.status, row.match.result) == ("expired", None)
        for room in (full, bots, young):
            row = await store.load_room(room.id)
            assert row is not None
            assert row.match.status == "playing"
        assert await hall.sweep() == []
    finally:
        await hall.close()


async def test_a_seat_of_a_room_the_sweep_closed_cannot_be_claimed(store: Store) -> None:
    clock = Clock()
    hall = Hall(store, clock=clock)
    try:
        room, _ = await hall.create("duel", None, ["me", "open"], "creator")
        clock.advance(DAY + 1)
        await store.expire_waiting(clock() - DAY)
        assert not await store.claim_seat(room.id, 1, "cd" * 32)
    finally:
        await hall.close()


async def test_the_sweep_tells_the_connections_of_a_room_in_memory(store: Store) -> None:
    clock = Clock()
    hall = Hall(store, clock=clock)
    try:
        room, tokens = await hall.create("duel", None, ["me", "open"], "creator")
        got: list[str] = []

        async def send(text: str) -> None:
            got.append(text)

        await room.hello(Conn(send, Translator.for_language("en")), {"token": tokens[0]})
        clock.advance(DAY + 1)
        assert await hall.sweep() == [room.id]
        assert '"status":"expired"' in got[-1]
        assert EXPIRED_EN in got[-1]
        assert not room.playing
        assert room.closed
    finally:
        await hall.close()


async def test_the_server_sweeps_every_few_minutes_until_it_stops(store: Store) -> None:
    clock = Clock()
    hall = Hall(store, clock=clock)
    pauses: asyncio.Queue[float] = asyncio.Queue()
    go = asyncio.Event()

    async def pause(seconds: float) -> None:
        await pauses.put(seconds)
        await go.wait()
        go.clear()

    task = asyncio.get_running_loop().create_task(hall.sweeping(pause))
    try:
        room, _ = await hall.create("duel", None, ["me", "open"], "creator")
        with anyio.fail_after(10):
            assert await pauses.get() == Limits().sweep_every == 300.0
            clock.advance(DAY + 1)
            go.set()
            assert await pauses.get() == 300.0  # swept, and waiting for the next time
        row = await store.load_room(room.id)
        assert row is not None
        assert row.match.status == "expired"
        assert room.closed
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await hall.close()


def test_the_server_starts_its_sweep_and_cancels_it_at_shutdown(clock: Clock, sqlite_database: str) -> None:
    with serving(sqlite_database, clock) as server:
        sweeper = server.app.state.hall.sweeper
        assert sweeper is not None
        assert not sweeper.done()
    assert sweeper.cancelled()


# ------------------------------------------------------------------ after a restart


def test_after_a_restart_expired_rooms_stay_closed_and_those_past_their_time_are_closed_at_start(
        db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        swept = waiting_room(server)["room"]
        clock.advance(DAY / 2)
        later = waiting_room(server)["room"]
        clock.advance(DAY / 2 + 1)
        assert sweep(server) == [swept]
    clock.advance(DAY / 2)  # the server is down while the second room's time runs out
    with serving(db_url, clock) as server:
        assert server.app.state.hall.rooms == {}  # nothing loaded: the statuses shown are the store's
        assert lobby(server) == []
        for room in (swept, later):
            assert server.http.get(f"/api/rooms/{room}").json()["status"] == "expired"
            refused = server.http.post(f"/api/rooms/{room}/join", json={})
            assert (refused.status_code, refused.json()["error"]) == (410, "room_closed")


# ------------------------------------------------------------------ a player closes their own waiting room


def close(server: Server, room: str, token: str, lang: str = "en") -> Any:
    return server.http.post(f"/api/rooms/{room}/close?lang={lang}", json={"token": token})


def test_the_creator_closes_their_waiting_room_with_their_seat_token(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock, limits=Limits(rooms_per_client=1)) as server:
        made = waiting_room(server)
        with server.connect(made["room"]) as creator:
            creator.hello(made["token"])
            told_until_presence(creator)
            closed = close(server, made["room"], made["token"])
            assert closed.status_code == 200, closed.text
            assert (closed.json()["status"], closed.json()["record"]) == ("closed", None)
            assert creator.recv() == {"type": "ended", "match": 0, "status": "closed", "result": None,
                                      "record": None, "message": CLOSED_EN}
        assert lobby(server) == []
        refused = server.http.post(f"/api/rooms/{made['room']}/join", json={})
        assert (refused.status_code, refused.json()["error"]) == (410, "room_closed")
        again = close(server, made["room"], made["token"])
        assert (again.status_code, again.json()["error"]) == (409, "room_closed")
        assert waiting_room(server)["room"] != made["room"]  # the closed room no longer counts


def test_closing_with_a_token_not_of_the_room_is_refused(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        made, other = waiting_room(server), waiting_room(server)
        refused = close(server, made["room"], other["token"], lang="es")
        assert refused.status_code == 403
        assert refused.json()["error"] == "bad_token"
        assert refused.json()["message"].startswith("Esta clave de asiento no es de esta sala")
        assert sorted(lobby(server)) == sorted([made["room"], other["room"]])
        malformed = server.http.post(f"/api/rooms/{made['room']}/close", json={"token": "x"})
        assert (malformed.status_code, malformed.json()["error"]) == (400, "bad_request")
        nowhere = close(server, "nowhere", made["token"])
        assert (nowhere.status_code, nowhere.json()["error"]) == (404, "no_room")


def test_a_room_whose_seats_are_all_taken_cannot_be_closed(db_url: str, clock: Clock) -> None:
    with serving(db_url, clock) as server:
        room, t0, t1 = server.pair("duel")
        for token in (t0, t1):
            refused = close(server, room, token)
            assert refused.status_code == 409
            assert refused.json()["error"] == "room_full"
            assert "Resign" in refused.json()["message"]
        assert server.http.get(f"/api/rooms/{room}").json()["status"] == "playing"
