"""Seats of a match: ``human`` or a bot (``bot:random``, ``bot:medium``...); bot seeds derive from the match seed."""

from __future__ import annotations

from typing import Any

from flametable.bots.registry import BOT_NAMES, make_bot
from flametable.cli.i18n import _
from flametable.core.match import Decider
from flametable.core.rng import Rng

HUMAN = "human"


def known_seats() -> str:
    return ", ".join([HUMAN, *(f"bot:{name}" for name in BOT_NAMES)])


def check_seat(spec: str, game: Any) -> str | None:
    """``None`` when ``spec`` names a seat, else a translated message saying what is wrong."""
    if spec == HUMAN:
        return None
    try:
        make_bot(spec, game, 0, deterministic=True)
    except ValueError:
        return _("Unknown seat {spec!r} (known: {known}).").format(spec=spec, known=known_seats())
    return None


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat``: the same match seed always gives the same bots."""
    return Rng(match_seed).fork(0xB07 + seat).below(1 << 31)


def bot_decider(spec: str, game: Any, match_seed: int, seat: int) -> Decider:
    """A bot's decider; without time budgets, so the match seed alone decides the whole match."""
    return make_bot(spec, game, bot_seed(match_seed, seat), deterministic=True).choose
