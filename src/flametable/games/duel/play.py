"""``flametable play duel``: set up a match from the options, play it at the terminal, keep its record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from flametable.bots.registry import HUMAN
from flametable.cli.console import fail
from flametable.cli.help import H_
from flametable.cli.i18n import _, explain
from flametable.cli.options import (
    P1,
    P2,
    RECORD,
    RESUME,
    SEED,
    CardsOption,
    JsonOption,
    LangOption,
    seat_default,
    use_language,
)
from flametable.core import registry
from flametable.core.errors import DataError, FlametableError
from flametable.games.duel.rules import DuelOptions, Mode, Pick

# What plays the match is imported when a match is played, not whenever the command line is read.

MODE = typer.Option("--mode", help=H_("shared: one support deck; decks: a deck each."))
PICK = typer.Option("--pick", help=H_("random: characters dealt; draft: players pick them."))
DECK1 = typer.Option("--deck1", metavar="FILE", help=H_("Player 1's deck (TOML), with --mode decks; without it, a "
                                                         "random deck."))
DECK2 = typer.Option("--deck2", metavar="FILE", help=H_("Player 2's deck (TOML), with --mode decks; without it, a "
                                                         "random deck."))


def play_command(
    p1: Annotated[str, P1] = seat_default(HUMAN),
    p2: Annotated[str, P2] = seat_default("bot:random"),
    seed: Annotated[int | None, SEED] = None,
    lang: LangOption = None,
    mode: Annotated[Mode, MODE] = Mode.SHARED,
    pick: Annotated[Pick, PICK] = Pick.RANDOM,
    cards: CardsOption = None,
    deck1: Annotated[Path | None, DECK1] = None,
    deck2: Annotated[Path | None, DECK2] = None,
    record: Annotated[Path | None, RECORD] = None,
    resume: Annotated[Path | None, RESUME] = None,
    as_json: JsonOption = False,
) -> None:
    """``play duel`` (the registry's ``play`` piece of Flame Duel)."""
    use_language(lang)
    run_duel(DuelRequest((p1, p2), seed, mode, pick, cards, (deck1, deck2), record, as_json, resume))


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
    resume: Path | None = None

    def setup_options(self) -> dict[str, bool]:
        """Which of the duel's own options that set up a new match were typed (``--resume`` takes them from its
        record)."""
        return {"--mode": self.mode is not Mode.SHARED, "--pick": self.pick is not Pick.RANDOM,
                "--deck1": self.decks[0] is not None, "--deck2": self.decks[1] is not None}


def _options(req: DuelRequest) -> DuelOptions:
    from flametable.games.duel.cards import load_deck

    if req.mode is Mode.SHARED and any(req.decks):
        fail(_("--deck1 and --deck2 need --mode decks."), 2)
    if req.mode is Mode.DECKS and req.pick is Pick.DRAFT:
        fail(_("Own decks bring their characters: --pick draft needs --mode shared."), 2)
    decks: list[dict[str, Any] | None] = []
    for path in req.decks:
        try:
            decks.append(load_deck(path).to_json() if path is not None else None)
        except DataError as exc:
            fail(_("Bad deck file: {error}").format(error=explain(exc)))
    try:
        return DuelOptions.from_json({"mode": str(req.mode), "pick": str(req.pick), "decks": decks})
    except FlametableError as exc:
        fail(explain(exc), 2)


def run_duel(req: DuelRequest) -> None:
    from flametable.cli.playing import match_console, match_seed, only_resume, open_match, play_at_table
    from flametable.cli.seats import check_seat

    if req.resume is not None:
        only_resume(req.seats, req.seed, req.setup_options())
    else:
        options = _options(req)
    entry = registry.get("duel")
    try:
        game = entry.make(req.cards)
    except DataError as exc:
        fail(_("Bad card file: {error}").format(error=explain(exc)))

    def start_new() -> tuple[Any, Any, int]:
        seed = match_seed(req.seed)
        return game.new_match(options, seed), options.to_json(), seed

    record, state, save_to, notes = open_match(game, resume=req.resume, seats=req.seats, save_to=req.record,
                                               check=check_seat, start_new=start_new)
    if req.resume is not None:
        options = DuelOptions.from_json(record.options)  # start() has read them already
    else:
        notes = random_decks(options)
    seats = (record.players[0], record.players[1])
    table = entry.required("table")(match_console(req.as_json), game, seats)
    title = _("Flame Duel: {first} against {second}. Seed {seed} (play it again with --seed {seed}).").format(
        first=table.names[0], second=table.names[1], seed=record.seed)
    play_at_table(table, entry.required("narrator"), game, state, record, title=title, notes=notes,
                  save_to=save_to, as_json=req.as_json, resumed=req.resume is not None,
                  fields=lambda: {"seed": record.seed, "mode": str(options.mode), "pick": str(options.pick)})


def random_decks(options: DuelOptions) -> list[str]:
    """With own decks, a line for each player who brought no deck file: they play a random one (R2)."""
    from flametable.cli.table import seat_name

    if options.mode is not Mode.DECKS:
        return []
    return [_("{player} has no deck file (--deck{n}): they play a random deck of 3 characters and 8 to 12 support "
              "cards.").format(player=seat_name(seat), n=seat + 1)
            for seat, deck in enumerate(options.decks) if deck is None]
