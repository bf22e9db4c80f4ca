"""Flame Duel rules pinned down by mutation testing of ``duel/state.py`` (docs/mutation.md): the gaps the
mutation run found beyond those its issue listed. Each test reads one ruling on a scripted setup, through the
engine's public interface only (``new_match`` with an explicit setup, ``legal_actions``, ``apply``, ``view``,
``outcome``, ``clone``)."""

from __future__ import annotations

import pytest

from flametable.duel.cards import Stat
from flametable.duel.state import DRAW
from tests.duel.scripted import characters, charm, first_round, plain, printed


def _pair(stat: Stat, *, equal: bool) -> tuple[int, int]:
    """Two plain characters: with different printed ``stat`` values (``equal`` False), or with equal ones and
    equal Charm (``equal`` True)."""
    chars = characters(plain)
    for a in chars:
        for b in chars:
            if a == b:
                continue
            same = printed(a, stat) == printed(b, stat)
            if equal and same and charm(a) == charm(b):
                return a, b
            if not equal and printed(a, stat) > printed(b, stat):
                return a, b
    raise LookupError("no such pair of plain characters")


@pytest.mark.parametrize("stat", [Stat.SPARK, Stat.HEAT])
def test_r12_a_round_won_on_totals_is_not_won_on_charm(stat: Stat) -> None:
    """R12: "The higher total wins. Equal totals: the character with the higher printed Charm wins": a round
    with different totals is won on them, and its public result (R15) says it was not settled by Charm."""
    hi, lo = _pair(stat, equal=False)
    st = first_round(hi, lo, [[], []], stat)
    result = st.view(None).results[0]
    assert result.winner == 0
    assert result.totals == (printed(hi, stat), printed(lo, stat))
    assert result.by_charm is False


def test_r12_a_drawn_round_is_not_won_on_charm() -> None:
    """R12: "Equal totals: the character with the higher printed Charm wins; equal again: the round is a draw":
    a draw is settled by nothing, Charm included."""
    for stat in (Stat.SPARK, Stat.HEAT, Stat.CHARM):
        try:
            a, b = _pair(stat, equal=True)
        except LookupError:
            continue
        st = first_round(a, b, [[], []], stat)
        result = st.view(None).results[0]
        assert result.winner == DRAW
        assert result.by_charm is False
        return
    pytest.skip("the card set has no two plain characters with equal stat and Charm")
