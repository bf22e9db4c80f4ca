"""Bots by name, wherever a seat is given: ``bot:random``, ``bot:greedy``, ``bot:planner``, ``bot:ismcts``,
``bot:ismcts:N``, ``bot:easy``, ``bot:medium``, ``bot:hard``. What the bots know of each game comes from its
entry in the game registry (:mod:`flametable.core.registry`); a game without a determiniser gets only bot:random.

Levels: *easy* is greedy that plays a random legal action a third of the time; *medium* is greedy; *hard* is
each game's strongest bot: in Flame Duel, ISMCTS whose playouts follow a sensible player, with a budget of
4,000 iterations capped at 1.5 s of thinking (simulations drop the time cap so that results are reproducible;
with the native engine's search, whose 4,000 iterations take 0.015 s, play spends up to 0.5 s on up to 16,000
iterations, and simulations keep the 4,000); in
Flamecraft Duals, whose turn is many small decisions, the turn planner, which measured stronger than ISMCTS there
(docs/benchmarks.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flametable.bots.base import Bot, RandomBot
from flametable.bots.greedy import GreedyBot
from flametable.bots.ismcts import IsmctsBot
from flametable.bots.planner import TurnPlanner
from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.core.protocol import GameState

LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"noise": 0.35}),
    "medium": ("greedy", {}),
    "hard": ("hard", {}),  # each game's strongest bot: Knowledge.hard
}
HUMAN = "human"
"""The kind of a person's seat, wherever seats are given (a bot's is its spec, ``bot:NAME``)."""
BOT_NAMES = ("random", "greedy", "planner", "ismcts", "ismcts:N", *LEVELS)


class BotSpecError(FlametableError, ValueError):
    """A seat spec that makes no bot for the game: a message template and its parameters."""


class UnknownBot(BotSpecError):
    """A seat spec that names no bot for the game (``bot:wizard``, ``robot``, a search bot for a game without a
    determiniser): a front end lists the seats that can play it."""


@dataclass(frozen=True)
class Knowledge:
    """What the bots know of one game: its determiniser, greedy's evaluation and the ISMCTS tuning."""

    determinizer: Any
    evaluate: Any
    ismcts: dict[str, Any] = field(default_factory=dict)  # defaults for IsmctsBot (iterations, playouts)
    # the bot and its settings behind bot:hard; an ISMCTS one may give ``timed_iterations``, its iteration cap when
    # it has its time budget (in play), where ``iterations`` is the deterministic bot's whole budget (sim)
    hard: tuple[str, dict[str, Any]] = ("ismcts", {})


def outcome_only(state: GameState[Any, Any], me: int) -> float:
    """The evaluation of a game that gives none: a finished match's result, nothing before it."""
    out = state.outcome
    return 0.0 if out is None else 1000.0 * (out.points(me) - 0.5)


def knowledge(game: Any) -> Knowledge | None:
    """What the bots know of ``game``, from its registry entry: its ``bots`` piece, or one made from its
    ``determinizer`` (and ``evaluate``) pieces; None when the game has no determiniser (only bot:random), or no
    entry at all."""
    entry = registry.find(game.name)
    if entry is None:
        return None
    bots = entry.piece("bots")
    if bots is not None:
        know: Knowledge = bots(game)
        return know
    determinizer = entry.piece("determinizer")
    if determinizer is None:
        return None
    evaluate = entry.piece("evaluate") or outcome_only
    return Knowledge(determinizer(game), evaluate)


def bot_names(game: Any) -> tuple[str, ...]:
    """The bots that can play ``game``: all of them, or only ``random`` when it has no determiniser."""
    return BOT_NAMES if knowledge(game) is not None else ("random",)


def make_bot(spec: str, game: Any, seed: int, deterministic: bool = False) -> Bot:
    """A bot from a seat spec such as ``bot:hard`` or ``bot:ismcts:500`` (raises :class:`BotSpecError`, a
    ValueError, naming the spec; :class:`UnknownBot` when it names no bot at all).

    ``deterministic`` drops time budgets (keeping iteration budgets), so simulations are reproducible.
    """
    known = ", ".join("bot:" + n for n in BOT_NAMES)
    if not spec.startswith("bot:"):
        raise UnknownBot(N_("a bot seat is written bot:NAME, got {spec!r} (known: {known})"), spec=spec, known=known)
    name = spec[4:]
    kind, params = LEVELS.get(name, (name, {}))
    params = dict(params)
    if kind.startswith("ismcts:"):
        count = kind.split(":", 1)[1]
        if not (count.isascii() and count.isdigit()) or int(count) < 1:  # (not '²', which int() refuses)
            raise BotSpecError(N_("{spec}: N in bot:ismcts:N must be a whole number of at least 1 (the number of "
                                  "iterations)"), spec=spec)
        kind, params = "ismcts", {"iterations": int(count)}
    if kind == "random":
        return RandomBot(seed)
    if kind not in ("greedy", "ismcts", "planner", "hard"):
        raise UnknownBot(N_("unknown bot {spec!r} (known: {known})"), spec=spec, known=known)
    know = knowledge(game)
    if know is None:
        raise UnknownBot(N_("only bot:random plays {game!r}: the game gives the search bots no determiniser, so "
                              "{spec!r} cannot play it"), game=game.name, spec=spec)
    if kind == "hard":
        kind, params = know.hard[0], dict(know.hard[1])
    if kind == "greedy":
        return GreedyBot(know.determinizer, know.evaluate, seed, name=name, **params)
    if kind == "planner":
        return TurnPlanner(know.determinizer, know.evaluate, seed, name=name, **params)
    tuned = {**know.ismcts, **params}
    timed = tuned.pop("timed_iterations", None)
    if deterministic:
        tuned.pop("seconds", None)
    elif timed is not None and "seconds" in tuned:
        tuned["iterations"] = timed
    return IsmctsBot(know.determinizer, seed, name=name, **tuned)
