"""Hostile clients never crash the game server nor change a match (issue 11's fuzz test).

Over WebSockets (Starlette's TestClient), to a room of each game (Flame Duel, Flamecraft Duals) a few moves into
its match, hypothesis sends well over 10,000 malformed or hostile messages from every kind of connection (the
seat to act, the seat waiting, a spectator, a connection that has not said hello): non-JSON text and binary
frames, JSON that is no message, unknown types, known types with a field missing, extra or of the wrong type,
payloads past the size limit, deep nesting, huge numbers, ``NaN``, lone surrogates, acts from the wrong seat or a
spectator, forged and malformed tokens, a second hello, stale and future versions, illegal and unreadable actions,
an undo against a person, a rematch while playing, a resignation from a spectator. Each gets exactly one
``error`` (the code its check names, a non-empty message); the connection goes on answering; and every match is
as it was: version, record, stored actions, each audience's view, the connections. The HTTP bodies get the same
treatment (a 4xx JSON error, never a 500), and the limits (message size, messages per second, rooms per client)
are tested on their own.

Deterministic (hypothesis derandomized, no example database) and within about a minute.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.testclient import TestClient, WebSocketTestSession

from flametable.texts.translator import Translator
from flametable.web.app import Settings, create_app
from flametable.web.messages import CLIENT, MAX_MESSAGE_BYTES, MAX_VERSION
from flametable.web.rooms import Limits, Room
from tests.web.memory_store import MemoryStore

GAMES = ("duel", "duals")
OPENING = 4
"""Legal moves played in each room before the hostile messages."""

NO_RATE_LIMIT = Limits(actions_per_second=1e9, burst=10**9, expensive_per_second=1e9, expensive_burst=10**9,
                       bodies_per_second=1e9, bodies_burst=10**9, replays_per_second=1e9, replays_burst=10**9)
SECONDS = 5.0
"""Every answer comes within this (a missing one fails the test instead of hanging it)."""

BATCH = 25
"""Hostile messages per hypothesis example."""

FUZZ = settings(max_examples=80, derandomize=True, database=None, deadline=None,
                phases=[Phase.explicit, Phase.generate],  # the server's state is shared: no shrinking
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large, HealthCheck.filter_too_much])

MIN_SENT = 10_000
SENT = [0]
"""Hostile messages sent by this module's fuzz tests (the last test checks there were enough)."""

ROLES = ("to_act", "waiting", "spectator", "stranger")
"""The connections to each room: the player to act, the other player, a spectator, one that said no hello."""

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


# ------------------------------------------------------------------------------------------ the server


@contextlib.contextmanager
def serving(limits: Limits = NO_RATE_LIMIT, seed: int | None = None) -> Iterator[tuple[TestClient, Starlette]]:
    """A game server on an in-memory store (bots in threads), and a client to it."""
    counter = itertools.count(1)
    app = create_app(Settings("memory", bots="thread", open_store=MemoryStore.open, limits=limits,
                              seeds=(lambda: seed) if seed is not None else (lambda: next(counter))))
    with TestClient(app) as client:
        yield client, app


def receive(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next message the server sent on ``ws``, within :data:`SECONDS`; its text must be printable UTF-8."""

    async def next_message() -> Any:
        with anyio.fail_after(SECONDS):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", f"the server closed the connection: {message}"
    text = message["text"]
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise AssertionError(f"the server wrote a lone surrogate, which no socket can send: {text[:300]!r}") from None
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def pending(ws: WebSocketTestSession) -> int:
    """How many messages the server sent on ``ws`` that were not received yet."""
    return ws._send_rx.statistics().current_buffer_used


def send(ws: WebSocketTestSession, raw: str | bytes) -> None:
    if isinstance(raw, bytes):
        ws.send_bytes(raw)
    else:
        ws.send_text(raw)


def settle(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """Everything sent on ``ws`` up to now (asking for the log, whose answer comes last)."""
    ws.send_text('{"type": "log"}')
    out = []
    while (message := receive(ws))["type"] != "log":
        out.append(message)
    return out


@dataclass(eq=False)
class Table:
    """A room of one game a few moves into its match, a connection of every role to it, and what hostile
    messages need to know of its match (unchanged while they are sent)."""

    app: Starlette
    game: str
    room: str
    tokens: dict[int, str]
    players: dict[int, WebSocketTestSession]
    conns: dict[str, WebSocketTestSession]
    version: int = 0
    legal: frozenset[str] = frozenset()
    legal_ids: frozenset[int] = frozenset()
    draws: Draws = field(init=False)

    @property
    def service_room(self) -> Room:
        room: Room = self.app.state.hall.rooms[self.room]
        return room

    def joined(self) -> list[WebSocketTestSession]:
        return [self.conns[role] for role in ROLES if role != "stranger"]

    def snapshot(self) -> dict[str, Any]:
        """Everything of the match a message could change, as the server and its store hold it."""
        room = self.service_room
        service = room.service
        assert service.record is not None
        stored = self.app.state.store.rooms[self.room]
        return {
            "version": room.wire_version, "service_version": service.version, "status": room.match.status,
            "result": room.match.result, "actions": list(room.match.actions), "record": service.record.dumps(),
            "views": [json.dumps(service.sync(audience).to_json(), sort_keys=True) for audience in (0, 1, None)],
            "stored": (list(stored.match.actions), stored.match.status, stored.match.base),
            "seats": [(seat.kind, seat.token_hash) for seat in room.row.seats],
            "offers": sorted(room.offers), "connections": sorted(str(conn.player) for conn in room.conns),
        }

    def play(self, count: int) -> None:
        """Play ``count`` legal moves (the first legal action each time), every joined connection told."""
        for _ in range(count):
            room = self.service_room
            seat = room.service.to_act
            assert seat is not None
            player = seat ^ room.match.first_player
            action = room.service.legal(seat)[0]
            move = {"type": "act", "action": action.text(), "version": room.wire_version}
            send(self.players[player], json.dumps(move))
            for ws in self.joined():
                assert [m["type"] for m in settle(ws)] == ["event"]
        self.learn()

    def learn(self) -> None:
        """Who is to act now and what is legal (the roles of the player connections follow the turn)."""
        room = self.service_room
        seat = room.service.to_act
        assert seat is not None
        player = seat ^ room.match.first_player
        self.conns["to_act"], self.conns["waiting"] = self.players[player], self.players[1 - player]
        legal = room.service.legal(seat)
        self.version = room.wire_version
        self.legal = frozenset(action.text() for action in legal)
        self.legal_ids = frozenset(int(action.id) for action in legal)
        self.draws = Draws(self)


def open_table(client: TestClient, app: Starlette, stack: contextlib.ExitStack, game: str,
               lang: str = "en") -> Table:
    """A room of ``game`` with two players, a spectator and a stranger connected (texts in ``lang``), the
    opening moves played."""
    made = client.post("/api/rooms", json={"game": game, "seats": ["me", "open"]})
    assert made.status_code == 201, made.text
    room = made.json()["room"]
    joined = client.post(f"/api/rooms/{room}/join", json={})
    assert joined.status_code == 200, joined.text
    tokens = {0: made.json()["token"], 1: joined.json()["token"]}
    url = f"/api/rooms/{room}/ws?lang={lang}"
    conns: dict[str, WebSocketTestSession] = {}
    players: dict[int, WebSocketTestSession] = {}
    for name, token in (("0", tokens[0]), ("1", tokens[1]), ("spectator", None)):
        ws = stack.enter_context(client.websocket_connect(url))
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert receive(ws)["type"] == "welcome"
        if name == "spectator":
            conns["spectator"] = ws
        else:
            players[int(name)] = ws
    conns["stranger"] = stack.enter_context(client.websocket_connect(url))
    table = Table(app, game, room, tokens, players, conns)
    table.learn()
    for ws in table.joined():
        settle(ws)
    table.play(OPENING)
    return table


@dataclass
class Server:
    client: TestClient
    app: Starlette
    tables: dict[str, Table]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """A server (no rate limit) with a room of each game a few moves into its match."""
    with serving() as (client, app), contextlib.ExitStack() as stack:
        yield Server(client, app, {game: open_table(client, app, stack, game) for game in GAMES})


# ------------------------------------------------------------------------------------------ hostile messages


@dataclass(frozen=True)
class Case:
    """A hostile message, the connection that sends it and the error codes it may get."""

    role: str  # or EVERY_ROLE
    raw: str | bytes
    codes: frozenset[str]
    what: str

    def __str__(self) -> str:
        shown = self.raw if len(self.raw) <= 300 else self.raw[:300]
        return f"{self.what} from {self.role}: {shown!r} ({len(self.raw)} long)"


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def size(raw: str | bytes) -> int:
    return len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)


def case(role: str, raw: str | bytes, codes: set[str] | str, what: str) -> Case:
    """A case; anything over the size limit is refused for its size before anything else."""
    if size(raw) > MAX_MESSAGE_BYTES:
        return Case(role, raw, frozenset({"too_big"}), what)
    return Case(role, raw, frozenset({codes} if isinstance(codes, str) else codes), what)


EVERY_ROLE = "every connection"
ROLE = st.sampled_from(ROLES)
SHORT_TEXT = st.text(max_size=20)
LEAVES = (st.none() | st.booleans() | st.integers(-(2**53), 2**53)
          | st.floats(allow_nan=False, allow_infinity=False) | SHORT_TEXT)
JSON = st.recursive(LEAVES, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(SHORT_TEXT, kids, max_size=4),
                    max_leaves=10)
"""Any JSON value within the limits of the parser (finite numbers, short texts, shallow)."""

NOT_INT = JSON.filter(lambda v: type(v) is not int)
NOT_STR = JSON.filter(lambda v: not isinstance(v, str))
HUGE_INT = st.integers(MAX_VERSION + 1, 2**64 - 1) | st.integers(-(2**64) + 1, -1)
LIMITS_INT = st.integers(2**64, 10**99) | st.integers(-(10**99), -(2**64))  # past the parser's integers
VERSION = st.integers(0, MAX_VERSION)
LANG = st.sampled_from(("en", "es"))
NOT_JSON_TEXT = st.text(max_size=60).filter(lambda s: not_json(s))
NOT_A_TYPE = JSON.filter(lambda v: not (isinstance(v, str) and v in CLIENT))

WRONG: dict[str, st.SearchStrategy[Any]] = {
    "token": NOT_STR.filter(lambda v: v is not None) | st.text(max_size=80).filter(lambda s: not TOKEN.fullmatch(s)),
    "match": NOT_INT.filter(lambda v: v is not None) | HUGE_INT,  # (null is a match and a version in a hello)
    "version": NOT_INT.filter(lambda v: v is not None) | HUGE_INT,
    "lang": NOT_STR | SHORT_TEXT.filter(lambda s: s not in ("en", "es")),
    "action": (JSON.filter(lambda v: v is None or isinstance(v, (bool, float, list, dict)))
               | st.integers(-(2**64) + 1, -1) | st.integers(MAX_VERSION + 1, 2**64 - 1)
               | st.text(" \t\n", max_size=5) | st.text("abc ", min_size=201, max_size=1000)),
    "take": NOT_STR | SHORT_TEXT.filter(lambda s: s not in ("win", "bot")),  # a claim's (issue 24)
}
"""A value of the wrong type or out of range for each field of the client messages."""


def not_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


class Draws:
    """The strategies of the hostile messages to one table, as its match stands."""

    def __init__(self, table: Table) -> None:
        self.table = table
        legal, legal_ids, tokens = table.legal, table.legal_ids, set(table.tokens.values())
        self.token = st.none() | st.sampled_from(sorted(tokens))
        self.forged = st.from_regex(TOKEN, fullmatch=True).filter(lambda t: t not in tokens)
        self.action = st.sampled_from(sorted(legal)) | st.sampled_from(sorted(legal_ids))
        self.any_action = self.action | st.text(min_size=1, max_size=40).filter(str.strip) | VERSION
        self.unplayable = (st.text(min_size=1, max_size=40).filter(lambda s: s.strip() != "" and s not in legal)
                           | VERSION.filter(lambda n: n not in legal_ids))
        self.stale = st.integers(0, table.version - 1)
        self.future = st.integers(table.version + 1, MAX_VERSION)
        self.messages = {kind: message_of(kind, self) for kind in CLIENT}
        self.valid = st.sampled_from(sorted(CLIENT)).flatmap(self.messages.__getitem__)
        self.hostile = st.one_of(malformed(self), refused(self))

    def field(self, name: str) -> st.SearchStrategy[Any]:
        """A valid value of a field of the client messages."""
        return {"token": self.token, "match": VERSION, "version": VERSION, "lang": LANG, "action": self.action,
                "take": st.sampled_from(["win", "bot"])}[name]


@st.composite
def message_of(draw: st.DrawFn, kind: str, draws: Draws) -> dict[str, Any]:
    """A message of type ``kind`` that passes its schema (what it asks may still be refused)."""
    schema = CLIENT[kind]
    message = {"type": kind}
    for name in schema.required:
        if name != "type":
            message[name] = draw(draws.field(name))
    for name in schema.optional:
        if draw(st.booleans()):
            message[name] = draw(draws.field(name))
    return message


@st.composite
def malformed(draw: st.DrawFn, draws: Draws) -> Case:
    """A message every connection gets the same error for: the JSON, the type or a field is wrong. Sent by
    each connection in turn."""
    kind = draw(st.integers(0, 12))
    if kind == 0:  # text that is no JSON
        text = draw(NOT_JSON_TEXT)
        return case(EVERY_ROLE, text.encode("utf-8") if draw(st.booleans()) else text, "bad_json", "not JSON")
    if kind == 1:  # a message cut short
        whole = dumps(draw(draws.valid))
        cut = draw(st.integers(1, len(whole) - 1))
        return case(EVERY_ROLE, whole[:cut], "bad_json", "cut short")
    if kind == 2:  # bytes that are no UTF-8
        return case(EVERY_ROLE, b"\xff" + draw(st.binary(max_size=40)), "bad_json", "not UTF-8")
    if kind == 3:  # JSON that is no object
        value = draw(JSON.filter(lambda v: not isinstance(v, dict)))
        return case(EVERY_ROLE, dumps(value), "bad_message", "not an object")
    if kind == 4:  # an object of no known type (or none)
        untyped: dict[str, Any] = draw(st.dictionaries(SHORT_TEXT, JSON, max_size=4))
        untyped.pop("type", None)
        if draw(st.booleans()):
            untyped["type"] = draw(NOT_A_TYPE)
        return case(EVERY_ROLE, dumps(untyped), "unknown_type", "unknown type")
    if kind in (5, 6, 7, 8):  # a known type, a field missing, extra or wrong
        message = draw(draws.valid)
        schema = CLIENT[message["type"]]
        fields = [name for name in [*schema.required, *schema.optional] if name != "type"]
        how = draw(st.sampled_from(("wrong", "extra", "missing") if fields else ("extra",)))
        if how == "extra":
            key = draw(SHORT_TEXT.filter(lambda k: k not in schema.required and k not in schema.optional))
            message[key] = draw(JSON)
        elif how == "missing" and any(name in schema.required for name in fields):
            message.pop(draw(st.sampled_from([name for name in fields if name in schema.required])))
        else:
            name = draw(st.sampled_from(fields))
            message[name] = draw(WRONG[name])
        return case(EVERY_ROLE, dumps(message), "bad_message", f"{how} field")
    if kind == 9:  # past the size limit
        length = draw(st.sampled_from((MAX_MESSAGE_BYTES + 1, MAX_MESSAGE_BYTES + 7, 3 * MAX_MESSAGE_BYTES,
                                       64 * 1024, 1024 * 1024)))
        filler = draw(st.sampled_from((" ", "é", "x", "🔥", "[")))
        body = '{"type": "sync"}'
        huge = body + filler * ((length - len(body)) // len(filler.encode("utf-8")) + 1)
        return case(EVERY_ROLE, huge.encode("utf-8") if draw(st.booleans()) else huge, "too_big", "too big")
    if kind == 10:  # past the parser's limits: nesting, numbers, texts, constants
        inner = draw(st.sampled_from(("nesting", "digits", "integer", "constant", "overflow", "long text")))
        depth = draw(st.integers(33, 2500))
        value = {
            "nesting": lambda: "[" * depth + "]" * depth,
            "digits": lambda: "9" * draw(st.integers(101, 4000)),
            "integer": lambda: str(draw(LIMITS_INT)),
            "constant": lambda: draw(st.sampled_from(("NaN", "Infinity", "-Infinity"))),
            "overflow": lambda: draw(st.sampled_from(("1e400", "-1e999", "1.5E+309"))),
            "long text": lambda: dumps("a" * draw(st.integers(1001, 4000))),
        }[inner]()
        place = draw(st.sampled_from(("version", "action", "type", "top")))
        raw = value if place == "top" else '{"type": "act", "action": "x", "version": 0}'.replace(
            {"version": "0", "action": '"x"', "type": '"act"'}[place], value, 1)
        return case(EVERY_ROLE, raw, "bad_json", inner)
    if kind == 11:  # a lone surrogate, escaped or raw, in a text frame or as bytes
        surrogate = chr(draw(st.integers(0xD800, 0xDFFF)))
        where = draw(st.sampled_from(("escaped", "raw", "raw key", "bytes", "outside")))
        act = '{"type": "act", "action": "ACTION", "version": 0}'
        shapes: dict[str, str | bytes] = {
            "escaped": act.replace("ACTION", f"\\u{ord(surrogate):04x}"),
            "raw": act.replace("ACTION", surrogate),
            "raw key": '{"type": "sync", "KEY": 1}'.replace("KEY", surrogate),
            "bytes": act.replace("ACTION", surrogate).encode("utf-8", "surrogatepass"),
            "outside": '{"type": "sync"}' + surrogate,
        }
        return case(EVERY_ROLE, shapes[where], "bad_json", f"lone surrogate ({where})")
    token = draw(WRONG["token"])  # a hello with a malformed token
    return case(EVERY_ROLE, dumps({"type": "hello", "token": token}), "bad_message", "malformed token")


@st.composite
def refused(draw: st.DrawFn, draws: Draws) -> Case:
    """A well-formed message its connection may not send now: the seat, the turn, the version, the action, the
    token or the state of the match refuses it."""
    table = draws.table
    role = draw(ROLE)
    kind = draw(st.sampled_from(("act", "act", "act", "act", "hello", "undo", "resign", "rematch", "log", "sync")))
    if role == "stranger" and kind != "hello":
        message: dict[str, Any] = draw(draws.messages[kind])
        return case(role, encode(draw, message), "no_hello", f"{kind} before hello")
    if kind == "hello":
        message = {"type": "hello", "token": draw(draws.forged if role == "stranger" or draw(st.booleans())
                                                  else draws.token)}
        for name in ("match", "version", "lang"):
            if draw(st.booleans()):
                message[name] = draw(draws.field(name))
        code = "bad_token" if role == "stranger" else "hello_twice"
        return case(role, encode(draw, message), code, "forged token" if role == "stranger" else "second hello")
    if role == "spectator" or kind in ("log", "sync"):  # (a player's log or sync is answered)
        if kind in ("log", "sync"):
            kind = draw(st.sampled_from(("act", "undo", "resign", "rematch")))
        message = draw(draws.messages[kind])
        return case("spectator", encode(draw, message), "spectator", f"{kind} by a spectator")
    if kind == "undo":
        message = {"type": "undo", "version": draw(VERSION)}
        return case(role, encode(draw, message), "undo_person", "undo against a person")
    if kind in ("rematch", "resign"):  # a player resigning would end the match: a rematch while playing instead
        return case(role, encode(draw, {"type": "rematch"}), "playing", "rematch while playing")
    when = draw(st.sampled_from(("current", "stale", "future")))
    version = {"current": table.version, "stale": draw(draws.stale), "future": draw(draws.future)}[when]
    message = {"type": "act", "action": draw(draws.any_action), "version": version}
    if role == "waiting":
        return case(role, encode(draw, message), "not_your_turn", "act out of turn")
    if when != "current":
        return case(role, encode(draw, message), "stale", f"{when} version")
    message["action"] = draw(draws.unplayable)
    return case(role, encode(draw, message), {"unreadable", "illegal"}, "unplayable action")


def encode(draw: st.DrawFn, message: Mapping[str, Any]) -> str | bytes:
    """A message as a text frame or, once in eight, as a binary one."""
    text = dumps(message)
    return text.encode("utf-8") if draw(st.integers(0, 7)) == 0 else text


# ------------------------------------------------------------------------------------------ the checks


def expect_refused(table: Table, sent: Case, role: str | None = None) -> dict[str, Any]:
    """Send ``sent`` (by ``role``, else its own): exactly one error comes back, with an expected code and a
    message, and the connection answers what follows (a sync; a connection without hello says it needs one)."""
    role = role or sent.role
    ws = table.conns[role]
    send(ws, sent.raw)
    ws.send_text('{"type": "sync"}')
    SENT[0] += 1
    error = receive(ws)
    assert error["type"] == "error", f"{sent} ({role}): no error but {str(error)[:300]}"
    assert error["code"] in sent.codes, f"{sent} ({role}): error {error}"
    assert isinstance(error["message"], str), f"{sent} ({role}): error {error}"
    assert error["message"].strip(), f"{sent} ({role}): error {error}"
    assert set(error) <= {"type", "code", "message", "detail"}, error
    after = receive(ws)
    if role == "stranger":
        assert (after["type"], after.get("code")) == ("error", "no_hello"), f"{sent}: then {str(after)[:300]}"
    else:
        assert after["type"] == "event", f"{sent}: then {str(after)[:300]}"
        assert after["event"]["action"] is None
        assert after["event"]["version"] == table.version
    return error


@contextlib.contextmanager
def drained_on_failure(table: Table) -> Iterator[None]:
    """On a failure, what is left to receive is received, so that hypothesis replaying the example meets the
    same failure rather than the leftovers of this one."""
    try:
        yield
    except BaseException:
        time.sleep(0.2)
        for ws in table.conns.values():
            while pending(ws):
                receive(ws)
        raise


def quiet(table: Table) -> None:
    """Nothing more was sent to any connection of the table (no second error, no event)."""
    for role in ROLES:
        assert pending(table.conns[role]) == 0, f"{role} was sent more: {receive(table.conns[role])}"


@FUZZ
@given(data=st.data())
def test_hostile_messages_each_get_one_error_and_change_nothing(server: Server, data: st.DataObject) -> None:
    """A batch of hostile messages to a room of each game: each gets exactly one error with the code of its check
    and a message, the connection answers the next sync, no other connection hears of it, and the match (its
    version, record, stored actions, every audience's view, the connections) is unchanged."""
    for game in GAMES:
        table = server.tables[game]
        before = table.snapshot()
        for _ in range(BATCH):
            sent = data.draw(table.draws.hostile, label=game)
            for role in ROLES if sent.role == EVERY_ROLE else (sent.role,):
                with drained_on_failure(table):
                    expect_refused(table, sent, role)
        quiet(table)
        assert table.snapshot() == before


def test_huge_payloads_are_refused_unread(server: Server) -> None:
    """Messages of 4 KiB and one byte up to 16 MiB, as text and as bytes, valid or not: refused for their size,
    by every connection; the byte limit counts UTF-8 bytes, not characters."""
    for game in GAMES:
        table = server.tables[game]
        before = table.snapshot()
        for role, length, filler, binary in itertools.product(ROLES, (MAX_MESSAGE_BYTES + 1, 1 << 20, 16 << 20),
                                                               (" ", "🔥"), (False, True)):
            body = '{"type": "sync"}'
            text = body + filler * ((length - len(body)) // len(filler.encode("utf-8")) + 1)
            error = expect_refused(table, case(role, text.encode("utf-8") if binary else text, "too_big", "huge"))
            assert str(MAX_MESSAGE_BYTES) in error["message"]
        quiet(table)
        assert table.snapshot() == before


def test_a_message_of_exactly_the_limit_is_read(server: Server) -> None:
    """The limit is inclusive: a sync padded to exactly 4096 bytes is answered; one more byte is refused."""
    ws = server.tables["duel"].conns["spectator"]
    body = '{"type": "sync"}'
    exact = body + " " * (MAX_MESSAGE_BYTES - len(body))
    ws.send_text(exact)
    assert receive(ws)["type"] == "event"
    ws.send_bytes((exact + " ").encode("utf-8"))
    assert receive(ws)["code"] == "too_big"
    assert pending(ws) == 0


def test_a_connection_refused_a_forged_token_can_still_say_hello(server: Server) -> None:
    """After a forged token and a message before hello, the connection's hello with no token is welcomed (it
    watches); the match is unchanged and the others only hear that presence."""
    table = server.tables["duals"]
    before = table.snapshot()
    with server.client.websocket_connect(f"/api/rooms/{table.room}/ws") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": "A" * 32}))
        assert receive(ws)["code"] == "bad_token"
        ws.send_text('{"type": "resign"}')
        assert receive(ws)["code"] == "no_hello"
        ws.send_text(json.dumps({"type": "hello", "token": None, "lang": "es"}))
        welcome = receive(ws)
        assert (welcome["type"], welcome["player"], welcome["lang"]) == ("welcome", None, "es")
        assert receive(ws)["type"] == "event"
        assert [m["type"] for m in settle(ws)] == ["presence"]
        for conn in table.joined():
            assert [m["type"] for m in settle(conn)] == ["presence"]
        after = table.snapshot()
        assert after.pop("connections") == sorted([*before["connections"], "None"])
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        assert receive(ws)["code"] == "hello_twice"
    for conn in table.joined():
        settle(conn)  # (a spectator leaving tells nobody: nothing to hear)
    assert table.snapshot() == before


# ------------------------------------------------------------------------------------------ HTTP bodies


@st.composite
def room_body(draw: st.DrawFn) -> bytes:
    """A hostile body for ``POST /api/rooms`` (never a valid room request)."""
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return draw(st.binary(max_size=60))
    if kind == 1:
        return draw(st.text(max_size=60).filter(lambda s: not_json(s) and s.strip() != "")).encode("utf-8")
    if kind == 2:
        return dumps(draw(JSON.filter(lambda v: not isinstance(v, dict) or "game" not in v))).encode("utf-8")
    if kind == 3:
        return draw(st.sampled_from(("[" * 40 + "]" * 40, "9" * 200, "NaN", '{"game": "\\ud800"}',
                                     '{"game": "duel", "seats": ["me", "open"], "options": {"x": 1e999}}',
                                     " " * (Limits().body_bytes + 1)))).encode("utf-8")
    body: dict[str, Any] = {"game": draw(st.sampled_from(GAMES)), "seats": ["me", "open"]}
    if kind == 4:  # the game or the seats wrong
        name = draw(st.sampled_from(("game", "seats")))
        body[name] = draw(JSON.filter(lambda v: v not in GAMES and v != [] and not (
            isinstance(v, list) and len(v) == 2 and all(s in ("me", "open") for s in v))))
    elif kind == 5:  # options that are no object, or unknown ones
        body["options"] = draw(NOT_STR.filter(lambda v: not isinstance(v, dict))
                               | st.dictionaries(SHORT_TEXT, JSON, min_size=1, max_size=3))
    elif kind == 6:  # a seat that is none
        body["seats"] = [draw(st.sampled_from(("me", "open", "bot:easy"))),
                         draw(SHORT_TEXT.filter(lambda s: s not in ("me", "open")))]
    else:  # an extra field
        body[draw(SHORT_TEXT.filter(lambda k: k not in ("game", "seats", "options")))] = draw(JSON)
    return dumps(body).encode("utf-8")


@st.composite
def join_body(draw: st.DrawFn) -> bytes:
    """A body for ``POST /api/rooms/ID/join`` of a full room: whatever it says, no seat is given."""
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.binary(max_size=60))
    if kind == 1:
        return dumps(draw(JSON)).encode("utf-8")
    if kind == 2:
        return dumps({"player": draw(JSON | HUGE_INT)}).encode("utf-8")
    return dumps({"player": draw(st.integers(0, 1))}).encode("utf-8")


def expect_http_error(response: Any, what: object) -> dict[str, Any]:
    """``response`` is a 4xx with a JSON error: a code and a message."""
    assert 400 <= response.status_code < 500, f"{what!r}: {response.status_code} {response.text[:300]}"
    data = response.json()
    assert set(data) == {"error", "message"}, f"{what!r}: {data}"
    assert isinstance(data["error"], str), data
    assert isinstance(data["message"], str), data
    assert data["message"].strip(), data
    return data  # type: ignore[no-any-return]


ROOM_ID = st.text(st.characters(categories=("L", "N", "P", "S"), exclude_characters="/?#%\\"), min_size=1,
                  max_size=80).filter(lambda s: s.strip(".") != "")
"""A room id that can be written in a path (whether a room has it or not)."""


@settings(FUZZ, max_examples=150)
@given(body=room_body(), join=join_body(), room=st.sampled_from(GAMES) | ROOM_ID)
def test_hostile_http_bodies_get_a_json_4xx(server: Server, body: bytes, join: bytes, room: str) -> None:
    """A hostile body to make a room, or to join one (full, or none), is answered 4xx with a JSON error and a
    message, never a 500; no room is made and no seat given."""
    store: MemoryStore = server.app.state.store
    rooms = len(store.rooms)
    seats = {game: table.snapshot()["seats"] for game, table in server.tables.items()}
    expect_http_error(server.client.post("/api/rooms", content=body), body)
    room_id = server.tables[room].room if room in server.tables else room
    expect_http_error(server.client.post(f"/api/rooms/{room_id}/join", content=join), (room_id, join))
    SENT[0] += 2
    assert len(store.rooms) == rooms
    assert {game: table.snapshot()["seats"] for game, table in server.tables.items()} == seats


@pytest.mark.parametrize("seat", ["bot:ismcts:²", "bot:ismcts:0", "bot:", "bot:ismcts:-1", "bot:ismcts:1e3", "me ",
                                  "bot:ismcts:10001", "bot:ismcts:" + "9" * 80])
def test_a_hostile_seat_is_refused_with_a_json_400(server: Server, seat: str) -> None:
    """A seat that is no seat (a bot count no ASCII whole number: ``int`` refuses '²') is a 400 saying so; so is
    a bot that would search without end (its iterations have no time limit: a worker would be lost)."""
    response = server.client.post("/api/rooms", json={"game": "duel", "seats": ["me", seat]})
    assert response.status_code == 400, response.text
    assert expect_http_error(response, seat)["error"] == "bad_seats"


def test_a_bot_may_search_up_to_the_limit(server: Server) -> None:
    """``bot:ismcts:N`` up to the limit makes a room; one more iteration is refused, saying the limit."""
    limit = Limits().bot_iterations
    refused = server.client.post("/api/rooms", json={"game": "duals", "seats": ["me", f"bot:ismcts:{limit + 1}"]})
    assert expect_http_error(refused, "over")["message"] == (
        f"A bot searches at most {limit} iterations a move on this server, got 'bot:ismcts:{limit + 1}'.")
    made = server.client.post("/api/rooms", json={"game": "duel", "seats": ["me", f"bot:ismcts:{limit}"]})
    assert made.status_code == 201, made.text


# ------------------------------------------------------------------------------------------ the limits


def test_past_the_burst_messages_are_refused_unread() -> None:
    """A connection may send ``burst`` messages at once: the next ones get ``too_fast`` errors and are not read,
    not even a legal move; the match is unchanged and another connection has its own budget."""
    with serving(Limits(actions_per_second=0.001, burst=5)) as (client, app):
        made = client.post("/api/rooms", json={"game": "duel", "seats": ["me", "me"]}).json()
        room: Room = app.state.hall.rooms[made["room"]]
        seat = room.service.to_act
        assert seat is not None
        legal = room.service.legal(seat)[0].text()
        with client.websocket_connect(f"/api/rooms/{room.id}/ws") as ws, \
                client.websocket_connect(f"/api/rooms/{room.id}/ws") as other:
            ws.send_text(json.dumps({"type": "hello", "token": made["tokens"][str(seat)]}))
            assert [receive(ws)["type"] for _ in range(3)] == ["welcome", "event", "presence"]
            for _ in range(4):  # with the hello: the burst
                ws.send_text('{"type": "sync"}')
                assert receive(ws)["type"] == "event"
            before = room.service.version, list(room.match.actions)
            for raw in (json.dumps({"type": "act", "action": legal, "version": 0}), '{"type": "sync"}',
                        "not json", '{"type": "log"}'):
                ws.send_text(raw)
                error = receive(ws)
                assert error["code"] == "too_fast", error
                assert "0.001" in error["message"], error
            assert (room.service.version, list(room.match.actions)) == before
            assert pending(ws) == 0
            other.send_text(json.dumps({"type": "hello", "token": None}))
            assert receive(other)["type"] == "welcome"


def assert_spanish(template: str, english: str, spanish: str, untranslated: set[str] | None = None) -> bool:
    """Whether ``template`` has Spanish; if so, the Spanish text differs from the English one."""
    if Translator.for_language("es").gettext(template) == template:
        if untranslated is not None:
            untranslated.add(template)
        return False
    assert english != spanish, (template, english)
    return True


TOO_MANY_ROOMS = ("You already have {count} rooms with a match going on: finish or resign one first. They are "
                  "listed under \"My matches\" in the lobby.")  # where to find them (issue 25, point 4)


def test_a_client_has_at_most_so_many_rooms_playing() -> None:
    """Past ``rooms_per_client`` rooms with a match playing, making one more is refused (429, saying how many,
    in the client's language) and makes nothing; once one of them ends, a room can be made again."""
    with serving(Limits(rooms_per_client=2)) as (client, app):
        made = []
        for _ in range(2):
            response = client.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]})
            assert response.status_code == 201
            made.append(response.json())
        refused = client.post("/api/rooms", json={"game": "duals", "seats": ["me", "bot:easy"]})
        assert refused.status_code == 429
        error = expect_http_error(refused, "third room")
        assert error == {"error": "too_many_rooms", "message": TOO_MANY_ROOMS.format(count=2)}
        spanish = client.post("/api/rooms?lang=es", json={"game": "duel", "seats": ["me", "open"]})
        assert spanish.status_code == 429
        assert expect_http_error(spanish, "es")["error"] == "too_many_rooms"
        assert_spanish(TOO_MANY_ROOMS, error["message"], spanish.json()["message"])
        assert len(app.state.store.rooms) == 2
        with client.websocket_connect(f"/api/rooms/{made[0]['room']}/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": made[0]["token"]}))
            settle(ws)
            ws.send_text('{"type": "resign"}')
            assert receive(ws)["type"] == "ended"
        assert client.post("/api/rooms", json={"game": "duel", "seats": ["me", "open"]}).status_code == 201


# ------------------------------------------------------------------------------------------ both languages


ALL_CODES = frozenset({"bad_json", "too_big", "bad_message", "unknown_type", "hello_twice", "no_hello", "bad_token",
                       "spectator", "not_your_turn", "stale", "unreadable", "illegal", "undo_person", "playing"})

SPANISH_SAMPLE: tuple[tuple[str, Callable[[Table], Any], str | None], ...] = (
    # (who sends it, the message, the template of its error: None when the game's)
    ("waiting", lambda t: {"type": "act", "action": sorted(t.legal)[0], "version": t.version},
     "It is not your turn: player {player} is to act."),
    ("to_act", lambda t: {"type": "act", "action": sorted(t.legal)[0], "version": t.version + 3},
     "The match has moved on: your action was chosen at version {given}, the match is at version {current}."),
    ("to_act", lambda t: {"type": "act", "action": "no such move", "version": t.version}, None),
    ("spectator", lambda t: {"type": "resign"}, "You are watching this match: only its players can do that."),
    ("waiting", lambda t: {"type": "undo", "version": t.version},
     "Moves are taken back only against a bot, never against a person."),
    ("to_act", lambda t: {"type": "rematch"}, "A rematch can be offered once the match is over."),
    ("spectator", lambda t: {"type": "hello", "token": None}, "You said hello already on this connection."),
    ("stranger", lambda t: {"type": "hello", "token": "B" * 40},
     "This seat token is not one of this room's: nothing was changed. Join the room again, or watch without a "
     "token."),
    ("stranger", lambda t: {"type": "sync"}, "Say hello first (with your seat token, or none to watch)."),
    ("to_act", lambda t: "{", "The message is not valid JSON (column {column})."),
    ("to_act", lambda t: b"{\xff}", "The message is not UTF-8 text (byte {position})."),
    ("to_act", lambda t: [], 'A message is a JSON object with a "type".'),
    ("to_act", lambda t: {"type": "dance"}, "Unknown message type {type!r}: send one of {types}."),
    ("to_act", lambda t: {"type": "undo", "version": "3"}, "The message's {field}: {problem}"),
    ("to_act", lambda t: '{"type": "sync"}' + " " * MAX_MESSAGE_BYTES,
     "A message may hold at most {limit} bytes; this one holds {size}."),
)


def test_errors_come_in_the_connection_language() -> None:
    """The same hostile messages to two identical rooms, one played and watched in English and one in Spanish: the
    same error codes, and each message whose template has Spanish differs from the English one (the match
    service's rejections at least)."""
    untranslated: set[str] = set()
    with serving(seed=11) as (client, app), contextlib.ExitStack() as stack:
        tables = [open_table(client, app, stack, "duel", lang) for lang in ("en", "es")]
        assert tables[0].snapshot()["views"] == tables[1].snapshot()["views"]
        translated = []
        for role, make, template in SPANISH_SAMPLE:
            english, spanish = [expect_refused(table, case(role, raw if isinstance(raw := make(table), str | bytes)
                                                           else dumps(raw), set(ALL_CODES), "sample"))
                                for table in tables]
            assert english["code"] == spanish["code"]
            if template is not None and assert_spanish(template, english["message"], spanish["message"],
                                                       untranslated):
                translated.append(english["code"])
        assert {"not_your_turn", "stale"} <= set(translated), translated


# ------------------------------------------------------------------------------------------ still serving


def test_the_server_still_serves_after_the_fuzz(server: Server) -> None:
    """After every hostile message, each room still plays: a legal move is accepted and every connection that
    said hello is told; the server answers HTTP."""
    for table in server.tables.values():
        version = table.version
        table.play(1)
        assert table.version == version + 1
    assert server.client.get("/healthz").json()["status"] == "ok"


def test_enough_hostile_messages_were_sent() -> None:
    """The fuzz tests above sent at least 10,000 hostile messages (issue 11)."""
    assert SENT[0] >= MIN_SENT, SENT[0]
