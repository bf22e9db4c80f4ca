"""Greedy: one decision's lookahead. Apply each legal action to one sample of the hidden information and
keep the action whose result a game-specific evaluation likes best (ties broken at random)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flametable.bots.ismcts import Determinizer
from flametable.core.protocol import Action, GameState
from flametable.core.rng import Rng

Evaluator = Callable[[GameState[Any, Any], int], float]


class GreedyBot:
    def __init__(self, determinize: Determinizer, evaluate: Evaluator, seed: int = 0, noise: float = 0.0,
                 name: str = "greedy") -> None:
        self.determinize = determinize
        self.evaluate = evaluate
        self.rng = Rng(seed)
        self.noise = noise  # probability of a random action instead (for easier levels)
        self.name = name

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a bot was asked to act with no legal action")
        rng = self.rng
        if len(legal) == 1:
            return legal[0]
        if self.noise and rng.below(1 << 20) < self.noise * (1 << 20):
            return legal[rng.below(len(legal))]
        me: int = view.seat
        sample = self.determinize(view)(rng)
        best: list[Action] = []
        best_score = -float("inf")
        for a in legal:
            s = sample.clone()
            s.apply(a)
            score = self.evaluate(s, me)
            if score > best_score + 1e-9:
                best_score = score
                best = [a]
            elif score > best_score - 1e-9:
                best.append(a)
        return best[rng.below(len(best))]
