"""Accounts against the real server (issue 23): ``flametable serve`` in a subprocess, on SQLite and on PostgreSQL,
spoken to over real sockets by clients that each keep their own cookie and come from their own loopback address
(127.0.0.N: the server counts password attempts per address). What a cross-site page, a thief of an old cookie, a
planted cookie or a guesser of names and passwords can get: nothing.

The server hashes with lowered Argon2id parameters (``FLAMETABLE_ARGON2``: 1 pass over 16 MiB, still some
milliseconds, so that the time of a hash stands out of a request's); the default is argon2-cffi's
(``test_accounts_rules.py``)."""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import secrets
import statistics
import time
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import argon2
import pytest
import sqlalchemy as sa
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from flametable.web.accounts import AccountLimits
from flametable.web.store import database_url, make_engine
from tests.services import fresh_postgresql_database, postgresql_url
from tests.web.live import RECEIVE_SECONDS, LiveServer

COST = "1,16384,1"
LIMITS = AccountLimits()
COOKIE = "flametable_session"
EVIL = "http://evil.example"
_addresses = itertools.count(2)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A ``flametable serve`` of the module on each kind of database."""
    data = tmp_path_factory.mktemp(f"accounts-{request.param}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FLAMETABLE_ARGON2", COST)
        if request.param == "sqlite":
            yield from _served(LiveServer(database_url(str(data / "t.db")), data / "server"))
        else:
            with fresh_postgresql_database() as name:
                yield from _served(LiveServer(postgresql_url(name), data / "server"))


def _served(server: LiveServer) -> Iterator[LiveServer]:
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def address() -> str:
    """A loopback address of this test's own (its per-address budgets untouched by other tests)."""
    n = next(_addresses)
    assert n < 255 * 200
    return f"127.0.{n // 250}.{2 + n % 250}"


class Answer:
    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes, seconds: float) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.seconds = seconds

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def error(self) -> str | None:
        data = self.json
        return data.get("error") if isinstance(data, dict) else None

    def set_cookies(self) -> list[str]:
        return [value for name, value in self.headers if name.lower() == "set-cookie"]


class Client:
    """A browser of one person: its own source address, its session cookie (set and cleared as the server says),
    the CSRF token it was last given; every answer kept (``answers``)."""

    def __init__(self, server: LiveServer, address: str) -> None:
        self.server = server
        self.address = address
        self.cookie: str | None = None
        self.csrf: str | None = None
        self.answers: list[Answer] = []

    def request(self, method: str, path: str, body: Any = None, *, csrf: str | bool = True,
                headers: dict[str, str] | None = None) -> Answer:
        sent = {"content-type": "application/json", **(headers or {})}
        if self.cookie is not None:
            sent["cookie"] = f"{COOKIE}={self.cookie}"
        token = self.csrf if csrf is True else (csrf or None)
        if token:
            sent["x-csrf-token"] = token
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=RECEIVE_SECONDS,
                                                source_address=(self.address, 0))
        try:
            started = time.perf_counter()
            connection.request(method, path, None if body is None else json.dumps(body), sent)
            response = connection.getresponse()
            raw = response.read()
            answer = Answer(response.status, response.getheaders(), raw, time.perf_counter() - started)
        finally:
            connection.close()
        for line in answer.set_cookies():
            jar: SimpleCookie = SimpleCookie()
            jar.load(line)
            if COOKIE in jar:
                morsel = jar[COOKIE]
                self.cookie = None if morsel["max-age"] == "0" or not morsel.value else morsel.value
        data = answer.json if answer.body.startswith(b"{") else None
        if isinstance(data, dict) and "csrf" in data:
            self.csrf = data["csrf"]
        self.answers.append(answer)
        return answer

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None, **options: Any) -> Answer:
        return self.request("POST", path, {} if body is None else body, **options)

    def sign_up(self, name: str | None = None, password: str | None = None, headers: dict[str, str] | None = None,
                **more: Any) -> tuple[str, str]:
        name = name or unique_name()
        password = password or new_password()
        answer = self.post("/api/account", {"name": name, "password": password, **more}, headers=headers)
        assert answer.status == 201, answer.body
        return name, password

    def sign_in(self, name: str, password: str, **options: Any) -> Answer:
        return self.post("/api/session", {"name": name, "password": password}, **options)

    def me(self) -> str | None:
        answer = self.get("/api/me")
        assert answer.status == 200
        account = answer.json["account"]
        return None if account is None else str(account["name"])

    def make_room(self, seats: list[str] | None = None, **options: Any) -> Answer:
        return self.post("/api/rooms", {"game": "duel", "seats": seats or ["me", "open"]}, **options)

    def socket(self, room: str, *, origin: str | None = None) -> ClientConnection:
        headers = {"cookie": f"{COOKIE}={self.cookie}"} if self.cookie is not None else {}
        return connect(f"ws://127.0.0.1:{self.server.port}/api/rooms/{room}/ws", proxy=None,
                       open_timeout=RECEIVE_SECONDS, close_timeout=1, additional_headers=headers,
                       origin=origin,  # type: ignore[arg-type]
                       source_address=(self.address, 0))


def unique_name() -> str:
    return f"p{secrets.token_hex(5)}"


def new_password() -> str:
    return f"pw-{secrets.token_urlsafe(12)}"


def hello(ws: ClientConnection, token: str | None) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token}))
    answer: dict[str, Any] = json.loads(ws.recv(RECEIVE_SECONDS))
    return answer


def local_hash_seconds() -> float:
    """What one check of a password against a hash of the server's parameters takes here, the median of five."""
    t, m, p = (int(part) for part in COST.split(","))
    hasher = argon2.PasswordHasher(time_cost=t, memory_cost=m, parallelism=p)
    hashed = hasher.hash("something")
    times = []
    for _ in range(5):
        started = time.perf_counter()
        with pytest.raises(argon2.exceptions.VerifyMismatchError):
            hasher.verify(hashed, "something else")
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def database_rows(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    async def read() -> list[tuple[Any, ...]]:
        engine = make_engine(url)
        try:
            async with engine.connect() as connection:
                return [tuple(row) for row in await connection.execute(sa.text(sql), params)]
        finally:
            await engine.dispose()

    return asyncio.run(read())


# --- the cookie ---------------------------------------------------------------------------------------------


def test_signing_up_sets_an_http_only_same_site_lax_cookie_of_a_random_id_and_me_names_the_account(
        server: LiveServer, address: str) -> None:
    ana = Client(server, address)
    name, _ = ana.sign_up(name="Añil_" + secrets.token_hex(3))
    (line,) = ana.answers[-1].set_cookies()
    attributes = {part.strip().split("=")[0].lower() for part in line.split(";")[1:]}
    assert {"httponly", "samesite", "path", "max-age"} <= attributes
    assert "samesite=lax" in line.lower()
    assert f"max-age={int(LIMITS.session_seconds)}" in line.lower()
    assert "secure" not in attributes  # plain HTTP, no proxy saying otherwise
    assert ana.cookie is not None
    assert len(ana.cookie) == 43
    assert ana.me() == name
    assert ana.get("/api/me").json["csrf"] == ana.csrf


def test_the_cookie_is_secure_when_the_named_proxy_says_the_request_came_over_https(tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FLAMETABLE_ARGON2", COST)
        server = LiveServer(database_url(str(tmp_path / "t.db")), tmp_path / "server",
                            args=["--forwarded-allow-ips", "127.0.0.1"])
        server.start()
    try:
        behind = Client(server, "127.0.0.1")
        behind.sign_up(headers={"x-forwarded-proto": "https"})
        assert "; secure" in behind.answers[-1].set_cookies()[0].lower()
        plain = Client(server, "127.0.0.1")
        plain.sign_up()
        assert "secure" not in plain.answers[-1].set_cookies()[0].lower()
    finally:
        server.kill()


# --- CSRF ---------------------------------------------------------------------------------------------------


def test_a_signed_in_request_that_changes_something_needs_the_session_s_own_csrf_token(
        server: LiveServer, address: str) -> None:
    ana, bea = Client(server, address), Client(server, address)
    ana.sign_up()
    bea.sign_up()
    assert ana.csrf is not None
    assert bea.csrf is not None
    assert ana.csrf != bea.csrf
    rooms_before = len(server.get("/api/rooms")["rooms"])

    for token in (False, bea.csrf, "x" * 43, ana.csrf[:-1]):
        refused = ana.make_room(csrf=token)
        assert (refused.status, refused.error) == (403, "csrf")
        assert "CSRF" in refused.json["message"]
    assert len(server.get("/api/rooms")["rooms"]) == rooms_before  # nothing was made
    es = ana.request("POST", "/api/rooms?lang=es", {"game": "duel", "seats": ["me", "open"]}, csrf=False)
    assert es.error == "csrf"
    assert "token CSRF" in es.json["message"]  # translated

    made = ana.make_room()
    assert made.status == 201
    room = made.json["room"]
    joined = bea.post(f"/api/rooms/{room}/join", csrf=False)
    assert (joined.status, joined.error) == (403, "csrf")
    assert bea.post(f"/api/rooms/{room}/join").status == 200
    closing = ana.post(f"/api/rooms/{room}/close", {"token": made.json["token"]}, csrf=False)
    assert (closing.status, closing.error) == (403, "csrf")
    for method, path, body in (("DELETE", "/api/session", None), ("DELETE", "/api/account", {"password": "x"}),
                               ("POST", "/api/account/password", {"password": "x", "new_password": "y"}),
                               ("POST", f"/api/rooms/{room}/seat", {})):
        refused = ana.request(method, path, body, csrf=False)
        assert (refused.status, refused.error) == (403, "csrf"), (method, path)
    assert ana.me() is not None  # still signed in: the refused sign-out did nothing


def test_a_guest_and_a_cookie_of_no_live_session_need_no_token_as_before_accounts(
        server: LiveServer, address: str) -> None:
    guest = Client(server, address)
    made = guest.make_room()
    assert made.status == 201
    assert guest.post(f"/api/rooms/{made.json['room']}/close", {"token": made.json["token"]}).status == 200
    stale = Client(server, address)
    stale.cookie = secrets.token_urlsafe(32)  # never a session
    assert stale.make_room().status == 201
    assert stale.me() is None
    assert stale.cookie is None  # the answer cleared it


def test_a_cross_site_page_cannot_sign_a_browser_in_or_up(server: LiveServer, address: str) -> None:
    victim = Client(server, address)
    name, password = Client(server, address).sign_up()
    for path, body in (("/api/session", {"name": name, "password": password}),
                       ("/api/account", {"name": unique_name(), "password": new_password()})):
        refused = victim.post(path, body, headers={"origin": EVIL})
        assert (refused.status, refused.error) == (403, "csrf")
    assert victim.cookie is None
    same_site = victim.sign_in(name, password, headers={"origin": f"http://127.0.0.1:{server.port}"})
    assert same_site.status == 200


def test_a_cross_site_page_cannot_open_a_signed_in_player_s_socket(server: LiveServer, address: str) -> None:
    ana = Client(server, address)
    ana.sign_up()
    made = ana.make_room()
    room, token = made.json["room"], made.json["token"]
    with pytest.raises(InvalidStatus) as refused:
        ana.socket(room, origin=EVIL)
    assert refused.value.response.status_code == 403
    assert json.loads(refused.value.response.body or b"{}")["error"] == "csrf"
    with ana.socket(room, origin=f"http://127.0.0.1:{server.port}") as ws:  # its own page
        assert hello(ws, token)["type"] == "welcome"
    guest = Client(server, address)  # no cookie: a guest's socket, from anywhere, as before
    with guest.socket(room, origin=EVIL) as ws:
        assert hello(ws, None)["type"] == "welcome"


# --- sessions end ----------------------------------------------------------------------------------------------


def test_signing_out_ends_the_session_and_its_old_cookie_is_no_one_s(server: LiveServer, address: str) -> None:
    ana = Client(server, address)
    ana.sign_up()
    made = ana.make_room()
    assert made.status == 201
    old_cookie, old_csrf = ana.cookie, ana.csrf
    out = ana.request("DELETE", "/api/session")
    assert (out.status, out.json) == (200, {"account": None, "csrf": None})
    assert ana.cookie is None

    thief = Client(server, address)
    thief.cookie, thief.csrf = old_cookie, old_csrf
    assert thief.me() is None
    thief.cookie = old_cookie
    for method, path, body in (("GET", "/api/me/matches", None),
                               ("POST", "/api/account/password", {"password": "x", "new_password": "y"}),
                               ("POST", f"/api/rooms/{made.json['room']}/seat", {})):
        refused = thief.request(method, path, body)
        assert (refused.status, refused.error) == (401, "signed_out"), path
        thief.cookie = old_cookie


def test_a_password_change_ends_every_session_of_the_account_but_the_changer_s_new_one(
        server: LiveServer, address: str) -> None:
    laptop = Client(server, address)
    name, password = laptop.sign_up()
    phone = Client(server, address)
    assert phone.sign_in(name, password).status == 200
    before = laptop.cookie, laptop.csrf

    new = new_password()
    changed = laptop.post("/api/account/password", {"password": password, "new_password": new})
    assert changed.status == 200
    assert laptop.cookie is not None
    assert laptop.cookie != before[0]
    assert laptop.csrf != before[1]
    assert laptop.me() == name
    assert phone.me() is None  # the other device's session ended
    old = Client(server, address)
    old.cookie, old.csrf = before
    assert old.me() is None  # and so did the changer's old one
    assert Client(server, address).sign_in(name, password).error == "bad_credentials"
    assert Client(server, address).sign_in(name, new).status == 200


def test_a_wrong_current_password_or_a_weak_new_one_changes_nothing(server: LiveServer, address: str) -> None:
    ana = Client(server, address)
    name, password = ana.sign_up()
    wrong = ana.post("/api/account/password", {"password": password + "x", "new_password": new_password()})
    assert (wrong.status, wrong.error) == (403, "wrong_password")
    weak = ana.post("/api/account/password", {"password": password, "new_password": "password123"})
    assert (weak.status, weak.error) == (400, "weak_password")
    assert ana.me() == name
    assert Client(server, address).sign_in(name, password).status == 200


def test_no_session_fixation_a_cookie_planted_before_sign_in_is_never_the_session_after(
        server: LiveServer, address: str) -> None:
    name, password = Client(server, address).sign_up()
    victim = Client(server, address)
    planted = secrets.token_urlsafe(32)  # a well-formed id the attacker chose
    victim.cookie = planted
    assert victim.sign_in(name, password).status == 200
    assert victim.cookie not in (None, planted)
    assert victim.me() == name
    attacker = Client(server, address)
    attacker.cookie = planted
    assert attacker.me() is None

    # the attacker's own live session planted: the sign-in ends it and makes a new one for the victim
    attacker.sign_up()
    own = attacker.cookie
    victim = Client(server, address)
    victim.cookie, victim.csrf = attacker.cookie, attacker.csrf
    assert victim.sign_in(name, password).status == 200
    assert victim.cookie != own
    assert victim.me() == name
    assert attacker.me() is None


# --- guessing ------------------------------------------------------------------------------------------------


def test_a_wrong_name_and_a_wrong_password_get_one_answer_in_the_time_of_a_hash(
        server: LiveServer, address: str) -> None:
    name, password = Client(server, address).sign_up()
    guesser = Client(server, address)
    for lang in ("en", "es"):
        nobody = guesser.post(f"/api/session?lang={lang}", {"name": unique_name(), "password": password})
        wrong = guesser.post(f"/api/session?lang={lang}", {"name": name, "password": password + "x"})
        assert nobody.status == wrong.status == 401
        assert nobody.json == wrong.json
        assert nobody.error == "bad_credentials"
    unknown, known = [], []
    for _ in range(7):
        unknown.append(guesser.sign_in(unique_name(), password).seconds)
        known.append(guesser.sign_in(name, new_password()).seconds)
    hash_seconds = local_hash_seconds()
    slow, fast = statistics.median(unknown), statistics.median(known)
    assert min(slow, fast) >= 0.5 * hash_seconds, (unknown, known, hash_seconds)
    assert 0.5 <= slow / fast <= 2.0, (unknown, known)


def test_sign_ins_are_limited_per_user_name_whether_it_has_an_account_or_not(
        server: LiveServer, address: str) -> None:
    name, password = Client(server, address).sign_up()
    guesser = Client(server, address)
    nobody = unique_name()
    for guessed in (name, nobody):
        for _ in range(LIMITS.attempts_per_name_burst):
            assert guesser.sign_in(guessed, new_password()).error == "bad_credentials"
        refused = guesser.sign_in(guessed, password)  # even the right password, now
        assert (refused.status, refused.error) == (429, "too_many_attempts")
    assert guesser.sign_in(name.upper(), password).error == "too_many_attempts"  # the name, whatever its case
    elsewhere = Client(server, _other(address))
    assert elsewhere.sign_in(name, password).error == "too_many_attempts"  # per name, from any address
    other_name, other_password = Client(server, address).sign_up()
    assert guesser.sign_in(other_name, other_password).status == 200  # the address itself may go on


def test_sign_ins_are_limited_per_address_whatever_the_names(server: LiveServer, address: str) -> None:
    name, password = Client(server, _other(address)).sign_up()
    guesser = Client(server, address)
    started, tried = time.monotonic(), 0
    while (answer := guesser.sign_in(unique_name(), new_password())).error == "bad_credentials":
        tried += 1
        assert tried <= 2 * LIMITS.attempts_per_address_burst
    assert answer.error == "too_many_attempts"
    earned = (time.monotonic() - started) * LIMITS.attempts_per_address_per_second  # refilled meanwhile
    assert LIMITS.attempts_per_address_burst <= tried <= LIMITS.attempts_per_address_burst + earned + 1
    refused = guesser.sign_in(name, password)  # the right password of an account, now
    assert (refused.status, refused.error) == (429, "too_many_attempts")
    signing_up = guesser.post("/api/account", {"name": unique_name(), "password": new_password()})
    assert signing_up.error == "too_many_attempts"  # signing up hashes too: the same budget
    assert Client(server, _other(address)).sign_in(name, password).status == 200  # another address may


def _other(address: str) -> str:
    """Another loopback address than ``address``, not given to any test."""
    return "127.1." + address.split(".", 2)[2]


# --- names ---------------------------------------------------------------------------------------------------


def test_names_that_differ_only_in_case_or_width_are_taken(server: LiveServer, address: str) -> None:
    hexed = secrets.token_hex(3)
    _, password = Client(server, address).sign_up(name=f"Mia_{hexed}")
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in f"mia_{hexed.upper()}")
    for look_alike in (f"mia_{hexed}", f"MIA_{hexed.upper()}", wide):
        taken = Client(server, address).post("/api/account", {"name": look_alike, "password": new_password()})
        assert (taken.status, taken.error) == (409, "name_taken"), look_alike
    assert Client(server, address).sign_in(wide, password).status == 200  # one name: the same account
    refused = Client(server, address).post("/api/account", {"name": "no spaces", "password": new_password()})
    assert (refused.status, refused.error) == (400, "bad_name")
    weak = Client(server, address).post("/api/account", {"name": unique_name(), "password": "iloveyou"})
    assert (weak.status, weak.error) == (400, "weak_password")


# --- seats ---------------------------------------------------------------------------------------------------


def test_a_signed_in_player_s_seats_belong_to_the_account_and_are_taken_up_on_another_device(
        server: LiveServer, address: str) -> None:
    laptop, bea = Client(server, address), Client(server, address)
    name, password = laptop.sign_up()
    bea.sign_up()
    made = laptop.make_room()
    room, old_token = made.json["room"], made.json["token"]
    assert bea.post(f"/api/rooms/{room}/join").status == 200
    listed = laptop.get("/api/me/matches").json["matches"]
    assert [(m["room"], m["player"], m["seat"], m["game"], m["waiting"]) for m in listed] == [
        (room, 0, 0, "duel", False)]
    assert [(m["room"], m["player"]) for m in bea.get("/api/me/matches").json["matches"]] == [(room, 1)]

    phone = Client(server, address)
    assert phone.sign_in(name, password).status == 200
    given = phone.post(f"/api/rooms/{room}/seat")
    assert given.status == 200
    assert (given.json["room"], given.json["player"]) == (room, 0)
    with phone.socket(room) as ws:
        welcome = hello(ws, given.json["token"])
        assert (welcome["type"], welcome["player"]) == ("welcome", 0)
    with laptop.socket(room) as ws:
        assert hello(ws, old_token)["code"] == "bad_token"  # the old token no longer proves the seat
    not_hers = bea.post(f"/api/rooms/{room}/seat", {"player": 0})
    assert (not_hers.status, not_hers.error) == (404, "no_seat")
    guest = Client(server, address).post(f"/api/rooms/{room}/seat")
    assert (guest.status, guest.error) == (401, "signed_out")


def test_a_guest_who_signs_up_or_in_keeps_the_seats_of_the_tab(server: LiveServer, address: str) -> None:
    tab = Client(server, address)
    first, second = tab.make_room().json, tab.make_room(["me", "bot:random"]).json
    tab.sign_up(seats=[{"room": first["room"], "token": first["token"]}])
    assert tab.answers[-1].json["seats"] == [{"room": first["room"], "player": 0}]
    tab.request("DELETE", "/api/session")
    name, password = Client(server, address).sign_up()
    signed = tab.post("/api/session", {"name": name, "password": password,
                                       "seats": [{"room": second["room"], "token": second["token"]},
                                                 {"room": first["room"], "token": first["token"]}]})
    assert signed.json["seats"] == [{"room": second["room"], "player": 0}]  # the first is the other account's
    assert [m["room"] for m in tab.get("/api/me/matches").json["matches"]] == [second["room"]]


def test_a_deleted_account_frees_its_name_and_its_matches_stay_with_a_nameless_player(
        server: LiveServer, address: str) -> None:
    ana = Client(server, address)
    name, password = ana.sign_up()
    made = ana.make_room(["me", "bot:random"]).json
    room = made["room"]
    with ana.socket(room) as ws:
        hello(ws, made["token"])
        ws.send(json.dumps({"type": "resign"}))
        while json.loads(ws.recv(RECEIVE_SECONDS))["type"] != "ended":
            pass
    account_id = database_rows(server.db_url, "SELECT account_id FROM seat_accounts WHERE room_id = :room",
                               room=room)[0][0]

    wrong = ana.request("DELETE", "/api/account", {"password": password + "x"})
    assert (wrong.status, wrong.error) == (403, "wrong_password")
    deleted = ana.request("DELETE", "/api/account", {"password": password})
    assert (deleted.status, deleted.json) == (200, {"account": None, "csrf": None})
    assert ana.cookie is None
    assert Client(server, address).sign_in(name, password).error == "bad_credentials"

    taker = Client(server, address)
    taker.sign_up(name=name.upper())  # the name is free again, whatever its case
    assert taker.get("/api/me/matches").json["matches"] == []
    assert server.get(f"/api/rooms/{room}")["status"] == "resigned"
    status, record = server.request("GET", f"/api/rooms/{room}/matches/0/record")
    assert status == 200
    assert json.loads(record)["result"]["reason"] == "resigned"
    assert database_rows(server.db_url, "SELECT account_id FROM seat_accounts WHERE room_id = :room",
                         room=room) == [(account_id,)]
    assert database_rows(server.db_url, "SELECT name, name_key, password_hash FROM accounts WHERE id = :id",
                         id=account_id) == [(None, None, None)]


# --- secrets stay secret ---------------------------------------------------------------------------------------


def test_no_password_or_hash_is_in_any_answer_log_line_record_or_other_table(
        server: LiveServer, address: str) -> None:
    ana = Client(server, address)
    name, password = ana.sign_up()
    new = new_password()
    passwords = [password, new, "password123", "Sh0rt!x"]
    ana.sign_in(name, password + "!")
    ana.sign_in(unique_name(), password)
    ana.post("/api/account", {"name": unique_name(), "password": "password123"})
    ana.post("/api/account", {"name": unique_name(), "password": "Sh0rt!x"})
    ana.post("/api/account", {"name": "x", "password": password})
    ana.post("/api/account/password", {"password": password + "?", "new_password": new})
    ana.post("/api/account/password", {"password": password, "new_password": new})
    ana.get("/api/me")
    made = ana.make_room(["me", "bot:random"]).json
    with ana.socket(made["room"]) as ws:
        hello(ws, made["token"])
        ws.send(json.dumps({"type": "resign"}))
        while json.loads(ws.recv(RECEIVE_SECONDS))["type"] != "ended":
            pass
    record = ana.get(f"/api/rooms/{made['room']}/matches/0/record")
    assert record.status == 200
    ana.request("DELETE", "/api/account", {"password": new + "x"})

    (stored,) = database_rows(server.db_url, "SELECT password_hash FROM accounts WHERE name = :name", name=name)[0]
    assert stored.startswith("$argon2id$")
    secrets_ = [*passwords, stored, stored.rsplit("$", 1)[1], "$argon2"]
    said = [b"\n".join([a.body, *(f"{k}: {v}".encode() for k, v in a.headers)]) for a in ana.answers]
    for secret in secrets_:
        for text in said:
            assert secret.encode() not in text
        assert secret not in server.output()
    assert record.body.count(name.encode()) == 0
    for table in ("rooms", "seats", "matches", "actions", "sessions", "seat_accounts"):
        dump = repr(database_rows(server.db_url, f"SELECT * FROM {table}"))
        for secret in secrets_:
            assert secret not in dump, table
    dump = repr(database_rows(server.db_url, "SELECT id, name, name_key, created_at, deleted_at FROM accounts"))
    for secret in passwords:
        assert secret not in dump
