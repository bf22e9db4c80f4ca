"""What the browser's deck builder and replay viewer ask the server: a game's check of options (Flame Duel's own
decks are checked by the game itself, as ``cards check`` does), Flame Duel's cards in words, and the steps of an
ended match (from the server's store or an uploaded record file). No game rule here: the game checks options and
actions, the texts layer words them.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from flametable.core import registry
from flametable.core.errors import DataError, FlametableError, RecordError
from flametable.core.i18n import N_, N_plural
from flametable.core.limits import LimitError, loads_json
from flametable.core.record import MatchRecord, replay, resigner, start
from flametable.service import is_public, view_json
from flametable.service.clock import timeline
from flametable.texts.log import Reader, log_of, resigned_line
from flametable.texts.translator import Translator
from flametable.web.rooms import Budgets, Limits, game_of

if TYPE_CHECKING:
    from flametable.web.shared import Budget

AUDIENCES: tuple[tuple[str, int | None], ...] = (("0", 0), ("1", 1), ("spectator", None))


class ReplayError(FlametableError):
    """A record that cannot be replayed to its end (a bad file, a bad action, a result that differs)."""


# ------------------------------------------------------------------ options and cards


def check_options(name: str, options: Any) -> None:
    """Let the game ``name`` check ``options`` by starting a match with them: raises the game's own
    :class:`FlametableError` naming the problem (or :class:`registry.UnknownGame`)."""
    entry = registry.get(name)
    game_of(entry.name).new_match(options, 0)


def problem_of(exc: FlametableError, tr: Translator) -> str | None:
    """The problem alone of a bad data error (``a deck has exactly 3 characters, got 2``), without where it is."""
    if isinstance(exc, DataError):
        return FlametableError(exc.problem, **exc.params).translated(tr.translate)
    return None


# ------------------------------------------------------------------ replays


def read_record(raw: bytes) -> MatchRecord:
    """An uploaded record file: raises :class:`RecordError` naming what is wrong."""
    try:
        data = loads_json(raw.decode("utf-8"))
    except LimitError as exc:  # a limit passed, or a key twice in an object
        raise RecordError(N_("The file is not a match record: {error}"), error=exc) from None
    except (UnicodeDecodeError, ValueError):
        raise RecordError(N_("The file is not a match record: it is not valid JSON.")) from None
    try:
        return MatchRecord.from_json(data, "record")
    except RecordError as exc:
        raise RecordError(N_("The file is not a match record: {error}"), error=exc) from None


def replay_steps(record: MatchRecord, tr: Translator) -> dict[str, Any]:
    """Every step of an ended match, the views of both seats and the spectators at each (after the end everything
    may be shown), each audience's log lines of the step in the language of ``tr``, and the result. Raises
    :class:`RecordError` or :class:`ReplayError` when the record does not replay to its end."""
    entry = registry.get(record.game)
    game = game_of(entry.name)
    report = replay(game, record, verify_result=record.result is not None)
    if not report.ok:
        raise _why(report)
    result = report.to_json()["result"]
    log = log_of(game)
    readers = {key: Reader.of(tr, audience) for key, audience in AUDIENCES}
    state = start(game, record)
    views = {key: state.view(audience) for key, audience in AUDIENCES}
    steps: list[dict[str, Any]] = [{"version": 0, "actor": None, "action": None,
              "views": {key: view_json(view) for key, view in views.items()},
              "lines": {key: log.start(readers[key], views[key]) for key, _ in AUDIENCES}}]
    for i, notation in enumerate(record.actions):
        actor = state.to_act
        assert actor is not None  # replay() found every action legal, none after the end
        action = game.action_from_text(notation)
        state.apply(action)
        after = {key: state.view(audience) for key, audience in AUDIENCES}
        lines = {key: log.step(readers[key], views[key], after[key], actor,
                               action if audience == actor or is_public(game, action) else None)
                 for key, audience in AUDIENCES}
        views = after
        steps.append({"version": i + 1, "actor": actor, "action": notation,
                      "views": {key: view_json(view) for key, view in views.items()}, "lines": lines})
    for tick in timeline(game, record):  # a timed match (issue 24): each decision's time, both clocks after it
        steps[tick.index + 1]["time"] = {"spent": tick.spent, "left": list(tick.left)}
    last: dict[str, list[str]] = steps[-1]["lines"]
    for key, _ in AUDIENCES:
        if state.outcome is not None:
            last[key] = [*last[key], *log.end(readers[key], views[key], state.outcome)]
        elif (loser := resigner(record.result)) is not None:
            last[key] = [*last[key], resigned_line(readers[key], loser)]
    spectator = [line for step in steps for line in step["lines"]["spectator"]]
    return {"game": record.game, "title": tr.translate(entry.title), "options": record.options,
            "players": record.players, "steps": steps, "result": result, "log": spectator, "clock": record.clock}


def _why(report: Any) -> FlametableError:
    """Why a record does not replay to its end, translatable."""
    if report.error is not None:
        return ReplayError(N_("Action {index} of the record ({action}) is not legal: {reason}"),
                           index=report.bad_index + 1, action=report.bad_action, reason=report.error)
    if report.bad_action is not None:
        return ReplayError(N_("Action {index} of the record ({action}) comes after the end of the match."),
                           index=report.bad_index + 1, action=report.bad_action)
    if report.abandoned or report.bad_index is not None:
        return ReplayError(N_plural("The record stops after {n} action, before the match ends: only a finished "
                                    "match can be replayed here.",
                                    "The record stops after {n} actions, before the match ends: only a finished "
                                    "match can be replayed here.", "n"), n=report.steps)
    return ReplayError(N_("The record's result differs from the result its actions give: the file was changed."))


# ------------------------------------------------------------------ replays off the server's process


def replay_answer(raw: bytes, lang: str) -> tuple[int, bytes]:
    """The HTTP status and JSON body of the replay of the record file ``raw`` in language ``lang``: run in the
    server's replay worker (:class:`ReplayWorker`), so that neither the reading of the file nor the replay nor the
    writing of the steps' JSON (a long match: megabytes) holds the server's interpreter. Plain values in and out
    (they cross a process boundary); the errors are already in the client's language."""
    tr = Translator.for_language(lang)
    try:
        steps = replay_steps(read_record(raw), tr)
    except registry.UnknownGame as exc:
        return 400, _error_body("unknown_game", tr.error(exc))
    except (RecordError, ReplayError) as exc:
        return 400, _error_body("bad_record", tr.error(exc))
    return 200, json.dumps(steps, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def _error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}, ensure_ascii=False).encode("utf-8")


class ReplayBusy(FlametableError):
    """The replay worker has as many replays waiting as it takes: try again in a moment."""


class TooManyReplays(FlametableError):
    """An address asked for more replays than its budget."""


class ReplayWorker:
    """Where replays are made: one worker process of the server's (``serve``; a thread in tests, or the loop's
    default thread pool with ``executor=None``), one replay at a time, at most ``waiting`` of them in it, running
    or queued (more get :class:`ReplayBusy`): a replay costs the server's own process nothing but the bytes it
    sends, and an address sending large records cannot make the others wait behind more than a few."""

    def __init__(self, executor: Executor | None, limits: Limits) -> None:
        self.executor = executor
        self.waiting = limits.replays_waiting
        self.budgets = Budgets(limits.replays_per_second, limits.replays_burst)
        self.shared: Budget | None = None  # in a cluster: the budgets of every process together (on Redis)
        self.rate = limits.replays_per_second
        self.pending = 0

    async def admit(self, client: str) -> None:
        """Count one replay of ``client`` (an address's hash), before anything is read: :class:`TooManyReplays`
        past the address's budget."""
        allowed = await self.shared.allow(client) if self.shared is not None else self.budgets.allow(client)
        if not allowed:
            raise TooManyReplays(N_("Too many replays asked from your address: at most {rate} a second. This one "
                                    "was not made; ask again in a moment."), rate=self.rate)

    async def answer(self, raw: bytes, lang: str) -> tuple[int, bytes]:
        """The status and body of the replay of ``raw`` (a record file): :class:`ReplayBusy` when the worker has
        as many as it takes."""
        if self.pending >= self.waiting:
            raise ReplayBusy(N_plural("The server is making {count} replay already, as many as it takes at once: "
                                      "try again in a moment.",
                                      "The server is making {count} replays already, as many as it takes at once: "
                                      "try again in a moment.", "count"), count=self.waiting)
        self.pending += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.executor, replay_answer, raw, lang)
        finally:
            self.pending -= 1

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
