"""Bot and lab benchmarks (issue 4). Long: run by hand, not in the test suite.

    .venv/bin/python -m benchmarks.bots [--game duel|duals|all] [--games 400] [--jobs 2] [--only NAME]

Measures, for each game:
- ``strength``: ``hard`` against ``random`` and ``greedy`` (= ``medium``) over ``--games`` seeded matches per pair
  (seats swapped every other match), the score (win 1, draw ½) with its 95% interval;
- ``ismcts``: ISMCTS iterations per second from a sample of real decision points, and the ratio of one
  iteration's cost to one random playout's from the same state (clone + playout);
- ``hard_time``: the slowest ``bot:hard`` decision, with its real time budget (must stay under 2 s);
- ``speedup``: ``flametable sim`` matches per second with ``--jobs 2`` against ``--jobs 1`` (alternating rounds).
- ``pool_instructions``: the same comparison counted in instructions under valgrind, free of the machine's noise
  (about 10 minutes: only with ``--only pool_instructions``).
Prints one JSON object per measurement.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flametable.bots.ismcts import IsmctsBot, random_playout
from flametable.bots.registry import make_bot
from flametable.core.registry import make_game
from flametable.core.rng import Rng
from flametable.sim.results import score_entry
from flametable.sim.runner import SimSpec, run
from flametable.sim.stats import score_interval


def decision_points(game: Any, n_matches: int = 30, every: int = 3) -> list[tuple[Any, list[Any], Any]]:
    """Views and legal actions at real decision points of random matches."""
    out = []
    for seed in range(n_matches):
        st = game.new_match({}, 10_000 + seed)
        rng = Rng(seed)
        k = 0
        while st.to_act is not None:
            legal = st.legal_actions()
            if len(legal) > 1:
                k += 1
                if k % every == 0:
                    out.append((st.view(st.to_act), legal, st.clone()))
            st.apply(legal[rng.below(len(legal))])
    return out


def bench_ismcts(game: Any, iterations: int = 300) -> dict[str, Any]:
    points = decision_points(game)
    bot = make_bot(f"bot:ismcts:{iterations}", game, 1)
    assert isinstance(bot, IsmctsBot)
    t = time.process_time()
    total = 0
    for view, legal, _ in points:
        bot.choose(view, legal)
        total += bot.last_iterations
    per_iteration = (time.process_time() - t) / total
    rng = Rng(2)
    t = time.process_time()
    n = 0
    for _view, _legal, state in points:
        for _ in range(iterations):
            s = state.clone()
            random_playout(s, rng)
            n += 1
    per_playout = (time.process_time() - t) / n
    return {"game": game.name, "measure": "ismcts", "decision_points": len(points),
            "iterations_per_second": round(1 / per_iteration), "playouts_per_second": round(1 / per_playout),
            "iteration_to_playout_cost": round(per_iteration / per_playout, 3)}


def bench_hard_time(game: Any, decisions: int = 40) -> dict[str, Any]:
    points = decision_points(game)[:decisions]
    bot = make_bot("bot:hard", game, 3)
    worst = 0.0
    for view, legal, _ in points:
        t = time.perf_counter()
        bot.choose(view, legal)
        worst = max(worst, time.perf_counter() - t)
    return {"game": game.name, "measure": "hard_time", "decisions": len(points), "slowest_seconds": round(worst, 3)}


def bench_strength(game_name: str, games: int, jobs: int) -> list[dict[str, Any]]:
    out = []
    # bot:medium is greedy (bots/registry.py): its pairing with hard is the greedy one.
    for other in ("bot:random", "bot:greedy"):
        spec = SimSpec(game_name, "bot:hard", other, games, seed=2026)
        t = time.perf_counter()
        pts = [entry.p1_points for entry in run(spec, jobs, each=score_entry)]
        score = score_interval(pts)
        out.append({"game": game_name, "measure": "strength", "p1": "bot:hard", "p2": other, "games": games,
                    "score": round(score.value, 4), "low": round(score.low, 4), "high": round(score.high, 4),
                    "seconds": round(time.perf_counter() - t, 1)})
        print(json.dumps(out[-1]), flush=True)
    return out


def _sim_command(game_name: str, games: int, jobs: int, seed: int, out: Path) -> list[str]:
    return [sys.executable, "-m", "flametable.cli", "sim", game_name, "--p1", "bot:greedy", "--p2", "bot:greedy",
            "--games", str(games), "--jobs", str(jobs), "--seed", str(seed), "--out", str(out), "--json"]


def _sim_rate(game_name: str, games: int, jobs: int, out: Path) -> float:
    """Matches per second of one ``flametable sim`` command, as it reports them (pool start-up included)."""
    done = subprocess.run(_sim_command(game_name, games, jobs, 5, out), capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout)["matches_per_second"])


def _independent_rate(game_name: str, games: int, out: Path) -> float:
    """Two ``--jobs 1`` sims of half the matches each, run at the same time, as separate programs.

    What any way of running matches on two cores could give on this machine at this moment, with no pool, no
    messages and nothing shared: the reference for ``--jobs 2``. The rate counts both halves over the slower
    one's run.
    """
    half = games // 2
    procs = [subprocess.Popen(_sim_command(game_name, half, 1, seed, out.with_suffix(f".{seed}.jsonl")),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for seed in (5, 6)]
    seconds = []
    for proc in procs:
        stdout, _ = proc.communicate()
        if proc.returncode:
            raise RuntimeError(f"flametable sim failed with code {proc.returncode}")
        seconds.append(float(json.loads(stdout)["seconds"]))
    return 2 * half / max(seconds)


SPEEDUP_RUNS = {"duel": (2000, 9), "duals": (300, 7)}  # matches a run, rounds: a few minutes per game


def bench_speedup(game_name: str, games: int = 0, rounds: int = 0) -> dict[str, Any]:
    """``flametable sim --jobs 2`` against ``--jobs 1``, as whole commands writing their results file.

    The rate is the ``matches_per_second`` that ``sim`` reports: its run, pool start-up included, without the
    interpreter's start-up. This machine's speed is not steady: the same single-process run of 2,000 Duel matches
    ran at 176 to 381 matches/s within one benchmark, and a plain loop in two processes did 0.9 to 2.7 times the
    work of one. So each round runs ``--jobs 1``, ``--jobs 2`` and two independent ``--jobs 1`` halves at once
    (``_independent_rate``, the best two cores can do for this work here and now); the figures are the medians
    over the rounds of the speed-up, of the independent halves' speed-up, and of ``--jobs 2`` over the
    independent halves, and the ratio of the best rates (timeit's rule: the fastest run is the least disturbed).
    ``bench_pool_instructions`` gives the account that the noise does not touch.
    """
    games = games or SPEEDUP_RUNS[game_name][0]
    rounds = rounds or SPEEDUP_RUNS[game_name][1]
    rates: dict[int, list[float]] = {1: [], 2: []}
    independent: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for jobs in (1, 2):
                rates[jobs].append(_sim_rate(game_name, games, jobs, Path(tmp) / f"jobs{jobs}.jsonl"))
            independent.append(_independent_rate(game_name, games, Path(tmp) / "halves.jsonl"))
    ratios = [b / a for a, b in zip(rates[1], rates[2], strict=True)]
    return {"game": game_name, "measure": "speedup", "games": games, "rounds": rounds,
            "matches_per_second_jobs1": [round(r, 1) for r in rates[1]],
            "matches_per_second_jobs2": [round(r, 1) for r in rates[2]],
            "matches_per_second_independent_halves": [round(r, 1) for r in independent],
            "round_speedups": [round(r, 3) for r in ratios],
            "median_speedup": round(statistics.median(ratios), 3),
            "best_rate_speedup": round(max(rates[2]) / max(rates[1]), 3),
            "median_independent_speedup":
                round(statistics.median(c / a for a, c in zip(rates[1], independent, strict=True)), 3),
            "median_jobs2_over_independent":
                round(statistics.median(b / c for b, c in zip(rates[2], independent, strict=True)), 3)}


def _callgrind_total(args: list[str], out_dir: Path, zero_in_child: bool) -> tuple[int, list[int]]:
    """Instructions executed by ``flametable`` ``args`` under callgrind: by the main process, by each child."""
    cmd = ["valgrind", "--tool=callgrind", "--trace-children=yes",
           f"--callgrind-out-file={out_dir}/cg.%p"]
    if zero_in_child:  # a forked worker starts counting at the fork, not with what it inherited
        cmd.append("--zero-before=PyOS_AfterFork_Child")
    with subprocess.Popen([*cmd, sys.executable, "-m", "flametable.cli", *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL) as proc:
        main_pid = proc.pid  # valgrind runs the program in its own process
    if proc.returncode:
        raise RuntimeError(f"valgrind flametable {' '.join(args)} failed with code {proc.returncode}")
    totals = {}
    for path in out_dir.glob("cg.*"):
        text = path.read_text(encoding="utf-8", errors="replace")
        path.unlink()
        pid = int(path.name.split(".")[1])
        # "summary:" is what the process ran since the last zeroing ("totals:" double-counts after one)
        summary = next((row for row in text.splitlines() if row.startswith("summary:")), None)
        if summary is None:
            raise RuntimeError(f"callgrind wrote no summary for process {pid}")
        if zero_in_child and pid != main_pid and "PyOS_AfterFork_Child" not in text:
            raise RuntimeError(f"callgrind did not zero process {pid} at its fork: its count holds the parent's")
        totals[pid] = int(summary.split()[1])
    return totals.pop(main_pid), list(totals.values())


POOL_GAMES = {"duel": 400, "duals": 40}  # a few minutes each under valgrind (greedy Duals matches are long)


def bench_pool_instructions(game_name: str, games: int = 0) -> dict[str, Any]:
    """The lab's parallel cost counted in instructions (valgrind), which this machine's noise does not touch.

    Three runs of ``flametable sim --p1 bot:greedy --p2 bot:greedy``: one match (start-up), ``games`` with
    ``--jobs 1`` and with ``--jobs 2``. From them: the instructions per match in the one process and in the
    workers, what the parent spends per match receiving and writing, how the matches were shared between the
    workers (the one sharing its core with the parent takes fewer; the workers' count includes their own set-up
    after the fork), and the speed-up that this allows on two idle cores: the single process's work over half the
    work of all three processes. It is an upper bound: callgrind counts user-space instructions, not the system
    calls of the pipes, the page faults after the fork, nor caches and cores shared with other work. The
    batches shrink to single matches at the end (``sim.runner.plan_chunks``), so no worker idles for long
    waiting on the other.
    """
    if shutil.which("valgrind") is None:
        return {"game": game_name, "measure": "pool_instructions", "skipped": "valgrind is not installed"}
    games = games or POOL_GAMES[game_name]
    base = ["sim", game_name, "--p1", "bot:greedy", "--p2", "bot:greedy", "--seed", "5", "--json"]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        start = _callgrind_total([*base, "--games", "1", "--jobs", "1", "--out", str(out / "r.jsonl")], out,
                                 False)[0]
        one = _callgrind_total([*base, "--games", str(games), "--jobs", "1", "--out", str(out / "r.jsonl")],
                               out, False)[0]
        pool_start = _callgrind_total([*base, "--games", "2", "--jobs", "2", "--out", str(out / "r.jsonl")],
                                      out, True)[0]
        main, children = _callgrind_total([*base, "--games", str(games), "--jobs", "2",
                                           "--out", str(out / "r.jsonl")], out, True)
    if len(children) != 2:
        raise RuntimeError(f"expected the 2 workers of --jobs 2, callgrind saw {len(children)} child processes")
    single = (one - start) / (games - 1)  # per match, start-up taken out
    parent = (main - pool_start) / (games - 2)  # per match: receiving, counting, writing
    workers = sorted(children)
    return {"game": game_name, "measure": "pool_instructions", "games": games,
            "instructions_per_match_one_process": round(single),
            "instructions_per_match_workers": round(sum(workers) / games),
            "parent_instructions_per_match": round(parent),
            "worker_share_ratio": round(workers[0] / workers[-1], 3),
            "speedup_bound_two_idle_cores": round(2 * single * games / (sum(workers) + parent * games), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description="flametable bot and lab benchmarks")
    ap.add_argument("--game", default="all", choices=("duel", "duals", "all"))
    ap.add_argument("--games", type=int, default=400, help="matches per pair for the strength measure")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", choices=("ismcts", "hard_time", "speedup", "pool_instructions", "strength"),
                    default=None)
    args = ap.parse_args()
    names = ("duel", "duals") if args.game == "all" else (args.game,)
    for name in names:
        game = make_game(name)
        if args.only in (None, "ismcts"):
            print(json.dumps(bench_ismcts(game)), flush=True)
        if args.only in (None, "hard_time"):
            print(json.dumps(bench_hard_time(game)), flush=True)
        if args.only in (None, "speedup"):
            print(json.dumps(bench_speedup(name)), flush=True)
        if args.only == "pool_instructions":  # ~10 minutes under valgrind: only when asked
            print(json.dumps(bench_pool_instructions(name)), flush=True)
        if args.only in (None, "strength"):
            bench_strength(name, args.games, args.jobs)


if __name__ == "__main__":
    main()
