"""The ``flametable`` command: Typer wiring only; each command's work lives in its own module.

Help texts are translated with the language of the environment (LC_ALL, LC_MESSAGES, LANG); each
command's ``--lang`` then chooses the language of what it prints.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperOption

from flametable.bots.registry import HUMAN
from flametable.cli import guard
from flametable.cli.console import err, fail
from flametable.cli.guard import EXPECTED, guarded, input_files, last_resort
from flametable.cli.help import H_, LocalCommand, LocalGroup, placeholder, said
from flametable.cli.i18n import _, translate, translator
from flametable.cli.options import (
    OPTIONS,
    P1,
    P2,
    RECORD,
    RESUME,
    SEED,
    GameDataOption,
    JsonOption,
    LangOption,
    RayOption,
    ray_alone,
    seat_default,
    seat_option,
    use_language,
)
from flametable.core import registry
from flametable.texts.commands import seat_spec, spoken_seat

LADDER_BOTS = ("bot:random", "bot:easy", "bot:medium", "bot:hard")


class Command(LocalCommand):
    """Every command of the program: an unexpected exception in its work ends in one translated line naming
    its input files, never a traceback (:mod:`flametable.cli.guard`)."""

    def invoke(self, ctx: Any) -> Any:
        with guarded(input_files(ctx.params)):
            return super().invoke(ctx)


class LabCommand(Command):
    """A command of the lab, whose ``--ray`` may have no address (:func:`flametable.cli.options.ray_alone`)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, ray_alone(args))


class ProgramGroup(LocalGroup):
    """The program's group: what escapes even the commands' guard (a group's own callback) ends the same way,
    naming the command line."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        guard.command_line[:] = argv
        try:
            return super().main(argv, *rest, **kwargs)
        except Exception as exc:  # the last line of defence: see flametable.cli.guard
            if isinstance(exc, EXPECTED):
                raise
            last_resort(exc, argv)


class GameGroup(LocalGroup):
    """A command group with one subcommand per game (``play NAME``): an unknown name gets a translated error
    listing the games."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else None
        if name is not None and not name.startswith("-") and self.get_command(ctx, name) is None:
            if registry.find(name) is not None:
                fail(_("The game {game} has no {command} command.").format(game=name, command=ctx.info_name), 2)
            fail(registry.UnknownGame(name, registry.names()).translated(translate), 2)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        """Options but no game (``flametable play --lang es``): the games are named, with an example."""
        if not ctx._protected_args and not ctx.args:
            games = [name for name in registry.names() if self.get_command(ctx, name) is not None]
            fail(_("Name the game after {command}: {games} (for example {example}).").format(
                command=ctx.command_path, games=", ".join(games), example=f"{ctx.command_path} {games[0]}"), 2)
        return super().invoke(ctx)


app = typer.Typer(cls=ProgramGroup, help=H_("Flame Duel and Flamecraft Duals at your terminal."),
                  no_args_is_help=True, add_completion=False, pretty_exceptions_show_locals=False)
play_app = typer.Typer(cls=GameGroup, help=H_("Play a match."), no_args_is_help=True)
cards_app = typer.Typer(cls=GameGroup, help=H_("Show a game's cards or check a card file."), no_args_is_help=True)
bench_app = typer.Typer(cls=GameGroup, help=H_("Measure the speed of a rules engine."), no_args_is_help=True)
db_app = typer.Typer(cls=LocalGroup, help=H_("Manage the game server's database."), no_args_is_help=True)


def _group_language(lang: LangOption = None) -> None:
    """``--lang`` before the game's name too (``flametable play --lang es duel``)."""
    if lang is not None:
        use_language(lang)


for _group in (play_app, cards_app, bench_app, db_app):
    _group.callback()(_group_language)
app.add_typer(play_app, name="play")
app.add_typer(cards_app, name="cards")
app.add_typer(bench_app, name="bench")
app.add_typer(db_app, name="db")

_option_type = TyperOption.display_type_rich


def _switch_has_no_type(self: TyperOption, ctx: Any) -> str | None:
    """A switch (``--verify``, ``--json``, ``--help``) takes no value: the help shows no ``<bool>`` beside it."""
    shown = None if self.is_flag else _option_type(self, ctx)
    return None if shown is None else placeholder(translator(), shown)


_argument_type = TyperArgument.display_type_rich


def _argument_type_in_language(self: TyperArgument, ctx: Any) -> str | None:
    """An argument's kind (``<str>``) in the terminal's language, as the options' are."""
    shown = _argument_type(self, ctx)
    return None if shown is None else placeholder(translator(), shown)


TyperOption.display_type_rich = _switch_has_no_type  # type: ignore[method-assign]
TyperArgument.display_type_rich = _argument_type_in_language  # type: ignore[method-assign,assignment]


def _show_version(value: bool) -> None:
    if value:
        import flametable

        print(f"flametable {flametable.__version__}")
        raise typer.Exit()


_reported = False


@app.callback()
def _startup(
    version: Annotated[bool, typer.Option("--version", help=H_("Show the version and exit."), is_eager=True,
                                          callback=_show_version)] = False,
    lang: LangOption = None,
) -> None:
    """Report the plug-in games that could not be loaded (once per process); the other games work on. ``--lang``
    here (``flametable --lang es play duel``) is the language of every command (read before parsing: see
    :mod:`flametable.cli.help`)."""
    global _reported
    if lang is not None:
        use_language(lang)
    if _reported:
        return
    _reported = True
    for broken in registry.broken():
        err().print(_("The plug-in game {name} of {distribution} cannot be loaded and is skipped: {error}").format(
            name=broken.name, distribution=broken.distribution, error=broken.error),
            markup=False, soft_wrap=True)


def _help(entry: registry.GameEntry, command: str, default: str) -> str:
    text = entry.help.get(command)
    return H_(text) if text else default


def _bench_command(entry: registry.GameEntry) -> Callable[..., None]:
    """``bench NAME``: random playouts of that game on one core."""

    def bench(
        seconds: Annotated[float, typer.Option("--seconds", min=0.0, help=H_("How long to run."))] = 5.0,
        as_json: JsonOption = False,
        lang: LangOption = None,
    ) -> None:
        from flametable.cli.bench import run_bench
        from flametable.cli.generic import make_game_or_fail

        use_language(lang)
        run_bench(make_game_or_fail(entry, None), seconds, as_json)

    return bench


def _cards_command(entry: registry.GameEntry) -> Callable[..., None]:
    """``cards NAME``: the game's data in the player's language, or as JSON."""

    def cards(lang: LangOption = None, as_json: JsonOption = False, cards: GameDataOption = None) -> None:
        use_language(lang)
        entry.required("cards")(cards, as_json)

    return cards


def _plain_play_command(entry: registry.GameEntry) -> Callable[..., None]:
    """``play NAME`` for a game without a play command of its own: plain notation (:mod:`flametable.cli.generic`)."""

    def play(
        p1: Annotated[str, P1] = seat_default(HUMAN),
        p2: Annotated[str, P2] = seat_default("bot:random"),
        seed: Annotated[int | None, SEED] = None,
        lang: LangOption = None,
        options: Annotated[str | None, OPTIONS] = None,
        cards: GameDataOption = None,
        record: Annotated[Path | None, RECORD] = None,
        resume: Annotated[Path | None, RESUME] = None,
        as_json: JsonOption = False,
    ) -> None:
        from flametable.cli.generic import run_plain

        use_language(lang)
        run_plain(entry, (p1, p2), seed, options, cards, record, as_json, resume)

    return play


def _add_game_commands() -> None:
    """One ``play``, ``bench`` and (for a game with data to show) ``cards`` subcommand per game of the registry."""
    for entry in registry.entries():
        try:
            play = entry.piece("play") or _plain_play_command(entry)
        except registry.PieceError as exc:
            registry.GAMES.skip(entry.name, exc)  # reported with the plug-ins that could not be loaded
            continue
        play_app.command(entry.name, cls=Command, help=_help(entry, "play", H_("Play a match.")))(play)
        bench_app.command(entry.name, cls=Command,
                          help=_help(entry, "bench", H_("Measure the speed of a rules engine.")))(_bench_command(entry))
        if entry.has("cards"):
            cards_app.command(entry.name, cls=Command,
                              help=_help(entry, "cards", H_("Show a game's cards or check a card file.")))(
                _cards_command(entry))


@app.command("replay", cls=Command, help=H_("Replay a match record, checking every action."))
def replay_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=H_("The match record (JSON)."), show_default=False)],
    verify: Annotated[bool, typer.Option("--verify", help=H_("Also check the stored result."))] = False,
    as_json: JsonOption = False,
    cards: GameDataOption = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.replay import run_replay

    use_language(lang)
    run_replay(file, verify, as_json, cards)


@cards_app.command("check", cls=Command,
                   help=H_("Check a card file or a Flame Duel deck: every problem names the file, the entry and the "
                           "field."))
def cards_check(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=H_("The card, board or deck file (TOML)."),
                                         show_default=False)],
    game: Annotated[str | None, typer.Option("--game", help=H_("The game of the file (default: guessed from its "
                                                              "content)."), show_default=False)] = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.cards import check_file

    use_language(lang)
    check_file(game, file)


GAME_ARG = typer.Argument(metavar="GAME", help=H_("The game: {games}.", games=", ".join(registry.names())),
                          show_default=False)


@app.command("sim", cls=LabCommand,
             help=H_("Simulate seeded matches between two bots, in parallel; win/draw/loss with 95% intervals."))
def sim_cmd(
    game: Annotated[str, GAME_ARG],
    p1: Annotated[str, typer.Option("--p1", metavar="SEAT", callback=seat_option,
                                    help=H_("The first bot."))] = seat_default("bot:greedy"),
    p2: Annotated[str, typer.Option("--p2", metavar="SEAT", callback=seat_option,
                                    help=H_("The second bot."))] = seat_default("bot:random"),
    games: Annotated[int, typer.Option("--games", help=H_("How many matches."))] = 100,
    jobs: Annotated[int, typer.Option("--jobs", help=H_("Parallel processes."))] = 1,
    seed: Annotated[int, typer.Option("--seed", help=H_("The run's seed: same seed, same results."))] = 0,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE", help=H_(
        "Write every match's result: JSON lines, or CSV when FILE ends in .csv."))] = None,
    options: Annotated[str | None, OPTIONS] = None,
    data: Annotated[Path | None, typer.Option("--data", metavar="FILE", help=H_(
        "Play with this card set or board data file."))] = None,
    records: Annotated[bool, typer.Option("--records", help=H_("Keep each match's record in the results."))] = False,
    ray: RayOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    from flametable.cli.lab import run_sim

    use_language(lang)
    run_sim(game, p1, p2, games, jobs, seed, out_file, options, data, records, as_json, ray)


@app.command("report", cls=Command,
             help=H_("Turn sim results into a self-contained HTML balance report with plots."))
def report_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help=H_("Results of flametable sim --out."),
                                         show_default=False)],
    html_out: Annotated[Path, typer.Option("--html", metavar="OUT", help=H_("The HTML file to write."))],
    cards: GameDataOption = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.lab import run_report

    use_language(lang)
    run_report(file, html_out, cards)


@app.command("ladder", cls=LabCommand,
             help=H_("Play the bots round-robin and print Elo ratings with 95% intervals."))
def ladder_cmd(
    game: Annotated[str, GAME_ARG],
    bots: Annotated[str, typer.Option("--bots", help=H_("Comma-separated bots."))] = said(
        ",".join(LADDER_BOTS), lambda tr: ",".join(spoken_seat(tr, bot) for bot in LADDER_BOTS)),
    games: Annotated[int, typer.Option("--games", help=H_("Matches per pair."))] = 20,
    jobs: Annotated[int, typer.Option("--jobs", help=H_("Parallel processes."))] = 1,
    seed: Annotated[int, typer.Option("--seed", help=H_("The run's seed."))] = 0,
    ray: RayOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    from flametable.cli.lab import run_ladder

    use_language(lang)
    run_ladder(game, [seat_spec(b.strip()) for b in bots.split(",") if b.strip()], games, jobs, seed, as_json, ray)


DbOption = Annotated[str | None, typer.Option("--db", metavar="URL", help=H_(
    "The database: a file path, sqlite:///FILE or postgresql://USER@HOST/DATABASE (default: flametable.db in "
    "your data directory)."), show_default=False)]


@app.command("serve", cls=Command, help=H_("Serve both games online: rooms, seats, bots and spectators over HTTP "
                                            "and WebSockets."))
def serve_cmd(
    host: Annotated[str, typer.Option("--host", help=H_("The address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=H_("The port to listen on."))] = 8000,
    db: DbOption = None,
    bot_workers: Annotated[int | None, typer.Option("--bot-workers", metavar="N", help=H_(
        "Processes where the searching bots think (default: one per core); the quick bots have one of their "
        "own."), show_default=False)] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option("--forwarded-allow-ips", metavar="ADDRESSES", help=H_(
        "Behind a proxy: its addresses or networks, separated by commas (10.0.0.5,10.0.0.6), whose "
        "X-Forwarded-For and X-Forwarded-Proto headers are trusted; * trusts any peer, only for a proxy that is "
        "the only way in. Without it no such header is trusted, not even from 127.0.0.1."),
        show_default=False)] = None,
    workers: Annotated[int, typer.Option("--workers", metavar="N", help=H_(
        "Server processes on the one port, each serving any client of any room (above 1: needs --redis and a "
        "PostgreSQL database)."))] = 1,
    redis: Annotated[str | None, typer.Option("--redis", metavar="URL", help=H_(
        "The Redis (redis://HOST:6379/0) through which several server processes on one PostgreSQL database pass "
        "the rooms' messages: with --workers, or several serve commands on other ports or machines."),
        show_default=False)] = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.serve import run_serve

    use_language(lang)
    run_serve(host, port, db, lang, bot_workers, forwarded_allow_ips, workers=workers, redis=redis)


@db_app.command("upgrade", cls=Command, help=H_("Bring the database to the latest version of its tables."))
def db_upgrade_cmd(
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    from flametable.cli.db import run_upgrade

    use_language(lang)
    run_upgrade(db)


_add_game_commands()


def main() -> None:
    app()
