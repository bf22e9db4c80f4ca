"""Information Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012).

Each iteration samples one full state from the bot's view with the game's determiniser (which never
reads the real state), descends the tree among the actions legal in that sample (UCB1 with availability
counts), expands one node, finishes the match with a playout and backs the result up. The tree is keyed by
action ids, so the same node gathers statistics over many samples of the hidden information.

A playout is uniformly random unless the game gives a playout policy (``policy``: the action to play in a
sampled state). Uniformly random playouts spend cards and pick stats the way no player does, which flattens the
difference between keeping a card and throwing it away; a game whose decisions are mostly about when to spend
what it holds (Flame Duel) gives a policy that plays like a sensible player instead (``bots.duel.playout_action``).

A game's native engine may run the whole inner loop in its core (``native``: a :class:`NativeSearch` per decision,
issue 26): the same determinisations, descent, playouts and backups, drawing from the same generator, so that the
same seed makes the same choice; this module's loop stays the reference, and plays whenever the core cannot (a
playout cut at a depth, a policy the core does not have).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from flametable.core.protocol import Action, GameState
from flametable.core.rng import Rng

Sampler = Callable[[Rng], GameState[Any, Any]]
Determinizer = Callable[[Any], Sampler]
"""Given a seat's view, a sampler of full states consistent with it (prepared once per decision)."""
Policy = Callable[[GameState[Any, Any], Rng], Action]
"""A playout policy: the action the player to act plays in a full (sampled) state, one of its legal actions."""


class NativeSearch(Protocol):
    """One decision's search in a game's core: ``run`` does iterations as :meth:`IsmctsBot._iterate` does, drawing
    from a generator whose state is ``rng_state``; ``best`` is the root's most visited action id among the legal ones
    (the first tried of equals), None when none was tried."""

    @property
    def rng_state(self) -> int: ...

    def run(self, iterations: int) -> None: ...

    def best(self, legal_ids: list[int]) -> int | None: ...


NativeSearcher = Callable[[Any, "Policy | None", float, int], "NativeSearch | None"]
"""(view, playout policy, exploration constant, generator state) -> the core's search, or None where it has none."""


NATIVE_CHUNK = 256
"""Iterations of a native search between two readings of the clock: about a millisecond's worth."""


class Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # from the point of view of the seat that chose the action leading here


class IsmctsBot:
    """ISMCTS with a budget of ``iterations`` and/or ``seconds`` (whichever ends first)."""

    def __init__(self, determinize: Determinizer, seed: int = 0, iterations: int | None = 1000,
                 seconds: float | None = None, exploration: float = 0.7, name: str = "ismcts",
                 playout_depth: int | None = None, value: Callable[[GameState[Any, Any]], float] | None = None,
                 policy: Policy | None = None, native: NativeSearcher | None = None) -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTS needs a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        self.determinize = determinize
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.name = name
        if (playout_depth is None) != (value is None):
            raise ValueError("a playout depth goes with a value function, and the other way round")
        self.depth = playout_depth
        self.value = value  # seat 0's chance of winning a state, for playouts cut at ``playout_depth``
        self.policy = policy  # the playouts' moves (None: uniformly random)
        self.native = native  # the game's core's search, where its engine is the native one
        self.last_iterations = 0

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("a bot was asked to act with no legal action")
        if len(legal) == 1:
            return legal[0]
        root = Node()
        rng = self.rng
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        limit = self.iterations if self.iterations is not None else 1 << 62
        it = 0
        native = self.native if self.depth is None else None
        search = native(view, self.policy, self.c, rng.state) if native is not None else None
        if search is not None:
            return self._choose_native(search, legal, deadline, limit)
        sample = self.determinize(view)
        while it < limit:
            if it & 15 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate(root, sample(rng), rng)
            it += 1
        self.last_iterations = it
        by_id = {a.id: a for a in legal}
        best = max((aid for aid in root.children if aid in by_id), key=lambda aid: root.children[aid].visits,
                   default=None)
        return by_id[best] if best is not None else legal[rng.below(len(legal))]

    def _choose_native(self, search: NativeSearch, legal: Sequence[Action], deadline: float, limit: int) -> Action:
        """:meth:`choose`'s loop in the core: the clock read every :data:`NATIVE_CHUNK` iterations (as often in
        time as the Python loop reads it every 16)."""
        it = 0
        while it < limit:
            if time.perf_counter() >= deadline:
                break
            step = min(NATIVE_CHUNK, limit - it)
            search.run(step)
            it += step
        self.last_iterations = it
        self.rng.state = search.rng_state
        by_id = {a.id: a for a in legal}
        best = search.best(list(by_id))
        return by_id[best] if best is not None else legal[self.rng.below(len(legal))]

    def _iterate(self, root: Node, state: GameState[Any, Any], rng: Rng) -> None:
        path: list[tuple[Node, int]] = []  # (node, seat that chose the move into it)
        node = root
        c = self.c
        while True:
            seat = state.to_act
            if seat is None:
                break
            legal = state.legal_actions()
            children = node.children
            untried = []
            best = None
            best_score = -1.0
            for a in legal:
                child = children.get(a.id)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                if untried:
                    continue
                score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_score = score
                    best = a
            if untried:
                a = untried[rng.below(len(untried))]
                child = Node()
                child.avail = 1
                children[a.id] = child
                state.apply(a)
                path.append((child, seat))
                break
            if best is None:  # pragma: no cover - legal is never empty while to_act is set
                break
            state.apply(best)
            node = children[best.id]
            path.append((node, seat))
        random_playout(state, rng, self.depth, self.policy)
        outcome = state.outcome
        if outcome is not None:
            won = (outcome.points(0), outcome.points(1))
        elif self.value is not None:
            v = self.value(state)
            won = (v, 1.0 - v)
        else:  # pragma: no cover - random_playout always finishes the match
            return
        for n, seat in path:
            n.visits += 1
            n.reward += won[seat]


def random_playout(state: GameState[Any, Any], rng: Rng, max_steps: int | None = None,
                   policy: Policy | None = None, native: NativeSearcher | None = None) -> None:
    """Finish the match with uniformly random legal actions, or ``policy``'s (or stop after ``max_steps`` of
    them)."""
    steps = -1 if max_steps is None else max_steps
    if policy is not None:
        while steps and state.to_act is not None:
            state.apply(policy(state, rng))
            steps -= 1
        return
    while steps and state.to_act is not None:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        steps -= 1
