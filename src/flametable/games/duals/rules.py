"""Flamecraft Duals options, token types, steps of a turn and outcome reasons.

The numbers the rules text fixes (hand of 2, 3 coins, stacks of at most 3, crystal draws 3, the coin
draws 2 and puts 2 back) live here; everything a ruling fixes as data (board, token counts, dual pairs,
FIRE UP order, shop deck) lives in ``data/duals.toml`` (see :mod:`flametable.games.duals.data`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from flametable.core import outcome
from flametable.core.errors import RecordError
from flametable.core.i18n import N_

RULES_VERSION = "flamecraft-duals/1"
HAND_SIZE = 2  # REFRESH: draw up to 2 cards
START_COINS = 3  # setup step 2
STACK_LIMIT = 3  # at most 3 tokens per space, even during a move (FAQ, D6)
CRYSTAL_DRAW = 3  # crystal: draw 3, place 1, return the others (FAQ, D6)
COIN_DRAW = 2  # the coin: draw 2 ...
COIN_BOTTOM = 2  # ... then put 2 of your hand at the bottom of the deck (FAQ)


class TokenType(IntEnum):
    """The six dragon types (D2). Their abilities are code; their FIRE UP order is data (D3)."""

    BREAD = 0
    CRYSTAL = 1
    MEAT = 2
    IRON = 3
    POTION = 4
    PLANT = 5

    @property
    def key(self) -> str:
        return self.name.lower()


TYPE_KEYS: tuple[str, ...] = tuple(t.key for t in TokenType)
NUM_TYPES = len(TYPE_KEYS)
ALL_TYPES_MASK = (1 << NUM_TYPES) - 1


class Step(IntEnum):
    """The decision a turn is waiting for (``BOTTOM`` interrupts any step once a coin is spent)."""

    PLACE = 0  # PLAY: put the held token on a space with fewer than 3 tokens
    FIRE = 1  # FIRE UP the token on ``src`` (one of its abilities) or skip
    TAKE = 2  # crystal: which drawn token to place
    MEAT = 3  # meat: move one adjacent top token anywhere
    IRON = 4  # iron: move one or two adjacent top tokens by one space
    POTION = 5  # potion: swap two top tokens
    PLANT = 6  # plant: use the ability of an adjacent top token
    SCORE = 7  # SCORE: score matching cards, spend the coin, or stop
    BOTTOM = 8  # the coin: put a card of your hand at the bottom of the deck
    OVER = 9


class Reason(outcome.Reason):
    """Why the match was won (D9)."""

    MOST_VP = "most_vp", N_("most victory points")  # more victory points
    MORE_CARDS = "more_cards", N_("equal victory points, more scored cards")  # equal VP, more scored cards
    SHARED = "shared_victory", N_("equal victory points and scored cards: a shared victory")  # a shared victory


@dataclass(frozen=True)
class DualsOptions:
    """``buddy``: the Buddy variant (D11): the Buddy token joins the bag."""

    buddy: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"buddy": self.buddy}

    @staticmethod
    def from_json(data: Any) -> DualsOptions:
        if isinstance(data, DualsOptions):
            return data
        if data is None:
            return DualsOptions()
        if not isinstance(data, Mapping):
            raise RecordError(N_("options must be an object, got {value!r}"), value=data)
        unknown = set(data) - {"buddy"}
        if unknown:
            raise RecordError(N_("options: unknown field(s) {fields}"), fields=", ".join(sorted(unknown)))
        buddy = data.get("buddy", False)
        if not isinstance(buddy, bool):
            raise RecordError(N_("{field} must be true or false, got {value!r}"), field="options.buddy", value=buddy)
        return DualsOptions(buddy)
