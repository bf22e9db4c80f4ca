"""Seats of a match: ``human`` or a bot (``bot:random``, ``bot:medium``...); bot seeds derive from the match seed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from flametable.bots.registry import BOT_NAMES, HUMAN, UnknownBot, make_bot
from flametable.cli.console import fail
from flametable.cli.i18n import _, explain
from flametable.core.errors import FlametableError
from flametable.core.rng import Rng
from flametable.service import Decider

G = TypeVar("G")


def known_seats() -> str:
    return ", ".join([HUMAN, *(f"bot:{name}" for name in BOT_NAMES)])


def seat_problem(spec: str, game: Any) -> ValueError | None:
    """Why ``spec`` cannot play ``game`` (the bot registry's error), or ``None`` for ``human`` or a bot the
    registry makes for it."""
    if spec == HUMAN:
        return None
    try:
        make_bot(spec, game, 0, deterministic=True)
    except ValueError as exc:
        return exc
    return None


def seat_message(spec: str, game: Any, unknown: str) -> str | None:
    """``None`` when ``spec`` can play ``game``; what is wrong with a bot it names wrongly (``bot:ismcts:0``:
    N must be at least 1), translated; else ``unknown`` (the seats that are known)."""
    problem = seat_problem(spec, game)
    if problem is None:
        return None
    if isinstance(problem, UnknownBot) or not isinstance(problem, FlametableError):
        return unknown
    return explain(problem) + "."


def check_seat(spec: str, game: Any) -> str | None:
    """``None`` when ``spec`` names a seat, else a translated message saying what is wrong."""
    return seat_message(spec, game, _("Unknown seat {spec!r} (known: {known}).").format(
        spec=spec, known=known_seats()))


def check_seats(specs: Sequence[str], game: G, check: Callable[[str, G], str | None]) -> None:
    """Exit (code 2) with what ``check`` says of the first seat that cannot play ``game``."""
    for spec in specs:
        problem = check(spec, game)
        if problem:
            fail(problem, 2)


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat``: the same match seed always gives the same bots."""
    return Rng(match_seed).fork(0xB07 + seat).below(1 << 31)


def bot_decider(spec: str, game: Any, match_seed: int, seat: int, against_human: bool = False) -> Decider:
    """A bot's decider. Between bots it runs without time budgets, so the match seed alone decides the whole
    match; against a human it keeps them, so that it always answers in time (bot:hard within 2 s)."""
    return make_bot(spec, game, bot_seed(match_seed, seat), deterministic=not against_human).choose
