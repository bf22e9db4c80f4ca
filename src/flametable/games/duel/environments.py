"""Flame Duel's learning environments: the PettingZoo classic environment ``env()`` (with the standard
wrappers' checks) and ``raw_env``, and the Gymnasium single-agent one against a bot.

Options: ``mode`` (``"shared"``: one support pile of all the cards, or ``"decks"``: own decks), ``pick``
(``"random"`` or ``"draft"``, shared mode only), ``decks`` (own decks, mode ``"decks"``: two of
``{"characters": [...], "supports": [...]}`` or None for a random one), ``cards`` (the path of a custom card set;
None: the built-in cards). The observation's layout is in docs/rl.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pettingzoo import AECEnv

from flametable.rl import aec
from flametable.rl.aec import FlametableAEC, Obs
from flametable.rl.single import Seat, SingleEnv


def options(mode: str = "shared", pick: str = "random", decks: Sequence[Any] | None = None) -> dict[str, Any]:
    opts: dict[str, Any] = {"mode": mode, "pick": pick}
    if decks is not None:
        opts["decks"] = list(decks)
    return opts


def raw_env(mode: str = "shared", pick: str = "random", decks: Sequence[Any] | None = None,
            cards: str | Path | None = None, render_mode: str | None = None) -> FlametableAEC:
    return aec.raw_env("duel", options(mode, pick, decks), cards, render_mode)


def env(mode: str = "shared", pick: str = "random", decks: Sequence[Any] | None = None,
        cards: str | Path | None = None, render_mode: str | None = None) -> AECEnv[str, Obs, int]:
    return aec.env("duel", options(mode, pick, decks), cards, render_mode)


class DuelEnv(SingleEnv):
    """Flame Duel against a bot (``flametable/Duel-v0``); the options as :func:`raw_env`'s."""

    def __init__(self, mode: str = "shared", pick: str = "random", decks: Sequence[Any] | None = None,
                 cards: str | Path | None = None, opponent: str = "bot:random", seat: Seat = "alternate",
                 dict_obs: bool = True, render_mode: str | None = None) -> None:
        super().__init__("duel", options(mode, pick, decks), cards, opponent, seat, dict_obs, render_mode)
