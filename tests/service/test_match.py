"""The match service: checks in order, each rejection with its template and parameters and nothing changed;
versions; the events of each audience; resync after a gap."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from flametable.core.errors import IllegalAction, RecordError
from flametable.core.match import new_record
from flametable.core.record import MatchRecord, replay
from flametable.games.duals.game import DualsGame
from flametable.games.duel.actions import DuelAction, Kind
from flametable.games.duel.game import DuelGame
from flametable.service import (
    REJECTIONS,
    Illegal,
    MatchOver,
    MatchService,
    NotYourTurn,
    Rejected,
    StaleVersion,
    Unreadable,
    is_public,
    view_json,
)
from flametable.texts import Translator
from tests.service.tiny import QuietGame, TinyGame, TinyState

DUEL = DuelGame()
DUALS = DualsGame()
AUDIENCES = (0, 1, None)


def tiny(game: Any = None, keep: int | None = None) -> MatchService:
    return MatchService.new(game or TinyGame(), {}, 0, ["a", "b"], keep=keep)


def snapshot(match: MatchService) -> Any:
    """Everything a rejection must leave as it was: version, record, every audience's view and event log."""
    record = match.record
    return (match.version, match.to_act, json.dumps(record.to_json() if record else None),
            [json.dumps(view_json(match.view(a))) for a in AUDIENCES],
            [json.dumps([e.to_json() for e in match.events_since(a, 0)]) for a in AUDIENCES],
            match.state.legal_actions())


def rejected(match: MatchService, seat: int | None, action: Any, version: int | None = None) -> Rejected:
    before = snapshot(match)
    with pytest.raises(Rejected) as caught:
        match.submit(seat, action, version)
    assert snapshot(match) == before, "a rejected submission changed the match"
    with pytest.raises(type(caught.value)):
        match.submit_quiet(seat, action, version)
    assert snapshot(match) == before
    return caught.value


# ------------------------------------------------------------------------------------ versions


def test_the_version_starts_at_0_and_grows_by_one_per_accepted_action() -> None:
    match = tiny()
    assert match.version == 0
    for n, (seat, text) in enumerate([(0, "bid 2"), (1, "bid 3"), (0, "take 2")], start=1):
        applied = match.submit(seat, text)
        assert match.version == applied.version == n
        assert [e.version for e in applied.events] == [n, n, n]
    assert match.record is not None
    assert match.record.actions == ["bid 2", "bid 3", "take 2"]


def test_an_action_may_be_given_as_an_action_its_notation_or_its_id() -> None:
    match = tiny()
    legal = match.legal(0)
    match.submit(0, legal[1])  # bid 2
    match.submit(1, "BID   3")
    match.submit(0, 4)  # take 2
    assert match.record is not None
    assert match.record.actions == ["bid 2", "bid 3", "take 2"]


def test_the_record_gets_the_result_when_the_match_ends() -> None:
    match = tiny()
    for seat, text in [(0, "bid 1"), (1, "bid 2"), (0, "take 2"), (1, "take 2")]:
        match.submit(seat, text)
    assert match.record is not None
    assert match.record.result is None
    match.submit(0, "take 1")  # the last stone
    assert match.to_act is None
    assert match.outcome is not None
    assert match.outcome.winner == 0
    assert match.record.result == {"winner": 0, "reason": "last_stone", "scores": [1, 2]}


def test_a_resumed_record_starts_at_the_version_of_its_actions() -> None:
    record = new_record(DUEL, {}, 7, ["a", "b"])
    first = MatchService(DUEL, DUEL.new_match({}, 7), record)
    for _ in range(4):
        turn = first.turn()
        assert turn is not None
        first.submit(turn.seat, turn.legal[0])
    again = MatchService.from_record(DUEL, MatchRecord.from_json(json.loads(record.dumps())))
    assert again.version == 4
    assert again.view(None) == first.view(None)
    bad = MatchRecord.from_json({**record.to_json(), "actions": ["pass"]})
    with pytest.raises(RecordError, match="record action 0 \\('pass'\\) cannot be played") as caught:
        MatchService.from_record(DUEL, bad)
    assert Translator.for_language("es").error(caught.value).startswith("la acción 0 ('pass') del registro no se")


# ------------------------------------------------------------------------------------ rejections


def test_a_match_that_is_over_takes_no_action() -> None:
    match = tiny()
    for seat, text in [(0, "bid 1"), (1, "bid 1"), (0, "take 2"), (1, "take 2"), (0, "take 1")]:
        match.submit(seat, text)
    exc = rejected(match, 1, "take 1", 5)
    assert isinstance(exc, MatchOver)
    assert exc.kind == "over"
    assert exc.reason == "The match is over."
    assert exc.params == {"version": 5}


def test_only_the_seat_to_act_may_act() -> None:
    match = tiny()
    exc = rejected(match, 1, "bid 1")
    assert isinstance(exc, NotYourTurn)
    assert exc.kind == "not_your_turn"
    assert exc.reason == "It is not your turn: player {player} is to act."
    assert exc.params == {"player": 1, "seat": 1, "to_act": 0}
    assert str(exc) == "It is not your turn: player 1 is to act."
    spectator = rejected(match, None, "bid 1")
    assert isinstance(spectator, NotYourTurn)
    assert spectator.params["seat"] is None


def test_an_action_chosen_at_another_version_is_stale() -> None:
    match = tiny()
    match.submit(0, "bid 1", 0)
    exc = rejected(match, 1, "bid 1", 0)
    assert isinstance(exc, StaleVersion)
    assert exc.kind == "stale"
    assert exc.params == {"given": 0, "current": 1}
    assert str(exc) == ("The match has moved on: your action was chosen at version 0, the match is at "
                        "version 1.")
    assert isinstance(rejected(match, 1, "bid 1", 2), StaleVersion)
    match.submit(1, "bid 1", 1)


@pytest.mark.parametrize(("action", "reason", "params"), [
    ("flarp", "Cannot read the action {text!r}.", {"text": "flarp"}),
    ("flarp S1", "Unknown action {word!r} in {text!r}.", {"word": "flarp", "text": "flarp S1"}),
    ("play S99", "{word!r} needs a card {prefix}1 to {prefix}{limit}, got {arg!r}.",
     {"word": "play", "prefix": "S", "limit": 21, "arg": "s99"}),
    (999, "No action has id {id} (ids are 0 to {last}).", {"id": 999, "last": 186}),
    (None, "Cannot read the action {text!r}.", {"text": "None"}),
    (True, "Cannot read the action {text!r}.", {"text": "True"}),
])
def test_an_unreadable_action_is_refused_with_the_games_reason(action: Any, reason: str,
                                                               params: dict[str, Any]) -> None:
    match = MatchService.new(DUEL, {}, 3, ["a", "b"])
    exc = rejected(match, 0, action)
    assert isinstance(exc, Unreadable)
    assert exc.kind == "unreadable"
    assert (exc.reason, exc.params) == (reason, params)
    assert "{" not in str(exc)


def test_another_games_action_is_unreadable() -> None:
    match = MatchService.new(DUEL, {}, 3, ["a", "b"])
    foreign = DUALS.new_match({}, 1).legal_actions()[0]
    exc = rejected(match, 0, foreign)
    assert isinstance(exc, Unreadable)
    assert exc.params == {"text": foreign.text()}


def test_an_illegal_action_is_refused_with_the_engines_reason_and_parameters() -> None:
    match = MatchService.new(DUEL, {}, 3, ["a", "b"])  # the line-up comes first (R3): no card can be played
    action = DuelAction.of(Kind.PLAY, 7)
    with pytest.raises(IllegalAction) as engine:
        DUEL.new_match({}, 3).apply(action)
    exc = rejected(match, 0, "play S7")
    assert isinstance(exc, Illegal)
    assert exc.kind == "illegal"
    assert (exc.reason, exc.params) == (engine.value.reason, engine.value.params)
    assert exc.params["action"] == "play S7"
    assert "{" not in str(exc)


def test_the_checks_run_in_order_over_seat_version_action() -> None:
    match = tiny()
    match.submit(0, "bid 1")
    assert isinstance(rejected(match, 0, "flarp", 0), NotYourTurn)  # wrong seat before stale and unreadable
    assert isinstance(rejected(match, 1, "flarp", 0), StaleVersion)  # stale before unreadable
    assert isinstance(rejected(match, 1, "flarp", 1), Unreadable)
    assert isinstance(rejected(match, 1, "take 1", 1), Illegal)  # bids first
    for seat, text in [(1, "bid 1"), (0, "take 2"), (1, "take 2"), (0, "take 1")]:
        match.submit(seat, text)
    assert isinstance(rejected(match, 1, "flarp", 0), MatchOver)  # over before everything
    assert [k.kind for k in REJECTIONS] == ["over", "not_your_turn", "stale", "unreadable", "illegal"]


def test_a_seat_that_is_no_seat_is_a_programming_error() -> None:
    match = tiny()
    with pytest.raises(ValueError, match="a seat is 0 or 1"):
        match.submit(2, "bid 1")
    with pytest.raises(ValueError, match="an audience is seat 0, seat 1 or None"):
        match.view(2)


def test_a_rejection_reads_in_the_players_language_and_as_data() -> None:
    match = tiny()
    exc = rejected(match, 1, "bid 1")
    spanish = {"It is not your turn: player {player} is to act.": "No es tu turno: le toca al jugador {player}."}
    assert exc.translated(lambda s: spanish.get(s, s)) == "No es tu turno: le toca al jugador 1."
    assert exc.to_json() == {"rejected": "not_your_turn", "reason": "It is not your turn: player {player} is to act.",
                             "params": {"player": 1, "seat": 1, "to_act": 0}, "phrases": []}


def test_phrase_parameters_are_named_in_the_data_for_translation() -> None:
    """A Duals reason whose token is itself a phrase: the front end must translate it before filling in."""
    match = MatchService.new(DUALS, {}, 5, ["a", "b"])
    state = match.state
    seat = match.to_act
    assert seat is not None
    wrong = next(a for a in DUALS.actions.TAKE if a not in state.legal_actions())
    exc = rejected(match, seat, wrong)
    data = exc.to_json()
    assert data["rejected"] == "illegal"
    assert json.loads(json.dumps(data)) == data
    assert set(data["phrases"]) <= set(data["params"])


def test_a_service_without_its_game_takes_only_action_objects() -> None:
    state = TinyState()
    match = MatchService(None, state)
    match.submit(0, state.legal_actions()[0])
    with pytest.raises(TypeError, match="reads no notation or ids"):
        match.submit(1, "bid 1")
    applied = match.submit(1, state.legal_actions()[0])
    assert applied.to(0).action is None
    assert applied.to(1).action == "bid 1"


# ------------------------------------------------------------------------------------ events


def test_each_audience_gets_its_view_and_the_action_only_when_it_may_know_it() -> None:
    match = tiny()
    applied = match.submit(0, "bid 3")
    mine, theirs, watching = applied.to(0), applied.to(1), applied.to(None)
    assert (mine.audience, theirs.audience, watching.audience) == (0, 1, None)
    assert mine.action == "bid 3"  # a player always knows their own action
    assert theirs.action is None
    assert watching.action is None
    assert mine.view.my_bid == 3
    assert theirs.view.my_bid == 0
    assert watching.view.my_bid == 0
    assert all(e.actor == 0 and e.to_act == 1 and e.result is None for e in applied.events)
    assert "3" not in json.dumps({k: v for k, v in theirs.to_json().items() if k != "view"})
    match.submit(1, "bid 1")
    public = match.submit(0, "take 2")
    assert [e.action for e in public.events] == ["take 2", "take 2", "take 2"]
    assert [e.view for e in public.events] == [match.view(a) for a in AUDIENCES]


def test_a_game_that_declares_nothing_keeps_every_action_hidden_from_the_others() -> None:
    match = tiny(QuietGame())
    for seat, text in [(0, "bid 1"), (1, "bid 1"), (0, "take 2")]:
        applied = match.submit(seat, text)
        assert [e.action for e in applied.events] == [text if a == seat else None for a in AUDIENCES]
    assert not is_public(QuietGame(), QuietGame().action_from_text("take 1"))
    assert is_public(TinyGame(), TinyGame().action_from_text("take 1"))


def test_the_last_events_carry_the_result() -> None:
    match = tiny()
    for seat, text in [(0, "bid 1"), (1, "bid 2"), (0, "take 2"), (1, "take 2")]:
        match.submit(seat, text)
    last = match.submit(0, "take 1")
    assert all(e.result == {"winner": 0, "reason": "last_stone", "scores": [1, 2]} and e.to_act is None
               for e in last.events)
    assert last.to(1).view.bids == (1, 2)  # the bids show at the end


# ------------------------------------------------------------------------------------ resync


def test_events_since_gives_what_an_audience_missed_in_order() -> None:
    match = tiny()
    sent = [match.submit(seat, text) for seat, text in [(0, "bid 1"), (1, "bid 2"), (0, "take 1")]]
    for audience in AUDIENCES:
        assert match.events_since(audience, 3) == []
        assert match.events_since(audience, 1) == [a.to(audience) for a in sent[1:]]
        assert match.events_since(audience, 0) == [a.to(audience) for a in sent]


def test_a_gap_beyond_what_is_kept_gets_a_full_resync() -> None:
    match = tiny(keep=2)
    for seat, text in [(0, "bid 1"), (1, "bid 2"), (0, "take 1")]:
        match.submit(seat, text)
    assert [e.version for e in match.events_since(1, 1)] == [2, 3]
    (sync,) = match.events_since(1, 0)
    assert sync.is_sync
    assert sync.actor is None
    assert sync.action is None
    assert (sync.version, sync.audience, sync.view, sync.to_act) == (3, 1, match.view(1), 1)
    for bogus in (-1, 4, 99):
        assert match.events_since(None, bogus) == [match.sync(None)]


def test_after_a_quiet_submission_a_resync_is_a_full_one() -> None:
    match = tiny()
    match.submit(0, "bid 1")
    match.submit_quiet(1, "bid 1")
    assert match.events_since(0, 1) == [match.sync(0)]
    match.submit(0, "take 1")
    assert [e.version for e in match.events_since(0, 2)] == [3]
    assert match.events_since(0, 1) == [match.sync(0)]


def test_turn_reads_the_decision_pending() -> None:
    match = tiny()
    turn = match.turn()
    assert turn is not None
    assert (turn.seat, turn.version, turn.view, turn.legal) == (0, 0, match.view(0), match.legal(0))
    assert match.legal(1) == []


def test_submissions_from_many_threads_are_taken_one_at_a_time() -> None:
    """Two clients racing to play whichever seat is to act, each with the version it saw: every version is
    taken once, the losers of a race are told why, and the record replays."""
    match = MatchService.new(DUALS, {}, 11, ["a", "b"])
    taken: list[int] = []
    refused: list[str] = []

    def client() -> None:
        while True:
            turn = match.turn()
            if turn is None:
                return
            try:
                applied = match.submit(turn.seat, turn.legal[turn.version % len(turn.legal)], turn.version)
                taken.append(applied.version)
            except Rejected as exc:
                refused.append(exc.kind)

    threads = [threading.Thread(target=client) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(taken) == list(range(1, match.version + 1))
    assert set(refused) <= {"not_your_turn", "stale", "over"}  # the other client got there first
    assert match.record is not None
    assert replay(DUALS, match.record).ok
