"""The command line's own words in the player's language: the help texts of the commands and options, and the
words of Typer and click themselves (``Usage:``, ``Options``, ``[default: …]``, their error messages).

- Help texts are written with :func:`H_` (found by the extractor like ``_``): it keeps the English text, and
  :class:`LocalGroup` / :class:`LocalCommand` show it in the terminal's language when the help is printed, so one
  process can print help in either language (Typer's test runner does).
- Typer keeps its words as constants and its own copy of click writes them in English: :func:`install` sets the
  constants in the terminal's language, :class:`LocalCommand` translates ``Usage:``, and the usage errors are
  translated from their English form (:data:`TYPER_WORDS`, :data:`USAGE_ERRORS`).
- ``--lang`` is read from the command line before anything is parsed (:func:`early_language`), wherever it is
  (``flametable --help --lang es``, ``flametable play duel --lang es --help``), the locale being the default.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer.rich_utils
from typer.core import TyperCommand, TyperGroup

from flametable.cli import i18n
from flametable.core.i18n import LANGUAGES, N_

# Typer's own words a player may read in the help (Typer keeps some as constants, and its own copy of click writes
# them in English): translated where they are shown.
TYPER_WORDS = (
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Arguments"), N_("Error"), N_("Aborted."), N_("Aborted!"),
    N_("[default: {}]"), N_("[required]"), N_("[env var: {}]"), N_("(deprecated) "), N_("default: {default}"),
    N_("required"), N_("Show this message and exit."), N_("Try [blue]'{command_path} {help_option}'[/] for help."),
)
_TYPER_CONSTANTS = {
    "DEPRECATED_STRING": "(deprecated) ", "DEFAULT_STRING": "[default: {}]", "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]", "ARGUMENTS_PANEL_TITLE": "Arguments", "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands", "ERRORS_PANEL_TITLE": "Error", "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try [blue]'{command_path} {help_option}'[/] for help.",
}
# The usage errors of Typer's click, as they are written in English (a pattern each) and as a message to translate.
USAGE_ERRORS = (
    (r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)",
     N_("No such option: {name} (did you mean {options}?)")),
    (r"No such option: (?P<name>\S+)", N_("No such option: {name}")),
    (r"No such command (?P<name>'.*')\.", N_("No such command {name}.")),
    (r"Missing command\.", N_("Missing command.")),
    (r"Missing argument (?P<name>'.*')\.", N_("Missing argument {name}.")),
    (r"Missing option (?P<name>'.*')\.", N_("Missing option {name}.")),
    (r"Option (?P<name>'.*') requires an argument\.", N_("Option {name} requires an argument.")),
    (r"Option (?P<name>'.*') does not take a value\.", N_("Option {name} does not take a value.")),
    (r"Got unexpected extra arguments? \((?P<args>.*)\)", N_("Unexpected extra words: {args}")),
    (r"Invalid value for (?P<param>.+?): (?:Value error, )?(?P<value>'.*') is not one of (?P<choices>.*)\.",
     N_("Invalid value for {param}: {value} is none of {choices}.")),
    (r"Invalid value for (?P<param>.+?): Input should be a valid integer.*",
     N_("Invalid value for {param}: a whole number is expected.")),
    (r"Invalid value for (?P<param>.+?): Input should be a valid number.*",
     N_("Invalid value for {param}: a number is expected.")),
    (r"Invalid value for (?P<param>.+?): Input should be greater than or equal to (?P<least>\S+)",
     N_("Invalid value for {param}: it must be at least {least}.")),
    (r"Invalid value for (?P<param>.+?): (?P<message>.*)", N_("Invalid value for {param}: {message}")),
)
_USAGE_PATTERNS = tuple((re.compile(pattern, re.DOTALL), message) for pattern, message in USAGE_ERRORS)

requested: str | None = None
"""The language ``--lang`` asked for on the command line of this run (None: the locale's)."""
_HELP: dict[str, Callable[[i18n.Translator], str]] = {}  # a help text as shown in English -> it in a language


class Said:
    """A value of a help text that is itself said in the language the help is shown in (the seats' words:
    ``human``, ``humano``)."""

    def __init__(self, say: Callable[[i18n.Translator], str]) -> None:
        self.say = say

    def __format__(self, spec: str) -> str:
        return format(self.say(i18n.translator()), spec)


def _filled(message: str, values: dict[str, Any], tr: i18n.Translator) -> str:
    said = {key: value.say(tr) if isinstance(value, Said) else value for key, value in values.items()}
    return tr.translate(message).format(**said) if said else tr.translate(message)


def H_(message: str, /, **values: Any) -> str:
    """A help text: ``message`` (an English literal, extracted like ``_``) filled with ``values`` (a
    :class:`Said` value in the help's language), kept in English and shown in the terminal's language when the
    help is printed."""
    text = _filled(message, values, i18n.Translator.for_language("en"))
    _HELP[inspect.cleandoc(text)] = lambda tr: _filled(message, values, tr)
    return text


_DEFAULTS: dict[str, Callable[[i18n.Translator], str]] = {}  # an option's default -> it in a language


def said(default: str, say: Callable[[i18n.Translator], str]) -> str:
    """``default`` (an option's default value: ``human``), shown in the help as ``say`` writes it in the
    terminal's language (``humano``)."""
    _DEFAULTS[default] = say
    return default


def localized(text: str | None) -> str | None:
    """A help text (or one of click's words) in the terminal's language."""
    if not text:
        return text
    tr = i18n.translator()
    found = _HELP.get(inspect.cleandoc(text))
    if found is not None:
        return found(tr)
    return tr.translate(_english(text))


def placeholder(tr: i18n.Translator, name: str) -> str:
    """A placeholder of the help (an option's ``FILE``, a value's kind ``<int>``) in the language of ``tr``."""
    words = {
        # Translators: a placeholder of the command line's help (--record FILE): capitals, one word
        "FILE": tr.pgettext("placeholder", "FILE"),
        # Translators: placeholder of the help: a seat (--p1 SEAT: human or a bot)
        "SEAT": tr.pgettext("placeholder", "SEAT"),
        # Translators: placeholder of the help: a game's name (flametable sim GAME)
        "GAME": tr.pgettext("placeholder", "GAME"),
        # Translators: placeholder of the help: the file written (--html OUT)
        "OUT": tr.pgettext("placeholder", "OUT"),
        # Translators: placeholder of the help: a number (--bot-workers N)
        "N": tr.pgettext("placeholder", "N"),
        # Translators: placeholder of the help: a database's address (--db URL)
        "URL": tr.pgettext("placeholder", "URL"),
        # Translators: placeholder of the help: a Ray cluster's address (--ray ADDRESS)
        "ADDRESS": tr.pgettext("placeholder", "ADDRESS"),
        # Translators: placeholder of the help: addresses separated by commas (--forwarded-allow-ips ADDRESSES)
        "ADDRESSES": tr.pgettext("placeholder", "ADDRESSES"),
        # Translators: placeholder of the help: a value written in JSON (--options JSON)
        "JSON": tr.pgettext("placeholder", "JSON"),
        # Translators: placeholder of the help: the kind of an option's value, a whole number (--seed <int>)
        "<int>": tr.pgettext("placeholder", "<int>"),
        # Translators: placeholder of the help: the kind of an option's value, a number (--seconds <float>)
        "<float>": tr.pgettext("placeholder", "<float>"),
        # Translators: placeholder of the help: the kind of an option's value, a text (flametable sim <str>)
        "<str>": tr.pgettext("placeholder", "<str>"),
    }
    return words.get(name, name)


def _english(text: str) -> str:
    """One of Typer's words back in English, whatever language it was shown in."""
    for lang in LANGUAGES:
        translator = i18n.Translator.for_language(lang)
        for word in TYPER_WORDS:
            if translator.translate(word) == text:
                return word
    return text


def usage_error(message: str) -> str:
    """A usage error of Typer's click (English) in the terminal's language; one it does not know stays as it is."""
    tr = i18n.translator()
    for pattern, template in _USAGE_PATTERNS:
        found = pattern.fullmatch(message.strip())
        if found is not None:
            return tr.translate(template).format(**found.groupdict())
    return message


_original_format_error = typer.rich_utils.rich_format_error


def _format_error(self: Any) -> None:
    english = self.format_message
    self.format_message = lambda: usage_error(english())
    _original_format_error(self)


def install() -> None:
    """Typer speaks the terminal's language from now on (call again when the language changes: Typer keeps its
    words as constants)."""
    tr = i18n.translator()
    for constant, english in _TYPER_CONSTANTS.items():
        setattr(typer.rich_utils, constant, tr.translate(english))
    typer.rich_utils.rich_format_error = _format_error


def early_language(args: Sequence[str]) -> str | None:
    """The language ``--lang`` asks for anywhere on the command line (``--lang es`` or ``--lang=es``), or None."""
    for i, arg in enumerate(args):
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        if value in LANGUAGES:
            return value
    return None


@contextmanager
def _help_in_language(command: Any, ctx: Any) -> Iterator[None]:
    """While the help of ``command`` is printed: its texts, its options' and its subcommands' in the terminal's
    language (then back as they were)."""
    saved: list[tuple[Any, str, Any]] = []

    def swap(obj: Any, attr: str, say: Callable[[str], str | None] = localized) -> None:
        value = getattr(obj, attr, None)
        if isinstance(value, str):
            saved.append((obj, attr, value))
            setattr(obj, attr, say(value))

    params = command.get_params(ctx)
    objects: list[Any] = [command, *params]
    if isinstance(command, TyperGroup):
        objects += command.commands.values()
    for obj in objects:
        swap(obj, "help")
        swap(obj, "short_help")
    tr = i18n.translator()
    for param in params:
        swap(param, "default", lambda value: _DEFAULTS[value](tr) if value in _DEFAULTS else value)
        swap(param, "metavar", lambda name: placeholder(tr, name))
    install()
    try:
        yield
    finally:
        for obj, attr, value in reversed(saved):
            setattr(obj, attr, value)


USAGE_PIECES = {"[OPTIONS]": N_("[OPTIONS]"), "COMMAND [ARGS]...": N_("COMMAND [ARGS]..."),
                "[ARGS]...": N_("[ARGS]...")}
"""click's own words in a usage line (``flametable [OPTIONS] COMMAND [ARGS]...``), translated where shown."""


def _pieces(pieces: list[str]) -> list[str]:
    tr = i18n.translator()
    return [tr.translate(USAGE_PIECES[p]) if p in USAGE_PIECES else p for p in pieces]


def _usage(text: str) -> str:
    english = "Usage: "
    return i18n.translator().translate("Usage:") + " " + text[len(english):] if text.startswith(english) else text


class _InLanguage:
    """Help and usage lines in the terminal's language, for a command or a group (mixed in before Typer's class)."""

    def get_usage(self, ctx: Any) -> str:
        return _usage(super().get_usage(ctx))  # type: ignore[misc]

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return _pieces(super().collect_usage_pieces(ctx))  # type: ignore[misc]

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with _help_in_language(self, ctx):
            super().format_help(ctx, formatter)  # type: ignore[misc]


class LocalCommand(_InLanguage, TyperCommand):
    """A command whose help is printed in the terminal's language."""


class LocalGroup(_InLanguage, TyperGroup):
    """A command group whose help is printed in the terminal's language; as the program's group, it reads
    ``--lang`` (or the locale) before parsing anything."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **kwargs: Any) -> Any:
        import sys

        global requested
        argv = list(sys.argv[1:] if args is None else args)
        requested = early_language(argv)
        i18n.set_language(requested)
        install()
        return super().main(argv, *rest, **kwargs)


__all__ = ["H_", "TYPER_WORDS", "USAGE_ERRORS", "LocalCommand", "LocalGroup", "Said", "early_language", "install",
           "localized", "placeholder", "said"]
