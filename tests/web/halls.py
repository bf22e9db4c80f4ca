"""Several halls in one test process, as a cluster of servers: each app on a real uvicorn of its own (a free port of
127.0.0.1), all of them on one event loop in one thread, sharing one PostgreSQL database and one bus (a
:class:`~flametable.web.bus.LocalHub`'s buses, or Redis). The test speaks to them over real sockets, and reaches
into their halls on their loop (:meth:`Halls.call`).

:class:`Spread` makes them look like one Starlette ``TestClient`` to :func:`tests.web.leakcheck.play`: each
WebSocket it opens goes to the next server in turn (the seat of the room's creator to the first, the other seat
to the second, the spectator to the third), each HTTP request too.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

import uvicorn
from starlette.applications import Starlette
from websockets.sync.client import ClientConnection, connect

from flametable.web.app import Settings, create_app
from flametable.web.bus import Bus
from flametable.web.rooms import Hall, Limits
from flametable.web.store import upgrade
from tests.web.live import free_port

T = TypeVar("T")
SECONDS = 30.0
_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Halls:
    """``count`` servers on ``db_url``, their buses made by ``bus(process)``; ``settings`` changes each one's
    :class:`Settings` (by its index)."""

    def __init__(self, db_url: str, bus: Callable[[str], Bus], count: int = 3,
                 settings: Callable[[int], dict[str, Any]] | None = None) -> None:
        self.db_url = db_url
        self.bus = bus
        self.count = count
        self.changes = settings or (lambda index: {})
        self.ports = [free_port() for _ in range(count)]
        self.apps: list[Starlette] = []
        self.servers: list[uvicorn.Server] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None

    def __enter__(self) -> Halls:
        asyncio.run(upgrade(self.db_url))  # once, before the servers (that do not migrate)
        for index in range(self.count):
            base: dict[str, Any] = {"bots": "thread", "bot_workers": 1, "migrate": False, "bus": self.bus,
                                    "process": f"hall-{index}"}
            base.update(self.changes(index))
            app = create_app(Settings(self.db_url, **base))
            self.apps.append(app)
            self.servers.append(uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.ports[index],
                                                              log_config=None, lifespan="on",
                                                              ws_per_message_deflate=False)))
        ready = threading.Event()

        async def serve() -> None:
            self.loop = asyncio.get_running_loop()
            ready.set()
            await asyncio.gather(*(server.serve() for server in self.servers))

        def run() -> None:
            asyncio.run(serve())

        self.thread = threading.Thread(target=run, name="halls", daemon=True)
        self.thread.start()
        ready.wait(SECONDS)
        deadline = time.monotonic() + SECONDS
        while not all(server.started for server in self.servers):
            assert self.thread.is_alive(), "the servers stopped"
            assert time.monotonic() < deadline, "the servers did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        for server in self.servers:
            server.should_exit = True
        if self.thread is not None:
            self.thread.join(SECONDS)

    def hall(self, index: int) -> Hall:
        hall: Hall = self.apps[index].state.hall
        return hall

    def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the servers' loop; its result."""
        assert self.loop is not None
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(SECONDS)

    def base(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    def request(self, index: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base(index) + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with _HTTP.open(request, timeout=SECONDS) as answer:
                return int(answer.status), json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            return int(exc.code), json.loads(exc.read() or b"null")

    def connect(self, index: int, room: str, query: str = "") -> ClientConnection:
        """A socket of ``room`` on hall ``index`` (closed with its ``close()``)."""
        ws: ClientConnection = ExitStack().enter_context(connect(
            f"ws://127.0.0.1:{self.ports[index]}/api/rooms/{room}/ws{query}", proxy=None, open_timeout=SECONDS,
            close_timeout=1))
        return ws

    def owner(self, room: str) -> int | None:
        """The index of the hall holding ``room`` in memory, if one does."""
        held = [index for index in range(self.count) if room in self.hall(index).rooms]
        assert len(held) <= 1, f"the room {room} is in the memory of halls {held}"
        return held[0] if held else None

    def wait(self, check: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while not check():
            assert time.monotonic() < deadline, f"not in {seconds} s: {what}"
            time.sleep(0.02)


class Response:
    """What :func:`tests.web.leakcheck.play` reads of an HTTP answer."""

    def __init__(self, status: int, text: str) -> None:
        self.status_code = status
        self.text = text

    def json(self) -> Any:
        return json.loads(self.text)


class _Socket:
    def __init__(self, ws: ClientConnection, rate: float | None = None) -> None:
        self.ws = ws
        self.rate = rate  # messages a second at most (a real server's limit: a client that paces itself)
        self.allowance = 20.0
        self.stamp = time.monotonic()

    def send_text(self, text: str) -> None:
        if self.rate is not None:
            while True:
                now = time.monotonic()
                self.allowance = min(20.0, self.allowance + (now - self.stamp) * self.rate)
                self.stamp = now
                if self.allowance >= 1.0:
                    break
                time.sleep((1.0 - self.allowance) / self.rate)
            self.allowance -= 1.0
        self.ws.send(text)

    def receive_text(self) -> str:
        data = self.ws.recv(SECONDS)
        return data if isinstance(data, str) else data.decode()


class Spread:
    """A ``TestClient`` for :func:`tests.web.leakcheck.play` over several servers (``bases``: their
    ``http://host:port``): the first request and the first socket to the first server, each next one to the next."""

    def __init__(self, bases: Sequence[str], rate: float | None = None) -> None:
        self.bases = list(bases)
        self.rate = rate  # each socket's messages a second, at most
        self.sockets = 0
        self.requests = 0

    def request(self, method: str, path: str, json: Any = None) -> Response:  # TestClient's name
        import json as json_module

        base = self.bases[self.requests % len(self.bases)]
        self.requests += 1
        data = None if json is None else json_module.dumps(json).encode()
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with _HTTP.open(request, timeout=SECONDS) as answer:
                return Response(int(answer.status), answer.read().decode())
        except urllib.error.HTTPError as exc:
            return Response(int(exc.code), exc.read().decode())

    @contextmanager
    def websocket_connect(self, path: str) -> Iterator[_Socket]:
        base = self.bases[self.sockets % len(self.bases)]
        self.sockets += 1
        with ExitStack() as stack:
            ws = stack.enter_context(connect(base.replace("http://", "ws://") + path, proxy=None,
                                             open_timeout=SECONDS, close_timeout=1))
            yield _Socket(ws, self.rate)


UNLIMITED = Limits(actions_per_second=1e9, burst=10**9, expensive_per_second=1e9, expensive_burst=10**9,
                   bodies_per_second=1e9, bodies_burst=10**9, replays_per_second=1e9, replays_burst=10**9)


class Seat:
    """A client of a room (a seat's token, or None to watch) that may connect to any of the halls, again and
    again: every event it saw, across its sockets."""

    def __init__(self, halls: Halls, room: str, token: str | None, seat: int | None = None) -> None:
        self.halls = halls
        self.room = room
        self.token = token
        self.seat = seat
        self.ws: ClientConnection | None = None
        self.events: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.ended: dict[str, Any] | None = None

    @property
    def last(self) -> dict[str, Any]:
        return self.events[-1]

    @property
    def version(self) -> int:
        return int(self.last["version"]) if self.events else -1

    def take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "event":
            self.events.append(message["event"])
        elif kind == "error":
            self.errors.append(message)
        elif kind == "ended":
            self.ended = message

    def connect(self, index: int, query: str = "") -> dict[str, Any]:
        """A new socket to hall ``index``, hello said with the version last seen: the welcome (what follows it,
        up to the presence, read too)."""
        if self.ws is not None:
            self.ws.close()
        self.ws = self.halls.connect(index, self.room, query)
        seen: dict[str, Any] = {"match": 0, "version": self.version} if self.events else {}
        self.ws.send(json.dumps({"type": "hello", "token": self.token, **seen}))
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        while self.recv()["type"] != "presence":
            pass
        return welcome

    def recv(self, timeout: float = SECONDS) -> dict[str, Any]:
        assert self.ws is not None
        data = self.ws.recv(timeout)
        message: dict[str, Any] = json.loads(data)
        self.take(message)
        return message

    def send(self, **message: Any) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def act(self, choose: Callable[[list[str]], str]) -> int:
        """Play one of the legal actions of the last view (``choose`` picks it): the version it was chosen at."""
        version = self.version
        self.send(type="act", action=choose(self.last["view"]["legal"]), version=version)
        return version

    def read_to(self, version: int) -> None:
        while self.version < version:
            message = self.recv()
            assert message["type"] != "error", message

    def until_error(self) -> dict[str, Any]:
        while (message := self.recv())["type"] != "error":
            pass
        return message

    def close_code(self, timeout: float = 10.0) -> int:
        """Read until the server closes the socket: its close code."""
        return close_code(lambda left: self.recv(left), timeout)


def close_code(recv: Callable[[float], Any], timeout: float = 10.0) -> int:
    """Receive (``recv(seconds)``) until the server closes the socket: its close code (-1: closed without a close
    frame)."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + timeout
    code = -1
    try:
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the socket was not closed"
            recv(left)
    except ConnectionClosed as closed:
        code = closed.rcvd.code if closed.rcvd is not None else -1
    return int(code)
