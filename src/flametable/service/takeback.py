"""Whether taking moves back would hand a player information: the check behind undo against a bot.

The engines are deterministic: a match rebuilt to an earlier decision deals the same cards again. A player who
took back a move after seeing a card drawn, or the card an opponent played from a hidden hand, would decide again
knowing it, and could probe the hidden order by taking back again and again. So a take-back is allowed only when
nothing was revealed to the player since that decision: the moves taken back are replayed on many states the
player could not tell apart from the real one at that decision (the bots' determiniser samples them from the
player's view); if a move the player saw is impossible in one of them, or one of them would have shown the player
another view than the one it saw, the moves showed the player something hidden, and the take-back is refused.

A game whose bots know no determiniser cannot say what is hidden: a take-back there is always refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flametable.bots.registry import knowledge
from flametable.core.errors import IllegalAction
from flametable.core.protocol import Game, GameState
from flametable.core.rng import Rng
from flametable.service.events import view_json
from flametable.service.match import is_public

SAMPLES = 16
"""States sampled per check: a hidden fact with two equally likely values escapes all of them with chance 2**-16."""


def reveals(game: Game[Any, Any], before: GameState[Any, Any], seat: int, actions: Sequence[str], *,
            samples: int = SAMPLES, seed: int = 0) -> bool:
    """Whether ``actions`` (notations), played from ``before`` where ``seat`` decided, showed ``seat`` anything
    its view at ``before`` did not hold. ``True`` (refuse) when the game gives no way to tell.

    Each sampled state replays the moves: one ``seat`` may know (its own, and the public ones) as they were; one
    hidden from it as any move of the sample that leaves ``seat`` the view it really had. After every move the
    sample must show ``seat`` exactly the view it really saw."""
    know = knowledge(game)
    if know is None:
        return True
    real = before.clone()
    steps = []
    for text in actions:
        actor = real.to_act
        move = game.action_from_text(text)
        real.apply(move)
        known = actor == seat or is_public(game, move)
        steps.append((move if known else None, view_json(real.view(seat))))
    sample = know.determinizer(before.view(seat))
    for i in range(samples):
        state = sample(Rng(seed + i))
        for move, seen in steps:
            if move is not None:
                try:
                    state.apply(move)
                except IllegalAction:  # possible only because of something hidden: it revealed it
                    return True
            else:
                state = _alike(state, seat, seen)
                if state is None:
                    return True
            if view_json(state.view(seat)) != seen:
                return True
    return False


def _alike(state: GameState[Any, Any], seat: int, seen: Any) -> GameState[Any, Any] | None:
    """``state`` after one of its legal moves that shows ``seat`` the view ``seen``; None if no move does."""
    for move in state.legal_actions():
        after = state.clone()
        after.apply(move)
        if view_json(after.view(seat)) == seen:
            return after
    return None
