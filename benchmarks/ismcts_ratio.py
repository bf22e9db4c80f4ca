"""Issue 26's P3, like for like: one ISMCTS iteration's cost over one playout's from the same states, with the same
playout policy on both sides (uniformly random, and the sensible player's of ``games.duel.bots``), and the
iterations per second of ``bot:hard``. Long: run by hand, not in the test suite.

    PYTHONPATH=src:. python -m benchmarks.ismcts_ratio [--engine python|native|both] [--iterations 300]
                                                       [--only ratio|hard|strength|hard_strength|instructions]
                                                       [--games 400]

The states are real decision points of random Flame Duel matches (``benchmarks.bots.decision_points``). An
iteration is the bot's (a determinisation from the view, the descent, the expansion, the playout, the backup, and
its share of the decision's preparation). Two playouts are its reference: ``same_state``, a clone of the real
state played to the end by the same policy, ``--iterations`` times in a row (``benchmarks.bots``' measure), and
``samples``, the determinisations of that state's view (drawn beforehand, not timed) played out once each, as the
search meets them. ``python``: the reference (``IsmctsBot`` on the Python engine); ``native``: the same bot when
the native engine is picked (its search in the core, ``games.duel.native.NativeSearch``), against the core's
playouts. ``hard``: the lab's bot:hard's iterations per second (its iteration budget, no time cap) and what
bot:hard's budget in play (time-limited) buys a decision. ``strength``: the native search against the Python one at
equal iterations (``--iterations``, ``--games`` matches). ``hard_strength``: native bot:hard in play against the
lab's (``--games`` matches). ``instructions``: the native ``samples`` ratio counted by valgrind. Prints one JSON
object per measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

from benchmarks.bots import decision_points
from flametable.bots.ismcts import IsmctsBot, random_playout
from flametable.bots.registry import make_bot
from flametable.core.rng import Rng
from flametable.games.duel.bots import playout_action
from flametable.games.duel.determinize import Sampler
from flametable.games.duel.game import DuelGame
from flametable.service import play
from flametable.sim.stats import score_interval

POLICIES = {"random": None, "sensible": playout_action}


def _game(engine: str) -> Any:
    if engine == "python":
        return DuelGame()
    from flametable.games.duel.native import NativeDuelGame

    return NativeDuelGame()


def _bot(game: Any, policy: str, iterations: int, seed: int) -> IsmctsBot:
    bot = make_bot(f"bot:ismcts:{iterations}", game, seed)
    assert isinstance(bot, IsmctsBot)
    bot.policy = POLICIES[policy]
    return bot


def bench_ratio(engine: str, policy: str, iterations: int) -> dict[str, Any]:
    """The iteration's cost over two like-for-like playouts, the same policy on both sides: ``same_state``, clones
    of the real decision state played out ``iterations`` times in a row (``benchmarks.bots``' measure), and
    ``samples``, the determinisations of that state's view (drawn beforehand, not timed) played out once each in
    the order the search draws them. Process time."""
    game = _game(engine)
    points = decision_points(DuelGame())  # Python states: the native side copies them into the core
    bot = _bot(game, policy, iterations, 1)
    t = time.process_time()
    total = 0
    for view, legal, _ in points:
        bot.choose(view, legal)
        total += bot.last_iterations
    per_iteration = (time.process_time() - t) / total
    rng = Rng(2)
    same = samples = 0.0
    n = len(points) * iterations
    if engine == "python":
        fn = POLICIES[policy]
        t = time.process_time()
        for _view, _legal, state in points:
            for _ in range(iterations):
                s = state.clone()
                random_playout(s, rng, policy=fn)
        same = time.process_time() - t
        for view, _legal, _state in points:
            sampler = Sampler(view, game.cards)
            drawn = [sampler(rng) for _ in range(iterations)]
            t = time.process_time()
            for s in drawn:
                random_playout(s, rng, policy=fn)
            samples += time.process_time() - t
    else:
        from flametable.games.duel.native import NativeSearch, playouts

        states = [game.native_state(state) for _view, _legal, state in points]
        t = time.process_time()
        for state in states:
            rng.state = playouts([state], iterations, policy, rng.state)
        same = time.process_time() - t
        for view, _legal, _state in points:
            search = NativeSearch(game, view, policy, bot.c, rng.next32())
            drawn = [search.sample() for _ in range(iterations)]
            t = time.process_time()
            rng.state = playouts(drawn, 1, policy, rng.state)
            samples += time.process_time() - t
    return {"game": "duel", "measure": "ismcts_ratio", "engine": engine, "policy": policy,
            "decision_points": len(points), "iterations_a_decision": iterations,
            "iterations_per_second": round(1 / per_iteration),
            "playouts_per_second_same_state": round(n / same), "playouts_per_second_samples": round(n / samples),
            "iteration_to_playout_same_state": round(per_iteration * n / same, 3),
            "iteration_to_playout_samples": round(per_iteration * n / samples, 3)}


def bench_hard(engine: str, decisions: int = 12) -> dict[str, Any]:
    """bot:hard's iterations per second (the lab's bot: its iteration budget, no time cap; process time), and what
    its budget in play buys (the time-limited bot of a seat against a person: its iterations and wall time a
    decision, over the same decisions)."""
    game = _game(engine)
    points = decision_points(DuelGame())[:decisions]
    bot = make_bot("bot:hard", game, 3, deterministic=True)
    assert isinstance(bot, IsmctsBot)
    t = time.process_time()
    total = 0
    for view, legal, _ in points:
        bot.choose(view, legal)
        total += bot.last_iterations
    rate = total / (time.process_time() - t)
    timed = make_bot("bot:hard", game, 3)
    assert isinstance(timed, IsmctsBot)
    counts, walls = [], []
    t_cpu = time.process_time()
    for view, legal, _ in points:
        t = time.perf_counter()
        timed.choose(view, legal)
        walls.append(time.perf_counter() - t)
        counts.append(timed.last_iterations)
    timed_rate = sum(counts) / (time.process_time() - t_cpu)
    return {"game": "duel", "measure": "hard_iterations", "engine": engine, "decisions": len(points),
            "lab_iteration_budget": bot.iterations, "lab_iterations_per_second": round(rate),
            "play_iteration_budget": timed.iterations, "play_seconds_budget": timed.seconds,
            "play_iterations_per_second": round(timed_rate),
            "play_iterations_a_decision": {"min": min(counts), "median": sorted(counts)[len(counts) // 2],
                                           "max": max(counts)},
            "play_seconds_a_decision": {"min": round(min(walls), 3), "median": round(sorted(walls)[len(walls) // 2],
                                                                                     3),
                                        "max": round(max(walls), 3)}}


def bench_hard_strength(games: int, cap: int | None = None) -> dict[str, Any]:
    """bot:hard as it plays a person on the native engine (its time budget, up to its iteration cap, or ``cap``)
    against the lab's bot:hard (4,000 iterations: what bot:hard played before, the Python engine's choices), both
    native, seats swapped every other match: the time-limited side's score (win 1, draw ½) with its 95%
    interval."""
    from flametable.games.duel.native import NativeDuelGame

    native = NativeDuelGame()
    points = []
    iterations = 0
    t = time.perf_counter()
    for i in range(games):
        state = native.new_match({}, 27_000 + i)
        mine = make_bot("bot:hard", native, 2 * i)
        theirs = make_bot("bot:hard", native, 2 * i + 1, deterministic=True)
        assert isinstance(mine, IsmctsBot)
        if cap is not None:
            mine.iterations = cap
        seats = [mine, theirs] if i % 2 == 0 else [theirs, mine]
        outcome = play(state, [seats[0].choose, seats[1].choose])
        points.append(outcome.points(i % 2))
        iterations = max(iterations, mine.iterations or 0)
    score = score_interval(points)
    return {"game": "duel", "measure": "hard_strength", "p1": f"native bot:hard in play (up to {iterations} "
            "iterations, time-limited)", "p2": "native bot:hard, lab (4000 iterations)", "games": games,
            "score": round(score.value, 4), "low": round(score.low, 4), "high": round(score.high, 4),
            "seconds": round(time.perf_counter() - t, 1)}


def bench_strength(games: int, iterations: int) -> dict[str, Any]:
    """The native search (bot:ismcts:N with bot:hard's playouts, on the native engine) against the same bot on the
    Python engine (today's bot:hard at N iterations), seats swapped every other match: the native side's score
    (win 1, draw ½) with its 95% interval (issue 26: no worse than 45%)."""
    from flametable.games.duel.native import NativeDuelGame

    python, native = DuelGame(), NativeDuelGame()
    points = []
    t = time.perf_counter()
    for i in range(games):
        state = python.new_match({}, 26_000 + i)
        mine = make_bot(f"bot:ismcts:{iterations}", native, 2 * i)
        theirs = make_bot(f"bot:ismcts:{iterations}", python, 2 * i + 1)
        seats = [mine, theirs] if i % 2 == 0 else [theirs, mine]
        outcome = play(state, [seats[0].choose, seats[1].choose])
        points.append(outcome.points(i % 2))
    score = score_interval(points)
    return {"game": "duel", "measure": "strength", "p1": f"native bot:ismcts:{iterations}",
            "p2": f"python bot:ismcts:{iterations}", "games": games, "score": round(score.value, 4),
            "low": round(score.low, 4), "high": round(score.high, 4), "seconds": round(time.perf_counter() - t, 1)}


PHASES = ("none", "choose", "draw", "play")


def run_phase(phase: str, policy: str, iterations: int) -> None:
    """One part of :func:`bench_instructions`, run under callgrind: the decision points and the bot made
    (``none``), then the bot's decisions (``choose``), or the determinisations of each view drawn (``draw``) and
    played out once each (``play``)."""
    from flametable.games.duel.native import NativeSearch, playouts

    game = _game("native")
    points = decision_points(DuelGame())
    bot = _bot(game, policy, iterations, 1)
    if phase == "choose":
        for view, legal, _ in points:
            bot.choose(view, legal)
    elif phase in ("draw", "play"):
        rng = Rng(2)
        for view, _legal, _ in points:
            search = NativeSearch(game, view, policy, bot.c, rng.next32())
            drawn = [search.sample() for _ in range(iterations)]
            if phase == "play":
                rng.state = playouts(drawn, 1, policy, rng.state)


def bench_instructions(policy: str, iterations: int) -> dict[str, Any]:
    """The native ``samples`` ratio counted in instructions (valgrind's callgrind, ``PYTHONHASHSEED=0``), which the
    machine's noise does not touch: the bot's decisions (``choose`` less ``none``: its preparation, the search in the
    core and what Python does around it) over the playouts of the same number of determinisations (``play`` less
    ``draw``)."""
    if shutil.which("valgrind") is None:
        return {"game": "duel", "measure": "ismcts_instructions", "skipped": "valgrind is not installed"}
    counts = {}
    with tempfile.TemporaryDirectory() as out:
        for phase in PHASES:
            cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg.out", sys.executable, "-m",
                   "benchmarks.ismcts_ratio", "--phase", phase, "--policy", policy, "--iterations", str(iterations)]
            proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
                                  check=True)
            found = re.search(r"Collected : (\d+)", proc.stderr)
            if found is None:
                raise RuntimeError(f"callgrind wrote no summary for {phase}")
            counts[phase] = int(found.group(1))
    n = len(decision_points(DuelGame())) * iterations
    search, playout = counts["choose"] - counts["none"], counts["play"] - counts["draw"]
    return {"game": "duel", "measure": "ismcts_instructions", "engine": "native", "policy": policy,
            "iterations_a_decision": iterations, "instructions_an_iteration": round(search / n),
            "instructions_a_playout_samples": round(playout / n),
            "iteration_to_playout_samples": round(search / playout, 3)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="python", choices=("python", "native", "both"))
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--only", choices=("ratio", "hard", "strength", "hard_strength", "instructions"), default=None)
    ap.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)  # one part of --only instructions
    ap.add_argument("--policy", choices=tuple(POLICIES), default="random", help=argparse.SUPPRESS)
    ap.add_argument("--games", type=int, default=400, help="matches of the strength measure")
    ap.add_argument("--cap", type=int, default=None, help="hard_strength: the time-limited bot's iteration cap")
    args = ap.parse_args(argv)
    if args.only == "strength":
        print(json.dumps(bench_strength(args.games, args.iterations)), flush=True)
        return
    if args.phase is not None:
        run_phase(args.phase, args.policy, args.iterations)
        return
    if args.only == "instructions":  # (native, a few minutes under valgrind: only when asked)
        for policy in POLICIES:
            print(json.dumps(bench_instructions(policy, args.iterations)), flush=True)
        return
    if args.only == "hard_strength":
        print(json.dumps(bench_hard_strength(args.games, args.cap)), flush=True)
        return
    engines = ("python", "native") if args.engine == "both" else (args.engine,)
    for engine in engines:
        if args.only in (None, "ratio"):
            for policy in POLICIES:
                print(json.dumps(bench_ratio(engine, policy, args.iterations)), flush=True)
        if args.only in (None, "hard"):
            print(json.dumps(bench_hard(engine)), flush=True)


if __name__ == "__main__":
    main()
