"""Driving a whole match through the service: the seat to act decides from its view, its choice is submitted."""

from __future__ import annotations

from typing import Any

import pytest

from flametable.bots.base import RandomBot
from flametable.core.match import new_record
from flametable.core.protocol import Action
from flametable.core.record import replay
from flametable.games.duals.game import DualsGame
from flametable.games.duel.game import DuelGame
from flametable.service import Applied, Illegal, MatchService, StaleVersion, play, run
from tests.service.tiny import TinyGame, TinyView

DUEL = DuelGame()


def test_run_plays_to_the_end_and_every_step_is_heard_in_order() -> None:
    game = DualsGame()
    match = MatchService.new(game, {}, 9, ["bot:random", "bot:random"])
    bots = [RandomBot(1), RandomBot(2)]
    heard: list[Applied] = []
    outcome = run(match, [b.choose for b in bots], listen=heard.append)
    assert match.record is not None
    assert [a.version for a in heard] == list(range(1, len(match.record.actions) + 1))
    assert outcome == match.outcome
    assert match.record.result == outcome.to_json()
    assert replay(game, match.record).ok


def test_the_same_seeds_give_the_same_match_whether_anyone_listens_or_not() -> None:
    records = []
    for listening in (False, True):
        match = MatchService.new(DUEL, {"mode": "decks"}, 21, ["a", "b"])
        bots = [RandomBot(5), RandomBot(6)]
        run(match, [b.choose for b in bots], listen=(lambda _a: None) if listening else None)
        assert match.record is not None
        records.append(match.record.to_json())
    assert records[0] == records[1]


def test_deciders_get_the_view_and_legal_actions_of_their_seat() -> None:
    asked: list[tuple[int | None, int | None, list[str]]] = []

    def decider(view: TinyView, legal: Any) -> Action:
        asked.append((view.seat, view.to_act, [a.text() for a in legal]))
        return legal[-1]  # type: ignore[no-any-return]

    run(MatchService.new(TinyGame(), {}, 0, ["a", "b"]), [decider, decider])
    assert asked[:3] == [(0, 0, ["bid 1", "bid 2", "bid 3"]), (1, 1, ["bid 1", "bid 2", "bid 3"]),
                         (0, 0, ["take 1", "take 2"])]


def test_a_decider_that_answers_an_illegal_action_is_refused_and_nothing_changes() -> None:
    match = MatchService.new(TinyGame(), {}, 0, ["a", "b"])
    with pytest.raises(Illegal, match="take 1 is not possible now"):
        run(match, [lambda view, legal: TinyGame().action_from_text("take 1")] * 2)  # bids come first
    assert match.version == 0
    assert match.record is not None
    assert match.record.actions == []


def test_a_decision_made_while_the_match_moved_on_is_stale() -> None:
    """The driver submits at the version the decider was asked at."""
    match = MatchService.new(DUEL, {}, 0, ["a", "b"])

    def meddler(view: Any, legal: Any) -> Action:
        match.submit(0, legal[-1])  # someone else played this seat meanwhile; it lines up again next (R3)
        return legal[0]  # type: ignore[no-any-return]

    with pytest.raises(StaleVersion):
        run(match, [meddler, meddler])
    assert match.version == 1


def test_a_match_needs_one_decider_per_seat() -> None:
    with pytest.raises(ValueError, match="one decider per seat"):
        run(MatchService.new(TinyGame(), {}, 0, ["a", "b"]), [lambda v, legal: legal[0]])


def test_play_drives_a_bare_state_keeping_its_record() -> None:
    state = DUEL.new_match({}, 3)
    record = new_record(DUEL, {}, 3, ["a", "b"])
    steps: list[int] = []
    outcome = play(state, [RandomBot(1).choose, RandomBot(2).choose], record,
                   on_step=lambda st, seat, action: steps.append(seat))
    assert state.outcome == outcome
    assert record.result == outcome.to_json()
    assert len(steps) == len(record.actions) > 0
    assert replay(DUEL, record).ok
