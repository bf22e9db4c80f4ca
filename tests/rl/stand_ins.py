"""Test-only observation specs, and a registry where every game the environments' tests use (tests/rl/conftest.py)
has one.

The built-in games' own encoders (``games/duel/observation.py``, ``games/duals/observation.py``) are used whenever
the registry entry names them; a stand-in, which encodes a few fields of the view, takes their place only while an
entry names none.
Secret Nim (tests/service/tiny.py), a plug-in game, always gets its stand-in: it shows how any game's entry gets an
environment by giving an ``observation`` piece.
"""

from __future__ import annotations

from dataclasses import fields
from importlib.metadata import EntryPoint
from typing import Any

import numpy as np
import numpy.typing as npt

from flametable.core import registry
from flametable.core.registry import GROUP, GameEntry, Registry, builtins
from tests.service.tiny import STONES, TinyGame, TinyView


class TinySpec:
    """Secret Nim: the pile, who made a bid, my bid, whether I am to act."""

    shape = (5,)
    max_steps = 7
    num_players = 2
    low = 0.0
    high = 1.0

    def __init__(self, game: Any) -> None:
        self.game = game

    def encode(self, view: TinyView, out: npt.NDArray[np.float32]) -> None:
        out[0] = view.pile / STONES
        out[1], out[2] = view.bids_made
        out[3] = view.my_bid / 3
        out[4] = view.to_act is not None and view.to_act == view.seat


class FewFields:
    """Flame Duel or Flamecraft Duals: a few public and private numbers of the view (a stand-in only)."""

    shape = (6,)
    max_steps = 1000
    num_players = 2

    def __init__(self, game: Any) -> None:
        self.game = game

    def encode(self, view: Any, out: npt.NDArray[np.float32]) -> None:
        out[0] = view.seat
        out[1] = -1 if view.to_act is None else view.to_act
        out[2] = int(view.phase)
        out[3] = len(view.hand)
        out[4] = len(view.legal)
        out[5] = getattr(view, "round_number", 0) or getattr(view, "turn_number", 0)


def _with(entry: GameEntry, **changes: Any) -> GameEntry:
    kept = {f.name: getattr(entry, f.name) for f in fields(entry) if f.name != "_loaded"}
    return GameEntry(**{**kept, **changes})


TINY = _with(registry.wrap(TinyGame(), origin="tiny = tests.service.tiny:TinyGame"),
             observation="tests.rl.stand_ins:TinySpec")


def tiny_entry_point() -> EntryPoint:
    return EntryPoint(name="tiny", value="tests.rl.stand_ins:TINY", group=GROUP)


def games_with_observations() -> Registry:
    """The built-in games (with a stand-in spec if theirs is missing) and Secret Nim as a plug-in."""
    entries = [entry if entry.has("observation") else _with(entry, observation="tests.rl.stand_ins:FewFields")
                for entry in builtins()]
    return Registry(entries, [tiny_entry_point()])
