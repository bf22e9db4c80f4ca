"""Run seeded matches between seats, in parallel processes or on a Ray cluster, with the same results whatever
the job count.

Match ``i`` of a run with seed ``S`` uses the match seed ``derive(S, i)``; its bots are seeded from it too,
and the two seats swap every other match (odd ``i``: the first named player sits in seat 2). Bots run on
iteration budgets only (no clock), so a run is reproducible.
"""

from __future__ import annotations

import gc
import hashlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

from flametable.bots.registry import make_bot
from flametable.core.match import new_record
from flametable.core.outcome import Outcome
from flametable.core.protocol import Action, GameState
from flametable.core.registry import make_game
from flametable.core.rng import Rng
from flametable.service import MatchService
from flametable.service import run as run_service
from flametable.sim import summaries

if TYPE_CHECKING:
    from flametable.sim.cluster import Cluster

T = TypeVar("T")


def derive(seed: int, index: int) -> int:
    """The seed of match ``index`` of a run seeded ``seed``."""
    return Rng(seed * 1_000_003 + index).next32()


@dataclass(frozen=True)
class SimSpec:
    game: str
    p1: str
    p2: str
    games: int
    seed: int = 0
    options: dict[str, Any] | None = None
    data: str | None = None  # custom card set / board data file
    records: bool = False


def _decider(spec: str, game: Any, seed: int) -> Callable[[Any, Any], Action]:
    return make_bot(spec, game, seed, deterministic=True).choose


_GAME: Any = None
_GAME_OF: tuple[str, str | None, bytes | None] | None = None  # the game, data file and its digest _GAME is of


def _digest(data: str | None) -> bytes | None:
    """What the data file holds, in a few bytes (None without one, or when it cannot be read: the game says so)."""
    if data is None:
        return None
    try:
        return hashlib.blake2b(Path(data).read_bytes(), digest_size=16).digest()
    except OSError:
        return None


def worker_game(game_name: str, data: str | None) -> None:
    """Make the game that a worker process plays, once: a worker that lives on between runs (Ray's) makes it anew
    for another game, another data file, or a data file that changed since."""
    global _GAME, _GAME_OF
    made_of = (game_name, data, _digest(data))
    if made_of == _GAME_OF:
        return
    _GAME = make_game(game_name, data)
    _GAME_OF = made_of
    # What the worker inherited or loaded lives as long as it does: keep it out of the collector's scans, so
    # the many short-lived objects of each match are all that garbage collection walks.
    gc.freeze()


def run_match(spec: SimSpec, index: int, game: Any = None) -> dict[str, Any]:
    """Play match ``index`` of ``spec`` and return its result line."""
    game = game if game is not None else _GAME
    seed = derive(spec.seed, index)
    swapped = index % 2 == 1
    seat_specs = [spec.p2, spec.p1] if swapped else [spec.p1, spec.p2]
    deciders = [_decider(s, game, seed * 2 + k + 1) for k, s in enumerate(seat_specs)]
    options = spec.options or {}
    state: GameState[Any, Any] = game.new_match(options, seed)
    record = new_record(game, options, seed, seat_specs)
    trace: list[tuple[int, Action, Any]] = []
    collect = summaries.collector(game.name)

    def on_action(seat: int, action: Action) -> None:
        trace.append((seat, action, collect(state, seat, action) if collect else None))

    start = time.perf_counter()
    # Through the match service's checks; nobody listens, so no events are made (its lean path).
    outcome: Outcome = run_service(MatchService(game, state, record), deciders, on_action=on_action)
    took = time.perf_counter() - start
    p1_seat = 1 if swapped else 0
    winner = None if outcome.winner is None else ("p1" if outcome.winner == p1_seat else "p2")
    line: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "game": game.name,
        "seats": seat_specs,
        "p1_seat": p1_seat,
        "winner": winner,
        "winner_seat": outcome.winner,
        "reason": str(outcome.reason),
        "scores": list(outcome.scores),
        "p1_points": outcome.points(p1_seat),
        "actions": len(record.actions),
        "seconds": round(took, 4),
        "summary": summaries.summarize(game.name, state, trace),
    }
    if spec.records:
        line["record"] = record.to_json()
    return line


def pool_worker(game_name: str, data: str | None) -> None:
    """A pool worker's start: Ctrl-C is the parent's to handle (SIGINT reaches the whole process group at a
    terminal), so the workers ignore it and finish the batch in hand. A worker killed by it left Python 3.11's pool
    unable to shut down: the run hung after Ctrl-C instead of ending with what it had written."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker_game(game_name, data)


def play_chunk(spec: SimSpec, indexes: list[int], each: Callable[[dict[str, Any]], T] | None) -> list[Any]:
    """The result lines of the matches ``indexes`` (or what ``each`` makes of them), in a worker that has its
    game (:func:`worker_game`)."""
    lines = (run_match(spec, i) for i in indexes)
    return [each(line) for line in lines] if each is not None else list(lines)


def plan_chunks(games: int, jobs: int, size: int = 0, largest: int = 16) -> list[list[int]]:
    """Match indexes in the batches that the workers take one at a time, in order.

    With ``size``, batches of that size. Otherwise guided: each batch holds a quarter of what remains per
    worker, at most ``largest``, so batches are big while much remains (fewer messages) and shrink to single
    matches at the end, where one long last batch would leave the other workers idle.
    """
    if size < 0 or largest < 1:
        raise ValueError(f"a batch holds at least 1 match, got size {size} and largest {largest}")
    chunks, start = [], 0
    while start < games:
        n = size or max(1, min(largest, (games - start) // (jobs * 4)))
        chunks.append(list(range(start, min(start + n, games))))
        start += n
    return chunks


@overload
def run(spec: SimSpec, jobs: int = 1, chunk: int = 0, *, each: None = None,
        cluster: Cluster | None = None) -> Iterator[dict[str, Any]]: ...


@overload
def run(spec: SimSpec, jobs: int = 1, chunk: int = 0, *, each: Callable[[dict[str, Any]], T],
        cluster: Cluster | None = None) -> Iterator[T]: ...


def run(spec: SimSpec, jobs: int = 1, chunk: int = 0, *,
        each: Callable[[dict[str, Any]], Any] | None = None, cluster: Cluster | None = None) -> Iterator[Any]:
    """Yield every match's result line, in index order, or what ``each`` makes of it.

    ``each`` (a module-level function, so that it reaches the workers) runs where the match ran: with
    ``jobs > 1``, in the worker, so that the parent process receives only what it needs (``sim.results.Entry``).
    With ``cluster`` (:func:`flametable.sim.cluster.connect`), the matches run there as Ray tasks, in batches
    planned for the cluster's CPUs (``jobs`` is not used), and come back in the same order.
    """
    if spec.games < 0:
        raise ValueError(f"games must be at least 0, got {spec.games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    if chunk < 0:
        raise ValueError(f"chunk must be at least 0 (0: guided batches), got {chunk}")
    game = make_game(spec.game, spec.data)
    for s in (spec.p1, spec.p2):  # fail fast, naming the bad seat
        _decider(s, game, 0)
    if cluster is not None:
        from flametable.sim.cluster import LARGEST_BATCH

        for results in cluster.map(spec, plan_chunks(spec.games, cluster.cpus, chunk, LARGEST_BATCH), each):
            yield from results
        return
    if jobs == 1 or spec.games < 2:
        for i in range(spec.games):
            line = run_match(spec, i, game)
            yield each(line) if each is not None else line
        return
    chunks = plan_chunks(spec.games, jobs, chunk)
    ctx = get_context("fork") if hasattr(os, "fork") else get_context("spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=pool_worker, initargs=(spec.game, spec.data))
    try:
        for results in pool.map(play_chunk, [spec] * len(chunks), chunks, [each] * len(chunks)):
            yield from results
    finally:  # stopped early (Ctrl-C, an error, the reader gone): the batches not begun are dropped, not played
        pool.shutdown(wait=True, cancel_futures=True)
