"""The clock object, time controls and a match's clocks (issue 24): pure arithmetic on the stamps a server stores,
and a test clock whose time moves only when told."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from flametable.core.record import MatchRecord
from flametable.service.clock import (
    FISCHER,
    TURN,
    Clocks,
    ManualClock,
    SystemClock,
    TimeControl,
    TimeControlError,
    as_clock,
    clock_text,
    deciding,
    timeline,
)
from tests.service.tiny import TinyGame, TinyState

DAY_MS = 86_400_000


class AtOnceNim(TinyGame):
    """Secret Nim whose bids are made at once: both seats that have not bid yet decide (the protocol still takes
    the bids one after the other, seat 0 first)."""

    def deciding(self, state: TinyState) -> tuple[int, ...]:
        if state.to_act is None:
            return ()
        bidding = tuple(seat for seat in (0, 1) if not state.bids[seat])
        return bidding or (state.to_act,)


# ------------------------------------------------------------------ time controls


@pytest.mark.parametrize(("data", "control"), [
    (None, TimeControl()),
    ({"kind": "untimed"}, TimeControl()),
    ({"kind": "fischer", "minutes": 3, "increment": 2}, TimeControl(FISCHER, minutes=3, increment=2)),
    ({"kind": "fischer", "minutes": 60}, TimeControl(FISCHER, minutes=60)),
    ({"kind": "turn", "days": 7}, TimeControl(TURN, days=7)),
])
def test_a_time_control_reads_its_json_and_writes_it_back(data: Any, control: TimeControl) -> None:
    assert TimeControl.from_json(data) == control
    assert TimeControl.from_json(control.to_json()) == control


@pytest.mark.parametrize("data", [
    [], {"kind": 3}, {"kind": "fischer"}, {"kind": "fischer", "minutes": 61}, {"kind": "fischer", "minutes": 2.5},
    {"kind": "fischer", "minutes": True}, {"kind": "fischer", "minutes": 3, "increment": -1},
    {"kind": "turn", "days": 0}, {"kind": "turn", "days": "3"}, {"kind": "untimed", "minutes": 3},
])
def test_a_time_control_out_of_its_limits_is_refused(data: Any) -> None:
    with pytest.raises(TimeControlError):
        TimeControl.from_json(data)


def test_the_presets_are_3_2_5_3_and_10_5_and_their_times() -> None:
    assert TimeControl(FISCHER, minutes=10, increment=5).start_ms == 600_000
    assert TimeControl(FISCHER, minutes=10, increment=5).increment_ms == 5_000
    assert TimeControl(TURN, days=3).start_ms == 3 * DAY_MS


# ------------------------------------------------------------------ the clocks


def test_a_real_time_clock_runs_from_its_seat_s_first_decision_and_earns_the_increment() -> None:
    clocks = Clocks(TimeControl(FISCHER, minutes=3, increment=2), since=100.0)
    assert clocks.running((0,)) == ()  # a first decision: no clock runs (the room's abort limits it)
    clocks.charge(0, 12_000, (0,))
    assert clocks.remaining == [180_000, 180_000]
    clocks.restart(112.0)
    clocks.charge(1, 5_000, (1,))
    clocks.restart(117.0)
    assert clocks.running((0,)) == (0,)
    assert clocks.left_ms(121.5, (0,)) == [175_500, 180_000]
    assert clocks.deadline((0,)) == 117.0 + 180.0
    clocks.charge(0, 4_500, (0,))
    assert clocks.remaining == [177_500, 180_000]


def test_a_clock_at_zero_is_flagged_and_its_deadline_is_when_it_reaches_zero() -> None:
    clocks = Clocks(TimeControl(FISCHER, minutes=1), since=0.0)
    clocks.started = {0, 1}
    assert clocks.flagged(59.999, (1,)) is None
    assert clocks.flagged(60.0, (1,)) == 1
    assert clocks.deadline((1,)) == 60.0
    assert clocks.left_ms(75.0, (1,)) == [60_000, 0]


def test_a_turn_based_decision_gets_its_days_afresh_and_runs_from_the_first() -> None:
    clocks = Clocks(TimeControl(TURN, days=1), since=0.0)
    assert clocks.running((0,)) == (0,)
    clocks.charge(0, DAY_MS - 1, (0,))
    assert clocks.remaining == [DAY_MS, DAY_MS]
    assert clocks.flagged(86_400.0, (1,)) == 1


def test_where_both_seats_decide_at_once_both_clocks_run() -> None:
    """A game that says both seats decide (its ``deciding``): the time a decision takes is charged to both, the
    increment to the one that decided; once it has, the other's clock alone runs."""
    game = AtOnceNim()
    state = game.new_match({}, 0)
    assert deciding(game, state) == (0, 1)
    clocks = Clocks(TimeControl(FISCHER, minutes=1, increment=1), since=0.0)
    clocks.started = {0, 1}
    assert clocks.left_ms(10.0, deciding(game, state)) == [50_000, 50_000]
    assert clocks.deadline(deciding(game, state)) == 60.0
    clocks.charge(0, 10_000, deciding(game, state))
    state.apply(game.action_from_text("bid 2"))
    assert clocks.remaining == [51_000, 50_000]
    assert deciding(game, state) == (1,)
    clocks.restart(10.0)
    assert clocks.flagged(60.0, deciding(game, state)) == 1  # its clock ran all along: 50 s after the start
    assert clocks.flagged(60.0, (0,)) is None


def test_the_built_in_games_decide_one_seat_at_a_time() -> None:
    """Neither engine declares decisions at once: Flame Duel's secret line-ups (R3) are entered seat 0 first."""
    from flametable.core.registry import make_game

    for name in ("duel", "duals"):
        game = make_game(name)
        state = game.new_match({}, 1)
        assert deciding(game, state) == (state.to_act,)


def test_a_timed_record_s_timeline_replays_its_clocks_from_its_stamps() -> None:
    game = AtOnceNim()
    record = MatchRecord(game="tiny", rules_version="tiny/1", content={"id": "tiny", "hash": "0"}, options={},
                         seed=0, players=["human", "human"], actions=["bid 1", "bid 2", "take 2", "take 1"],
                         clock={"kind": "turn", "days": 1}, times=[5_000, 3_000, 60_000, None])
    ticks = timeline(game, record)
    assert [(t.seat, t.spent, t.left) for t in ticks] == [
        (0, 5_000, (DAY_MS, DAY_MS - 5_000)),  # both bids at once: both clocks ran 5 s
        (1, 3_000, (DAY_MS, DAY_MS)),
        (0, 60_000, (DAY_MS, DAY_MS)),
        (1, None, (DAY_MS, DAY_MS)),
    ]
    assert timeline(game, MatchRecord(**{**record.__dict__, "clock": None})) == []


@pytest.mark.parametrize(("ms", "shown"), [(177_500, "2:57.5"), (9_999, "0:09.9"), (0, "0:00.0"), (-5, "0:00.0"),
                                           (3_723_000, "1:02:03"), (DAY_MS * 3 + 3_600_000 * 4 + 300_000,
                                                                    "3d 04:05")])
def test_a_time_is_shown_as_a_clock_shows_it(ms: int, shown: str) -> None:
    assert clock_text(ms) == shown


# ------------------------------------------------------------------ the clock object


def test_a_manual_clock_moves_only_when_told_and_wakes_its_sleepers_then() -> None:
    clock = ManualClock(1000.0)
    woke: list[float] = []

    async def sleeper() -> None:
        await clock.sleep(30)
        woke.append(clock.now())

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever)
    thread.start()
    try:
        future = asyncio.run_coroutine_threadsafe(sleeper(), loop)
        while clock.sleepers == 0:
            pass
        clock.advance(29.5)
        assert not future.done()
        clock.advance(0.5)  # from another thread than the sleeper's loop
        future.result(timeout=5)
        assert woke == [1030.0]
        assert clock() == clock.now() == 1030.0
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def test_a_plain_function_is_a_clock_too() -> None:
    clock = as_clock(lambda: 5.0)
    assert (clock(), clock.now()) == (5.0, 5.0)
    system = SystemClock()
    assert as_clock(system) is system
    assert abs(system() - system.now()) < 1
