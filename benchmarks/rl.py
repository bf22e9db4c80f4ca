"""Learning-environment speed (issue 13). Run by hand, not in the test suite.

    python -m benchmarks.rl [--seconds 5] [--batch 64] [--json]

Random legal steps per second, one core, each figure the best of ``--rounds`` runs of ``--seconds`` (the rounds
go over every measurement in turn, so that a busy spell of the machine does not fall on one of them only):
- ``aec``: through each environment made as PettingZoo makes it (``env()``: the checks of its standard wrappers; ours
  makes them in one layer, connect_four_v3 with PettingZoo's three wrappers), by one loop for every environment:
  ``agent_iter()``; ``last()`` (the observation and the mask built each step, as a learner reads them); a random
  legal action from the mask; ``step()``. PettingZoo's ``connect_four_v3`` (needs pygame) runs in the same loop,
  so the ratios compare like with like. A step is one decision (an agent's ``None`` step after the end is not
  counted).
- ``aec, PettingZoo's wrappers``: our ``raw_env`` inside PettingZoo's three wrappers, as connect_four_v3's ``env()``.
- ``raw``: the same loop on ``raw_env`` (no wrappers), compared with connect_four_v3's ``raw_env``.
- ``batch``: the batch API (``BatchEnv``, ``--batch`` matches a call), a random legal action per match from the
  mask (numpy, for the whole batch at once).
- ``engine``: the engine alone (``legal_actions`` + ``apply``), and with the observation (the seat's view encoded
  and its mask) each step: the floor under every environment.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from flametable.core import registry
from flametable.games.duals import environments as duals_v0
from flametable.games.duel import environments as duel_v0
from flametable.rl import aec
from flametable.rl.batch import BatchEnv

GAMES: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
    "duel": (duel_v0.env, duel_v0.raw_env),
    "duals": (duals_v0.env, duals_v0.raw_env),
}


def pettingzoo_wrapped(name: str) -> Any:
    return aec.pettingzoo_wrapped(name)


def aec_steps(env: Any, seconds: float, seed: int = 0) -> float:
    """Random legal steps per second through an AEC environment, ``last()`` each step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                steps += 1
            env.step(action)
        env.reset()
    return steps / (time.perf_counter() - start)


def make_and_step(make: Callable[[], Any], seconds: float) -> float:
    return aec_steps(make(), seconds)


def batch_steps(game: str, n: int, seconds: float, seed: int = 0) -> float:
    """Random legal steps per second through the batch API (``n`` steps a call)."""
    batch = BatchEnv(game, n, seed=seed)
    rng = np.random.default_rng(seed)
    _obs, mask = batch.reset()
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            actions = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
            _obs, mask, _rewards, _dones = batch.step(actions)
        calls += 20
    return calls * n / (time.perf_counter() - start)


def engine_steps(name: str, seconds: float, observe: bool, seed: int = 0) -> float:
    """The engine alone: random legal actions, optionally with the acting seat's observation and mask."""
    entry = registry.get(name)
    game = entry.make()
    spec = entry.required("observation")(game)
    obs = np.zeros(spec.shape, np.float32)
    rng = np.random.default_rng(seed)
    steps, match = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = game.new_match({}, match)
        match += 1
        while st.outcome is None:
            legal = st.legal_actions()
            if observe:
                spec.encode(st.view(st.to_act), obs)
                mask = np.zeros(game.num_actions, np.int8)
                mask[[a.id for a in legal]] = 1
            st.apply(legal[rng.integers(len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def connect_four() -> tuple[Callable[[], Any], Callable[[], Any]] | None:
    """PettingZoo's connect_four_v3: ``env()`` as its registry makes it, and its ``raw_env``."""
    if importlib.util.find_spec("pygame") is None:  # connect_four_v3 draws with it: the bench extra
        return None
    import pettingzoo
    from pettingzoo.classic.connect_four import connect_four

    def make() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return pettingzoo.make("aec", "classic/connect_four_v3")

    return make, connect_four.raw_env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of one run of one measurement")
    parser.add_argument("--rounds", type=int, default=2, help="runs per measurement (the best is kept)")
    parser.add_argument("--batch", type=int, default=64, help="matches per batch call")
    parser.add_argument("--json", action="store_true", help="one JSON object per figure")
    args = parser.parse_args(argv)
    s, rounds = args.seconds, args.rounds
    measures: list[tuple[str, str, Callable[[], float]]] = []  # (env, kind, measurement)
    c4_makers = connect_four()
    if c4_makers is None:
        print("connect_four_v3 skipped: pygame is not installed (the 'bench' extra)")
    else:
        measures += [("connect_four_v3", kind, partial(make_and_step, make, s))
                     for kind, make in zip(("aec", "raw"), c4_makers, strict=True)]
    for name, (wrapped, raw) in GAMES.items():
        measures += [
            (f"{name}_v0", "aec", partial(make_and_step, wrapped, s)),
            (f"{name}_v0", "aec, PettingZoo's wrappers", partial(make_and_step, partial(pettingzoo_wrapped, name), s)),
            (f"{name}_v0", "raw", partial(make_and_step, raw, s)),
            (f"{name}_v0", f"batch {args.batch}", partial(batch_steps, name, args.batch, s)),
            (f"{name}_v0", "engine", partial(engine_steps, name, s, False)),
            (f"{name}_v0", "engine+observation", partial(engine_steps, name, s, True)),
        ]
    rates = [0.0] * len(measures)
    for _ in range(rounds):  # round after round over every measurement: a busy spell hits them all alike
        for i, (_env, _kind, measure) in enumerate(measures):
            rates[i] = max(rates[i], measure())
    c4 = {kind: rate for (env, kind, _m), rate in zip(measures, rates, strict=True) if env == "connect_four_v3"}
    rows: list[dict[str, Any]] = []
    for (env, kind, _m), rate in zip(measures, rates, strict=True):
        row: dict[str, Any] = {"env": env, "kind": kind, "steps_per_s": round(rate)}
        if c4 and env != "connect_four_v3":  # raw against raw, everything else against connect_four's env()
            row["x_connect_four"] = round(rate / c4["raw" if kind == "raw" else "aec"], 2)
        rows.append(row)
    for row in rows:
        if args.json:
            print(json.dumps(row))
        else:
            ratio = f"  {row['x_connect_four']:5.2f}x connect_four_v3" if "x_connect_four" in row else ""
            print(f"{row['env']:16} {row['kind']:28} {row['steps_per_s']:>9,} steps/s{ratio}")


if __name__ == "__main__":
    main()
