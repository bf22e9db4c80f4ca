"""Where output goes: rich consoles for stdout and stderr, the tables both games draw, and clean error exits
(never a traceback)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import typer
from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

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


class Grid:
    """Numbered entries in as many columns as the width allows, in reading order (left to right, then the next
    row), every column as wide as the widest entry: the numbers read in order, whatever wraps."""

    def __init__(self, entries: Sequence[Text], gap: int = 2) -> None:
        self.entries = entries
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max((e.cell_len for e in self.entries), default=1)
        columns = max(1, (options.max_width + self.gap) // (width + self.gap))
        table = Table(box=None, show_header=False, pad_edge=False, padding=(0, self.gap, 0, 0))
        if columns == 1:  # one column: long entries wrap
            table.add_column(overflow="fold")
        for _ in range(min(columns, len(self.entries)) if columns > 1 else 0):
            table.add_column(width=width, no_wrap=True)
        for row in range(0, len(self.entries), columns):
            table.add_row(*self.entries[row:row + columns])
        yield table


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
