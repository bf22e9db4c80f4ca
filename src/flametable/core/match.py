"""Play one match between deciders (bots, humans, anything), keeping its record."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flametable.core.outcome import Outcome
from flametable.core.protocol import Action, Game, GameState
from flametable.core.record import MatchRecord

Decider = Callable[[Any, Sequence[Action]], Action]
"""Given a seat's view and its legal actions, pick one. Deciders never see the state."""


def new_record(game: Game[Any, Any], options: dict[str, Any], seed: int, players: Sequence[str],
               setup: dict[str, Any] | None = None) -> MatchRecord:
    cid, chash = game.content_id()
    return MatchRecord(game=game.name, rules_version=game.rules_version, content={"id": cid, "hash": chash},
                       options=options, seed=seed, players=list(players), setup=setup)


def play(state: GameState[Any, Any], deciders: Sequence[Decider], record: MatchRecord | None = None,
         on_step: Callable[[GameState[Any, Any], int, Action], None] | None = None) -> Outcome:
    """Ask the seat to act for a decision until the match is over; append every action to ``record``."""
    while True:
        seat = state.to_act
        if seat is None:
            break
        legal = state.legal_actions()
        action = deciders[seat](state.view(seat), legal)
        state.apply(action)
        if record is not None:
            record.actions.append(action.text())
        if on_step is not None:
            on_step(state, seat, action)
    outcome = state.outcome
    if outcome is None:  # pragma: no cover - to_act is None only once the match is over
        raise RuntimeError("match ended without an outcome")
    if record is not None:
        record.result = outcome.to_json()
    return outcome
