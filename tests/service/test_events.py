"""Events as data: the JSON form, its round trips, and what it refuses to read."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

import pytest

from flametable.games.duel.game import DuelGame
from flametable.service import EVENT_FORMAT, Event, EventError, MatchService, run, view_json
from flametable.service.events import Applied
from tests.service.tiny import TinyGame, TinyView


def tiny_events() -> list[Event]:
    match = MatchService.new(TinyGame(), {}, 0, ["a", "b"])
    out = [match.sync(a) for a in (0, 1, None)]
    for seat, text in [(0, "bid 2"), (1, "bid 1"), (0, "take 2"), (1, "take 2"), (0, "take 1")]:
        out += match.submit(seat, text).events
    return out


def test_an_event_is_json_with_ids_and_notation() -> None:
    match = MatchService.new(TinyGame(), {}, 0, ["a", "b"])
    event = match.submit(0, "bid 2").to(0)
    assert event.to_json() == {
        "format": EVENT_FORMAT, "version": 1, "audience": 0, "actor": 0, "action": "bid 2", "to_act": 1,
        "result": None,
        "view": {"seat": 0, "to_act": 1, "pile": 5, "bids_made": [True, False], "my_bid": 2, "bids": None,
                 "legal": [], "winner": None},
    }


def test_every_event_round_trips_through_json_text() -> None:
    events = tiny_events()
    assert any(e.result for e in events)
    assert any(e.is_sync for e in events)
    for event in events:
        text = json.dumps(event.to_json())
        again = Event.from_json(json.loads(text), TinyView.from_json)
        assert again == event
        assert again.to_json() == event.to_json()


def test_without_a_view_reader_the_view_stays_data_and_the_json_round_trips() -> None:
    for event in tiny_events():
        data = json.loads(json.dumps(event.to_json()))
        assert Event.from_json(data).to_json() == data


def test_duel_events_round_trip() -> None:
    """With the view's own ``from_json`` when the view has one; JSON to event to JSON always."""
    game = DuelGame()
    match = MatchService.new(game, {}, 4, ["a", "b"])
    seen: list[Applied] = []
    run(match, [lambda view, legal: legal[0]] * 2, listen=seen.append)
    for applied in seen:
        for event in applied.events:
            data = json.loads(json.dumps(event.to_json()))
            assert Event.from_json(data).to_json() == data
            reader = getattr(type(event.view), "from_json", None)
            if reader is not None:
                assert Event.from_json(data, reader) == event


class Colour(StrEnum):
    RED = "red"


class Step(IntEnum):
    FIRST_STEP = 0


@dataclass(frozen=True)
class Inner:
    cards: tuple[int, ...]


@dataclass(frozen=True)
class PlainView:
    colour: Colour
    step: Step
    inner: Inner
    table: dict[int, str]
    flag: bool
    rate: float


def test_a_view_without_to_json_is_written_field_by_field() -> None:
    view = PlainView(Colour.RED, Step.FIRST_STEP, Inner((3, 1)), {2: "x"}, True, 0.5)
    assert view_json(view) == {"colour": "red", "step": "first_step", "inner": {"cards": [3, 1]},
                               "table": {"2": "x"}, "flag": True, "rate": 0.5}
    with pytest.raises(TypeError, match="cannot write a object as event JSON"):
        view_json(object())


def good() -> dict[str, Any]:
    return {"format": EVENT_FORMAT, "version": 2, "audience": None, "actor": 1, "action": None, "to_act": 0,
            "result": None, "view": {}}


@pytest.mark.parametrize(("change", "message"), [
    ({"format": "other/1"}, "event format: must be 'flametable-event/1'"),
    ({"version": -1}, "event version: must be at least 0, got -1"),
    ({"version": True}, "event version: must be an integer"),
    ({"audience": 2}, "event audience: must be at most 1, got 2"),
    ({"actor": False}, "event actor: must be an integer"),
    ({"action": 5}, "event action: must be a .*string"),
    ({"actor": None, "action": "pass"}, "a sync event \\(actor null\\) has no action"),
    ({"result": [1]}, "event result: must be an object"),
    ({"extra": 1}, "event extra: unknown field"),
])
def test_bad_event_json_is_refused_naming_the_field(change: dict[str, Any], message: str) -> None:
    assert Event.from_json(good()).actor == 1
    with pytest.raises(EventError, match=message):
        Event.from_json({**good(), **change})
    with pytest.raises(EventError, match="event view: missing"):
        Event.from_json({k: v for k, v in good().items() if k != "view"})
    with pytest.raises(EventError, match="must be an object, got a list"):
        Event.from_json([good()])


def test_applied_hands_each_audience_its_own_event() -> None:
    match = MatchService.new(TinyGame(), {}, 0, ["a", "b"])
    applied = match.submit(0, "bid 1")
    assert [applied.to(a).audience for a in (0, 1, None)] == [0, 1, None]
    with pytest.raises(ValueError, match="an audience is seat 0, seat 1 or None"):
        applied.to(3)
