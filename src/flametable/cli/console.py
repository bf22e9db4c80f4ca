"""Where output goes: rich consoles for stdout and stderr, the tables both games draw, and clean error exits
(never a traceback)."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from flametable.cli import i18n
from flametable.texts.translator import Translator


def out(stderr: bool = False) -> Console:
    """A console on stdout (or stderr). Made per command: test runners swap the streams."""
    return Console(stderr=stderr, highlight=False)


def err() -> Console:
    return out(stderr=True)


NONE = "—"  # an empty cell or list


def simple_table(title: str | None = None) -> Table:
    """The plain table of the boards: a rule under the head, no frame, the title on the left."""
    return Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, title_justify="left", title_style="bold",
                 pad_edge=False)


def fail(message: str, code: int = 1, tr: Translator | None = None) -> NoReturn:
    """Print ``Error: message`` on stderr (in ``tr``'s language, by default the terminal's) and exit with
    ``code``."""
    _ = (tr or i18n.translator()).gettext
    err().print(_("Error: {message}").format(message=message), markup=False, soft_wrap=True)
    raise typer.Exit(code)


def print_json(data: Any) -> None:
    """One JSON object on stdout, nothing else (not through rich: no wrapping, no markup)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()
