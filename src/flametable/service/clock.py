"""Time: the one injectable clock every clock read goes through, time controls, and the clocks of one match.

* :class:`Clock` is what a server reads the time from and sleeps on: :class:`SystemClock` in production,
  :class:`ManualClock` in tests (its time moves only when the test says, and its sleepers wake then, so a test
  moves an hour in a microsecond). :func:`as_clock` makes a plain ``() -> float`` one (its sleeps are real).
* :class:`TimeControl` is a match's choice: untimed, real time with Fischer's increment (``base`` + ``increment``
  per decision), or turn-based (``days`` per decision). :meth:`TimeControl.from_json` checks a request's choice,
  each refusal a translatable :class:`TimeControlError`.
* :class:`Clocks` are the two seats' remaining times in milliseconds, charged decision by decision: the time a
  decision took (its *stamp*, stored with the action) is taken from every seat whose clock ran meanwhile (the
  seats deciding, :func:`deciding`, once each has made its first decision), and the actor then gets its increment
  (Fischer) or a fresh allowance (turn-based). Replaying the stamps gives the same clocks, so a server that
  restarts loses no time already charged, and charges none for the time it was down.

Everything here is pure but :class:`SystemClock` and the sleepers; times are seconds (floats) where read from a
clock, milliseconds (ints) where stored.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_

# ------------------------------------------------------------------ the clock object


@runtime_checkable
class Clock(Protocol):
    """What time it is (seconds since 1970, as ``time.time``) and a way to wait for it; calling it is ``now()``."""

    def now(self) -> float: ...

    def __call__(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The machine's time and asyncio's sleep."""

    def now(self) -> float:
        return time.time()

    def __call__(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class CallableClock:
    """A plain ``() -> float`` as a :class:`Clock` (what older callers give); its sleeps are real."""

    def __init__(self, read: Callable[[], float]) -> None:
        self.read = read

    def now(self) -> float:
        return self.read()

    def __call__(self) -> float:
        return self.read()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


def as_clock(clock: Clock | Callable[[], float]) -> Clock:
    """``clock`` as a :class:`Clock`."""
    if isinstance(clock, Clock):
        return clock
    return CallableClock(clock)


class ManualClock:
    """A clock for tests: its time moves only by :meth:`advance` (or :meth:`set`), from any thread; a sleeper wakes,
    on its own event loop, once the time has moved past its end."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self._now = now
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    def __call__(self) -> float:
        return self._now

    @property
    def sleepers(self) -> int:
        """How many are sleeping (a test waits for a timer to be set before it moves the time)."""
        with self._lock:
            return sum(1 for _, _, future in self._sleepers if not future.done())

    async def sleep(self, seconds: float) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if seconds <= 0:
                return
            entry = (self._now + seconds, loop, future)
            self._sleepers.append(entry)
        try:
            await future
        finally:
            with self._lock:
                if entry in self._sleepers:
                    self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        self.set(self._now + seconds)

    def set(self, now: float) -> None:
        with self._lock:
            self._now = now
            due = [entry for entry in self._sleepers if entry[0] <= now]
            for entry in due:
                self._sleepers.remove(entry)
        for _, loop, future in due:
            loop.call_soon_threadsafe(_wake, future)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


# ------------------------------------------------------------------ time controls

UNTIMED = "untimed"
FISCHER = "fischer"
TURN = "turn"
KINDS = (UNTIMED, FISCHER, TURN)

PRESETS = ((3, 2), (5, 3), (10, 5))
"""The real-time presets, (minutes, seconds of increment): 3+2, 5+3, 10+5."""
MIN_MINUTES, MAX_MINUTES = 1, 60
"""A custom real-time control's base, in whole minutes."""
MAX_INCREMENT = 60
"""A custom real-time control's increment, in whole seconds (0 allowed)."""
TURN_DAYS = (1, 3, 7)
"""The turn-based controls: days per decision."""
DAY_MS = 24 * 3600 * 1000


class TimeControlError(FlametableError):
    """A time control a request asked for and the server refuses (translatable)."""


@dataclass(frozen=True)
class TimeControl:
    """A match's time control: ``kind`` (:data:`UNTIMED`, :data:`FISCHER`, :data:`TURN`); real time: ``minutes``
    of base and ``increment`` seconds per decision; turn-based: ``days`` per decision."""

    kind: str = UNTIMED
    minutes: int = 0
    increment: int = 0
    days: int = 0

    @property
    def timed(self) -> bool:
        return self.kind != UNTIMED

    @property
    def real_time(self) -> bool:
        return self.kind == FISCHER

    @property
    def start_ms(self) -> int:
        """Each seat's time at the start."""
        if self.kind == FISCHER:
            return self.minutes * 60_000
        if self.kind == TURN:
            return self.days * DAY_MS
        return 0

    @property
    def increment_ms(self) -> int:
        return self.increment * 1000 if self.kind == FISCHER else 0

    def to_json(self) -> dict[str, Any] | None:
        """The stored and sent form; None when untimed (what rooms of before clocks hold)."""
        if self.kind == FISCHER:
            return {"kind": FISCHER, "minutes": self.minutes, "increment": self.increment}
        if self.kind == TURN:
            return {"kind": TURN, "days": self.days}
        return None

    @staticmethod
    def from_json(data: Any) -> TimeControl:
        """The time control a request or a stored row gives: None (or absent) or ``{"kind": "untimed"}``;
        ``{"kind": "fischer", "minutes": M, "increment": S}``; ``{"kind": "turn", "days": D}``. Raises
        :class:`TimeControlError` saying what is wrong."""
        if data is None:
            return TimeControl()
        if not isinstance(data, Mapping):
            raise TimeControlError(N_("A time control is an object with a \"kind\": untimed, fischer or turn."))
        kind = data.get("kind")
        allowed = {UNTIMED: {"kind"}, FISCHER: {"kind", "minutes", "increment"}, TURN: {"kind", "days"}}
        if not isinstance(kind, str) or kind not in allowed:
            raise TimeControlError(N_("A time control's kind is untimed, fischer or turn, got {kind!r}."),
                                   kind=str(kind)[:40])
        extra = sorted(str(key)[:40] for key in data if key not in allowed[kind])
        if extra:
            raise TimeControlError(N_("A time control of kind {kind} has no field {field!r}."), kind=kind,
                                   field=extra[0])
        if kind == FISCHER:
            minutes, increment = data.get("minutes"), data.get("increment", 0)
            if type(minutes) is not int or not MIN_MINUTES <= minutes <= MAX_MINUTES:
                raise TimeControlError(N_("A real-time control's base is a whole number of minutes from {low} to "
                                          "{high}, got {value!r}."), low=MIN_MINUTES, high=MAX_MINUTES,
                                       value=_short(minutes))
            if type(increment) is not int or not 0 <= increment <= MAX_INCREMENT:
                raise TimeControlError(N_("A real-time control's increment is a whole number of seconds from 0 to "
                                          "{high}, got {value!r}."), high=MAX_INCREMENT, value=_short(increment))
            return TimeControl(FISCHER, minutes=minutes, increment=increment)
        if kind == TURN:
            days = data.get("days")
            if type(days) is not int or days not in TURN_DAYS:
                raise TimeControlError(N_("A turn-based control gives 1, 3 or 7 days per decision, got {value!r}."),
                                       value=_short(days))
            return TimeControl(TURN, days=days)
        return TimeControl()


def _short(value: Any) -> Any:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else str(value)[:40]


# ------------------------------------------------------------------ the clocks of one match


def deciding(game: Any, state: Any) -> tuple[int, ...]:
    """The seats whose decision is awaited in ``state``: a game may say both decide at once with an optional
    method ``deciding(state) -> tuple of seats`` (both clocks then run); by default the seat to act alone (none
    once over). Neither built-in engine declares one: their hidden decisions (Flame Duel's line-ups, R3) are
    entered in turn, seat 0 first, so one clock runs at a time."""
    own = getattr(game, "deciding", None)
    if callable(own):
        seats = tuple(sorted({int(seat) for seat in own(state)}))
        return tuple(seat for seat in seats if seat in (0, 1))
    to_act = state.to_act
    return () if to_act is None else (int(to_act),)


class Clocks:
    """The two seats' clocks of a timed match (see the module): ``remaining`` (ms, seat 0 first), ``started`` (the
    seats that made their first decision: only their clocks run) and ``since`` (seconds: when the decision now
    awaited began, by the server's clock)."""

    __slots__ = ("control", "remaining", "since", "started")

    def __init__(self, control: TimeControl, since: float) -> None:
        self.control = control
        self.remaining = [control.start_ms, control.start_ms]
        self.started: set[int] = set()
        self.since = since

    def running(self, awaited: Iterable[int]) -> tuple[int, ...]:
        """The seats whose clock runs while ``awaited`` decide: in real time, those of them that made a first
        decision (a first decision has its own limit, the room's abort); turn-based, all of them."""
        if self.control.kind == TURN:
            return tuple(awaited)
        return tuple(seat for seat in awaited if seat in self.started)

    def spent_ms(self, now: float) -> int:
        """The milliseconds since the decision awaited began."""
        return max(0, round((now - self.since) * 1000))

    def left_ms(self, now: float, awaited: Iterable[int]) -> list[int]:
        """Each seat's time left now (a running clock counted down since the decision began; never below 0)."""
        spent = self.spent_ms(now)
        running = self.running(awaited)
        return [max(0, left - spent) if seat in running else left for seat, left in enumerate(self.remaining)]

    def flagged(self, now: float, awaited: Iterable[int]) -> int | None:
        """The running seat whose time is out now (the lowest if both), else None: the same comparison as
        :meth:`deadline`'s, so that a timer woken at its deadline always finds the flag."""
        for seat in self.running(awaited):
            if self.since + self.remaining[seat] / 1000.0 <= now:
                return seat
        return None

    def deadline(self, awaited: Iterable[int]) -> float | None:
        """When the first running clock reaches zero (seconds), None if none runs."""
        running = self.running(awaited)
        if not running:
            return None
        return self.since + min(self.remaining[seat] for seat in running) / 1000.0

    def charge(self, actor: int, spent: int, awaited: Iterable[int]) -> None:
        """A decision of ``actor`` that took ``spent`` ms while ``awaited`` decided: every running clock loses it,
        then the actor gets its increment (Fischer, once its clock ran) or its allowance again (turn-based)."""
        running = self.running(awaited)
        for seat in running:
            self.remaining[seat] = max(0, self.remaining[seat] - spent)
        control = self.control
        if control.kind == TURN:
            self.remaining[actor] = control.start_ms
        elif actor in running:
            self.remaining[actor] += control.increment_ms
        self.started.add(actor)

    def restart(self, since: float) -> None:
        """The decision awaited begins now (after an action, or when a server takes the match up: the time it was
        down is charged to nobody)."""
        self.since = since

    def to_json(self, now: float, awaited: Iterable[int]) -> dict[str, Any]:
        """What every event carries: the control, each seat's time left now (ms) and whose clocks run."""
        awaited = tuple(awaited)
        return {"control": self.control.to_json(), "remaining": self.left_ms(now, awaited),
                "running": list(self.running(awaited))}


@dataclass(frozen=True)
class Tick:
    """One action of a timed record with its time: who acted, its notation, what it took (ms; None: not stamped)
    and both seats' time left once it was charged (ms)."""

    index: int
    seat: int
    action: str
    spent: int | None
    left: tuple[int, int]


def timeline(game: Any, record: Any) -> list[Tick]:
    """The times of a timed record's actions, its clocks replayed from its stamps (empty when untimed). The record
    must be one the game replays (see :func:`flametable.core.record.replay`); it stops at the first action that is
    not legal."""
    from flametable.core.errors import IllegalAction
    from flametable.core.record import start

    if record.clock is None:
        return []
    control = TimeControl.from_json(record.clock)
    clocks = Clocks(control, 0.0)
    state = start(game, record)
    times = list(record.times or [])
    ticks = []
    for index, text in enumerate(record.actions):
        seat = state.to_act
        if seat is None:
            break
        awaited = deciding(game, state)
        spent = times[index] if index < len(times) else None
        try:
            state.apply(game.action_from_text(text))
        except IllegalAction:
            break
        clocks.charge(seat, spent or 0, awaited)
        ticks.append(Tick(index, seat, text, spent, (clocks.remaining[0], clocks.remaining[1])))
    return ticks


def clock_text(ms: int) -> str:
    """A time as a clock shows it: ``2:57.6`` under an hour, ``1:02:03`` above, ``3d 04:05`` above a day."""
    ms = max(0, ms)
    seconds, tenths = divmod(ms // 100, 10)
    minutes, secs = divmod(seconds, 60)
    hours, mins = divmod(minutes, 60)
    days, hrs = divmod(hours, 24)
    if days:
        return f"{days}d {hrs:02d}:{mins:02d}"
    if hours:
        return f"{hours}:{mins:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}.{tenths}"
