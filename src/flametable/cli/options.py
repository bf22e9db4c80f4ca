"""The options that many commands share (seats, seed, language, JSON output, data files), and the language
they set; each game's own commands (``play duel``, ``play duals``, the generic ``play NAME``) use them."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from flametable.bots.registry import HUMAN
from flametable.cli import help
from flametable.cli.console import fail
from flametable.cli.help import H_, Said, said
from flametable.cli.i18n import _, explain, set_language, translate
from flametable.core.jsonerr import json_problem
from flametable.core.limits import LimitError, loads_json
from flametable.core.rng import SeedError, check_seed
from flametable.texts.commands import seat_spec, spoken_seat


class Lang(StrEnum):
    ES = "es"
    EN = "en"


LangOption = Annotated[
    Lang | None, typer.Option("--lang", help=H_("Language: es or en (default: from the locale)."), show_default=False)
]
JsonOption = Annotated[bool, typer.Option("--json", help=H_("Print the result as one JSON object."))]
CardsOption = Annotated[
    Path | None, typer.Option("--cards", metavar="FILE", help=H_("Play with this card set (TOML) instead of the "
                                                                "built-in one."))
]
DataOption = Annotated[
    Path | None, typer.Option("--cards", metavar="FILE", help=H_("Play with this data file (TOML: board, tokens, "
                                                                "shop deck) instead of the built-in one."))
]
GameDataOption = Annotated[
    Path | None, typer.Option("--cards", metavar="FILE", help=H_("Play with this card set or board data file."))
]

SEATS = ("bot:random", "bot:easy", "bot:medium", "bot:hard")
"""The bots the help names (there are more: :data:`flametable.bots.registry.BOT_NAMES`)."""
HUMAN_WORD = Said(lambda tr: spoken_seat(tr, HUMAN))
BOTS_WORDS = Said(lambda tr: ", ".join(spoken_seat(tr, seat) for seat in SEATS) + "...")


def seat_option(value: str) -> str:
    """A seat as typed (``humano``, ``bot:difícil``), in the words of either language: as seats are written
    (``human``, ``bot:hard``)."""
    return seat_spec(value)


def seat_default(seat: str) -> str:
    """A seat as an option's default (``human``), shown in the help in the terminal's language (``humano``)."""
    return said(seat, lambda tr: spoken_seat(tr, seat))


P1 = typer.Option("--p1", metavar="SEAT", callback=seat_option,
                  help=H_("Player 1: {human} or a bot ({bots}).", human=HUMAN_WORD, bots=BOTS_WORDS))
P2 = typer.Option("--p2", metavar="SEAT", callback=seat_option,
                  help=H_("Player 2: {human} or a bot ({bots}).", human=HUMAN_WORD, bots=BOTS_WORDS))
SEED = typer.Option("--seed", help=H_("Match seed (default: a random one, printed)."), show_default=False)
RECORD = typer.Option("--record", metavar="FILE", help=H_("Save the match record (JSON), written as the match goes."))
RESUME = typer.Option("--resume", metavar="FILE", help=H_(
    "Go on with the unfinished match of this record, with its seats, seed and options; the record goes on in "
    "FILE (or in --record)."))
OPTIONS = typer.Option("--options", metavar="JSON", help=H_("Game options as a JSON object, e.g. '{\"mode\": "
                                                           "\"decks\"}'."))


def use_language(lang: Lang | None) -> None:
    """Print in ``lang`` from now on (None: the ``--lang`` given elsewhere on the command line, else the language
    of the environment)."""
    set_language(str(lang) if lang is not None else help.requested)


def checked_seed(seed: int) -> int:
    """The seed typed, when it is in the documented range (0 to 2**64 - 1); else exit 2 saying so (a seed is never
    reduced: 2**64 + 1 would play the match of 1)."""
    try:
        return check_seed(seed)
    except SeedError as exc:
        fail(_("--seed: {problem}").format(problem=explain(exc)), 2)


def json_options(text: str | None) -> dict[str, Any]:
    """The game options typed as a JSON object (none: ``{}``); exit 2 saying what is wrong with them."""
    if not text:
        return {}
    try:
        data = loads_json(text)
    except LimitError as exc:
        fail(_("--options: {problem}").format(problem=explain(exc)), 2)
    except json.JSONDecodeError as exc:
        problem = translate(json_problem(exc))
        fail(_("--options is not valid JSON: {problem} (column {column})").format(problem=problem, column=exc.colno), 2)
    if not isinstance(data, dict):
        fail(_("--options must be a JSON object, got {value}").format(value=text), 2)
    return data


RAY = "--ray"
RAY_ALONE = "local"
"""The value of ``--ray`` written without an address: a local Ray for the run (Ray's own word for it)."""

RayOption = Annotated[str | None, typer.Option(RAY, metavar="ADDRESS", show_default=False, help=H_(
    "Run the matches as Ray tasks (Ray comes with flametable's cluster extra): on the cluster at ADDRESS "
    "(HOST:PORT, ray://HOST:PORT or auto), or without one on a local Ray started for the run."))]


def ray_alone(args: list[str]) -> list[str]:
    """``args`` with a ``--ray`` that has no address written ``--ray=local``: the next word is its address only
    when it looks like one (not an option, and a colon in it or ``auto`` / ``local``), so that ``sim --ray duel``
    keeps its game."""
    done: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            return done + args[i:]
        following = args[i + 1] if i + 1 < len(args) else ""
        address = not following.startswith("-") and (":" in following or following in ("auto", RAY_ALONE))
        if arg == RAY and not address:
            arg = f"{RAY}={RAY_ALONE}"
        done.append(arg)
    return done
