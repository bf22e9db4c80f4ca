"""Gymnasium single-agent environments: the learner plays one seat of a registry game against a registry bot.

``import flametable.rl`` registers those the games' registry entries name (``environments``), such as
``flametable/Duel-v0`` and ``flametable/Duals-v0`` (Gymnasium has no plug-in entry points any more):
``gymnasium.make("flametable/Duel-v0")`` after it, or ``gymnasium.make("flametable.rl:flametable/Duel-v0")``, which
imports it. Keyword arguments of ``make`` are those of each game's class
(``flametable.games.duel.environments.DuelEnv``); :class:`SingleEnv` plays any game with an observation piece.

- Seats: ``seat=0`` or ``1`` fixes the learner's seat; ``"alternate"`` (the default) swaps it every episode, seat 0
  first after each seeded reset; ``"random"`` draws it from the environment's generator.
- Opponent: any bot seat spec (``bot:random``, ``bot:greedy``, ``bot:hard``, ``bot:ismcts:200``...), made anew each
  episode with a seed from the environment's generator, so a seeded reset replays the same episode.
- Observations: with ``dict_obs=True`` (the default) a ``Dict`` of ``observation`` (the spec's float32 array) and
  ``action_mask`` (int8 over the game's action ids), as the PettingZoo environments give them; with
  ``dict_obs=False`` the array alone. Either way ``info["action_mask"]`` holds the mask and
  :meth:`SingleEnv.action_masks` returns it as booleans (what sb3-contrib's MaskablePPO asks an environment for).
- Rewards: +1 when the learner wins, -1 when it loses, 0 for a draw, at the end; nothing before.
- An illegal action (not in the mask) ends the episode at once with -1 (``terminated``, ``info["illegal"]``
  True, the observation of the position it was played in, with an empty mask); the match is not played on.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from flametable.bots.registry import make_bot
from flametable.core.registry import GameEntry
from flametable.rl.aec import ansi, check_render_mode, draw_seed, fill_mask, mask_box, observation_box, prepare, reward
from flametable.rl.spec import state_encoder

Seat = int | Literal["alternate", "random"]


class SingleEnv(gymnasium.Env[Any, np.int64]):
    """One registry game, the learner at one seat and a bot at the other."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  (gymnasium.Env declares it so)

    def __init__(self, game: str | GameEntry, options: Mapping[str, Any] | None = None,
                 data: str | Path | None = None, opponent: str = "bot:random", seat: Seat = "alternate",
                 dict_obs: bool = True, render_mode: str | None = None) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        if seat not in (0, 1, "alternate", "random"):
            raise ValueError(f"seat must be 0, 1, 'alternate' or 'random', got {seat!r}")
        self.entry, self.game, self.options, self.observation_spec = prepare(game, options, data)
        self._encode = state_encoder(self.game, self.observation_spec)
        if self.observation_spec.num_players != 2:
            raise ValueError(f"a single-agent environment needs a two-player game, {self.entry.name!r} has "
                             f"{self.observation_spec.num_players}")
        self.opponent = opponent
        make_bot(opponent, self.game, 0)  # an unknown bot fails here (BotSpecError)
        self.seat_rule = seat
        self.dict_obs = dict_obs
        self.render_mode = render_mode
        self.num_actions: int = self.game.num_actions
        box = observation_box(self.observation_spec)
        self.observation_space = spaces.Dict({"observation": box, "action_mask": mask_box(self.num_actions)}) \
            if dict_obs else box
        self.action_space = spaces.Discrete(self.num_actions)
        self.match: Any = None
        self.seat = 0
        self.match_seed = 0
        self._episodes = 0
        self._bot: Any = None
        self._legal: dict[int, Any] = {}
        self._mask = np.zeros(self.num_actions, np.int8)
        self._done = False  # an illegal action ended the episode

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new match. ``options`` (Gymnasium's reset options) are not used: the match options are the
        environment's."""
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0
        rule = self.seat_rule
        if rule == "alternate":
            self.seat = self._episodes % 2
        elif rule == "random":
            self.seat = int(self.np_random.integers(2))
        else:
            self.seat = int(rule)
        self._episodes += 1
        self.match_seed = draw_seed(self.np_random)
        # deterministic: a bot with a time limit stops by its count alone, so reset(seed=s) replays the episode
        self._bot = make_bot(self.opponent, self.game, draw_seed(self.np_random), deterministic=True)
        self.match = self.game.new_match(self.options, self.match_seed)
        self._done = False
        self._opponent_plays()
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        st = self.match
        if st is None or st.outcome is not None or self._done:
            raise RuntimeError("step() after the end of the episode: call reset()")
        chosen = self._legal.get(int(action))
        if chosen is None:
            self._done = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal": True}
        st.apply(chosen)
        self._opponent_plays()
        obs = self._observe()
        outcome = st.outcome
        if outcome is None:
            return obs, 0.0, False, False, self._info()
        return obs, reward(outcome, self.seat), True, False, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans over the action ids."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.match is None:
            raise RuntimeError("render() before reset()")
        return ansi(self.entry, self.game, self.match.view(self.seat), list(self._legal.values()))

    def close(self) -> None:
        self.match = None

    # ------------------------------------------------------------------ inside

    def _opponent_plays(self) -> None:
        st, me, bot = self.match, self.seat, self._bot
        while st.outcome is None and st.to_act != me:
            st.apply(bot.choose(st.view(st.to_act), st.legal_actions()))

    def _observe(self) -> Any:
        st = self.match
        obs = np.empty(self.observation_spec.shape, np.float32)  # the spec writes every cell
        self._encode(st, self.seat, obs)
        self._mask = mask = np.zeros(self.num_actions, np.int8)
        self._legal = {}
        if st.to_act == self.seat and not self._done:
            self._legal = {a.id: a for a in st.legal_actions()}
            fill_mask(mask, self._legal.values())
        return {"observation": obs, "action_mask": mask.copy()} if self.dict_obs else obs

    def _info(self) -> dict[str, Any]:
        # Never the match's seed: it decides every shuffle, so it would tell the opponent's cards and the draw order
        # (env.unwrapped.match_seed keeps it, for replaying an episode with the AEC environment or the engine).
        return {"action_mask": self._mask.copy(), "seat": self.seat}
