"""Several server processes, one database (issue 22): any process serves any client of any room. Here the halls
run in one test process (:mod:`tests.web.halls`: each on a uvicorn of its own, one PostgreSQL database, one bus);
``test_cluster_processes.py`` starts real ``flametable serve`` processes.

- Seated on different halls, a spectator on a third, both games are played to the end, and every frame each of
  them received is what its audience may know (the leak check of :mod:`tests.web.leakcheck`): the room's owner
  holds the relayed sockets as its own, and a relay only ever receives its client's audience's texts.
- A lost lease drops the room at once: its writes are refused (``LeaseLost``: nothing stored), its sockets closed
  with 1012, and the clients find the new owner.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from websockets.exceptions import ConnectionClosed

from flametable.bots.registry import HUMAN
from flametable.core import registry
from flametable.core.record import MatchRecord, replay
from flametable.web.bus import Bus, LocalBus, LocalHub, RedisBus
from flametable.web.rooms import Hall, game_of
from flametable.web.store import MatchRow, RoomRow, SeatRow, record_of, room_owners
from tests.services import machine_redis_url
from tests.web import leakcheck
from tests.web.halls import UNLIMITED, Halls, Seat, Spread, close_code

LEASE, EVERY = 1.0, 0.2
FAST = {"limits": UNLIMITED, "cluster_every": EVERY, "lease_seconds": LEASE}
"""Leases of a second, renewed (and relays checked) five times a second: the tests' failovers are quick."""


def local_buses(hub: LocalHub | None = None) -> Callable[[str], Bus]:
    shared = hub or LocalHub()
    return lambda process: LocalBus(shared, process)


def redis_buses() -> Callable[[str], Bus]:
    url = machine_redis_url()
    prefix = f"ft-test-{secrets.token_hex(4)}"
    return lambda process: RedisBus(url, process, prefix=prefix)


BUSES = {"local": local_buses, "redis": redis_buses}


@pytest.mark.parametrize("bus", sorted(BUSES))
def test_seats_on_two_halls_and_a_spectator_on_a_third_play_both_games_and_see_only_their_own(
        postgresql_database: str, bus: str) -> None:
    seeds = leakcheck.Seeds()
    with Halls(postgresql_database, BUSES[bus](), settings=lambda i: {"limits": UNLIMITED, "seeds": seeds}) as halls:
        for index, game in enumerate(("duel", "duals")):
            spread = Spread([halls.base(i) for i in range(3)])
            capture = leakcheck.play(cast(TestClient, spread), seeds, game, leakcheck.match_seed(game, index, 22))
            leaks, frames = leakcheck.check(capture)
            assert leaks == [], "\n".join(map(str, leaks[:5]))
            assert frames > 100
        made = [halls.hall(i).cluster for i in range(3)]
        assert all(c is not None for c in made)
        clusters = [c for c in made if c is not None]
        # the creator's hall held every room; the other two relayed their sockets to it
        assert clusters[0].held >= 4
        assert clusters[0].relayed == 0
        assert clusters[1].relayed >= 2
        assert clusters[2].relayed >= 2


async def recovered(hub: LocalHub) -> None:
    """The bus is back (on the halls' loop: each bus's reconnect handler runs there)."""
    hub.recover()


def first(legal: list[str]) -> str:
    return legal[0]


async def run_out(hall: Hall, room: str) -> None:
    """The room's lease runs out (its end put in the past), as if its owner had stopped renewing it."""
    async with hall.store.engine.begin() as connection:
        await connection.execute(sa.update(room_owners).where(room_owners.c.room_id == room).values(expires=1.0))


def made(halls: Halls, index: int, game: str, seats: list[str]) -> tuple[str, dict[str, str]]:
    status, body = halls.request(index, "POST", "/api/rooms", {"game": game, "seats": seats})
    assert status == 201, body
    return body["room"], body["tokens"]


def stored(halls: Halls, room: str) -> MatchRow:
    row = halls.call(halls.hall(0).store.load_room(room))
    assert row is not None
    return row.match


def test_a_process_that_lost_the_lease_cannot_write_and_its_clients_reconnect_to_the_new_owner(
        postgresql_database: str) -> None:
    """Hall 0 never renews (nor checks) its leases: it does not know that its room's lease ran out and hall 1 took
    the room. Its client's move is refused by the store (LeaseLost: nothing written); the room is dropped from
    hall 0 at once and the socket closed with 1012; the client reconnects, is relayed to the new owner and plays
    its move there."""
    slow = {"limits": UNLIMITED, "cluster_every": 3600.0, "lease_seconds": 3600.0}
    with Halls(postgresql_database, local_buses(), count=2, settings=lambda i: slow if i == 0 else FAST) as halls:
        room, tokens = made(halls, 0, "duel", ["me", "me"])
        seats = {p: Seat(halls, room, tokens[str(p)], p) for p in (0, 1)}
        seats[0].connect(0)
        mover = seats[seats[0].last["to_act"]]
        other = seats[1 - mover.seat] if mover.seat is not None else seats[1]
        mover.connect(0)  # the seat to act on the owner, hall 0; the other relayed from hall 1
        other.connect(1)
        owner, fence, _left = halls.call(halls.hall(0).store.room_owner(room)) or ("", 0, 0.0)
        assert owner == "hall-0"

        halls.call(run_out(halls.hall(1), room))
        assert other.close_code() == 1012  # hall 1 saw the lease run out: its relayed socket reconnects
        other.connect(1)  # and takes the room
        taken = halls.call(halls.hall(1).store.room_owner(room))
        assert taken is not None
        assert taken[:2] == ("hall-1", fence + 1)
        assert room in halls.hall(0).rooms  # hall 0 does not know yet

        version = mover.act(first)
        assert mover.until_error()["code"] == "moved"
        assert mover.close_code() == 1012
        assert room not in halls.hall(0).rooms  # dropped at once
        assert len(stored(halls, room).actions) == version  # nothing was written by the old owner

        welcome = mover.connect(0)  # hall 0 relays to hall 1 now
        assert (welcome["version"], welcome["seat"]) == (version, mover.seat)
        relay = halls.hall(0).cluster
        assert relay is not None
        assert relay.links
        mover.act(first)
        for seat in seats.values():
            seat.read_to(version + 1)
        assert len(stored(halls, room).actions) == version + 1


def test_a_lease_renewal_that_says_lost_drops_the_room_and_closes_every_socket_with_1012(
        postgresql_database: str) -> None:
    """Another process took the room (its lease ran out, then it was taken): the owner's next renewal says so; the
    room leaves its memory at once, its own socket and the two relayed ones are closed with 1012 (the browser
    reconnects by itself), and once the room is free again the clients come back and the match goes on."""
    with Halls(postgresql_database, local_buses(), settings=lambda i: FAST) as halls:
        room, tokens = made(halls, 0, "duals", ["me", "me"])
        clients = [Seat(halls, room, tokens["0"], 0), Seat(halls, room, tokens["1"], 1), Seat(halls, room, None)]
        for index, client in enumerate(clients):
            client.connect(index)
        mover = clients[clients[0].last["to_act"]]
        version = mover.act(first)
        for client in clients:
            client.read_to(version + 1)

        store = halls.hall(2).store
        halls.call(run_out(halls.hall(2), room))
        fence = halls.call(store.take_room(room, "thief", 60.0))
        assert fence == 2
        assert [client.close_code() for client in clients] == [1012, 1012, 1012]
        assert room not in halls.hall(0).rooms

        assert halls.call(store.release_room(room, "thief", fence))
        for index, client in zip((2, 1, 0), clients, strict=True):
            welcome = client.connect(index)
            assert welcome["version"] == version + 1
        assert halls.owner(room) == 2  # the first to come back took it
        mover = clients[clients[0].last["to_act"]]
        mover.act(first)
        for client in clients:
            client.read_to(version + 2)


async def hold_the_loop(seconds: float) -> None:
    """Keep the loop busy computing for ``seconds`` (a process starved of CPU: none of its tasks runs)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))


def test_a_process_whose_loop_is_held_past_its_leases_keeps_its_rooms(postgresql_database: str) -> None:
    """Leases are renewed from a thread of their own (PostgreSQL): a process whose event loop is held for three
    leases (a starved CPU) still holds its room when the loop runs again, its lease never ran out, its sockets are
    open and the match goes on; the owner's thread renewed meanwhile."""
    with Halls(postgresql_database, local_buses(), count=1, settings=lambda i: FAST) as halls:
        room, tokens = made(halls, 0, "duel", ["me", "me"])
        seats = [Seat(halls, room, tokens["0"], 0), Seat(halls, room, tokens["1"], 1)]
        for seat in seats:
            seat.connect(0)
        fence = halls.hall(0).rooms[room].fence
        cluster = halls.hall(0).cluster
        keeper = cluster.keeper if cluster is not None else None
        before = keeper.renewals if keeper is not None else 0
        halls.call(hold_the_loop(3 * LEASE))
        during = keeper.renewals if keeper is not None else 0
        time.sleep(3 * EVERY)  # the loop's own checks run again
        assert room in halls.hall(0).rooms
        assert halls.hall(0).rooms[room].fence == fence
        owner = halls.call(halls.hall(0).store.room_owner(room))
        assert owner is not None
        assert owner[:2] == ("hall-0", fence)
        assert owner[2] > 0
        version = seats[0].last["version"]
        for seat in seats:  # (Flame Duel's line-ups: both seats decide)
            if seat.last["view"]["legal"]:
                seat.act(first)
        for seat in seats:
            seat.read_to(version + 1)
        assert during >= before + 5  # every 0.2 s, through the three seconds


def test_a_seat_s_new_token_given_by_another_process_opens_the_seat_at_its_owner_and_the_old_one_no_more(
        postgresql_database: str) -> None:
    """A signed-in player takes their seat up on another device through a process that does not hold the room: the
    room's owner learns the seat's new token hash at once (the cluster's ``reseat``), so the new token opens the
    seat there and the old one no longer does."""
    from types import SimpleNamespace

    from flametable.web.accounts import HashCost
    from tests.web.test_accounts_security import Client, hello

    cheap = {**FAST, "password_cost": HashCost(1, 16384, 1)}
    with Halls(postgresql_database, local_buses(), count=2, settings=lambda i: cheap) as halls:
        laptop = Client(cast(Any, SimpleNamespace(port=halls.ports[0])), "127.0.0.1")
        name, password = laptop.sign_up()
        made_room = laptop.make_room(["me", "me"])
        room, old_token = made_room.json["room"], made_room.json["token"]
        with halls.connect(0, room) as spectator:  # (the room stays in hall 0's memory while someone is there)
            assert hello(spectator, None)["type"] == "welcome"
            assert halls.owner(room) == 0
            phone = Client(cast(Any, SimpleNamespace(port=halls.ports[1])), "127.0.0.1")
            assert phone.sign_in(name, password).status == 200
            given = phone.post(f"/api/rooms/{room}/seat")
            assert (given.status, given.json["player"]) == (200, 0)
            with halls.connect(0, room) as ws:
                welcome = hello(ws, given.json["token"])
                assert (welcome["type"], welcome["player"]) == ("welcome", 0)
            with halls.connect(0, room) as ws:
                assert hello(ws, old_token)["code"] == "bad_token"
            assert halls.owner(room) == 0


def test_http_on_a_process_that_does_not_hold_the_room_is_answered_by_its_owner(postgresql_database: str) -> None:
    """GET /api/rooms/ID and the lobby show the owner's presence; a seat taken through another process is told
    at once to the owner's sockets; a room closed through another process ends for them; with the bus down the
    answer is 503 ``unreachable``, in the reader's language."""
    hub = LocalHub()
    with Halls(postgresql_database, local_buses(hub), settings=lambda i: FAST) as halls:
        room, tokens = made(halls, 0, "duel", ["me", "open"])
        creator = Seat(halls, room, tokens["0"], 0)
        creator.connect(0)
        status, summary = halls.request(1, "GET", f"/api/rooms/{room}")
        assert status == 200
        assert [(s["connected"], s["open"]) for s in summary["players"]] == [(True, False), (False, True)]
        assert room not in halls.hall(1).rooms  # shown, not taken
        status, lobby = halls.request(2, "GET", "/api/rooms")
        assert [r["players"][0]["connected"] for r in lobby["rooms"] if r["room"] == room] == [True]

        status, joined = halls.request(2, "POST", f"/api/rooms/{room}/join", {})
        assert (status, joined["player"]) == (200, 1)
        while (message := creator.recv())["type"] != "welcome":
            pass
        assert [s["open"] for s in message["players"]] == [False, False]
        guest = Seat(halls, room, joined["token"], 1)
        assert guest.connect(1)["seat"] == 1  # relayed: the owner knows the new seat

        waiting, waiting_tokens = made(halls, 0, "duel", ["me", "open"])
        host = Seat(halls, waiting, waiting_tokens["0"], 0)
        host.connect(0)
        status, closed = halls.request(1, "POST", f"/api/rooms/{waiting}/close", {"token": waiting_tokens["0"]})
        assert (status, closed["status"]) == (200, "closed")
        while host.ended is None:
            host.recv()
        assert host.ended["status"] == "closed"

        hub.fail()
        try:
            status, body = halls.request(1, "GET", f"/api/rooms/{room}")
            assert (status, body["error"]) == (503, "unreachable")
            assert body["message"] == ("The server cannot reach this room's table just now: try again in a "
                                       "moment.")
            status, body = halls.request(1, "GET", f"/api/rooms/{room}?lang=es")
            assert (status, body["error"]) == (503, "unreachable")
            assert body["message"] != ("The server cannot reach this room's table just now: try again in a "
                                       "moment.")
        finally:
            halls.call(recovered(hub))


def test_with_the_bus_down_the_owner_goes_on_and_relayed_clients_resync_once_it_is_back(
        postgresql_database: str) -> None:
    """The bus fails: a relayed client's message gets ``unreachable``; the owner goes on serving its own socket
    (its moves are stored and told to it). The bus comes back: the relayed socket is closed with 1012, and the
    client, back with the version it saw last, gets what it missed and plays on."""
    hub = LocalHub()
    with Halls(postgresql_database, local_buses(hub), count=2, settings=lambda i: FAST) as halls:
        room, tokens = made(halls, 0, "duals", ["me", "me"])
        local, relayed = Seat(halls, room, tokens["0"], 0), Seat(halls, room, tokens["1"], 1)
        local.connect(0)
        relayed.connect(1)
        while local.last["to_act"] != 0:  # the owner's own seat to act when the bus goes down
            version = relayed.act(first)
            local.read_to(version + 1)
            relayed.read_to(version + 1)
        hub.fail()
        try:
            relayed.send(type="sync")
            assert relayed.until_error()["code"] == "unreachable"
            moves = 0
            while local.last["to_act"] == 0 and moves < 20:  # the owner serves its own socket meanwhile
                version = local.act(first)
                local.read_to(version + 1)
                moves += 1
            assert moves >= 1
            assert relayed.version < local.version  # what the relayed client missed
        finally:
            halls.call(recovered(hub))
        assert relayed.close_code() == 1012
        relayed.connect(1)
        assert relayed.version == local.version  # caught up
        missed = local.version
        while local.last["to_act"] is not None and local.version < missed + 6:
            mover = local if local.last["to_act"] == 0 else relayed
            version = mover.act(first)
            local.read_to(version + 1)
            relayed.read_to(version + 1)
        assert len(stored(halls, room).actions) == local.version


def test_a_relayed_hello_the_bus_cannot_deliver_is_told_unreachable_and_its_socket_closed_to_come_back(
        postgresql_database: str) -> None:
    """With the bus down, a client reaching a process that does not hold its room is told ``unreachable`` and its
    socket closed with 1012 (never left open waiting for a welcome that cannot come); once the bus is back, the same
    client's hello through that process is welcomed."""
    hub = LocalHub()
    with Halls(postgresql_database, local_buses(hub), count=2, settings=lambda i: FAST) as halls:
        room, tokens = made(halls, 0, "duals", ["me", "me"])
        Seat(halls, room, tokens["0"], 0).connect(0)
        relayed = Seat(halls, room, tokens["1"], 1)
        hub.fail()
        try:
            ws = halls.connect(1, room)
            ws.send(json.dumps({"type": "hello", "token": tokens["1"]}))
            error = json.loads(ws.recv(10))
            assert (error["type"], error["code"]) == ("error", "unreachable")
            assert close_code(ws.recv) == 1012
        finally:
            halls.call(recovered(hub))
        for _attempt in range(3):  # the bus's return may close (1012) a socket relayed just before it was seen
            try:
                welcome = relayed.connect(1)
                break
            except ConnectionClosed:
                time.sleep(0.2)
        assert welcome["seat"] == 1


def test_sockets_and_budgets_of_an_address_are_counted_over_every_process(postgresql_database: str) -> None:
    """On Redis, an address's sockets are counted for all the processes together (2 here: the third is refused,
    on whichever process), as its requests with a body are (3 at once)."""
    limits = replace(UNLIMITED, sockets_per_client=2, bodies_per_second=0.01, bodies_burst=3)
    with Halls(postgresql_database, redis_buses(), settings=lambda i: {"limits": limits}) as halls:
        room, _tokens = made(halls, 0, "duel", ["me", "me"])
        first_socket, second = halls.connect(0, room), halls.connect(1, room)
        try:
            third = Seat(halls, room, None)
            third.ws = halls.connect(2, room)
            assert third.recv()["code"] == "too_many_sockets"
            assert third.close_code() == 4429
            first_socket.close()
            deadline = time.monotonic() + 5
            while True:  # given back by hall 0 once it has seen its socket end: then hall 2 takes one more
                again = halls.connect(2, room)
                again.send(json.dumps({"type": "hello", "token": None}))
                answer = json.loads(again.recv(5))
                again.close()
                if answer["type"] == "welcome":
                    break
                assert answer["code"] == "too_many_sockets"
                assert time.monotonic() < deadline, "the closed socket was not given back"
                time.sleep(0.05)
        finally:
            first_socket.close()
            second.close()
        # the room made on hall 0 was the first request with a body: two more, on halls 1 and 2, and no third
        statuses = [halls.request(i, "POST", "/api/games/duel/options/check", {"options": {}})[0] for i in (1, 2, 0)]
        assert statuses == [200, 200, 429]


def dead_owners_room(game: str, seats: list[str], seed: int) -> RoomRow:
    """A room as ``Hall.create`` makes it (for a store of the test's own), with no owner yet."""
    engine = game_of(game)
    cid, chash = engine.content_id()
    room_id = secrets.token_urlsafe(12)
    rows = [SeatRow(p, HUMAN if spec == "me" else spec, None) for p, spec in enumerate(seats)]
    match = MatchRow(room_id=room_id, number=0, game=game, rules_version=engine.rules_version, content_id=cid,
                     content_hash=chash, options={}, seed=seed, players=[r.kind for r in rows], first_player=0)
    return RoomRow(id=room_id, game=game, options={}, creator="test", created_at=time.time(), seats=rows,
                   match=match)


def test_a_bots_room_left_by_a_dead_owner_is_taken_over_and_played_to_the_end(postgresql_database: str) -> None:
    """A room of two bots whose owner died (its lease ran out, never given back) is taken over by one of the live
    processes within a few seconds, with nobody connected, and its bots play it to the end; each decision is
    stored once (the record replays)."""
    with Halls(postgresql_database, local_buses(), settings=lambda i: FAST) as halls:
        store = halls.hall(0).store
        row = dead_owners_room("duel", ["bot:random", "bot:random"], 7)
        halls.call(store.create_room(row))
        assert halls.call(store.take_room(row.id, "dead", 0.2)) == 1
        started = time.monotonic()
        halls.wait(lambda: stored(halls, row.id).status == "over", "the bots' match ended", 10)
        assert time.monotonic() - started < 5
        clusters = [halls.hall(i).cluster for i in range(3)]
        assert sum(c.takeovers for c in clusters if c is not None) == 1
        match = stored(halls, row.id)
        report = replay(registry.make_game("duel"), MatchRecord.from_json(record_of(match).to_json()))
        assert report.ok
        assert report.outcome is not None


def test_a_room_taken_over_with_no_bot_to_move_is_given_back_and_left_alone(postgresql_database: str) -> None:
    """A person's turn against a bot, the person gone with the owner: taken over once, given back at once (no
    bot to move), and not taken again round after round. (Leases of 3 s: a loaded machine may hold the taker for
    longer than a second between its take and its release, and a lease run out meanwhile is rightly taken again.)"""
    with Halls(postgresql_database, local_buses(), settings=lambda i: {**FAST, "lease_seconds": 3.0}) as halls:
        store = halls.hall(0).store
        row = dead_owners_room("duel", ["me", "bot:random"], 8)
        halls.call(store.create_room(row))
        halls.call(store.take_room(row.id, "dead", 0.2))
        clusters = [c for c in (halls.hall(i).cluster for i in range(3)) if c is not None]
        halls.wait(lambda: sum(c.takeovers for c in clusters) >= 1, "a takeover", 5)
        time.sleep(1.5)  # several more rounds of every hall
        assert sum(c.takeovers for c in clusters) == 1
        owner = halls.call(store.room_owner(row.id))
        assert owner is not None
        assert owner[0].startswith("hall-")
        assert owner[2] < -1000  # given back
        assert stored(halls, row.id).actions == []  # the person's turn: nothing was played
        assert halls.owner(row.id) is None


def test_a_timed_room_left_by_a_dead_owner_is_taken_over_and_its_clock_ends_the_match_once(
        postgresql_database: str) -> None:
    """Issue 24: a room whose match plays with a clock is taken over from a dead owner even with nobody connected
    and no bot in it (its clock has to run somewhere); only its owner runs the clock, which ends the match on time
    exactly once (the store ends a match still playing, with the owner's lease), charged from the takeover on."""
    from flametable.service import MatchService
    from flametable.service.clock import ManualClock

    clock = ManualClock()
    with Halls(postgresql_database, local_buses(), settings=lambda i: {**FAST, "clock": clock}) as halls:
        store = halls.hall(0).store
        row = dead_owners_room("duals", ["me", "me"], 9)
        row.match.clock = {"kind": "fischer", "minutes": 1, "increment": 0}
        halls.call(store.create_room(row))
        assert row.match.id is not None
        service = MatchService.new(registry.make_game("duals"), {}, 9, ["human", "human"])
        moved: set[int] = set()
        index = 0
        left = [60_000, 60_000]
        while len(moved) < 2 or service.to_act not in moved:  # both made a first decision: a clock runs
            seat = service.to_act
            assert seat is not None
            if seat in moved:
                left[seat] -= 2_000  # a first decision is free, the later ones are charged
            moved.add(seat)
            notation = service.legal(seat)[0].text()
            service.submit(seat, notation)
            halls.call(store.append_action(row.match.id, index, notation, seat, spent_ms=2_000))
            index += 1
        loser = service.to_act
        halls.call(store.take_room(row.id, "dead", 0.2))
        clusters = [c for c in (halls.hall(i).cluster for i in range(3)) if c is not None]
        halls.wait(lambda: sum(c.takeovers for c in clusters) == 1 and halls.owner(row.id) is not None,
                   "a takeover", 5)
        owner = halls.owner(row.id)
        assert owner is not None
        room = halls.hall(owner).rooms[row.id]
        assert room.clocks is not None
        assert room.clocks.remaining == left
        assert loser is not None
        clock.advance(left[loser] / 1000 - 0.1)
        time.sleep(0.3)
        assert stored(halls, row.id).status == "playing"
        clock.advance(0.2)
        halls.wait(lambda: stored(halls, row.id).status == "timeout", "the match ended on time", 5)
        assert stored(halls, row.id).result == {"winner": 1 - loser, "reason": "time", "scores": [0, 0]}
        time.sleep(1.0)  # several rounds of every hall: nobody takes an ended match up again
        assert sum(c.takeovers for c in clusters) == 1


def test_a_deck_brought_through_another_process_is_checked_and_played_by_the_room_s_owner(
        postgresql_database: str) -> None:
    """Issue 24: the joiner's own deck (R2) goes with the join to the process that holds the room; a bad one is
    refused there in the reader's language, a good one is the joiner's at the table."""
    creator_deck = {"characters": [18, 26, 27], "supports": [1, 2, 3, 4, 8, 11, 12, 13, 14, 18]}
    joiner_deck = {"characters": [3, 7, 12], "supports": [5, 6, 7, 9, 10, 15, 16, 17, 19]}
    with Halls(postgresql_database, local_buses(LocalHub()), settings=lambda i: FAST) as halls:
        status, body = halls.request(0, "POST", "/api/rooms", {"game": "duel", "seats": ["me", "open"],
                                                               "options": {"mode": "decks",
                                                                           "decks": [creator_deck, None]}})
        assert status == 201, body
        room = body["room"]
        creator = Seat(halls, room, body["token"], 0)
        creator.connect(0)  # hall 0 holds the room
        bad = {"characters": [3, 7], "supports": joiner_deck["supports"]}
        status, refused = halls.request(2, "POST", f"/api/rooms/{room}/join?lang=es", {"brings": bad})
        assert (status, refused["error"], refused["problem"]) == (
            400, "bad_options", "un mazo tiene exactamente 3 personajes, no 2")
        status, joined = halls.request(2, "POST", f"/api/rooms/{room}/join", {"brings": joiner_deck})
        assert (status, joined["player"], joined["brought"]) == (200, 1, "own")
        guest = Seat(halls, room, joined["token"], 1)
        guest.connect(1)
        while not guest.events:
            guest.recv()
        assert guest.last["view"]["my_characters"] == joiner_deck["characters"]
