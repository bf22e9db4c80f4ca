"""Flamecraft Duals knowledge for the bots: the evaluation greedy uses and the determiniser binding."""

from __future__ import annotations

import math
from typing import Any

from flametable.bots.registry import Knowledge
from flametable.core.outcome import Outcome
from flametable.core.protocol import GameState
from flametable.games.duals.determinize import Sampler
from flametable.games.duals.game import DualsGame
from flametable.games.duals.view import DualsView


def evaluate(state: GameState[Any, Any], me: int) -> float:
    """How good ``state`` looks for seat ``me``: points, then what my hand could score on this board."""
    st: Any = state
    out: Outcome | None = st.outcome
    if out is not None:
        lead: float = st.points(me) - st.points(1 - me)
        return 1000.0 * (out.points(me) - 0.5) + lead
    o = 1 - me
    vp = st.data.vp
    score: float = 10.0 * (st.points(me) - st.points(o))
    score += 6.0 * sum(vp[c] for c in st.matching(me))
    score -= 2.0 * sum(vp[c] for c in st.matching(o))  # a sample of the opponent's hand
    return score


SCALE = 30.0


def win_chance(state: GameState[Any, Any]) -> float:
    """Seat 0's chance of winning, from :func:`evaluate` (a lead of 5 VP is worth about 5 to 1)."""
    return float(1.0 / (1.0 + math.exp(-evaluate(state, 0) / SCALE)))


def duals_determinizer(game: DualsGame) -> Any:
    def prepare(view: DualsView) -> Sampler:
        return Sampler(view, game)

    return prepare


def knowledge(game: Any) -> Knowledge:
    """Flamecraft Duals (the registry's ``bots`` piece): a match is about 100 decisions long, so random playouts
    to the end are slow and mostly noise; leaves are judged at once by a value function built on greedy's
    evaluation."""
    return Knowledge(duals_determinizer(game), evaluate,
                     {"iterations": 1000, "playout_depth": 0, "value": win_chance, "exploration": 0.7},
                     ("planner", {"samples": 6, "width": 10}))
