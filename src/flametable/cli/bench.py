"""``flametable bench``: uniformly random playouts on one core for a while; steps and matches per second."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from babel.numbers import format_decimal

from flametable.cli.console import out, print_json
from flametable.cli.i18n import _, language, ngettext
from flametable.core.protocol import Game
from flametable.core.rng import Rng


def playouts(game: Game[Any, Any], seconds: float, options: Mapping[str, Any] | None = None,
             first_seed: int = 0, max_matches: int | None = None) -> dict[str, Any]:
    """Play random matches (seeds ``first_seed``, ``first_seed + 1``, ...) until ``seconds`` have passed (or
    ``max_matches`` are played: ``benchmarks.engine_instructions`` counts a fixed number).

    Measures the engine: new_match, legal_actions and apply; the clock is read once per match.
    """
    opts = dict(options or {})
    rng = Rng(first_seed ^ 0xBE4C)
    below = rng.below
    new_match = game.new_match
    clock = time.perf_counter
    steps = matches = 0
    seed = first_seed
    started = clock()
    deadline = started + seconds
    while True:
        state = new_match(opts, seed)
        seed += 1
        legal_actions = state.legal_actions
        apply = state.apply
        while state.to_act is not None:
            legal = legal_actions()
            apply(legal[below(len(legal))])
            steps += 1
        matches += 1
        now = clock()
        if now >= deadline or matches == max_matches:
            break
    elapsed = max(now - started, 1e-9)
    return {
        "game": game.name,
        "engine": getattr(game, "engine", "python"),  # native: the C++ core (issue 26), where built
        "seconds": round(elapsed, 3),
        "steps": steps,
        "matches": matches,
        "steps_per_second": round(steps / elapsed, 1),
        "matches_per_second": round(matches / elapsed, 1),
    }


def run_bench(game: Game[Any, Any], seconds: float, as_json: bool) -> None:
    result = playouts(game, seconds)
    if as_json:
        print_json(result)
        return
    shown = {key: format_decimal(value, locale=language()) if isinstance(value, int | float) else value
             for key, value in result.items()}
    shown["engine"] = _("native") if result["engine"] == "native" else _("Python")
    shown["seconds"] = format_decimal(result["seconds"], format="0.00", locale=language())
    shown["matches"] = ngettext("{n} match", "{n} matches", result["matches"]).format(n=shown["matches"])
    shown["steps"] = ngettext("{n} step", "{n} steps", result["steps"]).format(n=shown["steps"])
    out().print(_("{game} ({engine} engine): {matches}, {steps} in {seconds} s on one core.").format(**shown))
    out().print(_("{steps_per_second} steps per second, {matches_per_second} matches per second.").format(**shown))
