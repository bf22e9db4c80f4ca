"""Players of quick pairing against real servers (tests and ``benchmarks/pairing.py --server``): signed-in players
made straight in the database (an account, a session, a rating: signing up 200 over HTTP would take the password
attempts' budget minutes), their HTTP requests sent from addresses of their own in 127.0.0.0/8 (the per-address
budget of requests with a body is the server's; one address per few players keeps within it, as real players
have)."""

from __future__ import annotations

import http.client
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from flametable.web.accounts import csrf_token, name_key, new_session_id, session_hash
from flametable.web.store import AccountStore, Store
from flametable.web.store.tables import ratings

THREE_TWO = {"kind": "fischer", "minutes": 3, "increment": 2}


def call(port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
         source: str = "127.0.0.1") -> tuple[int, Any]:
    """One HTTP request from ``source`` (an address of 127.0.0.0/8): its status and JSON answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body).encode(),
                           headers={"content-type": "application/json", **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    return response.status, json.loads(raw) if raw else None


@dataclass
class Seeker:
    """One player: their session (None: a guest), address, rating, and their seek once made."""

    name: str
    source: str
    rating: float
    session: str | None = None
    guest: str = field(default_factory=lambda: secrets.token_hex(8))
    seek: str | None = None
    secret: str | None = None
    made_at: float = 0.0  # time.monotonic() of the seek's answer
    paired: dict[str, Any] | None = None  # what asking after the seek answered once paired
    paired_at: float = 0.0

    def headers(self) -> dict[str, str]:
        out = {"x-guest-id": self.guest}
        if self.session is not None:
            out["cookie"] = f"flametable_session={self.session}"
            out["x-csrf-token"] = csrf_token(self.session)
        if self.secret is not None:
            out["x-seek-secret"] = self.secret
        return out

    def make_seek(self, port: int, game: str = "duel", clock: Any = None, rated: bool = False) -> None:
        status, answer = call(port, "POST", "/api/seeks", {"game": game, "clock": clock or THREE_TWO,
                                                           "rated": rated}, self.headers(), self.source)
        assert status == 201, (status, answer)
        self.seek, self.secret, self.made_at = answer["seek"], answer["secret"], time.monotonic()

    def ask(self, port: int) -> dict[str, Any]:
        """Ask after the seek (through the server on ``port``); keeps the answer once paired."""
        status, answer = call(port, "GET", f"/api/seeks/{self.seek}", None, self.headers(), self.source)
        assert status == 200, (status, answer)
        if answer["status"] == "paired" and self.paired is None:
            self.paired, self.paired_at = answer, time.monotonic()
        got: dict[str, Any] = answer
        return got


def source_of(index: int, per_address: int = 4) -> str:
    """The address of the ``index``-th player: ``per_address`` players an address."""
    n = index // per_address
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


async def signed_in(store: Store, names_ratings: list[tuple[str, float]], game: str = "duel") -> dict[str, str]:
    """An account for each name with a settled rating in ``game``, and a live session of it: the sessions' ids."""
    accounts = AccountStore(store)
    now = time.time()
    out: dict[str, str] = {}
    rows = []
    for name, rating in names_ratings:
        account = await accounts.create(name, name_key(name), "not a password hash", now)
        assert account is not None
        session = new_session_id()
        await accounts.start_session(account.id, session_hash(session), now)
        rows.append({"account_id": account.id, "game": game, "rating": rating, "rd": 60.0, "volatility": 0.06,
                     "rated_at": now, "matches": 10})
        out[name] = session
    async with store.engine.begin() as connection:
        await connection.execute(sa.insert(ratings), rows)
    return out
