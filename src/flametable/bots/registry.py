"""Bots by name, wherever a seat is given: ``bot:random``, ``bot:greedy``, ``bot:ismcts:N``,
``bot:easy``, ``bot:medium``, ``bot:hard``."""

from __future__ import annotations

from typing import Any

from flametable.bots.base import Bot, RandomBot
from flametable.bots.greedy import GreedyBot
from flametable.bots.ismcts import IsmctsBot

LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    # easy: greedy that plays a random move a third of the time
    "easy": ("greedy", {"noise": 0.35}),
    "medium": ("greedy", {}),
    "hard": ("ismcts", {"iterations": 4000, "seconds": 1.5}),
}
BOT_NAMES = ("random", "greedy", "ismcts", "ismcts:N", *LEVELS)


def _knowledge(game: Any) -> tuple[Any, Any]:
    """The game's determiniser and evaluation."""
    if game.name == "duel":
        from flametable.bots import duel

        return duel.duel_determinizer(game.cards), duel.evaluate
    if game.name == "duals":
        from flametable.bots import duals

        return duals.duals_determinizer(game), duals.evaluate
    raise ValueError(f"no bots know the game {game.name!r}")


def make_bot(spec: str, game: Any, seed: int, deterministic: bool = False) -> Bot:
    """A bot from a seat spec such as ``bot:hard`` or ``bot:ismcts:500`` (raises ValueError naming the spec).

    ``deterministic`` drops time budgets (keeping iteration budgets), so simulations are reproducible.
    """
    if not spec.startswith("bot:"):
        raise ValueError(f"a bot seat is written bot:NAME, got {spec!r}")
    name = spec[4:]
    kind, params = LEVELS.get(name, (name, {}))
    params = dict(params)
    if deterministic:
        params.pop("seconds", None)
    if kind.startswith("ismcts:"):
        count = kind.split(":", 1)[1]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"bot:ismcts:N needs a positive number of iterations, got {spec!r}")
        kind, params = "ismcts", {"iterations": int(count)}
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        det, ev = _knowledge(game)
        return GreedyBot(det, ev, seed, name=name, **params)
    if kind == "ismcts":
        det, _ = _knowledge(game)
        return IsmctsBot(det, seed, name=name, **params)
    raise ValueError(f"unknown bot {spec!r} (known: {', '.join('bot:' + n for n in BOT_NAMES)})")
