"""Playing one match at the terminal, whatever the game (``play duel``, ``play duals``): the seats' deciders,
the narration, leaving cleanly, keeping the record, and the result as text or JSON."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from flametable.cli.console import err, fail, out, print_json
from flametable.cli.i18n import _
from flametable.cli.prompt import QuitMatch
from flametable.cli.seats import HUMAN, bot_decider
from flametable.cli.table import Table, TableNarrator
from flametable.core.outcome import Outcome
from flametable.core.protocol import GameState
from flametable.core.record import MatchRecord
from flametable.service import Applied, Decider, MatchService, run

MakeNarrator = Callable[[Any, int | None, Any], TableNarrator[Any, Any, Any]]
"""A narrator class of the game: made from the table, the observer and the observer's first view."""


def match_seed(seed: int | None) -> int:
    """The seed typed, or a new random one (printed, so that the match can be played again)."""
    return seed if seed is not None else secrets.randbelow(1 << 31)


def match_console(as_json: bool) -> Console:
    """Where the match is shown: standard error when standard output is for the JSON result."""
    return err() if as_json else out()


def play_at_table(table: Table[Any, Any], narrator: MakeNarrator, game: Any, state: GameState[Any, Any],
                  record: MatchRecord, *, title: str, save_to: Path | None, as_json: bool,
                  fields: Callable[[], dict[str, Any]]) -> None:
    """Play the match of ``record`` (its seats and seed) from ``state`` to the end.

    The match goes through the match service. Human seats answer at ``table``, bots decide from the match
    seed (keeping their time budgets against a human). The match is narrated (after ``title``) from the
    events of the table's observer, unless only bots play and the result goes out as JSON (with the game's
    own ``fields``). The record is saved to ``save_to``, also when a player leaves (exit 1, or 130 on Ctrl-C).
    """
    console = table.console
    humans = [seat for seat, spec in enumerate(record.players) if spec == HUMAN]
    deciders: list[Decider] = [
        table.decider(seat) if spec == HUMAN else bot_decider(spec, game, record.seed, seat, bool(humans))
        for seat, spec in enumerate(record.players)
    ]
    match = MatchService(game, state, record)
    listen = None
    if humans or not as_json:
        teller = narrator(table, table.me, match.view(table.me))
        teller.seat_view = match.view
        console.print(Text(title, style="bold"))
        teller.start()
        observer = table.me

        def listen(applied: Applied) -> None:
            teller.hear(applied.to(observer))

    try:
        outcome = run(match, deciders, listen=listen)
    except (QuitMatch, KeyboardInterrupt) as exc:
        table.goodbye()
        if save_to is not None:
            save_record(record, save_to)
        raise typer.Exit(130 if isinstance(exc, KeyboardInterrupt) or exc.how == "interrupt" else 1) from None
    finally:
        table.leave_private()  # never leave the terminal on a player's own screen
    if save_to is not None:
        save_record(record, save_to)
        if not as_json:
            console.print(_("Record saved to {file}.").format(file=save_to))
    if as_json:
        print_json(result_json(outcome, record, fields()))
    else:
        console.print(_("Seed {seed}.").format(seed=record.seed))


def result_json(outcome: Outcome, record: MatchRecord, fields: dict[str, Any]) -> dict[str, Any]:
    """The result of ``play --json``: game, winner, reason and scores, the game's own ``fields``, the players and
    how many actions were played."""
    return {
        "game": record.game,
        "winner": outcome.winner,
        "reason": str(outcome.reason),
        "scores": list(outcome.scores),
        **fields,
        "players": list(record.players),
        "actions": len(record.actions),
    }


def save_record(record: MatchRecord, path: Path) -> None:
    try:
        record.save(path)
    except OSError as exc:
        fail(_("Cannot write the record {file}: {error}").format(file=path, error=exc.strerror or exc))
