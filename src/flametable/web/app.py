"""The game server's application (Starlette): :func:`create_app` assembles the routes of :mod:`flametable.web.routes`
and :mod:`flametable.web.socket` and puts the shared objects on ``app.state`` (``settings``, the WebSockets'
``connections`` count of :mod:`flametable.web.memory`; at start-up the ``store``, the ``hall`` of rooms and the
``accounts``). No
game rule here: rooms drive matches through the common protocol and the match service.

==========================================  ===================================================================
``GET  /healthz``                           ``{"status": "ok", "redis", "process", "rooms"}`` once the database
                                            answers (503 before)
``GET  /api/games``                         the registry's games: name, title, bot levels, client piece, options
``GET  /games/NAME/static/FILE``            a file of the game's client piece (``client``)
``POST /api/rooms``                         make a room: ``{"game", "options", "seats": [s0, s1]}``, each seat
                                            ``"me"``, ``"open"`` or a bot (``"bot:hard"``); returns its id, link
                                            and the creator's seat token
``GET  /api/rooms``                         the rooms waiting for a player
``GET  /api/rooms/ID``                      what anyone may know of a room
``POST /api/rooms/ID/join``                 take an open seat (``{"player": 0|1}`` optional): its token
``POST /api/rooms/ID/close``                close a room still waiting for a player (``{"token"}``: a seated
                                            player's)
``GET  /api/rooms/ID/matches/N/record``     the record of an ended match (the terminal's record file)
``GET  /api/rooms/ID/matches/N/replay``     the steps of an ended match with every audience's views (``replays``)
``POST /api/replay``                        the same steps from an uploaded record file
``POST /api/games/NAME/options/check``      ``{"options": ...}`` checked by the game (own decks): ok or the problem
``WS   /api/rooms/ID/ws``                   the room's events and the players' messages (``messages``)
``POST /api/account``                       sign up (``{"name", "password", "seats"?}``): the session's cookie
``DELETE /api/account``                     delete the account (``{"password"}``)
``POST /api/account/password``              change the password (``{"password", "new_password"}``)
``POST /api/session``                       sign in (``{"name", "password", "seats"?}``): a new session's cookie
``DELETE /api/session``                     sign out
``GET  /api/me``                            who is signed in, and the session's CSRF token
``GET  /api/me/matches``                    the account's matches going on
``POST /api/rooms/ID/seat``                 a fresh token for the account's seat in the room (another device)
``POST /api/my-matches``                    the matches going on of the browser's seat tokens (``{"seats"}``) and,
                                            signed in, of the account: whose turn, opponent, clock, last move
``GET  /api/players/NAME``                  a player's profile: ratings and their history, results, recent matches
``GET  /api/leaderboard/GAME``              a page (``?page=N``) of a game's best 100 settled ratings, the reader's
                                            own place
``GET  /api/rooms/ID/matches/N/rating``     a match's rating change (rated rooms: ``"rated": true`` at making
                                            and joining)
``POST /api/seeks``                         quick pairing (issue 24): wait in a pool (``{"game", "clock",
                                            "rated"}``): the seek's id and secret
``GET  /api/seeks/ID``                      the seek (``X-Seek-Secret``): waiting, or paired with its room, seat
                                            and token
``DELETE /api/seeks/ID``                    cancel a waiting seek (``X-Seek-Secret``)
``GET  /api/pools``                         each pool's players waiting and matches going on
==========================================  ===================================================================

A request with a signed-in session's cookie that may change something carries the session's CSRF token
(``X-CSRF-Token``): :class:`~flametable.web.sessions.SessionGuard`, the app's middleware, refuses it otherwise.

Every error is JSON ``{"error": code, "message": text}`` (HTTP) or an ``error`` event (WebSocket), its text in the
client's language: ``?lang=es``, else the ``Accept-Language`` header, else the server's ``--lang``.
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from functools import partial

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from flametable.web import client, socket
from flametable.web.accounts import Accounts, HashCost, Hasher
from flametable.web.cluster import Cluster
from flametable.web.memory import Connections
from flametable.web.ratings import rate_pending
from flametable.web.rooms import Hall, process_id
from flametable.web.routes import accounts, challenges, games, matches, my_matches, pages, players, rooms, seeks
from flametable.web.seeking import Seeker
from flametable.web.sessions import SessionGuard
from flametable.web.settings import Settings, bot_pool, replay_worker
from flametable.web.store import AccountStore, Store

__all__ = ["Settings", "app_from_env", "create_app"]


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The store opened (and migrated) and the hall of rooms made at start-up, its sweep of the rooms waiting past
    their time started; all closed at shutdown (the sweep cancelled). uvicorn's log of WebSocket text frames that
    are not UTF-8 is quieted meanwhile (:class:`~flametable.web.socket.NotUtf8`)."""
    settings: Settings = app.state.settings
    process = settings.process or process_id()
    store = await settings.open_store(settings.db_url, migrate=settings.migrate)
    bus = settings.make_bus(process)
    try:
        if bus is not None:
            await bus.start()
        clustered = None if bus is None else partial(Cluster, bus=bus, lease_seconds=settings.lease_seconds,
                                                     every=settings.cluster_every)
        hall = Hall(store, bots=bot_pool(settings), seeds=settings.seeds, limits=settings.limits,
                    clock=settings.clock, cluster=clustered, process=process)
    except BaseException:
        if bus is not None:
            await bus.stop()
        await store.close()
        raise
    app.state.store, app.state.hall, app.state.bus = store, hall, bus
    app.state.accounts = Accounts(AccountStore(store), Hasher(settings.password_cost), settings.account_limits,
                                  settings.clock)
    app.state.replays = replays = replay_worker(settings, hall.limits)
    if hall.cluster is not None:
        replays.shared = hall.cluster.budget("replays", replays.budgets)
    try:
        if hall.cluster is not None:
            await hall.cluster.start()
        await hall.start_sweeping()
        hall.start_clocks()  # a single server's timed matches taken up: their clocks run from now (issue 24)
        await rate_pending(store, settings.clock())  # rated matches whose rating failed before (issue 23)
        app.state.seeker = seeker = (Seeker(hall, store, gap=settings.seek_gap, every=settings.pairing_every,
                                            stale=settings.seek_stale_seconds, grace=settings.seek_grace_seconds,
                                            keep=settings.seek_keep_seconds)
                                     if isinstance(store, Store) else None)  # quick pairing (issue 24)
        if seeker is not None:
            seeker.start()
        with socket.quiet_bad_text(hall.limits.not_utf8_log_seconds):  # not a traceback per bad text frame
            yield
    finally:
        seeker = getattr(app.state, "seeker", None)
        if seeker is not None:
            await seeker.stop()
        await hall.close()  # its bots' workers shut down too, its leases given back
        replays.close()
        if bus is not None:
            await bus.stop()
        await store.close()


def create_app(settings: Settings) -> Starlette:
    """The server's application: its routes, its settings on ``app.state``, its store opened at start-up."""
    routes: list[BaseRoute] = [
        *pages.routes,
        *games.routes,
        *rooms.routes,
        *matches.routes,
        *accounts.routes,
        *my_matches.routes,
        *players.routes,
        *seeks.routes,
        *challenges.routes,
        *socket.routes,
        *client.routes(pages.page),
        # routes of other modules go here, each module's ``routes`` list
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SessionGuard)])
    app.state.settings = settings
    app.state.connections = Connections.of_this_system()  # counted by the WebSocket route (web.memory)
    return app


ENV_PREFIX = "FLAMETABLE_SERVE_"
"""The environment variables ``flametable serve`` sets for :func:`app_from_env` (its worker processes read them)."""


def settings_from_env(env: Mapping[str, str] | None = None) -> Settings:
    """The settings ``flametable serve`` put in the environment: ``FLAMETABLE_SERVE_DB`` (the database URL),
    ``..._LANG``, ``..._BOT_WORKERS``, ``..._REDIS`` (a cluster's Redis), ``..._ARGON2`` (the password hashing's
    cost, as ``serve`` read it)."""
    env = os.environ if env is None else env
    workers = env.get(ENV_PREFIX + "BOT_WORKERS")
    cost = env.get(ENV_PREFIX + "ARGON2")
    return Settings(env[ENV_PREFIX + "DB"], lang=env.get(ENV_PREFIX + "LANG", "en"),
                    bot_workers=int(workers) if workers else None, migrate=False,
                    redis_url=env.get(ENV_PREFIX + "REDIS") or None,
                    password_cost=HashCost.parse(cost) if cost else HashCost())


def app_from_env() -> Starlette:
    """The application of one worker process of ``flametable serve --workers N`` (uvicorn's import-string factory,
    ``flametable.web.app:app_from_env``): its settings from the environment (:func:`settings_from_env`), its own
    process id in the cluster."""
    app = create_app(settings_from_env())
    # What is loaded now lives as long as the worker: the garbage collector need not walk it again
    gc.collect()
    gc.freeze()
    return app
