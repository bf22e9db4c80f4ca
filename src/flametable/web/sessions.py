"""Sessions over HTTP (issue 23): the session cookie, the session of a request, and :class:`SessionGuard`, the
middleware that refuses what a cross-site page could make a signed-in browser do.

- **The cookie** ``flametable_session`` holds the session's random id: ``HttpOnly`` (no script reads it),
  ``SameSite=Lax`` (a cross-site page's POST, fetch or frame does not carry it), ``Path=/``, ``Max-Age`` the
  session's life; ``Secure`` when the request came over HTTPS as the server sees it: behind a proxy named by
  ``--forwarded-allow-ips`` that sends ``X-Forwarded-Proto: https`` (then the browser never sends it over plain
  HTTP). A cookie that names no live session (ended, past its time, of a deleted account, or never made) is no
  session: the request is a guest's, exactly as without a cookie.
- **CSRF**: every request that may change something (any method but GET, HEAD and OPTIONS) made with a live
  session's cookie must carry that session's CSRF token (:func:`~flametable.web.accounts.csrf_token`, given by
  sign-in and ``GET /api/me``) in the ``X-CSRF-Token`` header, else 403 ``csrf``, its body unread. Guests (no live
  session) are not asked for one.
- **The WebSocket**: an upgrade that carries a session cookie and an ``Origin`` of another host than the request's
  own ``Host`` is refused (403 ``csrf``): a cross-site page cannot open a signed-in player's socket. A client that
  sends no ``Origin`` (no browser) or no cookie is let through as before.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.web.accounts import SESSION_ID_PATTERN, Accounts, csrf_token, session_hash
from flametable.web.common import fail, language_of, refuse_unread
from flametable.web.store import SessionRow, StoreError

log = logging.getLogger("flametable.web")

COOKIE = "flametable_session"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_SCOPE_KEY = "flametable.session"  # the request's session once looked up: (id, row) or None
_ID = re.compile(SESSION_ID_PATTERN)


def accounts_of(conn: HTTPConnection) -> Accounts:
    accounts: Accounts = conn.app.state.accounts
    return accounts


def cookie_of(conn: HTTPConnection) -> str | None:
    """The session id the request's cookie holds, if it looks like one."""
    value = conn.cookies.get(COOKIE)
    return value if value is not None and _ID.fullmatch(value) else None


class Current:
    """A request's live session: the cookie's id and the stored session (its account)."""

    __slots__ = ("id", "row")

    def __init__(self, session_id: str, row: SessionRow) -> None:
        self.id = session_id
        self.row = row

    @property
    def hash(self) -> str:
        return session_hash(self.id)

    @property
    def csrf(self) -> str:
        return csrf_token(self.id)


async def session_of(conn: HTTPConnection) -> Current | None:
    """The request's live session (looked up once per request), else None: a guest. :class:`StoreError` if the
    store failed."""
    if _SCOPE_KEY in conn.scope:
        found: Current | None = conn.scope[_SCOPE_KEY]
        return found
    session_id = cookie_of(conn)
    row = await accounts_of(conn).session(session_id) if session_id is not None else None
    current = Current(session_id, row) if session_id is not None and row is not None else None
    conn.scope[_SCOPE_KEY] = current
    return current


def forget_session(conn: HTTPConnection) -> None:
    """The request's session ended (signed out, password changed): it is a guest's from now on."""
    conn.scope[_SCOPE_KEY] = None


async def give_seats(conn: HTTPConnection, room_id: str, players: Iterable[int]) -> None:
    """The seats ``players`` of the room, just made or taken with this request, belong to its session's account
    (a guest's: nothing). A store failure is logged: the room and its tokens stand, the seats stay a guest's."""
    try:
        current = await session_of(conn)
        if current is not None:
            await accounts_of(conn).store.attach_players(current.row.account.id, room_id, players)
    except StoreError:
        log.exception("room %s: its seats could not be given to their account", room_id)


def set_cookie(response: Response, request: HTTPConnection, session_id: str, max_age: float) -> None:
    response.set_cookie(COOKIE, session_id, max_age=int(max_age), path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme in ("https", "wss"))


def clear_cookie(response: Response, request: HTTPConnection) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme in ("https", "wss"))


def same_origin(conn: HTTPConnection) -> bool:
    """Whether the request's ``Origin`` header (if any) names the host it was sent to (its ``Host``)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    host = conn.headers.get("host")
    return bool(netloc) and host is not None and netloc.lower() == host.lower()


def csrf_refused() -> FlametableError:
    return FlametableError(N_("This request needs the CSRF token of your session (the X-CSRF-Token header): it was "
                              "refused, nothing was done. Reload the page and try again."))


def cross_site() -> FlametableError:
    return FlametableError(N_("This request comes from another site's page: it was refused, nothing was done."))


def store_failed() -> FlametableError:
    return FlametableError(N_("The server could not read your session: try again."))


class SessionGuard:
    """The middleware of :mod:`flametable.web.sessions`: CSRF tokens for requests with a live session, the Origin
    of WebSockets with a session cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refusal = await self._csrf(Request(scope, receive))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        elif scope["type"] == "websocket":
            conn = HTTPConnection(scope)
            if conn.cookies.get(COOKIE) is not None and not same_origin(conn):
                await self._deny(WebSocket(scope, receive, send), conn)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _csrf(request: Request) -> Response | None:
        if cookie_of(request) is None:
            return None
        try:
            current = await session_of(request)
        except StoreError:
            return refuse_unread(language_of(request), "store", store_failed(), 503)
        if current is None:
            return None
        given = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), current.csrf.encode("ascii")):
            return refuse_unread(language_of(request), "csrf", csrf_refused(), 403)
        return None

    @staticmethod
    async def _deny(websocket: WebSocket, conn: HTTPConnection) -> None:
        answer = fail(language_of(conn), "csrf", cross_site(), 403)
        try:
            await websocket.send_denial_response(answer)
        except RuntimeError:  # a server without the denial extension: closed before it is accepted
            await websocket.close(code=1008)


def account_json(current: Current | None) -> dict[str, Any]:
    """What ``GET /api/me`` and the sign-in answers say of the session: its account's name and its CSRF token
    (``null`` both for a guest)."""
    if current is None:
        return {"account": None, "csrf": None}
    account = current.row.account
    return {"account": {"name": account.name, "created_at": account.created_at}, "csrf": current.csrf}
