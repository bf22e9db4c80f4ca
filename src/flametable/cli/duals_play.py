"""``flametable play duals``: set up a Flamecraft Duals match, play it at the terminal, keep its record."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

import typer
from rich.text import Text

from flametable.bots.registry import BOT_NAMES, make_bot
from flametable.cli.console import err, fail, out, print_json
from flametable.cli.duals_tui import DualsNarrator, DualsTable
from flametable.cli.i18n import _
from flametable.cli.play import _save
from flametable.cli.prompt import QuitMatch
from flametable.cli.seats import HUMAN, bot_decider
from flametable.core.errors import DataError, FlametableError
from flametable.core.match import Decider, new_record, play
from flametable.duals.game import DualsGame
from flametable.duals.rules import DualsOptions


@dataclass(frozen=True)
class DualsRequest:
    """The options of ``play duals`` as typed."""

    seats: tuple[str, str]
    seed: int | None
    buddy: bool
    data: Path | None
    record: Path | None
    as_json: bool


def duals_seats(game: DualsGame) -> list[str]:
    """The seats that can play this game: ``human`` and the bots the registry makes for it."""
    found = [HUMAN]
    for name in BOT_NAMES:
        probe = "ismcts:1" if name == "ismcts:N" else name
        try:
            make_bot(f"bot:{probe}", game, 0, deterministic=True)
        except ValueError:
            continue
        found.append(f"bot:{name}")
    return found


def check_duals_seat(spec: str, game: DualsGame) -> str | None:
    """``None`` when ``spec`` names a seat that can play Flamecraft Duals, else a translated message."""
    if spec == HUMAN:
        return None
    try:
        make_bot(spec, game, 0, deterministic=True)
    except ValueError:
        return _("Unknown seat {spec!r} for Flamecraft Duals (known: {known}).").format(
            spec=spec, known=", ".join(duals_seats(game)))
    return None


def run_duals(req: DualsRequest) -> None:
    try:
        game = DualsGame(req.data)
    except DataError as exc:
        fail(_("Bad data file: {error}").format(error=exc))
    for spec in req.seats:
        problem = check_duals_seat(spec, game)
        if problem:
            fail(problem, 2)
    options = DualsOptions(buddy=req.buddy)
    seed = req.seed if req.seed is not None else secrets.randbelow(1 << 31)
    try:
        state = game.new_match(options, seed)
    except FlametableError as exc:
        fail(str(exc), 2)
    record = new_record(game, options.to_json(), seed, req.seats)
    humans = [seat for seat, spec in enumerate(req.seats) if spec == HUMAN]
    console = err() if req.as_json else out()
    table = DualsTable(console, game, req.seats, req.buddy)
    deciders: list[Decider] = [table.decider(seat) if spec == HUMAN else bot_decider(spec, game, seed, seat)
                               for seat, spec in enumerate(req.seats)]
    narrator = None
    if humans or not req.as_json:
        narrator = DualsNarrator(table, table.me, state.view(table.me))
        title = _("Flamecraft Duals: {first} against {second}. Seed {seed} (play it again with --seed {seed}).")
        if req.buddy:
            title += " " + _("Buddy variant: the Buddy token is in the bag.")
        console.print(Text(title.format(first=table.names[0], second=table.names[1], seed=seed), style="bold"))
        narrator.start()
    try:
        outcome = play(state, deciders, record, on_step=narrator.step if narrator else None)
    except (QuitMatch, KeyboardInterrupt) as exc:
        table.goodbye()
        if req.record is not None:
            _save(record, req.record)
        raise typer.Exit(130 if isinstance(exc, KeyboardInterrupt) or exc.how == "interrupt" else 1) from None
    if req.record is not None:
        _save(record, req.record)
        if not req.as_json:
            console.print(_("Record saved to {file}.").format(file=req.record))
    if req.as_json:
        final = state.view(None)
        print_json({
            "game": game.name,
            "winner": outcome.winner,
            "reason": str(outcome.reason),
            "scores": list(outcome.scores),
            "cards": [len(s.pile) for s in final.seats],
            "seed": seed,
            "buddy": req.buddy,
            "players": list(req.seats),
            "actions": len(record.actions),
        })
    else:
        console.print(_("Seed {seed}.").format(seed=seed))
