"""Bots that think off the caller's thread: a decision becomes a :class:`~concurrent.futures.Future`.

A server must not stop while a bot thinks. Give these helpers an executor: a ``ThreadPoolExecutor`` keeps the
bot itself (its random generator advances as it would on the caller's thread, so a seeded match stays
reproducible); a ``ProcessPoolExecutor`` sends a copy of the bot to the worker each time (the bot must pickle,
and what the copy learns or draws does not come back), which suits bots whose thinking holds the interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor, Future
from typing import Any

from flametable.core.protocol import Action
from flametable.service.driver import Decider
from flametable.service.events import Applied
from flametable.service.match import MatchService


def decide_later(executor: Executor, decider: Decider, view: Any, legal: Sequence[Action]) -> Future[Action]:
    """``decider(view, legal)`` (for a bot: ``bot.choose``) run by ``executor``; returns at once."""
    return executor.submit(decider, view, tuple(legal))


def bot_turn(executor: Executor, match: MatchService, seat: int, decider: Decider) -> Future[Applied]:
    """Let ``decider`` play ``seat``'s turn in ``match`` off the caller's thread: it decides from the view and
    legal actions of now, and its choice is submitted at the version it was chosen at (so a match that moved
    on meanwhile rejects it as stale). The future holds the events, or the rejection."""
    version = match.version
    view, legal = match.view(seat), match.legal(seat)

    def think() -> Applied:
        return match.submit(seat, decider(view, tuple(legal)), version)

    return executor.submit(think)
