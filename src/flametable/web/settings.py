"""How one server runs: its :class:`Settings`, and the executor its bots think in."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

from flametable.web.rooms import Limits, new_seed, watch_parent
from flametable.web.store import Store


@dataclass
class Settings:
    """How one server runs: its database, its language, where bots think, its limits."""

    db_url: str
    lang: str = "en"
    bots: str = "process"  # "process" (a pool of worker processes), "thread" (tests) or "inline"
    bot_workers: int | None = None
    limits: Limits | None = None
    seeds: Callable[[], int] = new_seed
    clock: Callable[[], float] = time.time  # the rooms' time (when made, when past their time); tests give theirs
    migrate: bool = True
    open_store: Callable[..., Awaitable[Any]] = Store.open  # (url, migrate=...) -> a Store (tests: one in memory)


def bot_executor(settings: Settings) -> Executor | None:
    """Where the server's bots think: a pool of worker processes, of threads, or nowhere else (None: inline)."""
    if settings.bots == "process":
        return ProcessPoolExecutor(settings.bot_workers, mp_context=get_context("spawn"), initializer=watch_parent,
                                   initargs=(os.getpid(),))
    if settings.bots == "thread":
        return ThreadPoolExecutor(settings.bot_workers or 2, thread_name_prefix="flametable-bot")
    return None
