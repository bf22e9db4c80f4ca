"""The batch API: many matches of one game stepped per call, numpy arrays in and out.

``BatchEnv(game, n, options, seed)`` holds ``n`` matches, each driven by the engine directly (no PettingZoo or
Gymnasium object in the loop). In every match one seat is to act: ``seats[i]``; the observation of match ``i`` is
that seat's (the spec's encoding of its view, never of the state) and its mask the seat's legal action ids. So one
policy plays both seats (self-play); a learner that plays one seat reads ``seats``.

- ``reset() -> (obs[n, *shape] float32, mask[n, num_actions] int8)``: new matches.
- ``step(actions[n]) -> (obs, mask, rewards[n, num_players] float32, dones[n] bool)``: plays ``actions[i]`` in match
  ``i`` (ValueError, before anything is played, if one is not legal there). A match that ends gets its rewards
  (+1 the winner, -1 the others; 0 each for a draw) and ``dones[i]`` True, and is replaced at once by a new match:
  ``obs[i]``, ``mask[i]`` and ``seats[i]`` are already the new match's.
- The returned arrays are the environment's own buffers, rewritten by the next call: copy what you keep.
- Seeds: the matches' seeds are drawn from a generator seeded with ``seed``; ``match_seeds[i]`` is the engine seed
  of match ``i``'s current match (the AEC environment's ``reset(seed=match_seeds[i])`` plays the same match).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from flametable.core.registry import GameEntry
from flametable.rl.aec import draw_seed, fill_mask, prepare, reward
from flametable.rl.spec import state_encoder


class BatchEnv:
    """``n`` matches of one registry game (its name or entry), stepped together."""

    def __init__(self, game: str | GameEntry, n: int, options: Mapping[str, Any] | None = None, seed: int = 0,
                 data: str | Path | None = None) -> None:
        if n < 1:
            raise ValueError(f"a batch holds at least one match, got n={n}")
        self.entry, self.game, self.options, self.observation_spec = prepare(game, options, data)
        self._encode = state_encoder(self.game, self.observation_spec)
        self.n = n
        self.num_actions: int = self.game.num_actions
        self.num_players: int = self.observation_spec.num_players
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self._actions = [self.game.action_from_id(i) for i in range(self.num_actions)]
        self.states: list[Any] = []
        self.obs = np.zeros((n, *self.observation_spec.shape), np.float32)
        self.mask = np.zeros((n, self.num_actions), np.int8)
        self.rewards = np.zeros((n, self.num_players), np.float32)
        self.dones = np.zeros(n, np.bool_)
        self.seats = np.zeros(n, np.int64)
        """The seat to act in each match (whose observation and mask are given)."""
        self.match_seeds = np.zeros(n, np.int64)
        self.matches_played = 0
        """Matches finished since the last reset."""

    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """New matches everywhere, from the generator seeded with ``seed`` (so every reset replays the same ones)."""
        self._rng = np.random.default_rng(self.seed)
        self.matches_played = 0
        self.states = [self._new_match(i) for i in range(self.n)]
        for i, st in enumerate(self.states):
            self._observe(i, st)
        self.rewards[:] = 0
        self.dones[:] = False
        return self.obs, self.mask

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8],
                                                    npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        if not self.states:
            raise RuntimeError("step() before reset()")
        ids = np.asarray(actions, dtype=np.int64).reshape(-1)
        if ids.shape != (self.n,):
            raise ValueError(f"one action per match: {self.n} expected, got {ids.shape[0]}")
        out = (ids < 0) | (ids >= self.num_actions)
        legal = ~out
        legal[legal] = self.mask[np.flatnonzero(legal), ids[legal]] == 1
        if not legal.all():
            bad = np.flatnonzero(~legal)
            raise ValueError(f"illegal actions in matches {bad.tolist()[:10]}: {ids[bad].tolist()[:10]}")
        rewards, dones, table = self.rewards, self.dones, self._actions
        rewards[:] = 0
        dones[:] = False
        for i, st in enumerate(self.states):
            st.apply(table[ids[i]])
            outcome = st.outcome
            if outcome is not None:
                rewards[i] = [reward(outcome, seat) for seat in range(self.num_players)]
                dones[i] = True
                self.matches_played += 1
                st = self.states[i] = self._new_match(i)
            self._observe(i, st)
        return self.obs, self.mask, rewards, dones

    # ------------------------------------------------------------------ inside

    def _new_match(self, i: int) -> Any:
        seed = draw_seed(self._rng)
        self.match_seeds[i] = seed
        return self.game.new_match(self.options, seed)

    def _observe(self, i: int, st: Any) -> None:
        seat = st.to_act
        self.seats[i] = seat
        self._encode(st, seat, self.obs[i])
        row = self.mask[i]
        row[:] = 0
        fill_mask(row, st.legal_actions())
