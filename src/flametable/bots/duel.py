"""Flame Duel knowledge for the bots: the evaluation greedy uses and the determiniser binding."""

from __future__ import annotations

import math
from typing import Any

from flametable.core.protocol import GameState
from flametable.duel.cards import CardSet
from flametable.duel.determinize import Sampler
from flametable.duel.rules import Phase
from flametable.duel.state import DuelState
from flametable.duel.view import DuelView


def character_quality(cards: CardSet, c: int) -> float:
    spark, heat, charm = cards.printed[c]
    return max(spark, heat, charm) + (spark + heat + charm) / 6


def evaluate(state: GameState[Any, Any], me: int) -> float:
    """How good ``state`` looks for seat ``me``, from what is public plus ``me``'s own cards."""
    st: DuelState = state  # type: ignore[assignment]
    o = 1 - me
    out = st.outcome
    if out is not None:
        return 1000.0 * (out.points(me) - 0.5)
    cards = st.cards
    score = 100.0 * (st.wins[me] - st.wins[o])
    if st.phase is Phase.DRAFT or st.phase is Phase.LINEUP:
        score += sum(character_quality(cards, c) for c in st.characters[me])
    if st.stat >= 0:
        t = st.totals()
        margin: float = t[me] - t[o]
        if margin == 0:
            c_me, c_o = cards.charm[st.current[me]], cards.charm[st.current[o]]
            margin = 0.5 if c_me > c_o else -0.5 if c_me < c_o else 0.0
        score += 45.0 * math.tanh(margin / 8.0)
    sups = cards.supports
    score += sum(5.0 + 0.3 * abs(sups[s - 1].bonus) for s in st.hands[me])
    score -= 2.0 * len(st.hands[o])
    return score


def duel_determinizer(cards: CardSet) -> Any:
    def prepare(view: DuelView) -> Sampler:
        return Sampler(view, cards)

    return prepare
