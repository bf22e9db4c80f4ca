"""A take-back (undo against a bot) is allowed only when the moves taken back showed the player nothing hidden."""

from __future__ import annotations

from typing import Any

from flametable.core.registry import make_game
from flametable.games.duel.rules import Phase
from flametable.service.takeback import reveals
from tests.service.tiny import TinyGame


def play_until(state: Any, done: Any) -> list[str]:
    """Play each seat's first legal action until ``done(state)``; the notations played."""
    played = []
    while not done(state):
        action = state.legal_actions()[0]
        played.append(action.text())
        state.apply(action)
    return played


def test_moves_that_hid_everything_new_can_be_taken_back() -> None:
    """Flame Duel: the opponent's line-up is secret (R3), so lining up and seeing the opponent line up a
    character reveals nothing."""
    game = make_game("duel")
    state = game.new_match({}, 7)
    assert state.phase is Phase.LINEUP
    assert state.to_act == 0
    before = state.clone()
    moves = play_until(state, lambda s: s.to_act == 1)
    opponent = state.legal_actions()[0]
    state.apply(opponent)
    assert state.phase is Phase.LINEUP
    assert not reveals(game, before, 0, [*moves, opponent.text()])


def test_moves_that_flipped_an_opponent_s_card_cannot_be_taken_back() -> None:
    """Once both line-ups are made the first characters are flipped (R4): the opponent's becomes known."""
    game = make_game("duel")
    state = game.new_match({}, 7)
    before = state.clone()
    moves = play_until(state, lambda s: s.phase is not Phase.LINEUP)
    assert reveals(game, before, 0, moves)


def test_a_game_that_cannot_say_what_is_hidden_never_takes_back() -> None:
    game = TinyGame()
    state = game.new_match({}, 1)
    assert reveals(game, state, 0, [])
