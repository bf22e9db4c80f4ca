"""The table both games share: a human seat's decider and the narrator check what they are given."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from flametable.games.duals.game import DualsGame
from flametable.games.duals.tui import DualsNarrator, DualsTable
from flametable.games.duel.game import DuelGame
from flametable.games.duel.tui import DuelTable, Narrator


def _console() -> Console:
    return Console(file=io.StringIO(), width=100)


def test_a_decider_refuses_another_games_view() -> None:
    duel, duals = DuelGame(), DualsGame()
    duel_view, duals_view = duel.new_match({}, 3).view(0), duals.new_match({}, 3).view(0)
    with pytest.raises(TypeError, match="DuelTable: the decider of seat 0 needs a DuelView, got DualsView"):
        DuelTable(_console(), duel, ["human", "bot:random"]).decider(0)(duals_view, duals_view.legal)
    with pytest.raises(TypeError, match="DualsTable: the decider of seat 0 needs a DualsView, got DuelView"):
        DualsTable(_console(), duals, ["human", "bot:random"]).decider(0)(duel_view, duel_view.legal)


def test_the_narrator_refuses_another_games_action_and_an_unfinished_match() -> None:
    duel, duals = DuelGame(), DualsGame()
    duel_state, duals_state = duel.new_match({}, 3), duals.new_match({}, 3)
    table = DuelTable(_console(), duel, ["bot:random", "bot:random"])
    narrator = Narrator(table, None, duel_state.view(None))
    with pytest.raises(TypeError, match="Narrator narrates a DuelAction, got DualsAction"):
        narrator.step(duel_state, 0, duals_state.legal_actions()[0])
    with pytest.raises(ValueError, match="needs the view of a match that is over"):
        narrator.finish(duel_state.view(None))
    duals_narrator = DualsNarrator(DualsTable(_console(), duals, ["bot:random", "bot:random"]), None,
                                   duals_state.view(None))
    with pytest.raises(TypeError, match="DualsNarrator narrates a DualsAction, got DuelAction"):
        duals_narrator.step(duals_state, 0, duel_state.legal_actions()[0])
