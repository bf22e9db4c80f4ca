"""A PettingZoo AEC environment for any registry game whose entry gives an ``observation`` piece.

The environment drives the game's engine directly: a match is ``game.new_match(options, seed)``, kept as
``env.match`` (the engine's state, hidden information included: for tests and tools, never for a learner); the
agent to act is the seat of ``match.to_act``; an agent's observation is the spec's encoding of *its seat's view*
(never of the state) with the action mask of its legal action ids (zeros when it is not to act or the match is
over; after an illegal action ends ``env()``'s episode, the offender's mask still shows its legal actions, as
under PettingZoo's wrappers). Rewards are +1 and -1 at the end (0 each for a draw), nothing before. Agents are
``player_0`` ... ``player_{n-1}``, seat order. There is no ``state()``: a global state would show what each agent
may not see.

Seeding (PettingZoo's convention): ``reset(seed=s)`` plays the match of engine seed ``s`` (the same match as
``game.new_match(options, s)``) and seeds the environment's generator; ``reset()`` without a seed draws the next
match's seed from that generator (from entropy if the environment was never seeded).

``render()`` (``render_mode="ansi"``) returns the terminal's drawing of the acting agent's view (the game's
``table`` piece, in the terminal's language), or, for a game without one, the view as text and the legal actions.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from flametable.core import registry
from flametable.core.outcome import Outcome
from flametable.core.registry import GameEntry
from flametable.core.rng import SEED_MAX
from flametable.rl.spec import ObservationSpec, bounds, state_encoder
from flametable.texts.plain import view_text

Obs = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def entry_of(game: str | GameEntry) -> GameEntry:
    return game if isinstance(game, GameEntry) else registry.get(game)


def spec_of(entry: GameEntry, game: Any) -> ObservationSpec:
    """The game's observation spec, from its registry entry; ValueError when the entry gives none."""
    if not entry.has("observation"):
        raise ValueError(f"the game {entry.name!r} has no learning environment: its registry entry gives no "
                         f"'observation' piece")
    spec: ObservationSpec = entry.required("observation")(game)
    return spec


def prepare(game: str | GameEntry, options: Mapping[str, Any] | None,
            data: str | Path | None) -> tuple[GameEntry, Any, dict[str, Any], ObservationSpec]:
    """What every environment starts from: the game's registry entry, the game made with ``data`` (None: the
    built-in data), the options (checked now by making one match: bad options fail here, not at the first reset)
    and the game's observation spec."""
    entry = entry_of(game)
    made: Any = entry.make(data)
    opts = dict(options or {})
    made.new_match(opts, 0)
    return entry, made, opts, spec_of(entry, made)


def reward(outcome: Outcome, seat: int) -> float:
    """The end's reward of ``seat``: +1 a win, -1 a loss, 0 a draw (the outcome's points, 1 / ½ / 0, made
    symmetric)."""
    return 2.0 * outcome.points(seat) - 1.0


def fill_mask(mask: npt.NDArray[np.int8], actions: Any) -> None:
    """Set ``mask``'s cells of ``actions``' ids to 1 (the others are left as they are)."""
    for action in actions:
        mask[action.id] = 1


def check_render_mode(render_mode: str | None, modes: list[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {modes} or None, got {render_mode!r}")


def observation_box(spec: ObservationSpec) -> spaces.Box:
    """The Box of the spec's observations, within :func:`flametable.rl.spec.bounds`."""
    low, high = bounds(spec)
    return spaces.Box(low=low, high=high, shape=spec.shape, dtype=np.float32)


def mask_box(num_actions: int) -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8)


def draw_seed(rng: np.random.Generator) -> int:
    """A match seed below 2**63: it fits a numpy int64 (vector environments stack each info into an array)."""
    return int(rng.integers(0, 2**63, dtype=np.int64))


def ansi(entry: GameEntry, game: Any, view: Any, legal: Any = (), width: int = 100) -> str:
    """The terminal's drawing of ``view`` as plain text, in the terminal's language: the game's ``table`` piece's
    board, else the view as text and the legal actions' notations."""
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False, legacy_windows=False)
    if entry.has("table"):
        table = entry.required("table")(console, game, ("player_0", "player_1"))
        console.print(table.board(view))
    else:
        console.print(view_text(view), markup=False, highlight=False)
        if legal:
            console.print(" · ".join(a.text() for a in legal), markup=False, highlight=False)
    return out.getvalue()


class FlametableAEC(AECEnv[str, Obs, int]):  # type: ignore[misc]  # pettingzoo is untyped
    """One registry game as a PettingZoo AEC environment (``game``: its name or entry).

    ``options``: the match options, as ``new_match`` takes them (a JSON-like mapping, checked here by making one
    match). ``data``: the path of a data file for the game's ``data`` piece (a custom card set, custom board data);
    None plays the built-in data.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "flametable_v0",
                                          "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str | GameEntry, options: Mapping[str, Any] | None = None,
                 data: str | Path | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.entry, self.game, self.options, self.observation_spec = prepare(game, options, data)
        self._shape = self.observation_spec.shape
        self._encode = state_encoder(self.game, self.observation_spec)
        self.metadata = {**type(self).metadata, "name": f"{self.entry.name}_v0"}  # type: ignore[misc]
        self.render_mode = render_mode
        self.num_actions: int = self.game.num_actions
        self.possible_agents = [agent_name(seat) for seat in range(self.observation_spec.num_players)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        box, masks = observation_box(self.observation_spec), mask_box(self.num_actions)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": masks})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.match: Any = None
        self.match_seed = 0
        self._cache: dict[str, Obs] = {}  # this step's observations (observe twice, encode once)

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ playing

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: of engine seed ``seed``, else of the next seed of the environment's generator. ``options``
        (PettingZoo's reset options) are not used: the match options are the environment's."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self.match_seed = int(seed) % (SEED_MAX + 1)  # engine seeds: 0 .. SEED_MAX
        else:
            self.match_seed = draw_seed(self._rng)
        self.match = self.game.new_match(self.options, self.match_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        self.agent_selection = self.possible_agents[self.match.to_act]

    def observe(self, agent: str) -> Obs:
        found = self._cache.get(agent)
        if found is not None:
            return found
        st = self.match
        seat = self._seat_of[agent]
        obs = np.empty(self._shape, np.float32)  # the spec writes every cell
        self._encode(st, seat, obs)
        mask = np.zeros(self.num_actions, np.int8)
        if st.to_act == seat:
            fill_mask(mask, st.legal_actions())
        found = self._cache[agent] = {"observation": obs, "action_mask": mask}
        return found

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only the action of an agent whose match is over")
        st = self.match
        seat = self._seat_of[agent]
        st.apply(self.game.action_from_id(int(action)))  # the engine refuses an illegal action (IllegalAction)
        self._cache = {}
        self._cumulative_rewards[agent] = 0.0
        outcome = st.outcome
        if outcome is not None:
            for other in self.agents:
                self.rewards[other] = reward(outcome, self._seat_of[other])
                self.terminations[other] = True
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[st.to_act]

    # ------------------------------------------------------------------ showing

    def state(self) -> npt.NDArray[Any]:
        """No global state: a hidden-information game's whole state is what no learner may see (PettingZoo's
        ``state()`` is for centralised critics of perfect-information games)."""
        raise NotImplementedError(f"{self.metadata['name']} has no state(): its match hides information from each "
                                  "agent, and a global state would show it")

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.match is None:
            raise RuntimeError("render() before reset()")
        st = self.match
        seat = st.to_act if st.to_act is not None else self._seat_of.get(self.agent_selection, 0)
        legal = st.legal_actions() if st.to_act == seat else ()
        return ansi(self.entry, self.game, st.view(seat), legal)

    def close(self) -> None:
        self.match = None


class CheckedAEC(FlametableAEC):
    """The environment with the checks of PettingZoo's standard wrappers, as its classic environments have them
    (``TerminateIllegalWrapper(illegal_reward=-1)``, ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``), made
    in the environment itself: three wrapper layers cost every attribute read three ``__getattr__`` calls, about
    as much as a whole step of the engine and the observation together (docs/benchmarks.md).

    - Order: ``step``, ``observe``, ``render`` and ``agent_iter`` before ``reset`` raise PettingZoo's errors; a step
      when no agent is left warns; ``agent_iter``'s loop asserts a ``step`` (or ``reset``) between two agents.
    - Bounds: an action that is not in the action space (nor ``None`` for an agent whose match is over) fails an
      assertion.
    - Illegal actions: an action the acting agent's mask forbids ends the match: -1 for that agent, 0 for the
      others, every agent terminated and truncated, and PettingZoo's warning logged.
    """

    def __init__(self, game: str | GameEntry, options: Mapping[str, Any] | None = None,
                 data: str | Path | None = None, render_mode: str | None = None) -> None:
        super().__init__(game, options, data, render_mode)
        self._has_reset = False
        self._has_updated = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> Obs:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> npt.NDArray[Any]:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def __getattr__(self, name: str) -> Any:
        """Only for an attribute not found: before reset, OrderEnforcingWrapper's message for the match's."""
        if name in _SET_BY_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Obs, int]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _CheckedIterable(self, max_iter)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        dead = self.terminations[agent] or self.truncations[agent]
        if action is not None or not dead:
            # a plain int is checked by its range alone; anything else by the space, a bool (an int) refused
            assert (0 <= action < self.num_actions if type(action) in _PLAIN_INTS  # type: ignore[operator]
                    else not isinstance(action, bool) and self.action_spaces[agent].contains(action)), \
                "action is not in action space"
        if dead:
            self._was_dead_step(action)
        elif not self._legal(agent, int(action)):  # type: ignore[arg-type]  # in the space: an integer
            EnvLogger.warn_on_illegal_move()
            self._cumulative_rewards[agent] = 0.0
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = -1.0
            self._accumulate_rewards()
            self._deads_step_first()
        else:
            super().step(action)

    def _legal(self, agent: str, action: int) -> bool:
        """The acting agent's mask allows ``action`` (the mask it was shown, else its legal actions now)."""
        shown = self._cache.get(agent)
        if shown is not None:
            return bool(shown["action_mask"][action])
        return any(a.id == action for a in self.match.legal_actions())


_PLAIN_INTS = (int, np.int64)  # what Discrete.contains takes with a range check only (numpy policies give np.int64)
_SET_BY_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "agents", "num_agents",
                           "_cumulative_rewards"})


class _CheckedIterable(AECIterable[str, Obs, int]):  # type: ignore[misc]  # pettingzoo is untyped
    def __iter__(self) -> _CheckedIterator:
        return _CheckedIterator(self.env, self.max_iter)


class _CheckedIterator(AECIterator[str, Obs, int]):  # type: ignore[misc]
    """``agent_iter()``'s iterator, asserting (as OrderEnforcingWrapper's) a step between two agents."""

    def __next__(self) -> str:
        agent: str = super().__next__()
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return agent


def raw_env(game: str | GameEntry, options: Mapping[str, Any] | None = None, data: str | Path | None = None,
            render_mode: str | None = None) -> FlametableAEC:
    """The bare environment of any registry game with an observation piece."""
    return FlametableAEC(game, options, data, render_mode)


def env(game: str | GameEntry, options: Mapping[str, Any] | None = None, data: str | Path | None = None,
        render_mode: str | None = None) -> AECEnv[str, Obs, int]:
    """The environment of any registry game as PettingZoo's classic environments are made: with the checks of
    PettingZoo's standard wrappers (an illegal action ends the match with -1 for its agent and 0 for the others, an
    action outside the space fails an assertion, the API's order is enforced), made by :class:`CheckedAEC` in one
    layer."""
    return CheckedAEC(game, options, data, render_mode)


def pettingzoo_wrapped(game: str | GameEntry, options: Mapping[str, Any] | None = None,
                       data: str | Path | None = None, render_mode: str | None = None) -> AECEnv[str, Obs, int]:
    """The raw environment inside PettingZoo's own three wrappers, as ``connect_four_v3.env()`` is made: what
    :class:`CheckedAEC` does in one layer (the tests hold the two to the same behaviour; the benchmark compares
    their speeds)."""
    from pettingzoo.utils import wrappers

    wrapped: AECEnv[str, Obs, int] = wrappers.TerminateIllegalWrapper(raw_env(game, options, data, render_mode),
                                                                     illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
