"""Flamecraft Duals as a PettingZoo classic environment: ``env()`` (with the standard wrappers) and ``raw_env``.

Options: ``buddy`` (the Buddy variant, D11), ``data`` (the path of custom board, token and shop data; None: the
built-in data). The observation's layout is in docs/rl.md.
"""

from __future__ import annotations

from pathlib import Path

from pettingzoo import AECEnv

from flametable.rl import aec
from flametable.rl.aec import FlametableAEC, Obs


def raw_env(buddy: bool = False, data: str | Path | None = None, render_mode: str | None = None) -> FlametableAEC:
    return aec.raw_env("duals", {"buddy": buddy}, data, render_mode)


def env(buddy: bool = False, data: str | Path | None = None, render_mode: str | None = None) -> AECEnv[str, Obs, int]:
    return aec.env("duals", {"buddy": buddy}, data, render_mode)
