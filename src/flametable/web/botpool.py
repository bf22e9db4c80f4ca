"""Where the server's bots think, and in what order (issue 21, point 5): a fair scheduler of bot decisions.

A bot decision is a *job* of one room. Jobs go to one of three *lanes* by what the bot costs
(:func:`lane_of`):

- ``instant``: ``bot:random``, which draws a legal action (microseconds: 7-13 µs median, at most 80 µs measured
  for both games): decided on the event loop itself, one job per loop callback.
- ``quick``: the one-ply bots with no search (``bot:easy``, ``bot:medium``, ``bot:greedy``: 0.1-0.2 ms median but
  up to 2 ms at the 99th percentile and 5 ms at most for Flamecraft Duals, too long for the loop): a small executor
  of their own (``serve``: one worker process), so they never wait behind a search.
- ``search``: every other bot (ISMCTS, ``bot:hard`` in both games, the turn planner): the executor of
  ``--bot-workers`` worker processes.

Each lane keeps **a queue per room** and hands a job to its executor **only when a worker is free**: never more
jobs in flight than the lane has workers, so the order below decides, not the executor's own FIFO. The next job
is taken from the rooms **in turn** (round robin: a room served goes to the back of the line), **rooms with a
person first** (a seat of kind ``human``: someone plays, or is to come), all-bot rooms, which nobody waits for,
only when no room with a person has a job waiting in that lane. A lane may also keep ``reserved`` workers that
all-bot rooms never take (``serve``: one of the search workers, when there are several), so a person's bot starts
at once whatever all-bot rooms play (a search cannot be interrupted, and a worker given to an all-bot room while
the person's bot stored its last move would keep it waiting up to 1.5 s); it also leaves a core to the server.

A job whose waiter is cancelled (an undo, a resignation, the room or the hall closed) leaves its queue and never
runs; one already running finishes in its worker (a process cannot be interrupted), its worker counted busy
until then, and its result is dropped. A job that fails (the bot raised, its worker process died: the pool is
then replaced by a new one) is tried **once more**, first in its room's turn; if it fails again, the seat plays
``bot:random``'s choice for that move (logged as an error): a bot room never stops because a worker failed.

A view sent to a worker process is pickled with the game's own objects left out (its data set, referred to by
name: the worker has the same game, made by name): a Flamecraft Duals view holds the whole data set, 96 KB that
took 10 ms to pickle, against 0.6 KB and 0.07 ms.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import pickle
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from flametable.bots.base import RandomBot
from flametable.bots.greedy import GreedyBot
from flametable.bots.registry import make_bot
from flametable.core import registry
from flametable.core.protocol import Action

log = logging.getLogger("flametable.web")

INSTANT, QUICK, SEARCH = "instant", "quick", "search"
TRIES = 2
"""How many times a job is run before its seat falls back to ``bot:random`` for that move."""

Think = Callable[[str, str, int, Any, tuple[Action, ...]], int]
"""A bot's decision: ``(spec, game name, seed, view, legal actions) -> the chosen action's id``."""


@cache
def _game(name: str) -> Any:
    return registry.make_game(name)


def game_of(name: str) -> Any:
    """The registry's game ``name`` with its built-in data, made once per process."""
    return _game(name)


def clear_games() -> None:
    """Forget the games made and what was found of their bots (tests that change the registry's games)."""
    for cached in (_game, lane_of, _shared):
        cached.cache_clear()


def think(spec: str, game_name: str, seed: int, view: Any, legal: tuple[Action, ...]) -> int:
    """A bot's decision, as the action's id: run in a lane (a worker process, a thread or the loop)."""
    bot = make_bot(spec, _game(game_name), seed)
    return int(bot.choose(view, legal).id)


WORKER_NICENESS = 19
"""How much lower than the server's a worker process's CPU priority is (``os.nice``, the lowest): a worker that
searches or replays for a second yields the core to the server's event loop whenever both want it (Linux's
scheduler weighs a process of niceness 19 at 15 against the server's 1024), so people's moves are answered first;
a search bot's time budget is wall time, so a busy server makes it search less, not answer later. Measured with
the abusive neighbour at 1,000 connections: niceness 10 left its searches a visible share of the cores (p99 ratio
1.9× to 4.8×), 19 did not (0.9× and 1.1×; docs/benchmarks.md)."""

WORKER_IDLE_POLICY = True
"""Where Linux has it, a worker also runs under ``SCHED_IDLE``: its weight is lower still (3), and above all the
server's process, woken by a message, takes the core from a worker at once instead of waiting for the worker's
time slice to end (with niceness alone a busy worker could hold the core for a few milliseconds of a person's
move: the tail of the action-to-view times). A worker still gets every core the server leaves idle."""


def lower_priority(niceness: int = WORKER_NICENESS, idle: bool = WORKER_IDLE_POLICY) -> None:
    """Lower this process's CPU priority under the server's: ``niceness`` more, and ``SCHED_IDLE`` where the
    platform has it and ``idle``; what the platform (or a container) refuses is left as it was."""
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    if idle and hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def watch_parent(parent: int, interval: float = 0.5, niceness: int = WORKER_NICENESS) -> None:
    """A worker's initializer (bots, replays): its CPU priority lowered under the server's
    (:func:`lower_priority`); the worker ends once the server that started it (``parent``) is gone. A server
    killed alone (SIGKILL) cannot stop its workers, and an idle worker would wait for work for ever."""
    lower_priority(niceness)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    threading.Thread(target=watch, name="flametable-parent-watch", daemon=True).start()


@lru_cache(maxsize=1024)  # specs come from clients (bot:ismcts:1 ... bot:ismcts:10000): a bounded memory
def lane_of(spec: str, game_name: str) -> str:
    """The lane of a bot: :data:`INSTANT` for a random player, :data:`QUICK` for a one-ply bot (greedy, with or
    without noise), :data:`SEARCH` for anything else (a search, or a bot this module does not know)."""
    bot = make_bot(spec, _game(game_name), 0)
    if isinstance(bot, RandomBot):
        return INSTANT
    if isinstance(bot, GreedyBot):
        return QUICK
    return SEARCH


# ------------------------------------------------------------------ views to worker processes, small

_SCALARS = (int, float, complex, str, bytes, bool, type(None))


@cache
def _shared(game_name: str) -> Mapping[int, str]:
    """The game's own objects a view may hold, by ``id``: its attributes (a data set, tables), the game itself."""
    game = _game(game_name)
    found = {id(game): "."}
    for name, value in getattr(game, "__dict__", {}).items():
        if not isinstance(value, _SCALARS):
            found[id(value)] = name
    return found


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, shared: Mapping[int, str]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = shared

    def persistent_id(self, obj: Any) -> str | None:
        return self.shared.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, game: Any) -> None:
        super().__init__(file)
        self.game = game

    def persistent_load(self, pid: Any) -> Any:
        return self.game if pid == "." else getattr(self.game, str(pid))


def pack(game_name: str, *values: Any) -> bytes:
    """``values`` pickled, every object of the game ``game_name`` itself (:func:`game_of`'s attributes) written as
    its name: what the same game made by name in another process has."""
    out = io.BytesIO()
    _Pickler(out, _shared(game_name)).dump(values)
    return out.getvalue()


def unpack(game_name: str, blob: bytes) -> tuple[Any, ...]:
    """What :func:`pack` packed, the game's objects taken from this process's game ``game_name``."""
    values: tuple[Any, ...] = _Unpickler(io.BytesIO(blob), _game(game_name)).load()
    return values


def think_packed(decide: Think, game_name: str, blob: bytes) -> int:
    """``decide`` on a packed ``(spec, game, seed, view, legal)``: what a worker process runs."""
    spec, _, seed, view, legal = unpack(game_name, blob)
    return decide(spec, game_name, seed, view, legal)


# ------------------------------------------------------------------ the scheduler


@dataclass(eq=False)
class Job:
    """One bot decision a room waits for."""

    room: Hashable
    person: bool  # the room has a person's seat: it is served before all-bot rooms
    call: tuple[str, str, int, Any, tuple[Action, ...]]  # (spec, game name, seed, view, legal)
    future: asyncio.Future[int]
    tries: int = 0
    queued: bool = True


def workers_of(executor: Executor | None, default: int = 1) -> int:
    """How many jobs ``executor`` runs at once (a thread or process pool's ``max_workers``)."""
    count = getattr(executor, "_max_workers", None)
    return count if isinstance(count, int) and count > 0 else default


@dataclass(eq=False)
class Lane:
    """One kind of bot work and where it runs: ``executor`` (None: the loop's default thread pool) with ``slots``
    jobs at most in flight, ``reserved`` of them never taken by all-bot rooms, or ``inline`` on the event loop.
    ``factory`` makes the executor (again, when it breaks: a worker process died); an executor made by the lane is
    shut down by :meth:`close`. ``think`` decides (None: this module's :func:`think`, looked up when a job
    starts)."""

    name: str
    slots: int = 1
    executor: Executor | None = None
    reserved: int = 0
    inline: bool = False
    factory: Callable[[], Executor] | None = None
    think: Think | None = None
    running: int = field(default=0, init=False)  # jobs handed to the executor (or the loop), not finished
    running_robots: int = field(default=0, init=False)  # those of all-bot rooms
    _queues: dict[Hashable, deque[Job]] = field(default_factory=dict, init=False, repr=False)
    # the rooms with a job queued, in turn: those with a person, then the all-bot ones
    _turns: tuple[deque[Hashable], deque[Hashable]] = field(default_factory=lambda: (deque(), deque()), init=False,
                                                            repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.reserved < self.slots:
            raise ValueError(f"a lane needs a slot and reserves fewer than it has, got {self.slots}, "
                             f"{self.reserved}")
        if self.factory is not None and self.executor is None:
            self.executor = self.factory()

    @property
    def decider(self) -> Think:
        return self.think if self.think is not None else think

    @property
    def waiting(self) -> int:
        """Jobs queued, not handed over yet."""
        return sum(len(queue) for queue in self._queues.values())

    def submit(self, job: Job) -> None:
        """Queue ``job`` in its room's queue (a room new to the line goes to its back) and hand out what fits."""
        self._enqueue(job, front=False)
        job.future.add_done_callback(lambda _: self._withdraw(job))
        self._pump()

    def _enqueue(self, job: Job, *, front: bool) -> None:
        job.queued = True
        queue = self._queues.get(job.room)
        ring = self._turns[0 if job.person else 1]
        if queue is None:
            self._queues[job.room] = deque([job])
            if front:
                ring.appendleft(job.room)
            else:
                ring.append(job.room)
        elif front:
            queue.appendleft(job)
        else:
            queue.append(job)

    def _withdraw(self, job: Job) -> None:
        """A job done while queued (its waiter cancelled): out of its queue, and its room out of the line if that
        was its last job."""
        if not job.queued:
            return
        job.queued = False
        queue = self._queues[job.room]
        queue.remove(job)
        if not queue:
            del self._queues[job.room]
            self._turns[0 if job.person else 1].remove(job.room)

    def _next(self) -> Job | None:
        """The next job: the first room's in line (rooms with a person first; all-bot rooms only while they run
        fewer than the unreserved slots), that room then going to the back of its line; a job cancelled meanwhile
        is skipped (its withdrawal may not have run yet)."""
        robots = self.running_robots < self.slots - self.reserved
        for ring in self._turns if robots else self._turns[:1]:
            while ring:
                room = ring[0]
                queue = self._queues[room]
                job = queue.popleft()
                job.queued = False
                if not queue:
                    del self._queues[room]
                    ring.popleft()
                elif not job.future.done():
                    ring.rotate(-1)
                if not job.future.done():
                    return job
        return None

    def _pump(self) -> None:
        while self.running < self.slots:
            job = self._next()
            if job is None:
                return
            self._start(job)

    def _start(self, job: Job) -> None:
        self.running += 1
        self.running_robots += not job.person
        loop = asyncio.get_running_loop()
        if self.inline:
            loop.call_soon(self._run_inline, job)
            return
        executor = self.executor
        try:
            if isinstance(executor, ProcessPoolExecutor):
                spec, game_name, seed, view, legal = job.call
                blob = pack(game_name, spec, game_name, seed, view, legal)
                done = loop.run_in_executor(executor, think_packed, self.decider, game_name, blob)
            else:
                done = loop.run_in_executor(executor, self.decider, *job.call)
        except Exception as exc:  # a broken or shut down executor refuses work
            loop.call_soon(self._finish, job, executor, None, exc)
            return
        done.add_done_callback(lambda d: self._done(job, executor, d))

    def _done(self, job: Job, executor: Executor | None, done: asyncio.Future[int]) -> None:
        if done.cancelled():  # the executor was shut down before running it: the job will not be done
            job.future.cancel()
            self._finish(job, executor, None, None)
        elif (exc := done.exception()) is not None:
            self._finish(job, executor, None, exc)
        else:
            self._finish(job, executor, done.result(), None)

    def _run_inline(self, job: Job) -> None:
        if job.future.done():  # cancelled before its turn on the loop came: it never runs
            self._finish(job, None, None, None)
            return
        try:
            chosen = self.decider(*job.call)
        except Exception as exc:
            self._finish(job, None, None, exc)
        else:
            self._finish(job, None, chosen, None)

    def _finish(self, job: Job, executor: Executor | None, chosen: int | None, exc: BaseException | None) -> None:
        self.running -= 1
        self.running_robots -= not job.person
        if not job.future.done():
            if exc is None:
                assert chosen is not None
                job.future.set_result(chosen)
            else:
                self._failed(job, executor, exc)
        self._pump()

    def _failed(self, job: Job, executor: Executor | None, exc: BaseException) -> None:
        if isinstance(exc, BrokenExecutor) and executor is self.executor and self.factory is not None:
            log.error("the %s bot lane's executor broke (a worker died): it is replaced", self.name)
            self._renew()
        job.tries += 1
        spec, _, seed, view, legal = job.call
        if job.tries < TRIES:
            log.warning("room %s: bot %s failed to decide, tried again", job.room, spec, exc_info=exc)
            self._enqueue(job, front=True)  # its turn kept: first in line again
            return
        log.error("room %s: bot %s failed to decide %d times: bot:random decides this move", job.room, spec, TRIES,
                  exc_info=exc)
        try:
            job.future.set_result(int(RandomBot(seed).choose(view, legal).id))
        except Exception as fallback:
            job.future.set_exception(fallback)

    def _renew(self) -> None:
        old, self.executor = self.executor, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        assert self.factory is not None
        self.executor = self.factory()

    def jobs(self) -> Iterator[Job]:
        for queue in self._queues.values():
            yield from queue

    def close(self) -> None:
        """Cancel every queued job; shut down the executor the lane made (a running job is not waited for)."""
        for job in list(self.jobs()):
            job.future.cancel()
        if self.factory is not None and self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


class BotPool:
    """The lanes of a server's bots: :meth:`decide` puts a decision in its bot's lane, in its room's turn."""

    def __init__(self, search: Lane, quick: Lane | None = None, instant: Lane | None = None) -> None:
        self.lanes = {SEARCH: search, QUICK: quick or search, INSTANT: instant or quick or search}

    @classmethod
    def around(cls, executor: Executor | None, think: Think | None = None) -> BotPool:
        """The lanes of a hall given one executor: searches in it (as many at once as it has workers, one of them
        kept for rooms with a person when it has more than one), quick bots in the loop's default thread pool, one
        at a time, ``bot:random`` on the loop."""
        workers = workers_of(executor, 2)
        return cls(Lane(SEARCH, workers, executor, reserved=min(1, workers - 1), think=think),
                   Lane(QUICK, 1, None, think=think), Lane(INSTANT, 1, inline=True, think=think))

    async def decide(self, room: Hashable, person: bool, spec: str, game_name: str, seed: int, view: Any,
                     legal: tuple[Action, ...]) -> int:
        """The bot ``spec``'s decision for ``room`` (``person``: the room has a person's seat), in its turn.
        Cancelling the caller withdraws it."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.lanes[lane_of(spec, game_name)].submit(Job(room, person, (spec, game_name, seed, view, legal), future))
        return await future

    @property
    def waiting(self) -> int:
        return sum(lane.waiting for lane in set(self.lanes.values()))

    def close(self) -> None:
        for lane in set(self.lanes.values()):
            lane.close()
