"""``flametable play duel``: set up a match from the options, play it at the terminal, keep its record."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from flametable.cli.console import err, fail, out, print_json
from flametable.cli.duel_tui import DuelTable, Narrator
from flametable.cli.i18n import _
from flametable.cli.prompt import QuitMatch
from flametable.cli.seats import HUMAN, bot_decider, check_seat
from flametable.core.errors import DataError, FlametableError
from flametable.core.match import Decider, new_record, play
from flametable.core.record import MatchRecord
from flametable.duel.cards import load_card_set, load_deck
from flametable.duel.game import DuelGame
from flametable.duel.rules import DuelOptions, Mode, Pick


@dataclass(frozen=True)
class DuelRequest:
    """The options of ``play duel`` as typed."""

    seats: tuple[str, str]
    seed: int | None
    mode: Mode
    pick: Pick
    cards: Path | None
    decks: tuple[Path | None, Path | None]
    record: Path | None
    as_json: bool


def _options(req: DuelRequest) -> DuelOptions:
    if req.mode is Mode.SHARED and any(req.decks):
        fail(_("--deck1 and --deck2 need --mode decks."), 2)
    if req.mode is Mode.DECKS and req.pick is Pick.DRAFT:
        fail(_("Own decks bring their characters: --pick draft needs --mode shared."), 2)
    decks: list[dict[str, Any] | None] = []
    for path in req.decks:
        try:
            decks.append(load_deck(path).to_json() if path is not None else None)
        except DataError as exc:
            fail(_("Bad deck file: {error}").format(error=exc))
    try:
        return DuelOptions.from_json({"mode": str(req.mode), "pick": str(req.pick), "decks": decks})
    except FlametableError as exc:
        fail(str(exc), 2)


def run_duel(req: DuelRequest) -> None:
    options = _options(req)
    try:
        game = DuelGame(load_card_set(req.cards) if req.cards is not None else None)
    except DataError as exc:
        fail(_("Bad card file: {error}").format(error=exc))
    for spec in req.seats:
        problem = check_seat(spec, game)
        if problem:
            fail(problem, 2)
    seed = req.seed if req.seed is not None else secrets.randbelow(1 << 31)
    state = game.new_match(options, seed)
    record = new_record(game, options.to_json(), seed, req.seats)
    humans = [seat for seat, spec in enumerate(req.seats) if spec == HUMAN]
    console = err() if req.as_json else out()
    table = DuelTable(console, game, req.seats)
    deciders: list[Decider] = [table.decider(seat) if spec == HUMAN else bot_decider(spec, game, seed, seat)
                               for seat, spec in enumerate(req.seats)]
    narrator = None
    if humans or not req.as_json:
        narrator = Narrator(table, table.me, state.view(table.me))
        console.print(Text(_("Flame Duel: {first} against {second}. Seed {seed} (play it again with --seed {seed})."
                             ).format(first=table.names[0], second=table.names[1], seed=seed), style="bold"))
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
        print_json({
            "game": game.name,
            "winner": outcome.winner,
            "reason": str(outcome.reason),
            "scores": list(outcome.scores),
            "seed": seed,
            "mode": str(options.mode),
            "pick": str(options.pick),
            "players": list(req.seats),
            "actions": len(record.actions),
        })
    else:
        console.print(_("Seed {seed}.").format(seed=seed))


def _save(record: MatchRecord, path: Path) -> None:
    try:
        record.save(path)
    except OSError as exc:
        fail(_("Cannot write the record {file}: {error}").format(file=path, error=exc.strerror or exc))
