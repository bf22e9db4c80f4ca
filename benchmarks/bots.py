"""Bot and lab benchmarks (issue 4). Long: run by hand, not in the test suite.

    .venv/bin/python -m benchmarks.bots [--game duel|duals|all] [--games 400] [--jobs 2] [--only NAME]

Measures, for each game:
- ``strength``: ``hard`` against ``random`` and ``greedy`` (= ``medium``) over ``--games`` seeded matches per pair
  (seats swapped every other match), the score (win 1, draw ½) with its 95% interval;
- ``ismcts``: ISMCTS iterations per second from a sample of real decision points, and the ratio of one
  iteration's cost to one random playout's from the same state (clone + playout);
- ``hard_time``: the slowest ``bot:hard`` decision, with its real time budget (must stay under 2 s);
- ``speedup``: ``sim`` matches per second with ``--jobs 2`` against ``--jobs 1``.
Prints one JSON object per measurement.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from flametable.bots.ismcts import IsmctsBot, random_playout
from flametable.bots.registry import make_bot
from flametable.core.rng import Rng
from flametable.sim.games import make_game
from flametable.sim.runner import SimSpec, run
from flametable.sim.stats import mean_interval


def decision_points(game: Any, n_matches: int = 30, every: int = 3) -> list[tuple[Any, list[Any]]]:
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
        pts = [float(line["p1_points"]) for line in run(spec, jobs)]
        score = mean_interval(pts)
        out.append({"game": game_name, "measure": "strength", "p1": "bot:hard", "p2": other, "games": games,
                    "score": round(score.value, 4), "low": round(score.low, 4), "high": round(score.high, 4),
                    "seconds": round(time.perf_counter() - t, 1)})
        print(json.dumps(out[-1]), flush=True)
    return out


def bench_speedup(game_name: str, games: int = 400) -> dict[str, Any]:
    spec = SimSpec(game_name, "bot:greedy", "bot:greedy", games, seed=5)
    rates = {}
    for jobs in (1, 2):
        t = time.perf_counter()
        list(run(spec, jobs))
        rates[jobs] = games / (time.perf_counter() - t)
    return {"game": game_name, "measure": "speedup", "games": games,
            "matches_per_second_jobs1": round(rates[1], 1), "matches_per_second_jobs2": round(rates[2], 1),
            "speedup": round(rates[2] / rates[1], 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description="flametable bot and lab benchmarks")
    ap.add_argument("--game", default="all", choices=("duel", "duals", "all"))
    ap.add_argument("--games", type=int, default=400, help="matches per pair for the strength measure")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", choices=("ismcts", "hard_time", "speedup", "strength"), default=None)
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
        if args.only in (None, "strength"):
            bench_strength(name, args.games, args.jobs)


if __name__ == "__main__":
    main()
