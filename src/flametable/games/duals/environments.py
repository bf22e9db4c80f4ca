"""Flamecraft Duals's learning environments: the PettingZoo classic environment ``env()`` (with the standard
wrappers' checks) and ``raw_env``, and the Gymnasium single-agent one against a bot.

Options: ``buddy`` (the Buddy variant, D11), ``data`` (the path of custom board, token and shop data; None: the
built-in data). The observation's layout is in docs/rl.md.
"""

from __future__ import annotations

from pathlib import Path

from pettingzoo import AECEnv

from flametable.rl import aec
from flametable.rl.aec import FlametableAEC, Obs
from flametable.rl.single import Seat, SingleEnv


def raw_env(buddy: bool = False, data: str | Path | None = None, render_mode: str | None = None) -> FlametableAEC:
    return aec.raw_env("duals", {"buddy": buddy}, data, render_mode)


def env(buddy: bool = False, data: str | Path | None = None, render_mode: str | None = None) -> AECEnv[str, Obs, int]:
    return aec.env("duals", {"buddy": buddy}, data, render_mode)


class DualsEnv(SingleEnv):
    """Flamecraft Duals against a bot (``flametable/Duals-v0``); the options as :func:`raw_env`'s."""

    def __init__(self, buddy: bool = False, data: str | Path | None = None, opponent: str = "bot:random",
                 seat: Seat = "alternate", dict_obs: bool = True, render_mode: str | None = None) -> None:
        super().__init__("duals", {"buddy": buddy}, data, opponent, seat, dict_obs, render_mode)
