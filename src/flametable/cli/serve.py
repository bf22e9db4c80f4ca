"""``flametable serve``: the online table on uvicorn (:mod:`flametable.web`), its database made ready first so
that a bad URL, an unreachable database or a port in use is one clear line, never a traceback.

A plain server (no ``--redis``) on PostgreSQL holds the database's server lock
(:class:`~flametable.web.store.ServerLock`) while it runs: a second plain server on the same database is refused at
start (two of them would drive the same rooms each from its own memory)."""

from __future__ import annotations

import copy
import errno
import gc
import ipaddress
import os
import re
import socket
from typing import Any

from flametable.cli.console import fail, out
from flametable.cli.db import resolve_url, upgrade_or_fail
from flametable.cli.i18n import _, language, ngettext
from flametable.web.accounts import HashCost
from flametable.web.store import ServerLock, StoreError, first_line, shown_url

WS_MAX_BYTES = 1024 * 1024
"""Frames longer than this are refused by uvicorn itself (the app refuses messages over 4 KiB with an error event)."""
WS_DEFLATE = False
"""No permessage-deflate, though browsers offer it: its zlib contexts cost about 46 KiB of server memory per
connection (``benchmarks/server.py``: 98 KiB per connection at 1,000 connections with it, 49 without), to save
under 1 KB a move (an event is about 1 KB of JSON)."""


ARGON2_VARIABLE = "FLAMETABLE_ARGON2"
"""An environment variable for tests only: Argon2id's parameters as ``TIME,MEMORY_KIB,LANES`` (``1,16384,1``)
instead of argon2-cffi's defaults (3 passes over 64 MiB, 4 lanes). Never lower them in production."""


def password_cost() -> HashCost:
    """The hashing parameters: :data:`ARGON2_VARIABLE`'s if set (checked), else the defaults."""
    given = os.environ.get(ARGON2_VARIABLE, "").strip()
    if not given:
        return HashCost()
    try:
        return HashCost.parse(given)
    except ValueError:
        fail(_("{variable} takes Argon2's passes, memory in KiB and lanes separated by commas (1,16384,1); "
               "{value!r} is not that.").format(variable=ARGON2_VARIABLE, value=given[:40]))


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                fail(_("Port {port} of {host} is in use: choose another with --port.").format(port=port, host=host))
            fail(_("Cannot listen on {host}:{port}: {error}").format(host=host, port=port, error=exc.strerror))


def trusted_proxies(value: str | None) -> str | None:
    """The proxies ``--forwarded-allow-ips`` names, checked, as uvicorn reads them (``*``, or addresses and networks
    separated by commas); None: no proxy, no forwarded header trusted."""
    if value is None:
        return None
    entries = [entry.strip() for entry in value.split(",")]
    if entries == ["*"]:
        return "*"
    shown = []
    for entry in entries:
        try:  # a network with host bits (10.0.0.5/24) as uvicorn takes it (10.0.0.0/24): it would ignore it
            shown.append(str(ipaddress.ip_network(entry, strict=False)) if "/" in entry
                         else str(ipaddress.ip_address(entry)))
        except ValueError:
            fail(_("--forwarded-allow-ips takes the proxy's addresses or networks separated by commas "
                   "(10.0.0.5,10.0.0.6 or 10.0.0.0/24), or *; {entry!r} is none of them.").format(entry=entry))
    return ",".join(shown)


def shown_redis(url: str) -> str:
    """A Redis URL as it may be shown: its password hidden."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def check_cluster(url: str, workers: int, redis: str | None) -> None:
    """Several processes (``--workers`` above 1, ``--redis``) share a PostgreSQL database and a Redis: refuse, in
    one line saying why and what to use, what cannot work; and a Redis that does not answer."""
    if workers < 1:
        fail(_("--workers takes a number of processes, 1 or more, got {workers}.").format(workers=workers))
    if (workers > 1 or redis is not None) and not url.startswith("postgresql"):
        fail(_("Several server processes (--workers above 1, or --redis) share one database, which SQLite cannot be "
               "(it is one process's file): give --db postgresql://USER@HOST/DATABASE."))
    if workers > 1 and redis is None:
        fail(_("--workers {workers} needs --redis redis://HOST:6379/0: the worker processes pass the rooms' messages "
               "to one another through Redis.").format(workers=workers))
    if redis is not None:
        problem = redis_problem(redis)
        if problem is not None:
            fail(problem)


def redis_problem(url: str) -> str | None:
    """Why the Redis of ``url`` cannot be used (translated), or None: it answers."""
    import asyncio

    from flametable.web.bus import connect, describe

    try:
        client = connect(url, timeout=2.0, name="flametable:serve-check")
    except ValueError:
        return _("--redis takes a Redis URL (redis://HOST:6379/0), got {url}.").format(url=shown_redis(url))

    async def ping() -> str | None:
        try:
            await client.ping()
        except Exception as exc:  # whatever the client raises is told in one line
            return describe(exc)
        finally:
            await client.aclose()
        return None

    error = asyncio.run(ping())
    if error is None:
        return None
    return _("Redis at {url} does not answer: {error}").format(url=shown_redis(url), error=error)


def hold_database(url: str) -> ServerLock:
    """The database's server lock, held (released when the process ends, if not before); one clear line and exit 1
    if another plain server holds it or the database fails."""
    lock = ServerLock(url)
    try:
        taken = lock.take()
    except StoreError as exc:
        fail(_("The database {database} cannot be locked for this server: {error}").format(
            database=shown_url(url), error=first_line(exc.__cause__ or exc)))
    if not taken:
        fail(_("The database {database} is already served by another flametable server. To run several server "
               "processes on one database, give every one --redis (see docs/deploy.md).").format(
            database=shown_url(url)))
    return lock


LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""How the server's own lines (the ``flametable`` loggers: leases taken over, rooms swept, the bus back...) are
written to standard error: with the time, the level and the logger, one line each."""


def log_config() -> dict[str, Any]:
    """uvicorn's logging set-up, and the ``flametable`` loggers' from INFO up in :data:`LOG_FORMAT` (without it they
    had no handler: Python's last resort wrote their warnings bare, without a time, and dropped the rest)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["flametable"] = {"format": LOG_FORMAT}
    config["handlers"]["flametable"] = {"formatter": "flametable", "class": "logging.StreamHandler",
                                        "stream": "ext://sys.stderr"}
    config["loggers"]["flametable"] = {"handlers": ["flametable"], "level": "INFO", "propagate": False}
    return config


def run_serve(host: str, port: int, db: str | None, lang: str | None, bot_workers: int | None,
              forwarded_allow_ips: str | None = None, *, workers: int = 1, redis: str | None = None) -> None:
    """Serve until stopped. ``redis``: the bus of several server processes on one database (then no server lock is
    taken); without it the server must be the database's only one. ``workers``: uvicorn worker processes on the one
    port (above 1: with ``redis``)."""
    import uvicorn

    from flametable.web.app import ENV_PREFIX, Settings, create_app

    url = resolve_url(db)
    if not 0 < port < 65536:
        fail(_("A port is a number from 1 to 65535, got {port}.").format(port=port))
    proxies = trusted_proxies(forwarded_allow_ips)
    cost = password_cost()
    check_cluster(url, workers, redis)
    _check_port(host, port)
    upgrade_or_fail(url)
    lock = hold_database(url) if redis is None else None  # ends with the process, if not at the end of run()
    out().print(_("flametable server: http://{host}:{port}/ (database: {db}). Stop it with Ctrl+C.").format(
        host=host if ":" not in host else f"[{host}]", port=port, db=shown_url(url)), soft_wrap=True, markup=False,
        highlight=False)
    if redis is not None:
        out().print(ngettext("Cluster mode: {workers} server process here, the rooms' messages through Redis at "
                             "{redis}.",
                             "Cluster mode: {workers} server processes here, the rooms' messages through Redis at "
                             "{redis}.", workers).format(workers=workers, redis=shown_redis(redis)),
                    soft_wrap=True, markup=False, highlight=False)
    options: dict[str, Any] = {"host": host, "port": port, "ws_max_size": WS_MAX_BYTES,
                               "ws_per_message_deflate": WS_DEFLATE, "log_level": "warning", "log_config": log_config(),
                               "lifespan": "on",
                               "proxy_headers": proxies is not None, "forwarded_allow_ips": proxies}
    chosen = lang or language()
    if workers > 1:  # each worker makes its app from the environment (uvicorn needs an import string)
        os.environ.update({ENV_PREFIX + "DB": url, ENV_PREFIX + "LANG": chosen, ENV_PREFIX + "REDIS": redis or "",
                           ENV_PREFIX + "BOT_WORKERS": str(bot_workers or ""),
                           ENV_PREFIX + "ARGON2": cost.text()})
        uvicorn.run("flametable.web.app:app_from_env", factory=True, workers=workers, **options)
        return
    app = create_app(Settings(url, lang=chosen, bot_workers=bot_workers, migrate=False, redis_url=redis,
                              password_cost=cost))
    # What is loaded now (modules, card sets, translations) lives as long as the server: the garbage collector
    # need not walk it again in every full collection (fewer long pauses with many rooms).
    gc.collect()
    gc.freeze()
    # A client's address is its socket's (what the per-address limits count) unless a proxy was named. uvicorn's
    # own default trusts X-Forwarded-For from 127.0.0.1: through a local proxy that passes the header on, or from
    # any program of the machine, each new value of the header would be a new client with a new allowance.
    try:
        uvicorn.run(app, **options)
    finally:
        if lock is not None:
            lock.release()
