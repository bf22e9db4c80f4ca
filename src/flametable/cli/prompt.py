"""Reading a player's line from the terminal: EOF, Ctrl-C and ``quit`` end the match cleanly."""

from __future__ import annotations

import sys

from rich.console import Console

from flametable.cli import i18n
from flametable.texts.translator import Translator


class QuitMatch(Exception):
    """The player left (``how``: ``eof``, ``interrupt`` or ``quit``)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


def quit_words(tr: Translator | None = None) -> set[str]:
    """What a player types to leave: the English words and those of ``tr`` (default: the terminal's language)."""
    _ = (tr or i18n.translator()).gettext
    # Translators: typed by a player to leave the match
    return {"q", "quit", "exit", _("quit")}


def help_words(tr: Translator | None = None) -> set[str]:
    """What a player types to see the options again, in English and in ``tr``'s language."""
    _ = (tr or i18n.translator()).gettext
    # Translators: typed by a player to see the options again
    return {"?", "help", _("help")}


def log_words(tr: Translator | None = None) -> set[str]:
    """What a player types to see the match so far, in English and in ``tr``'s language."""
    _ = (tr or i18n.translator()).gettext
    # Translators: typed by a player to see what has happened so far in the match
    return {"log", _("log")}


def card_words(tr: Translator | None = None) -> set[str]:
    """What a player types before a card (``card C12``) to read it, in English and in ``tr``'s language."""
    _ = (tr or i18n.translator()).gettext
    # Translators: typed by a player before a card's number or name to read the card (card C12)
    return {"card", _("card")}


def read_line(console: Console, prompt: str, tr: Translator | None = None) -> str:
    """One line of input (stripped); raises :class:`QuitMatch` on EOF, Ctrl-C or a quit word (English or
    ``tr``'s language, by default the terminal's)."""
    if sys.stdin is None:  # started with standard input closed
        console.print(prompt, markup=False)
        raise QuitMatch("eof")
    try:
        line = console.input(prompt, markup=False)
    except EOFError:
        console.print()
        raise QuitMatch("eof") from None
    except KeyboardInterrupt:
        console.print()
        raise QuitMatch("interrupt") from None
    if not sys.stdin.isatty():
        console.print(line, markup=False, highlight=False)  # a script's input, shown as a terminal would
    text = line.strip()
    if text.lower() in quit_words(tr):
        raise QuitMatch("quit")
    return text
