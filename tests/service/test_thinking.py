"""Bots decide off the caller's thread: the caller gets a future at once and stays free while the bot thinks."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from flametable.bots.base import RandomBot
from flametable.core.protocol import Action
from flametable.games.duel.game import DuelGame
from flametable.service import MatchService, StaleVersion, bot_turn, decide_later


class SlowBot:
    """Thinks until it is told to stop, then plays its first legal action; says on which thread it thought."""

    name = "slow"

    def __init__(self) -> None:
        self.go = threading.Event()
        self.thread: int | None = None

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        self.thread = threading.get_ident()
        assert self.go.wait(10), "the test never let the bot finish"
        return legal[0]


def test_the_caller_stays_free_while_a_slow_bot_thinks() -> None:
    game = DuelGame()
    state = game.new_match({}, 1)
    bot = SlowBot()
    with ThreadPoolExecutor(1) as pool:
        future = decide_later(pool, bot.choose, state.view(0), state.legal_actions())
        work = sum(range(10_000))  # the caller goes on with its own work...
        assert work == 49_995_000
        assert not future.done()  # ... while the bot is still thinking
        bot.go.set()
        assert future.result(10) == state.legal_actions()[0]
    assert bot.thread is not None
    assert bot.thread != threading.get_ident()


def test_a_bot_turn_submits_its_choice_and_hands_back_the_events() -> None:
    game = DuelGame()
    match = MatchService.new(game, {}, 2, ["bot:random", "human"])
    with ThreadPoolExecutor(1) as pool:
        applied = bot_turn(pool, match, 0, RandomBot(4).choose).result(10)
    assert applied.version == match.version == 1
    assert applied.to(0).action is not None  # the bot's own event names its line-up choice
    assert applied.to(1).action is None  # the other player only learns that a character was lined up (R3)


def test_a_bot_turn_overtaken_by_another_submission_is_stale() -> None:
    game = DuelGame()
    match = MatchService.new(game, {}, 2, ["bot:random", "human"])
    bot = SlowBot()
    with ThreadPoolExecutor(1) as pool:
        future = bot_turn(pool, match, 0, bot.choose)
        match.submit(0, match.legal(0)[-1])  # the seat played from elsewhere while the bot thought
        assert match.to_act == 0  # seat 0 lines up its next character (R3)
        bot.go.set()
        with pytest.raises(StaleVersion):
            future.result(10)
    assert match.version == 1
