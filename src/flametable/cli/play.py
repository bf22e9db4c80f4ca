"""``flametable play duel``: set up a match from the options, play it at the terminal, keep its record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flametable.cli.console import fail
from flametable.cli.duel_tui import DuelTable, Narrator
from flametable.cli.i18n import _
from flametable.cli.playing import match_console, match_seed, play_at_table
from flametable.cli.seats import check_seat, check_seats
from flametable.core.errors import DataError, FlametableError
from flametable.core.match import new_record
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
    check_seats(req.seats, game, check_seat)
    seed = match_seed(req.seed)
    state = game.new_match(options, seed)
    record = new_record(game, options.to_json(), seed, req.seats)
    table = DuelTable(match_console(req.as_json), game, req.seats)
    title = _("Flame Duel: {first} against {second}. Seed {seed} (play it again with --seed {seed}).").format(
        first=table.names[0], second=table.names[1], seed=seed)
    play_at_table(table, Narrator, game, state, record, title=title, save_to=req.record, as_json=req.as_json,
                  fields=lambda: {"seed": seed, "mode": str(options.mode), "pick": str(options.pick)})
