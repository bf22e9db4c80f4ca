"""The match logs of a room (the ``log`` message): each reader's log kept as the match goes, never replayed on the
event loop.

A log is in its reader's language and made from its audience's views only, so a room keeps one per *reader*:
(audience, language), an audience being seat 0, seat 1 or the spectators (``None``); at most three audiences
times the server's languages, whoever asks.

- The first request of a reader builds its log **off the loop**: a thread replays the match from its start (the
  audience's views, the actions it may know: :func:`replay_log`), one build at a time in the hall; requests of
  the same reader meanwhile wait for the same build.
- Each accepted action then adds its step to every reader's log from the events the room tells (each audience's
  view after the step, the action when that audience may know it): :meth:`MatchLogs.step` keeps it (the view
  only: a reference), :meth:`MatchLogs.flush` writes its lines once the events are sent. A log keeps its lines
  and the audience's last view, never the views of every step (:class:`~flametable.texts.log.LogWriter`).
- The message sent (the lines and the end as things stand, as JSON text) is kept per reader until the match
  moves on or a seat resigns: a request at an unchanged version costs a look-up.
- An undo, a rematch or a reload gives the room a new :class:`MatchLogs`: the old logs, and the builds under way
  for them, are dropped.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from flametable.core.outcome import Outcome
from flametable.core.protocol import Game
from flametable.core.record import MatchRecord, start
from flametable.service import Applied, Audience, is_public
from flametable.texts.log import LogWriter
from flametable.texts.translator import Translator
from flametable.web import messages

Reader = tuple[Audience, str]
"""Who reads a log: the audience (a seat, or None for the spectators) and the language."""

Step = tuple[Any, int, Any]
"""One step as an audience knows it, not written yet: its view after the step, who acted, the action or None."""


def replay_log(game: Game[Any, Any], record: MatchRecord, actions: Sequence[str], actors: Sequence[int],
               audience: Audience, tr: Translator) -> LogWriter:
    """The log of ``audience`` in the language of ``tr`` after ``actions`` (played by ``actors``) from the start
    of ``record``: replayed, made from that audience's views and the actions it may know only. Long work: run it
    off the event loop."""
    state = start(game, record)
    writer = LogWriter(game, tr, audience, first=state.view(audience))
    for actor, notation in zip(actors, actions, strict=True):
        action = game.action_from_text(notation)
        before = writer.last
        state.apply(action)
        known = audience == actor or is_public(game, action)
        writer.step(before, state.view(audience), actor, action if known else None)
    return writer


class MatchLogs:
    """The logs of one match of a room, by reader (see the module). Used on the event loop only; the room's lock
    orders the calls of :meth:`step` and :meth:`build` (a build starts from the match as it is when asked)."""

    __slots__ = ("_builds", "_pending", "_texts", "_writers", "game", "number")

    def __init__(self, game: Game[Any, Any], number: int) -> None:
        self.game = game
        self.number = number  # the match's number in its room, as the messages say it
        self._writers: dict[Reader, LogWriter] = {}  # readers whose log is built
        self._pending: dict[Reader, list[Step]] = {}  # every reader's (built or building) steps not written yet
        self._builds: dict[Reader, asyncio.Task[None]] = {}
        self._texts: dict[Reader, tuple[tuple[int, int | None], str]] = {}  # the last message, when it was made

    def step(self, applied: Applied, notation: str) -> None:
        """One accepted action (``applied``, ``notation``): keep its step for every reader, from its audience's
        event (cheap: written by :meth:`flush`)."""
        action: Any = None
        read = False
        for (audience, _lang), pending in self._pending.items():
            event = applied.to(audience)
            if event.action is not None and not read:
                action, read = self.game.action_from_text(notation), True
            pending.append((event.view, applied.actor, action if event.action is not None else None))

    def flush(self, reader: Reader | None = None) -> None:
        """Write the steps kept for ``reader`` (None: every reader whose log is built)."""
        for key in (self._writers if reader is None else (reader,)):
            writer, pending = self._writers.get(key), self._pending.get(key)
            if writer is None or not pending:
                continue
            for after, actor, action in pending:
                writer.step(writer.last, after, actor, action)
            pending.clear()

    def message(self, reader: Reader, outcome: Outcome | None, resigned: int | None) -> str | None:
        """The ``log`` message of ``reader`` as JSON text (its lines, then the result with ``outcome`` or the
        resignation of the seat ``resigned``); None while its log is not built."""
        writer = self._writers.get(reader)
        if writer is None:
            return None
        self.flush(reader)
        stamp = (writer.steps, resigned)
        kept = self._texts.get(reader)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        lines = writer.lines + writer.end(outcome=outcome, resigned=resigned)
        text = messages.dumps({"type": "log", "match": self.number, "lines": lines})
        self._texts[reader] = (stamp, text)
        return text

    def build(self, reader: Reader, replay: Callable[[], LogWriter], limit: asyncio.Semaphore) -> asyncio.Task[None]:
        """The build of ``reader``'s log under way, or a new one: ``replay`` (the match as it is now, see
        :func:`replay_log`) run in a thread once ``limit`` lets it; the steps played meanwhile are kept and
        written after it."""
        task = self._builds.get(reader)
        if task is None:
            self._pending[reader] = []
            task = asyncio.get_running_loop().create_task(self._build(reader, replay, limit))
            self._builds[reader] = task
        return task

    async def _build(self, reader: Reader, replay: Callable[[], LogWriter], limit: asyncio.Semaphore) -> None:
        try:
            async with limit:
                writer = await asyncio.to_thread(replay)
        except BaseException:
            del self._pending[reader]  # a later request builds again
            raise
        finally:
            del self._builds[reader]
        self._writers[reader] = writer

    def cancel(self) -> None:
        """Stop waiting for the builds under way (the server stops; their threads end by themselves)."""
        for task in list(self._builds.values()):
            task.cancel()
