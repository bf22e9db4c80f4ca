"""Request bodies within their limits (issue 21, point 1): a ``Content-Length`` past the limit is refused before a
byte is read, a body with no length (or longer than it said) stops being read as soon as it passes the limit, so
an oversized request costs the server no more memory than its limit; and a JSON body or message with a key twice
is refused (point 7).

The app is spoken to through ASGI directly, in the test client's own event loop, with a ``receive`` that counts
every byte the app pulled: the test client would read the whole body before the app sees it."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest

from flametable.web.rooms import Limits
from tests.web.client import Server

LIMITS = Limits()
CHUNK = 64 * 1024  # what uvicorn hands the app at once, about
MIB = 1024 * 1024
ROOM = b'{"game": "duel", "seats": ["me", "open"]}'
# Every route that reads a body: its path and its limit.
ROUTES = [("/api/rooms", LIMITS.body_bytes), ("/api/games/duel/options/check", LIMITS.body_bytes),
          ("/api/replay", LIMITS.record_bytes)]


@dataclass
class Answer:
    """What the app answered, and how many bytes of the body it pulled to answer it."""

    status: int
    headers: dict[str, str]
    body: dict[str, Any]
    pulled: int


@dataclass
class Asked:
    """One request: its path, headers and body (in chunks, made only when the app asks for them)."""

    path: str
    chunks: Iterable[bytes]
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    query: bytes = b""


def spaces(size: int) -> Iterator[bytes]:
    """``size`` bytes of spaces in chunks of :data:`CHUNK`, each made fresh when it is pulled (as a server
    receives them)."""
    while size > 0:
        yield b" " * min(CHUNK, size)
        size -= CHUNK


def length(size: int | str) -> list[tuple[bytes, bytes]]:
    return [(b"content-length", str(size).encode("ascii"))]


async def ask(server: Server, asked: Asked) -> Answer:
    """``POST`` the request to the app over ASGI."""
    chunks = iter(asked.chunks)
    pulled = 0
    done = False
    started: dict[str, Any] = {}
    body = bytearray()

    async def receive() -> dict[str, Any]:
        nonlocal pulled, done
        await anyio.sleep(0)  # as a server's receive waits for the network: requests at once take turns
        if done:
            return {"type": "http.disconnect"}
        chunk = next(chunks, None)
        if chunk is None:
            done = True
            return {"type": "http.request", "body": b"", "more_body": False}
        pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            started.update(message)
        else:
            body.extend(message.get("body", b""))

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": asked.path, "raw_path": asked.path.encode("ascii"), "query_string": asked.query,
             "root_path": "", "headers": [(b"host", b"testserver"), *asked.headers], "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80)}
    await server.app(scope, receive, send)
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in started["headers"]}
    return Answer(started["status"], headers, json.loads(body) if body else {}, pulled)


def post(server: Server, asked: Asked) -> Answer:
    portal = server.http.portal
    assert portal is not None
    return portal.call(ask, server, asked)


@pytest.fixture
def server() -> Iterator[Server]:
    with Server() as s:
        yield s


# ------------------------------------------------------------------ a body past its limit


@pytest.mark.parametrize(("path", "limit"), ROUTES)
def test_a_content_length_past_the_limit_is_refused_before_a_byte_is_read(server: Server, path: str,
                                                                           limit: int) -> None:
    answer = post(server, Asked(path, spaces(300 * MIB), length(300 * MIB)))
    assert (answer.status, answer.body["error"]) == (413, "too_big")
    assert answer.pulled == 0
    assert f"at most {limit} bytes; this one holds {300 * MIB}." in answer.body["message"]
    assert answer.headers["connection"] == "close"  # the server does not go on receiving the rest


@pytest.mark.parametrize(("path", "limit"), ROUTES)
def test_a_body_with_no_length_stops_being_read_right_after_the_limit(server: Server, path: str, limit: int) -> None:
    answer = post(server, Asked(path, spaces(50 * MIB)))
    assert (answer.status, answer.body["error"]) == (413, "too_big")
    assert limit < answer.pulled <= limit + CHUNK
    assert f"at most {limit} bytes; this one holds more." in answer.body["message"]
    assert answer.headers["connection"] == "close"


@pytest.mark.parametrize("declared", [10, 1000, LIMITS.body_bytes])
def test_a_body_longer_than_its_content_length_is_not_read_past_it(server: Server, declared: int) -> None:
    answer = post(server, Asked("/api/rooms", spaces(50 * MIB), length(declared)))
    assert (answer.status, answer.body["error"]) == (400, "bad_length")
    assert answer.pulled <= declared + CHUNK
    assert answer.body["message"] == "The request's body is longer than its Content-Length says."


@pytest.mark.parametrize("declared", ["-1", "-0", "+41", " ", "", "4e1", "0x29", "41.0", "41, 41", "٤١", "9" * 5000])
def test_a_content_length_that_is_no_number_of_bytes_is_refused(server: Server, declared: str) -> None:
    answer = post(server, Asked("/api/rooms", [ROOM], [(b"content-length", declared.encode("utf-8"))]))
    assert (answer.status, answer.body["error"]) == (400, "bad_length")
    assert answer.body["message"] == "The request's Content-Length is not a number of bytes."


def test_two_content_lengths_that_differ_are_refused(server: Server) -> None:
    answer = post(server, Asked("/api/rooms", [ROOM], length(len(ROOM)) + length(len(ROOM) + 1)))
    assert (answer.status, answer.body["error"]) == (400, "bad_length")


def test_the_refusal_says_the_limit_in_spanish_too(server: Server) -> None:
    sized = post(server, Asked("/api/replay", spaces(2 * MIB), length(2 * MIB), query=b"lang=es"))
    unsized = post(server, Asked("/api/rooms", spaces(MIB), query=b"lang=es"))
    assert sized.body["message"] == (f"Un archivo de registro puede tener como mucho {LIMITS.record_bytes} bytes; "
                                     f"este tiene {2 * MIB}.")
    assert unsized.body["message"] == (f"Una petición puede tener como mucho {LIMITS.body_bytes} bytes; esta tiene "
                                       "más.")


# ------------------------------------------------------------------ bodies within the limit


def test_a_body_at_the_limit_is_read_whether_its_length_is_said_or_not(server: Server) -> None:
    body = ROOM + b" " * (LIMITS.body_bytes - len(ROOM))
    halves = [body[:CHUNK // 2], body[CHUNK // 2:]]
    assert post(server, Asked("/api/rooms", halves, length(len(body)))).status == 201
    assert post(server, Asked("/api/rooms", halves)).status == 201
    assert post(server, Asked("/api/rooms", [*halves, b" "])).status == 413


def test_an_empty_body_is_still_an_empty_request(server: Server) -> None:
    answer = post(server, Asked("/api/rooms", [], length(0)))
    assert (answer.status, answer.body["error"]) == (400, "bad_request")  # {} has no game: the schema says so


# ------------------------------------------------------------------ memory


def peak_growth(server: Server, requests: list[Asked]) -> int:
    """The most memory the server's process held above what it held before, while it answered ``requests`` at
    once (each refused with 413)."""

    async def all_at_once() -> None:
        async def one(asked: Asked) -> None:
            assert (await ask(server, asked)).status == 413

        async with anyio.create_task_group() as group:
            for asked in requests:
                group.start_soon(one, asked)

    portal = server.http.portal
    assert portal is not None
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        portal.call(all_at_once)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(("path", "size", "said"), [("/api/replay", 300 * MIB, True), ("/api/rooms", 200 * MIB, True),
                                                    ("/api/replay", 50 * MIB, False), ("/api/rooms", 50 * MIB, False)])
def test_an_oversized_request_costs_the_server_under_2_mib(server: Server, path: str, size: int, said: bool) -> None:
    grown = peak_growth(server, [Asked(path, spaces(size), length(size) if said else [])])
    assert grown < 2 * MIB, f"{grown / MIB:.1f} MiB"


def test_oversized_requests_at_once_cost_under_2_mib_each(server: Server) -> None:
    requests = [Asked("/api/replay" if i % 2 else "/api/rooms", spaces(20 * MIB)) for i in range(8)]
    grown = peak_growth(server, requests)
    assert grown < 2 * MIB * len(requests), f"{grown / MIB:.1f} MiB"


# ------------------------------------------------------------------ a key twice (point 7)


def test_a_request_with_a_key_twice_is_refused(server: Server) -> None:
    response = server.http.post("/api/rooms", content=b'{"game": "duel", "seats": ["me", "open"], "game": "duals"}')
    assert (response.status_code, response.json()["error"]) == (400, "bad_json")
    assert response.json()["message"] == "The request is not valid JSON: the key 'game' appears twice in one object"
    in_spanish = server.http.post("/api/rooms?lang=es", content=b'{"seats": [], "seats": ["me", "open"]}').json()
    assert in_spanish["message"] == ("La petición no es JSON válido: la clave 'seats' aparece dos veces en un mismo "
                                     "objeto")


def test_a_message_with_a_key_twice_is_refused_and_changes_nothing(server: Server) -> None:
    room, t0, t1 = server.pair("duel")
    with server.connect(room) as a, server.connect(room) as b:
        a.hello(t0)
        b.hello(t1)
        seen = {0: a.event(), 1: b.event()}
        to_act = seen[0]["to_act"]
        player, event = (a, b)[to_act], seen[to_act]
        act = json.dumps({"action": event["view"]["legal"][0], "version": event["version"]})[1:-1]
        for text in ('{"type": "act", "type": "sync"}',  # a sync to Python, an act to a parser keeping the first
                     '{"type": "sync", ' + act + ', "type": "act"}'):  # an act to Python
            player.ws.send_text(text)
            refused = player.recv()  # the answer to it, nothing before (but who is connected, sent at the hellos)
            while refused["type"] == "presence":
                refused = player.recv()
            assert (refused["type"], refused["code"]) == ("error", "bad_json")
            assert refused["message"] == "The message is not valid JSON: the key 'type' appears twice in one object"
        player.send(type="act", action=event["view"]["legal"][0], version=event["version"])
        moved = player.event()  # the version the refused act named is still the match's: nothing was played
        assert moved["version"] == event["version"] + 1


def test_an_uploaded_record_with_a_key_twice_is_refused_naming_it(server: Server) -> None:
    text = b'{"format": "flametable-record/1", "game": "duel", "seed": 1, "seed": 2}'
    response = server.http.post("/api/replay", content=text)
    assert (response.status_code, response.json()["error"]) == (400, "bad_record")
    assert response.json()["message"] == "The file is not a match record: the key 'seed' appears twice in one object"
