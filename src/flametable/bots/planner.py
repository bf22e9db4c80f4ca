"""Turn planner: look past the current decision to the end of the bot's own turn.

Greedy judges a decision by the position right after it. In a game whose turn is many small decisions
(Flamecraft Duals: place a token, fire it, move or swap tokens, score) that misses every combination whose
first step looks idle: a token placed where, once fired, it completes a pattern. The planner keeps the
``width`` best decisions by greedy's own judgement, plays each of them out to the end of its turn greedily on
``samples`` samples of the hidden information (the game's determiniser), and picks the decision whose turn
ends best on average.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flametable.bots.greedy import Evaluator
from flametable.bots.ismcts import Determinizer
from flametable.core.protocol import Action, GameState
from flametable.core.rng import Rng


class TurnPlanner:
    def __init__(self, determinize: Determinizer, evaluate: Evaluator, seed: int = 0, samples: int = 3,
                 width: int = 6, max_steps: int = 12, name: str = "planner") -> None:
        if samples < 1 or width < 1 or max_steps < 1:
            raise ValueError(f"samples, width and max_steps must be at least 1, got {samples}, {width}, {max_steps}")
        self.determinize = determinize
        self.evaluate = evaluate
        self.rng = Rng(seed)
        self.samples = samples
        self.width = width
        self.max_steps = max_steps
        self.name = name

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a bot was asked to act with no legal action")
        if len(legal) == 1:
            return legal[0]
        me: int = view.seat
        sampler = self.determinize(view)
        states = [sampler(self.rng) for _ in range(self.samples)]
        # greedy's judgement on the first sample; those children are played on, not made again
        first = [(*self._after(states[0], a, me), i) for i, a in enumerate(legal)]
        first.sort(key=lambda x: -x[0])
        best_i, best_total = first[0][2], -float("inf")
        for value0, child0, i in first[: self.width]:
            total = self._finish_turn(child0, me, value0)  # _finish_turn plays on clones: child0 is kept
            for st in states[1:]:
                value, child = self._after(st, legal[i], me)
                total += self._finish_turn(child, me, value)
            if total > best_total:
                best_i, best_total = i, total
        return legal[best_i]

    def _after(self, state: GameState[Any, Any], action: Action, me: int) -> tuple[float, GameState[Any, Any]]:
        child = state.clone()
        child.apply(action)
        return self.evaluate(child, me), child

    def _finish_turn(self, state: GameState[Any, Any], me: int, value: float) -> float:
        """Play ``me``'s following decisions greedily until the turn passes; the evaluation where it ends."""
        steps = self.max_steps
        while state.to_act == me and steps:
            steps -= 1
            value, state = max((self._after(state, a, me) for a in state.legal_actions()), key=lambda vc: vc[0])
        return value
