"""Reading a player's line from the terminal: EOF, Ctrl-C and ``quit`` end the match cleanly."""

from __future__ import annotations

import sys

from rich.console import Console

from flametable.cli.i18n import _


class QuitMatch(Exception):
    """The player left (``how``: ``eof``, ``interrupt`` or ``quit``)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


def quit_words() -> set[str]:
    # Translators: typed by a player to leave the match
    return {"q", "quit", "exit", _("quit")}


def help_words() -> set[str]:
    # Translators: typed by a player to see the options again
    return {"?", "help", _("help")}


def read_line(console: Console, prompt: str) -> str:
    """One line of input (stripped); raises :class:`QuitMatch` on EOF, Ctrl-C or a quit word."""
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
    if text.lower() in quit_words():
        raise QuitMatch("quit")
    return text
