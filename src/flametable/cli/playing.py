"""Playing one match at the terminal, whatever the game (``play duel``, ``play duals``): the seats' deciders,
the narration, leaving cleanly, keeping the record, and the result as text or JSON."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.text import Text

from flametable.bots.registry import HUMAN
from flametable.cli.console import err, fail, out, print_json
from flametable.cli.i18n import _, explain, illegal_text, ngettext
from flametable.cli.options import checked_seed
from flametable.cli.prompt import QuitMatch
from flametable.cli.seats import bot_decider, check_seats
from flametable.cli.table import Table, TableNarrator, resume_command
from flametable.core.errors import IllegalAction, RecordError
from flametable.core.match import new_record
from flametable.core.outcome import Outcome
from flametable.core.protocol import GameState
from flametable.core.record import MatchRecord, start
from flametable.service import Applied, Decider, MatchService, run

MakeNarrator = Callable[[Any, int | None, Any], TableNarrator[Any, Any, Any]]
"""A narrator class of the game: made from the table, the observer and the observer's first view."""


def match_seed(seed: int | None) -> int:
    """The seed typed, or a new random one (printed, so that the match can be played again)."""
    return checked_seed(seed) if seed is not None else secrets.randbelow(1 << 31)


def match_console(as_json: bool) -> Console:
    """Where the match is shown: standard error when standard output is for the JSON result."""
    return err() if as_json else out()


def play_at_table(table: Table[Any, Any], narrator: MakeNarrator, game: Any, state: GameState[Any, Any],
                  record: MatchRecord, *, title: str, save_to: Path | None, as_json: bool,
                  fields: Callable[[], dict[str, Any]], notes: Sequence[str] = (), resumed: bool = False) -> None:
    """Play the match of ``record`` (its seats and seed) from ``state`` to the end.

    The match goes through the match service. Human seats answer at ``table``, bots decide from the match
    seed (keeping their time budgets against a human). The match is narrated (after ``title`` and the
    ``notes``) from the events of the table's observer, unless only bots play and the result goes out as JSON
    (with the game's own ``fields``); a ``resumed`` match (``play --resume``) is not told from its start again.
    The record is written to ``save_to`` as the match goes (after every action, each time whole and atomically),
    so a match left in any way, even killed, leaves a record that ``play --resume`` goes on with.
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
        for note in notes:
            table.tell(Text(note))
        if not resumed:
            teller.start()
        observer = table.me

        def listen(applied: Applied) -> None:
            teller.hear(applied.to(observer))

    keep = None if save_to is None else RecordKeeper(record, save_to)
    try:
        if save_to is not None:
            save_record(record, save_to)  # a record that cannot be written is said before the match, not after
        outcome = run(match, deciders, listen=listen, on_action=None if keep is None else keep.on_action)
    except (QuitMatch, KeyboardInterrupt) as exc:
        table.goodbye(None if save_to is None else resume_command(record.game, save_to))
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


class RecordKeeper:
    """Writes a match's record after every action; a write that fails is said once and the match goes on (the
    record is written again at the end, where a failure stops the command)."""

    def __init__(self, record: MatchRecord, path: Path) -> None:
        self.record = record
        self.path = path
        self.warned = False

    def save(self) -> None:
        try:
            self.record.save(self.path)
        except OSError as exc:
            if not self.warned:
                self.warned = True
                err().print(_("Cannot write the record {file} as the match goes: {error}. It is written again at "
                              "the end.").format(file=self.path, error=exc.strerror or exc), markup=False)

    def on_action(self, seat: int, action: Any) -> None:
        self.save()


def open_match(game: Any, *, resume: Path | None, seats: tuple[str, str], save_to: Path | None,
               check: Callable[[str, Any], str | None],
               start_new: Callable[[], tuple[GameState[Any, Any], Any, int]],
               ) -> tuple[MatchRecord, GameState[Any, Any], Path | None, list[str]]:
    """The record and state a match is played from, where its record goes and the notes told before it.

    With ``resume``, the unfinished match of that record goes on (its seats, seed and options; its record goes
    on in ``save_to`` or else in ``resume``); else ``start_new()`` gives the new match's state, its options as
    JSON and its seed, once the seats (``check`` says what is wrong with one) are known to play the game.
    """
    notes: list[str] = []
    if resume is not None:
        record, state = resume_or_fail(game, resume)
        seats = (record.players[0], record.players[1])
        save_to = save_to or resume
        notes.append(resumed_note(resume, record, save_to))
    check_seats(seats, game, check)
    if resume is None:
        state, options, seed = start_new()
        record = new_record(game, options, seed, seats)
    return record, state, save_to, notes


def resume_or_fail(game: Any, file: Path) -> tuple[MatchRecord, GameState[Any, Any]]:
    """The record of an unfinished match and its state after the record's actions (each checked, as
    ``replay`` does); exit 1 saying why the match cannot go on (not a record, another game or data, an action
    that cannot be played, a match already over)."""
    try:
        record = MatchRecord.load(file)
    except RecordError as exc:
        fail(_("Cannot read the record: {error}").format(error=explain(exc)))
    try:
        state: GameState[Any, Any] = start(game, record)  # a record of two players for this game and data
    except RecordError as exc:
        fail(_("Cannot resume {file}: {error}").format(file=file, error=explain(exc)))
    for index, text in enumerate(record.actions):
        if state.to_act is None:
            fail(_("Cannot resume {file}: the match was over before action {index} ({action}).").format(
                file=file, index=index, action=text))
        try:
            state.apply(game.action_from_text(text))
        except (IllegalAction, ValueError, KeyError) as exc:  # a plug-in game may say so otherwise
            reason = illegal_text(exc) if isinstance(exc, IllegalAction) else explain(exc)
            fail(_("Cannot resume {file}: action {index} ({action}) cannot be played: {reason}").format(
                file=file, index=index, action=text, reason=reason))
    if state.outcome is not None:
        fail(_("The match of {file} is already over: flametable replay {file} shows it.").format(file=file))
    return record, state


def resumed_note(file: Path, record: MatchRecord, save_to: Path) -> str:
    """The line that says a match goes on from a record, and where its record goes on."""
    n = len(record.actions)
    return ngettext("Match resumed from {file} after {n} action; its record goes on in {record}.",
                    "Match resumed from {file} after {n} actions; its record goes on in {record}.", n).format(
        file=file, n=n, record=save_to)


def only_resume(seats: tuple[str, str], seed: int | None, others: Mapping[str, bool]) -> None:
    """Exit (code 2) when options that set up a match were typed with ``--resume``: the record sets it up. The
    seats and seed are typed when they are not the defaults; ``others`` says which of the game's own options are
    (``{"--buddy": True}``)."""
    typed = {"--p1": seats[0] != HUMAN, "--p2": seats[1] != "bot:random", "--seed": seed is not None, **others}
    given = [name for name, was_typed in typed.items() if was_typed]
    if given:
        fail(_("--resume goes on with the match as it was recorded (its seats, seed and options): leave out "
               "{options}.").format(options=", ".join(given)), 2)


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
