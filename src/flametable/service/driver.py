"""Playing a whole match through the service: ask the seat to act for its decision, submit it, until the end.

Every front end that owns all the seats of a match (terminal play, the lab, tests) drives it with :func:`run`;
a server instead submits actions as they arrive from the players (and may let bots think off its thread with
:mod:`flametable.service.thinking`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flametable.core.outcome import Outcome
from flametable.core.protocol import Action, Game, GameState
from flametable.core.record import MatchRecord
from flametable.service.events import Applied
from flametable.service.match import MatchService

Decider = Callable[[Any, Sequence[Action]], Action]
"""Given a seat's view and its legal actions, pick one. Deciders never see the state."""


def run(match: MatchService, deciders: Sequence[Decider], *, listen: Callable[[Applied], None] | None = None,
        on_action: Callable[[int, Action], None] | None = None) -> Outcome:
    """Play ``match`` to its end: the seat to act gets its view and legal actions, its decider's choice is
    submitted (checked like any other, at the version it was chosen at).

    ``listen`` gets the events of every step; without it no event is made (the lab's lean path, same checks).
    ``on_action(seat, action)`` is called after each accepted action, for code that may read ``match.state``.
    """
    if len(deciders) != 2:
        raise ValueError(f"a match needs one decider per seat (2), got {len(deciders)}")
    # The pending decision comes as a plain tuple (match.turn() without building a Turn); nobody listening,
    # the service accepts each action and reads the next decision in one hold of its lock.
    turn = match._ask()
    while turn is not None:
        seat, version, view, legal = turn
        action = deciders[seat](view, legal)
        if listen is None:
            turn = match._submit_quiet_then_ask(seat, action, version)
        else:
            listen(match.submit(seat, action, version))
            turn = match._ask()
        if on_action is not None:
            on_action(seat, action)
    outcome = match.outcome
    if outcome is None:  # pragma: no cover - to_act is None only once the match is over
        raise RuntimeError("match ended without an outcome")
    return outcome


def play(state: GameState[Any, Any], deciders: Sequence[Decider], record: MatchRecord | None = None,
         on_step: Callable[[GameState[Any, Any], int, Action], None] | None = None, *,
         game: Game[Any, Any] | None = None) -> Outcome:
    """:func:`run` for a bare state: a service around ``state`` (and ``game`` when given), every action
    appended to ``record``; ``on_step(state, seat, action)`` after each action."""
    match = MatchService(game, state, record)
    hook = None if on_step is None else (lambda seat, action: on_step(state, seat, action))
    return run(match, deciders, on_action=hook)
