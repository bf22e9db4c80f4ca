"""How far a long lab run has gone and how long it has left: the estimate that ``sim`` and ``ladder`` show.

The time left comes from the run's overall rate so far (matches done over the time since the start), never
from the last moments alone: the workers hand their matches over in batches, in order, so matches arrive in
bursts, and a rate measured over a burst (rich's own estimate) promises the end in a second and then jumps
back to minutes. The clock is a parameter, so that tests drive it by hand.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

Clock = Callable[[], float]
"""Seconds from some fixed start, like :func:`time.monotonic`."""


def time_left(done: float, total: float, elapsed: float) -> float | None:
    """Seconds left at the overall rate so far; None before any result (no rate to go by yet)."""
    if done <= 0 or elapsed <= 0 or total <= 0:
        return None
    if done >= total:
        return 0.0
    return elapsed * (total - done) / done


def clock_text(seconds: float | None, up: bool = True) -> str:
    """``H:MM:SS`` (as a clock shows it, the same in every language); ``-:--:--`` when it is not known.

    A second begun counts as a whole one (``up``: time still to wait) or not at all (time gone by).
    """
    if seconds is None or not math.isfinite(seconds):
        return "-:--:--"
    whole = max(0, math.ceil(seconds) if up else math.floor(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class Pace:
    """The progress of a run of ``total`` steps against ``clock``, and when a plain progress line is due.

    A plain line (for a log, where no bar can redraw itself) is due once ``every`` seconds have passed since the
    start or the last line, so that a long run shows it is alive without filling the log.
    """

    def __init__(self, total: int, every: float = 5.0, clock: Clock = time.monotonic) -> None:
        self.total = total
        self.every = every
        self.clock = clock
        self.done = 0
        self.start = self.last = clock()

    def advance(self, steps: int = 1) -> bool:
        """Count ``steps`` more done; True when a plain line is due now (and it counts as shown)."""
        self.done += steps
        now = self.clock()
        if now - self.last < self.every:
            return False
        self.last = now
        return True

    @property
    def elapsed(self) -> float:
        return self.clock() - self.start

    def left(self) -> float | None:
        """Seconds left (see :func:`time_left`)."""
        return time_left(self.done, self.total, self.elapsed)
