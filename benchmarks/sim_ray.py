"""``flametable sim --ray`` (a local Ray) against ``--jobs 2``, both games (issue 22). Long: run by hand.

    PYTHONPATH=src:. python -m benchmarks.sim_ray --games 2000 [--duals-games 250] [--rounds 5] [--game duel]
                                                  [--only commands|warm]

Each round runs, for each game, the same ``flametable sim`` twice as whole commands writing their JSON-lines file,
``--jobs 2`` and ``--ray`` (a local Ray started by the command, with the machine's CPUs), first one then the other,
the order swapped every round (this machine's speed drifts: docs/benchmarks.md). Each run's figures:

- ``steady``: the ``matches_per_second`` that ``sim`` reports, over its matches only: the pool's start-up included
  for ``--jobs``, Ray's start-up left out (``sim`` reports it apart as ``ray_seconds``);
- ``whole``: the matches over the whole command's wall time, the interpreter's and Ray's start-ups included.

It prints one JSON object per game: the rates of every round, the medians of the per-round ratios ``--ray`` /
``--jobs 2`` (steady and whole), the ratio of the best steady rates (the least disturbed run of each, timeit's
rule), Ray's start-up, and whether every pair of results files was the same (the matches' own wall times aside).

Then ``warm``: the same comparison inside this process, through the lab's runner, on one local Ray started once
(``sim.cluster.connect``) and left to settle: the matches and their messages only, neither a start-up nor Ray's
own processes finishing theirs (its agents keep a core busy for a few seconds after ``ray.init`` returns, which
the commands' steady rates include). Besides the rates, the CPU time each run took in all, per match (this
process and the pool's workers; or this process and Ray's workers, raylet, GCS and agents, read from Linux's
/proc): what the other programs of a shared machine do to the wall clock touches it much less.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TIMING = re.compile(r'"seconds":[0-9.e-]+')
RUNNERS = {"jobs2": ["--jobs", "2"], "ray": ["--ray"]}


def run_sim(game: str, games: int, seed: int, p1: str, p2: str, runner: list[str], out: Path) -> dict[str, Any]:
    """One ``flametable sim`` command: its JSON summary, with the command's own wall time (``wall``)."""
    command = [sys.executable, "-m", "flametable.cli", "sim", game, "--p1", p1, "--p2", p2, "--games", str(games),
               "--seed", str(seed), *runner, "--out", str(out), "--json"]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=3600)
    wall = time.perf_counter() - started
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed with code {done.returncode}: {done.stderr[-2000:]}")
    summary: dict[str, Any] = json.loads(done.stdout)
    summary["wall"] = wall
    return summary


def untimed(path: Path) -> str:
    return TIMING.sub('"seconds":0', path.read_text(encoding="utf-8"))


def bench_game(game: str, games: int, rounds: int, p1: str, p2: str) -> dict[str, Any]:
    steady: dict[str, list[float]] = {name: [] for name in RUNNERS}
    whole: dict[str, list[float]] = {name: [] for name in RUNNERS}
    ray_start: list[float] = []
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            order = list(RUNNERS) if r % 2 == 0 else list(reversed(RUNNERS))
            outs = {}
            for name in order:
                outs[name] = Path(tmp) / f"{name}.jsonl"
                summary = run_sim(game, games, 2026 + r, p1, p2, RUNNERS[name], outs[name])
                steady[name].append(summary["matches_per_second"])
                whole[name].append(games / summary["wall"])
                if name == "ray":
                    ray_start.append(summary["ray_seconds"])
            same = same and untimed(outs["ray"]) == untimed(outs["jobs2"])
            print(json.dumps({"game": game, "round": r + 1, "order": order,
                              "steady": {k: round(v[-1], 1) for k, v in steady.items()},
                              "whole": {k: round(v[-1], 1) for k, v in whole.items()},
                              "ray_start_seconds": round(ray_start[-1], 2)}), file=sys.stderr, flush=True)
    ratio = [b / a for a, b in zip(steady["jobs2"], steady["ray"], strict=True)]
    ratio_whole = [b / a for a, b in zip(whole["jobs2"], whole["ray"], strict=True)]
    return {
        "game": game, "measure": "sim_ray", "p1": p1, "p2": p2, "games": games, "rounds": rounds,
        "steady_jobs2": [round(x, 1) for x in steady["jobs2"]], "steady_ray": [round(x, 1) for x in steady["ray"]],
        "whole_jobs2": [round(x, 1) for x in whole["jobs2"]], "whole_ray": [round(x, 1) for x in whole["ray"]],
        "round_ratios": [round(x, 3) for x in ratio],
        "median_ratio": round(statistics.median(ratio), 3),
        "best_rate_ratio": round(max(steady["ray"]) / max(steady["jobs2"]), 3),
        "median_ratio_whole_command": round(statistics.median(ratio_whole), 3),
        "ray_start_seconds_median": round(statistics.median(ray_start), 2),
        "ray_start_seconds": [round(x, 2) for x in ray_start],
        "results_identical": same,
    }


def _descendants_cpu() -> dict[int, float]:
    """CPU seconds (user and system) of every living descendant of this process, by process (Linux's /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, cpu = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="utf-8", errors="replace").rpartition(")")[2].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parent[pid] = int(fields[1])  # from the state on: the parent 2nd, utime and stime 12th and 13th
        cpu[pid] = (int(fields[11]) + int(fields[12])) / tick
    found, todo = {}, [os.getpid()]
    while todo:
        here = todo.pop()
        for pid, up in parent.items():
            if up == here and pid not in found:
                found[pid] = cpu[pid]
                todo.append(pid)
    return found


def _cpu_now(children: bool) -> tuple[float, dict[int, float]]:
    """This process's CPU seconds (with its reaped children's: the pool's workers), and its living descendants'
    (Ray's processes: raylet and GCS are its children, the workers theirs)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    if children:
        theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += theirs.ru_utime + theirs.ru_stime
    return total, _descendants_cpu()


def _cpu_since(before: tuple[float, dict[int, float]], children: bool) -> float:
    own, others = _cpu_now(children)
    return own - before[0] + sum(v - before[1].get(pid, 0.0) for pid, v in others.items())


SETTLE_SECONDS = 10.0
"""How long the warm comparison lets a new local Ray finish starting its own processes before it measures."""


def bench_warm(counts: dict[str, int], rounds: int, p1: str, p2: str) -> list[dict[str, Any]]:
    from flametable.sim.cluster import connect
    from flametable.sim.results import jsonl_entry
    from flametable.sim.runner import SimSpec, run

    found = []
    with connect() as cluster:
        time.sleep(SETTLE_SECONDS)
        for game, games in counts.items():
            rates: dict[str, list[float]] = {name: [] for name in RUNNERS}
            cpu: dict[str, list[float]] = {name: [] for name in RUNNERS}
            for r in range(rounds):
                spec = SimSpec(game, p1, p2, games, 2026 + r)
                order = list(RUNNERS) if r % 2 == 0 else list(reversed(RUNNERS))
                texts = {}
                for name in order:
                    before = _cpu_now(name == "jobs2")
                    started = time.perf_counter()
                    texts[name] = [entry.text for entry in run(spec, 2, each=jsonl_entry,
                                                               cluster=cluster if name == "ray" else None)]
                    rates[name].append(games / (time.perf_counter() - started))
                    cpu[name].append(1000 * _cpu_since(before, name == "jobs2") / games)
                if [TIMING.sub("", t) for t in texts["ray"]] != [TIMING.sub("", t) for t in texts["jobs2"]]:
                    raise RuntimeError(f"{game}, round {r + 1}: Ray's results differ from --jobs 2's")
            ratio = [b / a for a, b in zip(rates["jobs2"], rates["ray"], strict=True)]
            found.append({"game": game, "measure": "sim_ray_warm", "p1": p1, "p2": p2, "games": games,
                          "rounds": rounds, "jobs2": [round(x, 1) for x in rates["jobs2"]],
                          "ray": [round(x, 1) for x in rates["ray"]], "round_ratios": [round(x, 3) for x in ratio],
                          "median_ratio": round(statistics.median(ratio), 3),
                          "best_rate_ratio": round(max(rates["ray"]) / max(rates["jobs2"]), 3),
                          "cpu_ms_per_match_jobs2": [round(x, 3) for x in cpu["jobs2"]],
                          "cpu_ms_per_match_ray": [round(x, 3) for x in cpu["ray"]],
                          "median_cpu_ratio": round(statistics.median(
                              b / a for a, b in zip(cpu["jobs2"], cpu["ray"], strict=True)), 3)})
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description="flametable sim --ray against --jobs 2 (issue 22)")
    ap.add_argument("--games", type=int, default=2000, help="Flame Duel matches a run")
    ap.add_argument("--duals-games", type=int, default=0,
                    help="Flamecraft Duals matches a run (default: an eighth of --games; its matches are longer)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--game", choices=("duel", "duals", "both"), default="both")
    ap.add_argument("--p1", default="bot:greedy")
    ap.add_argument("--p2", default="bot:greedy")
    ap.add_argument("--only", choices=("commands", "warm"), default=None)
    args = ap.parse_args()
    every = {"duel": args.games, "duals": args.duals_games or max(1, args.games // 8)}
    counts = {game: every[game] for game in (("duel", "duals") if args.game == "both" else (args.game,))}
    if args.only in (None, "commands"):
        for game, games in counts.items():
            print(json.dumps(bench_game(game, games, args.rounds, args.p1, args.p2)), flush=True)
    if args.only in (None, "warm"):
        for found in bench_warm(counts, args.rounds, args.p1, args.p2):
            print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
