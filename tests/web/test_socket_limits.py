"""How many WebSockets the server holds (issue 21, point 3): one address may hold ``sockets_per_client`` open at once
(every room together), a room takes ``spectators_per_room`` spectators (its players counted apart, never refused
for it); a socket over a limit is told why in its language and closed (4429, 4503); and every socket's count is
given back exactly once however it ends (a close, a dropped or reset connection, a cancelled handler, a send that
timed out)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from contextlib import ExitStack, suppress
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect

from flametable.web.app import create_app
from flametable.web.rooms import Hall, Limits
from tests.web.client import Client, Server, settings
from tests.web.wire import RawSocket, post, uvicorn_thread, wait_until


def limits(**changes: Any) -> Limits:
    """The limits of a test: ``changes``, and no limit on messages (not this test's concern)."""
    return Limits(actions_per_second=1e6, burst=10**6, **changes)


def closed_with(client: Client) -> int:
    """The close code the server ended ``client``'s socket with."""
    with pytest.raises(WebSocketDisconnect) as closed:
        client.recv()
    return closed.value.code


def refused(client: Client, token: str | None = None) -> tuple[str, str, int]:
    """``client`` says hello and is refused: the code and message of the error it is sent first, and the code its
    socket is then closed with."""
    client.send(type="hello", token=token)
    error = client.recv()
    assert error["type"] == "error", error
    return error["code"], error["message"], closed_with(client)


# ------------------------------------------------------------------ sockets per address


def test_an_address_holds_at_most_its_limit_of_sockets_over_every_room_and_one_more_once_one_closes() -> None:
    with Server(limits=limits(sockets_per_client=3)) as server:
        duel = server.room("duel", ["me", "open"])
        duals = server.room("duals", ["me", "open"])["room"]
        with ExitStack() as stack:
            first = stack.enter_context(server.connect(duel["room"]))
            first.hello(duel["token"])
            for room in (duel["room"], duals):
                stack.enter_context(server.connect(room)).hello()
            with server.connect(duals) as fourth:
                code, english, close = refused(fourth)
                assert (code, close) == ("too_many_sockets", 4429)
                assert "3" in english
            with server.connect(duel["room"], lang="es") as spanish:
                code, message, close = refused(spanish)
                assert (code, close) == ("too_many_sockets", 4429)
                assert "3" in message
                assert message != english
            stack.close()  # one of them would do: all three close
            with server.connect(duals) as again:
                assert again.hello()["room"] == duals


def test_a_player_counts_toward_the_address_limit_like_anyone() -> None:
    with Server(limits=limits(sockets_per_client=1)) as server:
        made = server.room("duel", ["me", "open"])
        with server.connect(made["room"]) as watching:
            watching.hello()
            with server.connect(made["room"]) as playing:
                assert refused(playing, made["token"])[0] == "too_many_sockets"


# ------------------------------------------------------------------ spectators per room


def test_a_room_takes_at_most_its_limit_of_spectators_and_its_players_still_get_in() -> None:
    with Server(limits=limits(sockets_per_client=20, spectators_per_room=2)) as server:
        room, t0, t1 = server.pair("duel")
        other = server.room("duals", ["me", "open"])["room"]
        with ExitStack() as stack:
            watchers = [stack.enter_context(server.connect(room)) for _ in range(2)]
            for watcher in watchers:
                assert watcher.hello()["seat"] is None
            with server.connect(room) as third:
                code, message, close = refused(third)
                assert (code, close) == ("room_crowded", 4503)
                assert "2" in message
            with server.connect(room, lang="es") as spanish:
                assert refused(spanish)[0] == "room_crowded"
            seats = [stack.enter_context(server.connect(room)) for _ in range(3)]  # a player with two tabs
            assert [s.hello(token)["player"] for s, token in zip(seats, (t0, t1, t0), strict=True)] == [0, 1, 0]
            assert server.http.get(f"/api/rooms/{room}").json()["players"][1]["connected"]
            assert stack.enter_context(server.connect(other)).hello()["seat"] is None  # another room: its own count
            watchers[0].ws.close()
            with server.connect(room) as next_in_line:
                assert next_in_line.hello()["seat"] is None


def test_a_socket_that_has_not_said_hello_is_no_spectator_yet() -> None:
    with Server(limits=limits(sockets_per_client=20, spectators_per_room=1)) as server:
        room, _t0, _t1 = server.pair("duel")
        with server.connect(room) as silent, server.connect(room) as watcher:
            assert watcher.hello()["seat"] is None
            assert refused(silent)[0] == "room_crowded"


# ------------------------------------------------------------------ every count given back, over real sockets


def test_the_counts_come_back_to_zero_after_many_sockets_ended_every_way() -> None:
    """Sockets of a real uvicorn, ended by a close, a connection dropped without one (FIN) or reset (RST), before or
    after hello: after each round the address has its whole allowance again and the room sends to no one."""
    app = create_app(settings(limits=limits(sockets_per_client=4, spectators_per_room=2)))
    with uvicorn_thread(app) as port:
        status, made = post(port, "/api/rooms", {"game": "duel", "seats": ["me", "open"]})
        assert status == 201
        path = f"/api/rooms/{made['room']}/ws"
        hall: Hall = app.state.hall
        for round_ in range(25):
            player, watcher, other, silent = (RawSocket(port, path) for _ in range(4))
            player.send(type="hello", token=made["token"])
            watcher.send(type="hello", token=None)
            other.send(type="hello", token=None)
            for joined in (player, watcher, other):
                joined.until("welcome")
            if round_ % 5 == 0:  # the allowance is used up: a fifth is refused
                fifth = RawSocket(port, path)
                fifth.send(type="hello", token=None)
                assert fifth.recv().get("code") == "too_many_sockets"
                assert fifth.close_code() == 4429
                fifth.close()
            player.close()
            watcher.drop()
            other.reset()
            silent.reset() if round_ % 2 else silent.drop()
            wait_until(lambda: not hall.sockets, f"round {round_}: sockets still counted: {hall.sockets}")
            wait_until(lambda: all(not room.conns for room in hall.rooms.values()),
                       f"round {round_}: the room still has connections")


# ------------------------------------------------------------------ a cancelled handler, a send timed out


class Driven:
    """One WebSocket driven through the app's ASGI interface in this event loop, from the address ``host``: what
    the client sends is queued, what the server sends is kept (the messages' JSON); while ``reading`` is cleared the
    client reads nothing (the server's sends wait, as to a client that stopped reading)."""

    def __init__(self, app: Starlette, path: str, host: str) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.got: list[dict[str, Any]] = []
        self.attempts = 0  # sends the server began
        self.arrived = asyncio.Event()
        self.idle = asyncio.Event()  # the server waits for the client's next message
        self.reading = asyncio.Event()
        self.reading.set()
        scope = {"type": "websocket", "asgi": {"version": "3.0"}, "scheme": "ws", "path": path,
                 "raw_path": path.encode(), "root_path": "", "query_string": b"", "headers": [],
                 "client": (host, 50000), "server": ("127.0.0.1", 8000), "subprotocols": []}
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.task = asyncio.get_running_loop().create_task(app(scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if self.inbox.empty():
            self.idle.set()
        try:
            return await self.inbox.get()
        finally:
            self.idle.clear()

    async def _send(self, message: MutableMapping[str, Any]) -> None:
        self.attempts += 1
        await self.reading.wait()
        self.got.append(json.loads(message["text"]) if "text" in message else {"type": message["type"]})
        self.arrived.set()

    def say(self, **message: Any) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    def disconnect(self) -> None:
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1006})

    async def until(self, kind: str) -> dict[str, Any]:
        """The first message of type ``kind`` the server sent (``websocket.accept``: the socket accepted)."""
        async with asyncio.timeout(10):
            while True:
                for message in self.got:
                    if message["type"] == kind:
                        return message
                self.arrived.clear()
                await self.arrived.wait()

    async def attempted(self, sends: int) -> None:
        async with asyncio.timeout(10):
            while self.attempts < sends:
                await asyncio.sleep(0.005)


def app_with(**changes: Any) -> Starlette:
    return create_app(settings(limits=limits(**changes)))


@pytest.mark.anyio
async def test_a_cancelled_handler_gives_its_socket_and_its_place_in_the_audience_back() -> None:
    app = app_with(sockets_per_client=2, spectators_per_room=1)
    async with app.router.lifespan_context(app):
        hall: Hall = app.state.hall
        room, _tokens = await hall.create("duel", None, ["me", "open"], "someone")
        watcher = Driven(app, f"/api/rooms/{room.id}/ws", "10.1.1.1")
        watcher.say(type="hello", token=None)
        await watcher.until("welcome")
        await watcher.idle.wait()
        assert (list(hall.sockets.values()), room.spectators()) == ([1], 1)
        watcher.task.cancel()
        with suppress(asyncio.CancelledError):
            await watcher.task
        assert (hall.sockets, room.conns) == ({}, set())
        assert room.id not in hall.rooms


@pytest.mark.anyio
async def test_a_spectator_dropped_for_a_send_that_timed_out_frees_its_place_and_its_socket_is_released_once() -> None:
    app = app_with(sockets_per_client=2, spectators_per_room=1, send_timeout=0.05)
    async with app.router.lifespan_context(app):
        hall: Hall = app.state.hall
        room, _tokens = await hall.create("duel", None, ["me", "open"], "someone")
        path = f"/api/rooms/{room.id}/ws"
        slow = Driven(app, path, "10.1.1.1")
        await slow.until("websocket.accept")
        slow.reading.clear()
        slow.say(type="hello", token=None)
        await slow.attempted(3)  # the welcome was not taken in time (the room let the socket go), then the sync
        assert room.spectators() == 0
        quick = Driven(app, path, "10.1.1.1")  # the same address
        quick.say(type="hello", token=None)
        assert (await quick.until("welcome"))["seat"] is None
        slow.reading.set()
        slow.disconnect()
        await slow.task
        assert list(hall.sockets.values()) == [1]  # quick's, still open: slow's was given back once, not twice
        quick.disconnect()
        await quick.task
        assert hall.sockets == {}


# ------------------------------------------------------------------ a client that keeps sending past its rates


def read_to_the_end(client: Client) -> int:
    """Every message ``client`` is sent until its socket is closed (kept in ``got``): the close code."""
    while True:
        try:
            client.recv()
        except WebSocketDisconnect as closed:
            return closed.code


def test_a_socket_that_keeps_sending_past_its_rate_is_closed_after_its_refusals() -> None:
    """Every message past the socket's rate is refused (``too_fast``), up to the connection's budget of such
    refusals; the next one closes it (``too_many_refusals``, 4429), so it costs the server no more."""
    with Server(limits=Limits(actions_per_second=0.001, burst=3, rate_refusals_per_second=0.001,
                              rate_refusals_burst=5)) as server:
        made = server.room("duel", ["me", "open"])
        with server.connect(made["room"], lang="es") as client:
            client.hello(made["token"])  # one of the socket's 3 messages
            for _ in range(2 + 6):
                client.send(type="sync")  # 2 within the rate, then 6 past it
            code = read_to_the_end(client)
            errors = [m for m in client.got if m["type"] == "error"]
            assert [e["code"] for e in errors] == ["too_fast"] * 6 + ["too_many_refusals"]
            assert "conexión" in errors[-1]["message"]
            assert code == 4429
            assert sum(1 for m in client.got if m["type"] == "event") == 1 + 2  # the hello's sync, then 2


def test_a_socket_within_its_rates_is_never_closed() -> None:
    with Server(limits=Limits(actions_per_second=1e6, burst=10**6, rate_refusals_per_second=0.001,
                              rate_refusals_burst=1)) as server:
        made = server.room("duel", ["me", "open"])
        with server.connect(made["room"]) as client:
            client.hello(made["token"])
            for _ in range(50):
                client.send(type="lang", lang="en")
            client.send(type="sync")
            assert client.until("event")["event"]["actor"] is None
