"""A Flamecraft Duals turn that ends by itself (nothing more to score, no coin to spend: the engine finishes it
for its player) is told in the log, and so by the terminal's narration (test_log.py), with its true reason: no
coin left, or one spent this turn already (a coin a turn)."""

from __future__ import annotations

from collections import Counter

from flametable.games.duals.actions import Kind
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import Step
from flametable.service import MatchService
from flametable.texts.log import Reader, log_of
from flametable.texts.translator import Translator
from tests.texts.test_log import random_match

EN = Translator.for_language("en")
NO_COIN = "{player} has nothing more to score and no coin to spend: the turn ends."
COIN_SPENT = "{player} has nothing more to score and has already spent a coin this turn: the turn ends."


def test_a_turn_that_ends_by_itself_says_so_and_why() -> None:
    """Over 60 seeded random matches, told to each seat and to the spectators: every turn (the last chance too)
    that ends without its player choosing to finish scoring gets one sentence naming that player, which says it
    spent a coin this turn when it still has coins, else that it has none; a turn its player finished gets none."""
    game = DualsGame()
    log = log_of(game)
    seen: Counter[str] = Counter()
    for seed in range(60):
        played = random_match(game, MatchService.new(game, {}, seed, ["a", "b"]), seed)
        for audience in (0, 1, None):
            reader = Reader.of(EN, audience)
            for before, after, actor, action in played.steps(audience):
                lines = log.step(reader, before, after, actor, action)
                said = [line for line in lines if line.endswith(": the turn ends.")]
                over = after.outcome is not None or after.turn_number != before.turn_number
                finished = action is not None and action.kind is Kind.DONE and before.phase is Step.SCORE
                if not over or finished:
                    assert said == [], (seed, lines)
                    continue
                coins_left = before.seats[actor].coins > 0
                why = COIN_SPENT if coins_left else NO_COIN
                assert said == [why.format(player=reader.names[actor])], (seed, lines)
                seen[why] += 1
    assert seen[NO_COIN]
    assert seen[COIN_SPENT]
