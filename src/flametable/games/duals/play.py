"""``flametable play duals``: set up a Flamecraft Duals match, play it at the terminal, keep its record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from flametable.cli.console import fail
from flametable.cli.help import H_
from flametable.cli.i18n import _, explain
from flametable.cli.options import (
    P1,
    P2,
    RECORD,
    RESUME,
    SEED,
    DataOption,
    JsonOption,
    LangOption,
    use_language,
)
from flametable.core import registry
from flametable.core.errors import DataError, FlametableError

# What plays the match is imported when a match is played, not whenever the command line is read.

BUDDY = typer.Option("--buddy", help=H_("The Buddy variant: the Buddy token joins the bag."))  # D11


def play_command(
    p1: Annotated[str, P1] = "human",
    p2: Annotated[str, P2] = "bot:random",
    seed: Annotated[int | None, SEED] = None,
    lang: LangOption = None,
    buddy: Annotated[bool, BUDDY] = False,
    cards: DataOption = None,
    record: Annotated[Path | None, RECORD] = None,
    resume: Annotated[Path | None, RESUME] = None,
    as_json: JsonOption = False,
) -> None:
    """``play duals`` (the registry's ``play`` piece of Flamecraft Duals)."""
    use_language(lang)
    run_duals(DualsRequest((p1, p2), seed, buddy, cards, record, as_json, resume))


@dataclass(frozen=True)
class DualsRequest:
    """The options of ``play duals`` as typed."""

    seats: tuple[str, str]
    seed: int | None
    buddy: bool
    data: Path | None
    record: Path | None
    as_json: bool
    resume: Path | None = None


def check_duals_seat(spec: str, game: Any) -> str | None:
    """``None`` when ``spec`` names a seat that can play Flamecraft Duals, else a translated message."""
    from flametable.cli.seats import known_seats, seat_message

    return seat_message(spec, game, _("Unknown seat {spec!r} for Flamecraft Duals (known: {known}).").format(
        spec=spec, known=known_seats()))


def run_duals(req: DualsRequest) -> None:
    from flametable.cli.playing import match_console, match_seed, only_resume, open_match, play_at_table
    from flametable.games.duals.rules import DualsOptions

    if req.resume is not None:
        only_resume(req.seats, req.seed, {"--buddy": req.buddy})
    entry = registry.get("duals")
    try:
        game = entry.make(req.data)
    except DataError as exc:
        fail(_("Bad data file: {error}").format(error=explain(exc)))
    options = DualsOptions(buddy=req.buddy)

    def start_new() -> tuple[Any, Any, int]:
        seed = match_seed(req.seed)
        try:
            state = game.new_match(options, seed)
        except FlametableError as exc:
            fail(explain(exc), 2)
        return state, options.to_json(), seed

    record, state, save_to, notes = open_match(game, resume=req.resume, seats=req.seats, save_to=req.record,
                                               check=check_duals_seat, start_new=start_new)
    if req.resume is not None:
        options = DualsOptions.from_json(record.options)  # start() has read them already
    seats = (record.players[0], record.players[1])
    table = entry.required("table")(match_console(req.as_json), game, seats, options.buddy)
    title = _("Flamecraft Duals: {first} against {second}. Seed {seed} (play it again with --seed {seed}).")
    if options.buddy:
        title += " " + _("Buddy variant: the Buddy token is in the bag.")

    def fields() -> dict[str, Any]:
        final = state.view(None)
        return {"cards": [len(s.pile) for s in final.seats], "seed": record.seed, "buddy": options.buddy}

    play_at_table(table, entry.required("narrator"), game, state, record,
                  title=title.format(first=table.names[0], second=table.names[1], seed=record.seed), notes=notes,
                  save_to=save_to, as_json=req.as_json, fields=fields, resumed=req.resume is not None)
