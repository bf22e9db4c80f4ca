"""Issue 26's P3, like for like: one ISMCTS iteration's cost over one playout's from the same states, with the same
playout policy on both sides (uniformly random, and the sensible player's of ``games.duel.bots``), and the
iterations per second of ``bot:hard``. Long: run by hand, not in the test suite.

    PYTHONPATH=src:. python -m benchmarks.ismcts_ratio [--engine python|native|both] [--iterations 300]

The states are real decision points of random Flame Duel matches (``benchmarks.bots.decision_points``); an
iteration is the bot's (a determinisation from the view, the descent, the expansion, the playout, the backup), a
playout is a clone of the real state played to the end by the same policy. ``python``: the reference
(``IsmctsBot`` on the Python engine); ``native``: the same bot when the native engine is picked (its search in the
core, ``games.duel.native.NativeSearch``), against the core's own playouts. ``bot:hard``: its iterations per second
(its budget of iterations without the time cap) and the iterations its 1.5 s buy at one decision. Prints one JSON
object per measurement.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from benchmarks.bots import decision_points
from flametable.bots.ismcts import IsmctsBot, random_playout
from flametable.bots.registry import make_bot
from flametable.core.rng import Rng
from flametable.games.duel.bots import playout_action
from flametable.games.duel.game import DuelGame

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
    n = 0
    if engine == "python":
        fn = POLICIES[policy]
        t = time.process_time()
        for _view, _legal, state in points:
            for _ in range(iterations):
                s = state.clone()
                random_playout(s, rng, policy=fn)
                n += 1
    else:
        from flametable.games.duel.native import playouts

        states = [game.native_state(state) for _view, _legal, state in points]
        t = time.process_time()
        for state in states:
            rng.state = playouts(state, iterations, policy, rng.state)
            n += iterations
    per_playout = (time.process_time() - t) / n
    return {"game": "duel", "measure": "ismcts_ratio", "engine": engine, "policy": policy,
            "decision_points": len(points), "iterations_per_second": round(1 / per_iteration),
            "playouts_per_second": round(1 / per_playout),
            "iteration_to_playout_cost": round(per_iteration / per_playout, 3)}


def bench_hard(engine: str, decisions: int = 12) -> dict[str, Any]:
    """bot:hard's iterations per second (its iteration budget, no time cap), and what its real budget buys at one
    decision (iterations of the first decision point with more than one action)."""
    game = _game(engine)
    points = decision_points(DuelGame())[:decisions]
    bot = make_bot("bot:hard", game, 3, deterministic=True)
    assert isinstance(bot, IsmctsBot)
    t = time.perf_counter()
    total = 0
    for view, legal, _ in points:
        bot.choose(view, legal)
        total += bot.last_iterations
    rate = total / (time.perf_counter() - t)
    timed = make_bot("bot:hard", game, 3)
    assert isinstance(timed, IsmctsBot)
    t = time.perf_counter()
    view, legal, _ = points[0]
    timed.choose(view, legal)
    return {"game": "duel", "measure": "hard_iterations", "engine": engine, "decisions": len(points),
            "iteration_budget": bot.iterations, "seconds_budget": timed.seconds,
            "iterations_per_second": round(rate), "iterations_one_decision": timed.last_iterations,
            "seconds_one_decision": round(time.perf_counter() - t, 3)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="python", choices=("python", "native", "both"))
    ap.add_argument("--iterations", type=int, default=300)
    args = ap.parse_args(argv)
    engines = ("python", "native") if args.engine == "both" else (args.engine,)
    for engine in engines:
        for policy in POLICIES:
            print(json.dumps(bench_ratio(engine, policy, args.iterations)), flush=True)
        print(json.dumps(bench_hard(engine)), flush=True)


if __name__ == "__main__":
    main()
