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

LADDER_BOTS = ("bot:random", "bot:easy", "bot:medium", "bot:hard")


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


app = typer.Typer(help=_("Flame Duel and Flamecraft Duals at your terminal."), no_args_is_help=True,
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
BUDDY = typer.Option("--buddy", help=_("The Buddy variant: the Buddy token joins the bag (D11)."))
DataOption = Annotated[
    Path | None, typer.Option("--cards", metavar="FILE", help=_("Play with this data file (TOML: board, tokens, "
                                                                "shop deck) instead of the built-in one."))
]


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


@play_app.command("duals", help=_("Play Flamecraft Duals: humans at this terminal (hot-seat for two) or bots."))
def play_duals(
    p1: Annotated[str, P1] = "human",
    p2: Annotated[str, P2] = "bot:random",
    seed: Annotated[int | None, SEED] = None,
    lang: LangOption = None,
    buddy: Annotated[bool, BUDDY] = False,
    cards: DataOption = None,
    record: Annotated[Path | None, RECORD] = None,
    as_json: JsonOption = False,
) -> None:
    from flametable.cli.duals_play import DualsRequest, run_duals

    _lang(lang)
    run_duals(DualsRequest((p1, p2), seed, buddy, cards, record, as_json))


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


@cards_app.command("duals", help=_("Show the Flamecraft Duals shop deck, tokens and board."))
def cards_duals(lang: LangOption = None, as_json: JsonOption = False, cards: DataOption = None) -> None:
    from flametable.cli.duals_cards import show_duals

    _lang(lang)
    show_duals(cards, as_json)


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


def _bench_command(game: str, help_text: str) -> None:
    """Register ``bench GAME``: random playouts of that game on one core."""

    def bench(
        seconds: Annotated[float, typer.Option("--seconds", min=0.0, help=_("How long to run."))] = 5.0,
        as_json: JsonOption = False,
        lang: LangOption = None,
    ) -> None:
        from flametable.cli.bench import run_bench
        from flametable.sim.games import make_game

        _lang(lang)
        run_bench(make_game(game), seconds, as_json)

    bench_app.command(game, help=help_text)(bench)


_bench_command("duel", _("Random Flame Duel playouts on one core: steps and matches per second."))
_bench_command("duals", _("Random Flamecraft Duals playouts on one core: steps and matches per second."))


GAME_ARG = typer.Argument(metavar="GAME", help=_("duel or duals."), show_default=False)


@app.command("sim", help=_("Simulate seeded matches between two bots, in parallel; win/draw/loss with 95% intervals."))
def sim_cmd(
    game: Annotated[str, GAME_ARG],
    p1: Annotated[str, typer.Option("--p1", metavar="SEAT", help=_("The first bot."))] = "bot:greedy",
    p2: Annotated[str, typer.Option("--p2", metavar="SEAT", help=_("The second bot."))] = "bot:random",
    games: Annotated[int, typer.Option("--games", help=_("How many matches."))] = 100,
    jobs: Annotated[int, typer.Option("--jobs", help=_("Parallel processes."))] = 1,
    seed: Annotated[int, typer.Option("--seed", help=_("The run's seed: same seed, same results."))] = 0,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE", help=_(
        "Write every match's result: JSON lines, or CSV when FILE ends in .csv."))] = None,
    options: Annotated[str | None, typer.Option("--options", metavar="JSON", help=_(
        "Game options as a JSON object, e.g. '{\"mode\": \"decks\"}'."))] = None,
    data: Annotated[Path | None, typer.Option("--data", metavar="FILE", help=_(
        "Play with this card set or board data file."))] = None,
    records: Annotated[bool, typer.Option("--records", help=_("Keep each match's record in the results."))] = False,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    from flametable.cli.lab import run_sim

    _lang(lang)
    run_sim(game, p1, p2, games, jobs, seed, out_file, options, data, records, as_json)


@app.command("report", help=_("Turn sim results into a self-contained HTML balance report with plots."))
def report_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=_("Results of flametable sim --out."),
                                         show_default=False)],
    html_out: Annotated[Path, typer.Option("--html", metavar="OUT", help=_("The HTML file to write."))],
    cards: CardsOption = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.lab import run_report

    _lang(lang)
    run_report(file, html_out, cards)


@app.command("ladder", help=_("Play the bots round-robin and print Elo ratings with 95% intervals."))
def ladder_cmd(
    game: Annotated[str, GAME_ARG],
    bots: Annotated[str, typer.Option("--bots", help=_("Comma-separated bots."))] = ",".join(LADDER_BOTS),
    games: Annotated[int, typer.Option("--games", help=_("Matches per pair."))] = 20,
    jobs: Annotated[int, typer.Option("--jobs", help=_("Parallel processes."))] = 1,
    seed: Annotated[int, typer.Option("--seed", help=_("The run's seed."))] = 0,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    from flametable.cli.lab import run_ladder

    _lang(lang)
    run_ladder(game, [b.strip() for b in bots.split(",") if b.strip()], games, jobs, seed, as_json)


def main() -> None:
    app()
