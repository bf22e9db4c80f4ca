"""Clocks and abandoned matches online (issue 24, points 1 and 4), time moved by the test's clock (a ManualClock:
never a sleep). A room is made with a time control (real time Fischer: 3+2, 5+3, 10+5 or custom; turn-based: 1, 3
or 7 days per decision; untimed as before); the server stamps every action with the time its decision took,
stores it with the action, sends both clocks with every event and ends the match when a clock reaches zero (the
other seat wins, reason ``time``). Real time: a seat's clock runs from its first decision on; a person who makes
no first decision within 30 s aborts the match (unrated); a person disconnected for 60 s lets the other claim the
win, or, in a casual match, give the seat to a bot that plays on."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from flametable.cli.main import app as cli
from flametable.core.record import MatchRecord, replay
from flametable.core.registry import make_game
from flametable.service.clock import ManualClock
from flametable.web.rooms import STAND_IN
from flametable.web.store import Store, database_url
from tests.web.client import Client, Server

GAMES = ("duel", "duals")
REAL_TIME = {"3+2": (3, 2), "5+3": (5, 3), "10+5": (10, 5), "1+0": (1, 0)}  # the presets, and a custom one
DAY = 24 * 3600.0


def fischer(minutes: int, increment: int) -> dict[str, Any]:
    return {"kind": "fischer", "minutes": minutes, "increment": increment}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(clock: ManualClock) -> Iterator[Server]:
    with Server(clock=clock) as s:
        yield s


def timed_pair(server: Server, game: str, control: dict[str, Any] | None, seats: list[str] | None = None
               ) -> tuple[str, str, str | None]:
    body: dict[str, Any] = {"game": game, "seats": seats or ["me", "open"], "clock": control}
    made = server.http.post("/api/rooms", json=body)
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    other = server.join(room)["token"] if (seats or ["me", "open"])[1] == "open" else None
    return room, made.json()["token"], other


def wait_for_timer(clock: ManualClock) -> None:
    """Until the room's clock task sleeps on the clock (it is made with the event just read)."""
    deadline = time.monotonic() + 5
    while clock.sleepers == 0:
        assert time.monotonic() < deadline, "no timer was set"
        time.sleep(0.001)


class Table:
    """Both seats of a room, connected; the last event each got."""

    def __init__(self, a: Client, b: Client, t0: str, t1: str | None) -> None:
        self.seats = {0: a, 1: b}
        a.hello(t0), b.hello(t1)
        self.last = {0: a.event(), 1: b.event()}

    @property
    def to_act(self) -> int | None:
        to_act: int | None = self.last[0]["to_act"]
        return to_act

    def play(self) -> dict[str, Any]:
        """The seat to act plays its first legal action; both seats' next events (the actor's returned)."""
        seat = self.to_act
        assert seat is not None
        event = self.last[seat]
        self.seats[seat].send(type="act", action=event["view"]["legal"][0], version=event["version"])
        for s, client in self.seats.items():
            self.last[s] = client.event()
        return self.last[seat]

    def clock_of(self, seat: int = 0) -> dict[str, Any]:
        """The clocks of the last event ``seat`` got."""
        message = next(m for m in reversed(self.seats[seat].got) if m["type"] == "event")
        return dict(message["clock"])

    def until_both_moved(self) -> set[int]:
        """Play until each seat made a first decision and the seat to act's clock runs (real time)."""
        moved: set[int] = set()
        while len(moved) < 2 or self.to_act not in moved:
            moved.add(self.to_act)  # type: ignore[arg-type]
            self.play()
        return moved


# ------------------------------------------------------------------ choosing a time control


@pytest.mark.parametrize("control", [fischer(3, 2), fischer(5, 3), fischer(10, 5), fischer(7, 0),
                                     {"kind": "turn", "days": 1}, {"kind": "turn", "days": 3},
                                     {"kind": "turn", "days": 7}, None])
def test_a_room_s_time_control_is_shown_in_the_room_and_written_in_its_record(server: Server,
                                                                             control: dict[str, Any] | None) -> None:
    room, t0, _t1 = timed_pair(server, "duals", control)
    assert server.http.get(f"/api/rooms/{room}").json()["clock"] == control
    with server.connect(room) as a:
        assert a.hello(t0)["clock"] == control
        event = a.until("event")
        if control is None:  # untimed: today's rooms, no clock in the events
            assert "clock" not in event
        else:
            start = control["minutes"] * 60_000 if control["kind"] == "fischer" else control["days"] * 86_400_000
            assert event["clock"]["remaining"] == [start, start]
    with server.connect(room) as a:
        a.hello(t0)
        a.event()
        a.send(type="resign")
        a.until("ended")
    record = MatchRecord.from_json(server.record(room).json())
    assert record.clock == control


@pytest.mark.parametrize(("control", "code_en", "message_es"), [
    (fischer(0, 2), "A real-time control's base is a whole number of minutes from 1 to 60, got 0.",
     "El control de tiempo: la base de un control en tiempo real es un número entero de minutos de 1 a 60; se "
     "recibió 0."),
    (fischer(3, 61), "A real-time control's increment is a whole number of seconds from 0 to 60, got 61.",
     "El control de tiempo: el incremento de un control en tiempo real es un número entero de segundos de 0 a 60; "
     "se recibió 61."),
    ({"kind": "turn", "days": 2}, "A turn-based control gives 1, 3 or 7 days per decision, got 2.",
     "El control de tiempo: un control por turnos da 1, 3 o 7 días por decisión; se recibió 2."),
    ({"kind": "blitz"}, "A time control's kind is untimed, fischer or turn, got 'blitz'.",
     "El control de tiempo: el tipo de un control de tiempo es untimed, fischer o turn; se recibió 'blitz'."),
    ({"kind": "fischer", "minutes": 3, "increment": 2, "delay": 1},
     "A time control of kind fischer has no field 'delay'.",
     "El control de tiempo: un control de tiempo de tipo fischer no tiene el campo 'delay'."),
])
def test_a_bad_time_control_is_refused_saying_why_in_the_reader_s_language(server: Server, control: dict[str, Any],
                                                                         code_en: str, message_es: str) -> None:
    body = {"game": "duel", "seats": ["me", "open"], "clock": control}
    refused = server.http.post("/api/rooms", json=body)
    assert refused.status_code == 400
    assert refused.json() == {"error": "bad_clock", "message": f"The time control: {code_en}"}
    refused = server.http.post("/api/rooms?lang=es", json=body)
    assert refused.json() == {"error": "bad_clock", "message": message_es}


# ------------------------------------------------------------------ the clocks run


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["3+2", "5+3", "10+5"])
def test_each_decision_costs_its_time_and_earns_the_increment(server: Server, clock: ManualClock, game: str,
                                                              name: str) -> None:
    """A seat's clock runs from its first decision on (that one is free, and has its own limit: the abort); each
    later decision costs the time it took, then the increment is added; the other seat's clock stands still."""
    minutes, increment = REAL_TIME[name]
    room, t0, t1 = timed_pair(server, game, fischer(minutes, increment))
    expected = [minutes * 60_000, minutes * 60_000]
    moved: set[int] = set()
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        for step in range(12):
            seat = table.to_act
            if seat is None:
                break
            took = 1.5 + step  # seconds: never a first decision's 30
            clock.advance(took)
            table.play()
            if seat in moved:
                expected[seat] += increment * 1000 - round(took * 1000)
            moved.add(seat)
            assert table.clock_of(0)["remaining"] == expected
            assert table.clock_of(1)["remaining"] == expected
            assert table.clock_of(0)["running"] == ([table.to_act] if table.to_act in moved else [])
        record = server.app.state.hall.rooms[room].match
    assert len(record.spent) == len(record.actions) > 2
    assert record.spent == [round((1.5 + step) * 1000) for step in range(len(record.spent))]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", list(REAL_TIME))
def test_a_real_time_clock_at_zero_loses_the_match_on_time(server: Server, clock: ManualClock, game: str,
                                                           name: str, tmp_path: Path) -> None:
    minutes, increment = REAL_TIME[name]
    room, t0, t1 = timed_pair(server, game, fischer(minutes, increment))
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        table.until_both_moved()
        loser = table.to_act
        assert loser is not None
        left = table.clock_of(0)["remaining"][loser]
        wait_for_timer(clock)
        clock.advance(left / 1000 - 0.002)  # two milliseconds before: nothing
        assert server.app.state.hall.rooms[room].playing
        clock.advance(0.004)
        ended = a.until("ended")
        assert (ended["status"], ended["result"]) == ("timeout", {"winner": 1 - loser, "reason": "time",
                                                                  "scores": [0, 0]})
        assert b.until("ended") == ended
    assert_record_replays_on_time(server, room, loser, tmp_path)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("days", [1, 3, 7])
def test_a_turn_based_decision_late_by_a_second_loses_on_time(server: Server, clock: ManualClock, game: str,
                                                             days: int, tmp_path: Path) -> None:
    """Turn-based: each decision has its days (the first too), given afresh after each; none are saved up."""
    room, t0, t1 = timed_pair(server, game, {"kind": "turn", "days": days})
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        for _ in range(3):  # a day less a second each time: in time
            clock.advance(days * DAY - 1)
            table.play()
            assert table.clock_of(0)["remaining"] == [days * 86_400_000] * 2
        loser = table.to_act
        assert loser is not None
        wait_for_timer(clock)
        clock.advance(days * DAY)
        ended = a.until("ended")
        assert (ended["status"], ended["result"]["winner"], ended["result"]["reason"]) == ("timeout", 1 - loser,
                                                                                           "time")
    assert_record_replays_on_time(server, room, loser, tmp_path)


def assert_record_replays_on_time(server: Server, room: str, loser: int, tmp_path: Path) -> None:
    """The record holds the time control and each action's time; it replays and verifies, and ``flametable
    replay`` shows the times and who ran out of time."""
    response = server.record(room)
    assert response.status_code == 200
    record = MatchRecord.from_json(response.json())
    assert record.clock is not None
    assert record.times is not None
    assert len(record.times) == len(record.actions)
    report = replay(make_game(record.game), record)
    assert report.ok
    assert report.forfeit == (loser, "time")
    path = tmp_path / "match.json"
    path.write_bytes(response.content)
    out = CliRunner().invoke(cli, ["replay", str(path), "--verify", "--lang", "en"])
    assert out.exit_code == 0, out.output
    assert "Time control: " in out.output
    assert f"Player {loser + 1} ran out of time after {len(record.actions)} actions" in out.output
    first = record.times[0]
    assert first is not None
    assert f": {record.actions[0]} in {first / 1000:.1f} s (left: " in out.output.splitlines()[1]
    shown = json.loads(CliRunner().invoke(cli, ["replay", str(path), "--verify", "--json"]).output)
    assert [t["spent_ms"] for t in shown["times"]] == record.times
    assert shown["result"] == {"winner": 1 - loser, "reason": "time", "scores": [0, 0]}


def test_an_action_that_comes_after_the_flag_is_refused_and_the_match_ends_on_time(server: Server,
                                                                                  clock: ManualClock) -> None:
    """The timer and an action may meet: whichever the room's lock takes first, an action past zero never plays."""
    room, t0, t1 = timed_pair(server, "duals", fischer(1, 0))
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        table.until_both_moved()
        seat = table.to_act
        assert seat is not None
        portal = server.http.portal
        assert portal is not None
        portal.call(server.app.state.hall.rooms[room]._cancel_clock)  # as if its timer had not woken yet
        clock.advance(61)
        event = table.last[seat]
        table.seats[seat].send(type="act", action=event["view"]["legal"][0], version=event["version"])
        answers = [table.seats[seat].recv() for _ in range(2)]
        assert {m["type"] for m in answers} == {"ended", "error"}
        error = next(m for m in answers if m["type"] == "error")
        assert error["code"] == "time_out"
        assert next(m for m in answers if m["type"] == "ended")["status"] == "timeout"


# ------------------------------------------------------------------ abandonment


def test_a_real_time_match_without_a_first_decision_in_30_s_is_aborted(server: Server, clock: ManualClock) -> None:
    room, t0, t1 = timed_pair(server, "duel", fischer(3, 2))
    with server.connect(room) as a, server.connect(room) as b:
        Table(a, b, t0, t1)
        wait_for_timer(clock)
        clock.advance(29.9)
        clock.advance(0.1)
        ended = a.until("ended")
        assert (ended["status"], ended["result"], ended["record"]) == ("aborted", None, None)
        assert ended["message"] == "A player made no first decision in time: the match is aborted, unrated."
    assert server.record(room).status_code == 409  # no record: nothing was played


def test_the_second_player_s_first_decision_has_its_own_30_s(server: Server, clock: ManualClock) -> None:
    room, t0, t1 = timed_pair(server, "duals", fischer(3, 2))
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        first = table.to_act
        clock.advance(20)
        table.play()
        while table.to_act == first:
            table.play()
        wait_for_timer(clock)
        clock.advance(29)  # 49 s since the match began: the other still has a second
        assert server.app.state.hall.rooms[room].playing
        clock.advance(1)
        assert a.until("ended")["status"] == "aborted"


def test_turn_based_matches_are_never_aborted(server: Server, clock: ManualClock) -> None:
    room, t0, t1 = timed_pair(server, "duals", {"kind": "turn", "days": 1})
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        clock.advance(3600)
        table.play()
        assert server.app.state.hall.rooms[room].playing


def away_for(server: Server, clock: ManualClock, game: str, seats: tuple[str, str] = ("me", "open")
             ) -> tuple[str, str, Client, Any]:
    """A 3+2 match both players started; then player 1 leaves. The room, player 0's token, its client and the
    context that keeps it open."""
    room, t0, t1 = timed_pair(server, game, fischer(3, 2))
    assert t1 is not None
    context_a = server.connect(room)
    a = context_a.__enter__()
    with server.connect(room) as b:
        table = Table(a, b, t0, t1)
        table.until_both_moved()
    presence = a.until("presence")
    assert presence["connected"] == [True, False]
    assert presence["away"] == [None, 60.0]  # the seconds until player 0 may claim
    return room, t0, a, context_a


def test_a_player_away_for_60_s_lets_the_other_claim_the_win(server: Server, clock: ManualClock) -> None:
    room, _t0, a, context = away_for(server, clock, "duel")
    try:
        clock.advance(59)
        a.send(type="claim", take="win")
        refused = a.until("error")
        assert refused["code"] == "claim_early"
        assert refused["message"] == ("The other player has been disconnected for less than 60 seconds: you may "
                                      "claim in 1 second.")
        clock.advance(1)
        assert a.until("presence")["away"] == [None, 0.0]  # told at once: the claim is there to make
        a.send(type="claim", take="win")
        ended = a.until("ended")
        assert (ended["status"], ended["result"]) == ("forfeit", {"winner": 0, "reason": "left", "scores": [0, 0]})
    finally:
        context.__exit__(None, None, None)
    record = MatchRecord.from_json(server.record(room).json())
    assert replay(make_game("duel"), record).forfeit == (1, "left")


def test_a_player_back_within_60_s_cannot_be_claimed_against(server: Server, clock: ManualClock) -> None:
    room, t0, t1 = timed_pair(server, "duals", fischer(5, 3))
    assert t1 is not None
    with server.connect(room) as a:
        with server.connect(room) as b:
            Table(a, b, t0, t1).until_both_moved()
        clock.advance(50)
        with server.connect(room) as b:
            b.hello(t1)
            clock.advance(20)
            a.send(type="claim", take="win")
            refused = a.until("error")
            assert (refused["code"], refused["message"]) == (
                "claim_present", "The other player is connected: there is nothing to claim.")


@pytest.mark.parametrize("game", GAMES)
def test_in_a_casual_match_a_bot_takes_the_empty_seat_and_the_match_is_played_to_its_end(
        server: Server, clock: ManualClock, game: str) -> None:
    _room, _t0, a, context = away_for(server, clock, game)
    try:
        clock.advance(60)
        a.send(type="claim", take="bot")
        welcome = a.until("welcome")
        assert welcome["players"][1]["kind"] == STAND_IN
        a.send(type="sync")  # the view now: player 0 acts if it is its turn, else the bot's move comes
        while True:
            message = a.recv()
            if message["type"] == "ended":
                break
            if message["type"] != "event":
                continue
            event = message["event"]
            if event["to_act"] == 0:
                clock.advance(0.5)
                a.send(type="act", action=event["view"]["legal"][0], version=event["version"])
        assert message["status"] == "over"
        assert message["result"]["reason"] not in ("time", "left")
    finally:
        context.__exit__(None, None, None)


def test_a_claim_not_allowed_is_refused_with_a_translated_error(server: Server, clock: ManualClock) -> None:
    untimed, u0, u1 = timed_pair(server, "duel", None)
    with server.connect(untimed, lang="es") as a, server.connect(untimed) as b:
        a.hello(u0), b.hello(u1)
        a.send(type="claim", take="win")
        refused = a.until("error")
        assert refused["code"] == "claim_untimed"
        assert refused["message"] == ("Solo se reclama la victoria en una partida en tiempo real cuyo otro jugador se "
                                      "fue: esta partida no tiene ese reloj.")
        a.send(type="claim", take="everything")
        assert a.until("error")["code"] == "bad_message"
    room, _t0, _t1 = timed_pair(server, "duel", fischer(3, 2))
    with server.connect(room) as watcher:
        watcher.hello()
        watcher.send(type="claim", take="win")
        assert watcher.until("error")["code"] == "spectator"


# ------------------------------------------------------------------ on a real store; rated matches


def test_the_stamps_are_stored_and_a_server_started_again_has_the_same_clocks(db_url: str,
                                                                               clock: ManualClock) -> None:
    """The times are stored with the actions (SQLite and PostgreSQL): a hall started again on the same database
    has each clock as it was, charged nothing for the time between (the decision awaited starts again)."""
    with Server(db_url=db_url, open_store=Store.open, clock=clock) as server:
        room, t0, t1 = timed_pair(server, "duals", fischer(5, 3))
        with server.connect(room) as a, server.connect(room) as b:
            table = Table(a, b, t0, t1)
            table.until_both_moved()
            clock.advance(7.25)
            table.play()
            before = table.clock_of(0)["remaining"]
            spent = list(server.app.state.hall.rooms[room].match.spent)
    assert 7250 in spent
    clock.advance(3600)  # the server is down for an hour
    with Server(db_url=db_url, open_store=Store.open, clock=clock) as server:
        stored = server.http.portal.call(server.app.state.store.load_room, room)  # type: ignore[union-attr]
        assert stored.match.spent == spent
        with server.connect(room) as a:
            a.hello(t0)
            assert a.until("clock")["clock"]["remaining"] == before


@contextmanager
def rated_players(clock: ManualClock, tmp_path: Path) -> Iterator[tuple[Any, Any, Any]]:
    """The app on a real store with accounts, and two players signed in: Ana and Bea."""
    from tests.web.test_ratings_api import App, Player

    app = App(database_url(str(tmp_path / "rated.db")), clock)
    with app.http:
        yield app, Player(app, "Ana"), Player(app, "Bea")


def test_an_aborted_rated_match_is_not_rated_and_a_loss_on_time_is(clock: ManualClock, tmp_path: Path) -> None:
    with rated_players(clock, tmp_path) as (app, ana, bea):
        for minutes, flag in ((3, False), (1, True)):
            made = ana.post("/api/rooms", {"game": "duals", "seats": ["me", "open"], "rated": True,
                                           "clock": fischer(minutes, 0)}, status=201)
            room = made["room"]
            joined = bea.post(f"/api/rooms/{room}/join", {"rated": True})
            with app.http.websocket_connect(f"/api/rooms/{room}/ws") as wa, app.http.websocket_connect(
                    f"/api/rooms/{room}/ws") as wb:
                table = Table(Client(wa), Client(wb), made["token"], joined["token"])
                if flag:
                    table.until_both_moved()
                    clock.advance(61)
                else:
                    wait_for_timer(clock)
                    clock.advance(30)
                ended = table.seats[0].until("ended")
            change = ana.get(f"/api/rooms/{room}/matches/0/rating")
            if flag:
                assert ended["status"] == "timeout"
                assert change["rated"] is True
                assert [p["delta_display"][0] for p in change["players"]] == (
                    ["+", "-"] if ended["result"]["winner"] == 0 else ["-", "+"])
            else:
                assert ended["status"] == "aborted"
                assert (change["status"], change["players"]) == ("unplayed", [])
        profile = ana.get("/api/players/Ana")
        assert [g["rated_matches"] for g in profile["games"]] == [1]  # the loss on time only


def test_in_a_rated_match_no_bot_takes_the_seat_of_a_player_who_left(clock: ManualClock, tmp_path: Path) -> None:
    with rated_players(clock, tmp_path) as (app, ana, bea):
        made = ana.post("/api/rooms", {"game": "duel", "seats": ["me", "open"], "rated": True,
                                       "clock": fischer(3, 2)}, status=201)
        room = made["room"]
        joined = bea.post(f"/api/rooms/{room}/join", {"rated": True})
        with app.http.websocket_connect(f"/api/rooms/{room}/ws?lang=es") as wa:
            a = Client(wa)
            with app.http.websocket_connect(f"/api/rooms/{room}/ws") as wb:
                Table(a, Client(wb), made["token"], joined["token"]).until_both_moved()
            clock.advance(60)
            a.send(type="claim", take="bot")
            refused = a.until("error")
            assert (refused["code"], refused["message"]) == (
                "claim_rated", "En una partida puntuada ningún bot ocupa el asiento de un jugador que se fue: reclama "
                               "la victoria.")
            a.send(type="claim", take="win")
            assert a.until("ended")["status"] == "forfeit"
        assert ana.get(f"/api/rooms/{room}/matches/0/rating")["players"][0]["delta_display"].startswith("+")


def test_the_replay_viewer_s_steps_carry_each_decision_s_time_and_both_clocks(server: Server,
                                                                              clock: ManualClock) -> None:
    room, t0, t1 = timed_pair(server, "duals", fischer(1, 0))
    with server.connect(room) as a, server.connect(room) as b:
        table = Table(a, b, t0, t1)
        table.until_both_moved()
        clock.advance(61)
        a.until("ended")
    replay_json = server.http.get(f"/api/rooms/{room}/matches/0/replay?lang=es")
    assert replay_json.status_code == 200, replay_json.text
    data = replay_json.json()
    record = MatchRecord.from_json(server.record(room).json())
    assert data["clock"] == fischer(1, 0)
    assert "time" not in data["steps"][0]
    assert [step["time"]["spent"] for step in data["steps"][1:]] == record.times
    assert all(step["time"]["left"] == [60_000, 60_000] for step in data["steps"][1:])  # no time passed meanwhile
    assert data["result"]["reason"] == "time"


def test_a_room_only_read_runs_no_clock_of_its_own(server: Server, clock: ManualClock) -> None:
    """A cluster's lobby reads a room nobody holds by making it from its row: that copy never runs the clock (it
    would end the match besides its owner)."""
    from flametable.web.rooms import Room, game_of

    room, t0, t1 = timed_pair(server, "duals", fischer(3, 2))
    with server.connect(room) as a, server.connect(room) as b:
        Table(a, b, t0, t1).until_both_moved()
        hall = server.app.state.hall
        held = hall.rooms[room]
        assert held.clock_task is not None
        portal = server.http.portal
        assert portal is not None
        copy = portal.call(lambda: Room(hall, held.row, game_of(held.row.game)))
        assert copy.clock_task is None
        assert copy.summary()["clock"] == fischer(3, 2)


def test_a_server_started_again_runs_its_timed_matches_clocks_with_nobody_connected(sqlite_database: str,
                                                                                  clock: ManualClock) -> None:
    with Server(db_url=sqlite_database, open_store=Store.open, clock=clock) as server:
        room, t0, t1 = timed_pair(server, "duel", fischer(1, 0))
        with server.connect(room) as a, server.connect(room) as b:
            table = Table(a, b, t0, t1)
            table.until_both_moved()
            loser = table.to_act
    assert loser is not None
    clock.advance(3600)
    with Server(db_url=sqlite_database, open_store=Store.open, clock=clock) as server:
        hall = server.app.state.hall
        deadline = time.monotonic() + 10
        while room not in hall.rooms or hall.rooms[room].clock_task is None:  # taken up at the start, by itself
            assert time.monotonic() < deadline, "the timed room was not taken up"
            time.sleep(0.01)
        wait_for_timer(clock)
        clock.advance(60)
        deadline = time.monotonic() + 10
        while hall.rooms.get(room) is not None and hall.rooms[room].playing:
            assert time.monotonic() < deadline, "the clock did not end the match"
            time.sleep(0.01)
        stored = server.http.get(f"/api/rooms/{room}").json()
        assert (stored["status"], stored["result"]) == ("timeout", {"winner": 1 - loser, "reason": "time",
                                                                    "scores": [0, 0]})
