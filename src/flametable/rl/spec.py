"""What a game gives the learning environments: how to turn one seat's view into a fixed-shape numeric array.

A game's registry entry names an ``observation`` piece: ``(game) -> ObservationSpec``. The spec is made once per
game (its card set or board data fixed) and encodes any view of that game. It sees the view only, never the state,
so an observation can hold nothing the seat may not see (the leak tests check it over random matches).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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


StateEncoder = Callable[[Any, int, npt.NDArray[np.float32]], None]
"""``(state, seat, out)``: ``seat``'s observation of a state into ``out``."""


def state_encoder(game: Any, spec: ObservationSpec) -> StateEncoder:
    """How the environments encode a seat's observation of a state of ``game``: the game's own encoder of its
    states where it has one for ``spec`` (``game.state_encoder(spec)``, not None: a native engine's, issue 26, equal
    to ``spec.encode`` of the seat's view), else ``spec.encode(state.view(seat), out)``."""
    own = getattr(game, "state_encoder", None)
    made: StateEncoder | None = own(spec) if own is not None else None
    if made is not None:
        return made
    encode = spec.encode

    def from_view(state: Any, seat: int, out: npt.NDArray[np.float32]) -> None:
        encode(state.view(seat), out)

    return from_view


def observe(spec: ObservationSpec, view: Any) -> npt.NDArray[np.float32]:
    """A new observation array of ``view``."""
    out = np.zeros(spec.shape, dtype=np.float32)
    spec.encode(view, out)
    return out


# ---------------------------------------------------------------------- optional helpers for encoders


@dataclass(frozen=True, slots=True)
class Segment:
    """A named slice of an observation: where it starts, how long it is, the range of its cells and what it
    means (docs/rl.md lists them)."""

    name: str
    offset: int
    length: int
    low: float
    high: float
    meaning: str


class Layout:
    """The segments of a flat observation, laid out one after the other as they are added."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.size = 0

    def add(self, name: str, length: int, meaning: str, low: float = 0.0, high: float = 1.0) -> int:
        """A segment of ``length`` cells after the last one; returns its offset."""
        if any(s.name == name for s in self.segments):
            raise ValueError(f"two segments named {name!r}")
        offset = self.size
        self.segments.append(Segment(name, offset, length, low, high, meaning))
        self.size += length
        return offset

    def segment(self, name: str) -> Segment:
        for s in self.segments:
            if s.name == name:
                return s
        raise KeyError(name)

    def bounds(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Each cell's lowest and highest value (for a Gymnasium ``Box``)."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for s in self.segments:
            low[s.offset : s.offset + s.length] = s.low
            high[s.offset : s.offset + s.length] = s.high
        return low, high

    def table(self) -> str:
        """The layout as a Markdown table (docs/rl.md)."""
        rows = ["| offset | length | name | range | meaning |", "|---|---|---|---|---|"]
        for s in self.segments:
            rows.append(f"| {s.offset} | {s.length} | `{s.name}` | {_num(s.low)}..{_num(s.high)} | {s.meaning} |")
        return "\n".join(rows)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else str(x)


def bounds(spec: ObservationSpec) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """The lowest and highest value of each cell of ``spec``'s observations (the environments' Box): the spec's
    ``low`` and ``high`` when it declares them (scalars or arrays of its shape), else its ``layout``'s (every
    built-in encoder has one), else float32's finite range."""
    low: Any = getattr(spec, "low", None)
    high: Any = getattr(spec, "high", None)
    if low is None or high is None:
        layout = getattr(spec, "layout", None)
        if isinstance(layout, Layout) and (layout.size,) == tuple(spec.shape):
            low, high = layout.bounds()
        else:
            info = np.finfo(np.float32)
            low, high = info.min, info.max
    return (np.broadcast_to(np.asarray(low, np.float32), spec.shape).copy(),
            np.broadcast_to(np.asarray(high, np.float32), spec.shape).copy())
