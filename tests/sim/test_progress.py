"""The time left that ``sim`` and ``ladder`` show comes from the overall rate so far, so that results arriving in
bursts do not make it jump (issue 9, point 11). A fake clock drives it; the bar and the plain lines themselves
are tested with the commands (tests/cli/test_lab_cli.py)."""

from __future__ import annotations

from flametable.sim.progress import Pace, clock_text, time_left


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_time_left_is_the_overall_rate_so_far() -> None:
    """50 of 1000 matches in 100 s: 950 more at 2 s each; nothing known before the first result; none at the end."""
    assert time_left(50, 1000, 100.0) == 1900.0
    assert time_left(0, 1000, 100.0) is None
    assert time_left(1000, 1000, 200.0) == 0.0


def test_clock_text_reads_like_a_clock() -> None:
    assert clock_text(1900.0) == "0:31:40"
    assert clock_text(3725.2) == "1:02:06"  # a second started is a second to wait
    assert clock_text(3725.8, up=False) == "1:02:05"  # time gone by: only whole seconds
    assert clock_text(0.0) == "0:00:00"
    assert clock_text(None) == "-:--:--"


def test_the_time_left_stays_steady_through_bursts() -> None:
    """Batches of 16 every 8 s (2 matches a second): at every batch the estimate is the time the batches still
    to come take, not a second because the last 16 came at once."""
    clock = FakeClock()
    pace = Pace(160, clock=clock)
    for batch in range(1, 10):
        clock.now = 8.0 * batch
        pace.advance(16)
        left = pace.left()
        assert left is not None
        assert left == 8.0 * (10 - batch)


def test_a_plain_line_is_due_every_few_seconds_not_every_match() -> None:
    """In a log: one line when 5 s have passed since the start or the last line, however many matches."""
    clock = FakeClock()
    pace = Pace(1000, every=5.0, clock=clock)
    due = []
    for step in range(1, 101):  # one match every 0.2 s: 20 s in all
        clock.now = 0.2 * step
        due.append(pace.advance())
    assert sum(due) == 4
    assert [i + 1 for i, d in enumerate(due) if d] == [25, 50, 75, 100]
    assert pace.done == 100
    assert pace.elapsed == 20.0
