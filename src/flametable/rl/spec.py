"""What a game gives the learning environments: how to turn one seat's view into a fixed-shape numeric array.

A game's registry entry names an ``observation`` piece: ``(game) -> ObservationSpec``. The spec is made once per
game (its card set or board data fixed) and encodes any view of that game. It sees the view only, never the state,
so an observation can hold nothing the seat may not see (the leak tests check it over random matches).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt


@runtime_checkable
class ObservationSpec(Protocol):
    """How one game's views become observations."""

    shape: tuple[int, ...]
    """The observation array's shape (the same for every view of the game)."""
    max_steps: int
    """The most decisions a match of the game can take (an upper bound, for truncation and buffers)."""
    num_players: int
    """Seats of a match (2 for the built-in games)."""

    def encode(self, view: Any, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` (a seat's view, as the engine gives it) into ``out`` (``shape``,
        float32), every cell of it."""
        ...


def observe(spec: ObservationSpec, view: Any) -> npt.NDArray[np.float32]:
    """A new observation array of ``view``."""
    out = np.zeros(spec.shape, dtype=np.float32)
    spec.encode(view, out)
    return out
