"""What the tests of the learning environments and of the games' observations share: random legal play, a custom
deck, a game's observation spec from the registry, seeded random matches."""

from __future__ import annotations

from typing import Any

import numpy as np

from flametable.core import registry
from flametable.core.rng import Rng
from flametable.rl import aec
from flametable.rl.spec import Layout, ObservationSpec, observe

DECK = {"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}


def random_action(rng: np.random.Generator, mask: Any) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_out(env: aec.FlametableAEC, rng: np.random.Generator) -> list[int]:
    """Random legal actions to the end of the match; the actions played."""
    played = []
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        action = None if terminated or truncated else random_action(rng, obs["action_mask"])
        if action is not None:
            played.append(action)
        env.step(action)
    return played


def spec_of(name: str) -> tuple[Any, ObservationSpec]:
    entry = registry.get(name)
    game = entry.make()
    return game, entry.required("observation")(game)


def random_states(game: Any, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of a seeded random match, the end included (copies)."""
    rng = Rng(seed)
    state = game.new_match(options, seed)
    states = [state.clone()]
    while state.to_act is not None:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        states.append(state.clone())
    return states


def layout_of(spec: ObservationSpec) -> Layout:
    layout = getattr(spec, "layout", None)
    assert isinstance(layout, Layout)
    return layout


def same_observation(spec: ObservationSpec, a: Any, b: Any, seat: int) -> bool:
    return observe(spec, a.view(seat)).tobytes() == observe(spec, b.view(seat)).tobytes()
