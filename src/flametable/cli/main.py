"""The ``flametable`` command: Typer wiring only; each command's work lives in its own module.

Help texts are translated with the language of the environment (LC_ALL, LC_MESSAGES, LANG); each
command's ``--lang`` then chooses the language of what it prints.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from flametable.cli.i18n import _, set_language
from flametable.duel.rules import Mode, Pick


class Lang(StrEnum):
    ES = "es"
    EN = "en"


LangOption = Annotated[
    Lang | None, typer.Option("--lang", help=_("Language: es or en (default: from the locale)."), show_default=False)
]
JsonOption = Annotated[bool, typer.Option("--json", help=_("Print the result as one JSON object."))]
CardsOption = Annotated[
    Path | None, typer.Option("--cards", metavar="FILE", help=_("Play with this card set (TOML) instead of the "
                                                                "built-in one."))
]


def _lang(lang: Lang | None) -> None:
    set_language(str(lang) if lang is not None else None)


app = typer.Typer(help=_("Flame Duel (and soon Flamecraft Duals) at your terminal."), no_args_is_help=True,
                  add_completion=False, pretty_exceptions_show_locals=False)
play_app = typer.Typer(help=_("Play a match."), no_args_is_help=True)
cards_app = typer.Typer(help=_("Show a game's cards or check a card file."), no_args_is_help=True)
bench_app = typer.Typer(help=_("Measure the speed of a rules engine."), no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(cards_app, name="cards")
app.add_typer(bench_app, name="bench")


SEATS = "bot:random, bot:easy, bot:medium, bot:hard..."
P1 = typer.Option("--p1", metavar="SEAT", help=_("Player 1: human or a bot ({bots}).").format(bots=SEATS))
P2 = typer.Option("--p2", metavar="SEAT", help=_("Player 2: human or a bot ({bots}).").format(bots=SEATS))
SEED = typer.Option("--seed", help=_("Match seed (default: a random one, printed)."), show_default=False)
MODE = typer.Option("--mode", help=_("shared: one support deck; decks: a deck each."))
PICK = typer.Option("--pick", help=_("random: characters dealt; draft: players pick them."))
DECK1 = typer.Option("--deck1", metavar="FILE", help=_("Player 1's deck (TOML), with --mode decks."))
DECK2 = typer.Option("--deck2", metavar="FILE", help=_("Player 2's deck (TOML), with --mode decks."))
RECORD = typer.Option("--record", metavar="FILE", help=_("Save the match record (JSON)."))


@play_app.command("duel", help=_("Play Flame Duel: humans at this terminal (hot-seat for two) or bots."))
def play_duel(
    p1: Annotated[str, P1] = "human",
    p2: Annotated[str, P2] = "bot:random",
    seed: Annotated[int | None, SEED] = None,
    lang: LangOption = None,
    mode: Annotated[Mode, MODE] = Mode.SHARED,
    pick: Annotated[Pick, PICK] = Pick.RANDOM,
    cards: CardsOption = None,
    deck1: Annotated[Path | None, DECK1] = None,
    deck2: Annotated[Path | None, DECK2] = None,
    record: Annotated[Path | None, RECORD] = None,
    as_json: JsonOption = False,
) -> None:
    from flametable.cli.play import DuelRequest, run_duel

    _lang(lang)
    run_duel(DuelRequest((p1, p2), seed, mode, pick, cards, (deck1, deck2), record, as_json))


@app.command("replay", help=_("Replay a match record, checking every action."))
def replay_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=_("The match record (JSON)."), show_default=False)],
    verify: Annotated[bool, typer.Option("--verify", help=_("Also check the stored result."))] = False,
    as_json: JsonOption = False,
    cards: CardsOption = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.replay import run_replay

    _lang(lang)
    run_replay(file, verify, as_json, cards)


@cards_app.command("duel", help=_("Show the Flame Duel cards."))
def cards_duel(lang: LangOption = None, as_json: JsonOption = False, cards: CardsOption = None) -> None:
    from flametable.cli.cards import show_duel

    _lang(lang)
    show_duel(cards, as_json)


@cards_app.command("check", help=_("Check a card file: every problem names the file, the entry and the field."))
def cards_check(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=_("The card file (TOML)."), show_default=False)],
    game: Annotated[str | None, typer.Option("--game", help=_("The game of the file (default: guessed from its "
                                                              "content)."), show_default=False)] = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.cards import check_file

    _lang(lang)
    check_file(game, file)


@bench_app.command("duel", help=_("Random Flame Duel playouts on one core: steps and matches per second."))
def bench_duel(
    seconds: Annotated[float, typer.Option("--seconds", min=0.0, help=_("How long to run."))] = 5.0,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    from flametable.cli.bench import run_bench
    from flametable.duel.game import DuelGame

    _lang(lang)
    run_bench(DuelGame(), seconds, as_json)


def main() -> None:
    app()
