"""``flametable replay FILE``: replay a match record, checking every action (and, with --verify, the result)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from flametable.cli.console import fail, out, print_json
from flametable.cli.games import lookup
from flametable.cli.generic import make_game_or_fail
from flametable.cli.i18n import _, explain, illegal_text, ngettext, reason_text
from flametable.core.errors import RecordError
from flametable.core.protocol import Game
from flametable.core.record import TIME, MatchRecord, ReplayReport, replay
from flametable.service.clock import FISCHER, TURN, Tick, TimeControl, TimeControlError, clock_text, timeline


def run_replay(file: Path, verify: bool, as_json: bool, cards: Path | None) -> None:
    try:
        record = MatchRecord.load(file)
    except RecordError as exc:
        fail(_("Cannot read the record: {error}").format(error=explain(exc)))
    entry = lookup(record.game)
    if entry is None:
        fail(_("{file}: unknown game {game!r}.").format(file=file, game=record.game))
    game = make_game_or_fail(entry, cards)
    try:
        report = replay(game, record, verify_result=verify)
    except RecordError as exc:
        fail(_("Cannot replay {file}: {error}").format(file=file, error=explain(exc)))
    ticks = timeline(game, record)
    if as_json:
        extra: dict[str, Any] = {}
        if record.clock is not None:
            extra["clock"] = record.clock
            extra["times"] = [{"index": t.index, "seat": t.seat, "action": t.action, "spent_ms": t.spent,
                               "left_ms": list(t.left)} for t in ticks]
        print_json({"game": record.game, "file": str(file), **report.to_json(), **extra})
        if not report.ok:
            raise typer.Exit(1)
        return
    if record.clock is not None:
        _print_times(record, ticks)
    if report.resigned is not None:
        out().print(Text(ngettext("Player {loser} resigned after {n} action, a legal one: Player {winner} wins.",
                                  "Player {loser} resigned after {n} actions, every one legal: Player {winner} wins.",
                                  report.steps).format(loser=report.resigned + 1, n=report.steps,
                                                       winner=2 - report.resigned)), soft_wrap=True)
    elif report.forfeit is not None:
        loser, reason = report.forfeit
        if reason == TIME:
            told = ngettext("Player {loser} ran out of time after {n} action, a legal one: Player {winner} wins.",
                            "Player {loser} ran out of time after {n} actions, every one legal: Player {winner} "
                            "wins.", report.steps)
        else:
            told = ngettext("Player {loser} left after {n} action, a legal one: Player {winner} claimed the win.",
                            "Player {loser} left after {n} actions, every one legal: Player {winner} claimed the "
                            "win.", report.steps)
        out().print(Text(told.format(loser=loser + 1, n=report.steps, winner=2 - loser)), soft_wrap=True)
    elif report.abandoned:
        out().print(Text(_("Abandoned at action {n}: the match stops there, every action before it legal. Go on "
                           "with it: flametable play {game} --resume {file}").format(
            n=report.steps, game=record.game, file=file)), soft_wrap=True)
    else:
        _print(report, record, game)
    if not report.ok:
        raise typer.Exit(1)


def control_words(data: Any) -> str:
    """A record's time control in words: ``3+2 (real time)``, ``3 days per decision``."""
    try:
        control = TimeControl.from_json(data)
    except TimeControlError:
        return json.dumps(data, ensure_ascii=False)
    if control.kind == FISCHER:
        return _("{minutes}+{increment} (real time)").format(minutes=control.minutes, increment=control.increment)
    if control.kind == TURN:
        return ngettext("{n} day per decision", "{n} days per decision", control.days).format(n=control.days)
    return _("untimed")


def _print_times(record: MatchRecord, ticks: list[Tick]) -> None:
    """Each action's time and both clocks after it, under the time control."""
    console = out()
    console.print(Text(_("Time control: {control}").format(control=control_words(record.clock))), soft_wrap=True)
    for tick in ticks:
        spent = "—" if tick.spent is None else f"{tick.spent / 1000:.1f}"
        console.print(Text(_("{index}. Player {player}: {action} in {seconds} s (left: {left1} | {left2})").format(
            index=tick.index + 1, player=tick.seat + 1, action=tick.action, seconds=spent,
            left1=clock_text(tick.left[0]), left2=clock_text(tick.left[1]))), soft_wrap=True)


def bad_reason(game: Game[Any, Any], record: MatchRecord, report: ReplayReport) -> str:
    """Why the replay failed, in the player's language."""
    if report.no_result:
        return _("the record holds no result to compare with the replayed one ({replayed})").format(
            replayed=result_words(report.outcome.to_json() if report.outcome else None))
    if report.bad_index is None:
        return _("the stored result ({stored}) differs from the replayed one ({replayed})").format(
            stored=result_words(record.result), replayed=result_words(report.outcome.to_json() if report.outcome
                                                                      else None))
    if report.bad_action is None:
        return _("the record ends before the match does")
    if report.error is not None:
        return illegal_text(report.error)
    return _("the match was already over")


def result_words(result: Any) -> str:
    """A result as ``Outcome.to_json`` gives it, in words (``Player 1 (rounds), score 2–1``); anything else
    (a record edited by hand) as the JSON it is."""
    if isinstance(result, dict) and set(result) == {"winner", "reason", "scores"}:
        winner, reason, scores = result["winner"], result["reason"], result["scores"]
        if (winner in (None, 0, 1) and not isinstance(winner, bool) and isinstance(reason, str)
                and isinstance(scores, list) and all(isinstance(s, int) for s in scores)):
            who = _("a tie") if winner is None else _("Player {n}").format(n=winner + 1)
            return _("{winner} ({reason}), score {score}").format(
                winner=who, reason=reason_text(reason), score="–".join(str(s) for s in scores))
    return json.dumps(result, ensure_ascii=False)


def _print(report: ReplayReport, record: MatchRecord, game: Game[Any, Any]) -> None:
    console = out()
    console.soft_wrap = True  # one line per message, whatever the width
    if report.ok:
        console.print(Text(ngettext("OK: {n} action replayed, a legal one.",
                                    "OK: {n} actions replayed, every one legal.", report.steps).format(n=report.steps)))
    elif report.bad_action is not None:
        console.print(Text(_("Bad action at index {index} ({action}): {reason}").format(
            index=report.bad_index, action=report.bad_action or "—", reason=bad_reason(game, record, report))))
    else:
        console.print(Text(_("Bad record: {reason}").format(reason=bad_reason(game, record, report))))
    if report.outcome is not None:
        console.print(Text(_("Result: {result}.").format(result=result_words(report.outcome.to_json()))))
