"""How one server runs: its :class:`Settings`, and the :class:`~flametable.web.botpool.BotPool` its bots think in."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from flametable.service.pairing import Gap
from flametable.web.accounts import AccountLimits, HashCost
from flametable.web.botpool import INSTANT, QUICK, SEARCH, BotPool, Lane, watch_parent
from flametable.web.replays import ReplayWorker
from flametable.web.rooms import Limits, new_seed
from flametable.web.store import Store

if TYPE_CHECKING:
    from flametable.web.bus import Bus


@dataclass
class Settings:
    """How one server runs: its database, its language, where bots think, its limits, how passwords are hashed."""

    db_url: str
    lang: str = "en"
    bots: str = "process"  # "process" (pools of worker processes), "thread" (tests) or "inline"
    bot_workers: int | None = None  # the searching bots' workers (default: one per core)
    limits: Limits | None = None
    seeds: Callable[[], int] = new_seed
    # the server's one clock (rooms: when made, when past their time; the matches' clocks, issue 24): a
    # flametable.service.clock.Clock (tests: a ManualClock) or a plain () -> float
    clock: Any = time.time
    migrate: bool = True
    open_store: Callable[..., Awaitable[Any]] = Store.open  # (url, migrate=...) -> a Store (tests: one in memory)
    password_cost: HashCost = field(default_factory=HashCost)  # Argon2id's (tests lower it: never in production)
    account_limits: AccountLimits = field(default_factory=AccountLimits)
    # A cluster (docs/server.md, "Several processes"): the Redis of its messages; or ``bus``, the bus made for the
    # process's id (tests: a LocalHub's, several halls in one process). Neither: a single server.
    redis_url: str | None = None
    bus: Callable[[str], Bus] | None = None
    process: str | None = None  # this process's name in the cluster (default: host, pid and random letters)
    lease_seconds: float = 3.0  # a room's lease: renewed every ``cluster_every`` seconds while the room is held
    cluster_every: float = 1.0
    # quick pairing (issue 24, web/seeking.py): a pairing step every ``pairing_every`` seconds (None: none, tests
    # step it themselves), the rating gap allowed, a seek expired once its client has not asked after it for
    # ``seek_stale_seconds``; a pair still without a room ``seek_grace_seconds`` after its pairing waits again; the
    # seeks done with for ``seek_keep_seconds`` are deleted
    pairing_every: float | None = 0.5
    seek_gap: Gap = field(default_factory=Gap)
    seek_stale_seconds: float = 30.0
    seek_grace_seconds: float = 10.0
    seek_keep_seconds: float = 3600.0

    @property
    def clustered(self) -> bool:
        return self.redis_url is not None or self.bus is not None

    def make_bus(self, process: str) -> Bus | None:
        """The bus of this process (None: a single server)."""
        if self.bus is not None:
            return self.bus(process)
        if self.redis_url is not None:
            from flametable.web.bus import RedisBus

            return RedisBus(self.redis_url, process)
        return None


def _processes(workers: int) -> Executor:
    return ProcessPoolExecutor(workers, mp_context=get_context("spawn"), initializer=watch_parent,
                               initargs=(os.getpid(),))


def _threads(workers: int) -> Executor:
    return ThreadPoolExecutor(workers, thread_name_prefix="flametable-bot")


def bot_pool(settings: Settings) -> BotPool:
    """Where the server's bots think (:mod:`flametable.web.botpool`): searches in ``bot_workers`` worker processes
    (``"thread"``: threads, 2 by default; ``"inline"``: the loop's default thread pool), one of them kept for rooms
    with a person when there are several; the quick bots in one worker of their own; ``bot:random`` on the event
    loop."""
    instant = Lane(INSTANT, 1, inline=True)
    if settings.bots in ("process", "thread"):
        make = _processes if settings.bots == "process" else _threads
        workers = settings.bot_workers or ((os.cpu_count() or 1) if settings.bots == "process" else 2)
        search = Lane(SEARCH, workers, factory=partial(make, workers), reserved=min(1, workers - 1))
        return BotPool(search, Lane(QUICK, 1, factory=partial(make, 1)), instant)
    workers = settings.bot_workers or 2
    return BotPool(Lane(SEARCH, workers, reserved=min(1, workers - 1)), Lane(QUICK, 1), instant)


def replay_worker(settings: Settings, limits: Limits) -> ReplayWorker:
    """Where the server makes replays (:class:`~flametable.web.replays.ReplayWorker`): one worker process of its
    own (spawned on the first replay); ``"thread"``: one thread; ``"inline"``: the loop's default thread pool."""
    if settings.bots == "process":
        return ReplayWorker(_processes(1), limits)
    if settings.bots == "thread":
        return ReplayWorker(ThreadPoolExecutor(1, thread_name_prefix="flametable-replay"), limits)
    return ReplayWorker(None, limits)
