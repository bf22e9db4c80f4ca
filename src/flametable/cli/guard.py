"""The last line of defence: an exception no command expected becomes one translated line on stderr and a
non-zero exit, never a traceback on a player's screen.

Every command of ``flametable`` runs inside :func:`guarded`. What a command means to end with passes through
as it is: its exits (``typer.Exit``, ``typer.Abort``), click's usage errors, Ctrl-C (a ``BaseException``)
and the end of input. A project error (:class:`~flametable.core.errors.FlametableError`) that no command
caught is shown like every other error, ``Error: ...`` in the player's language, exit 1. Anything else is a
bug: the player reads ``Internal error: please report it with this file: FILE`` (the input files of the
command, or its command line when it reads none) and the program ends with :data:`INTERNAL_ERROR`.

``FLAMETABLE_DEBUG=1`` in the environment also prints the traceback first, for developers.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer
from typer._click.exceptions import ClickException

from flametable.cli.console import fail
from flametable.cli.i18n import _, explain, ngettext
from flametable.core.errors import FlametableError

INTERNAL_ERROR = 70
"""The exit code of an unexpected exception (``EX_SOFTWARE`` of sysexits.h)."""

DEBUG_VARIABLE = "FLAMETABLE_DEBUG"
"""Set to ``1`` (any value but empty or ``0``): the traceback is printed before the line."""

OUTPUT_PARAMETERS = frozenset({"record", "html_out", "out_file"})
"""Path parameters a command writes, not reads: never named as the file to report."""

EXPECTED: tuple[type[BaseException], ...] = (typer.Exit, typer.Abort, ClickException, EOFError, BrokenPipeError)
"""How a command means to end: passed through untouched (the exit code and message they carry; a closed pipe
is Typer's to handle)."""


command_line: list[str] = []
"""The arguments of the running program (set by the program's group as it starts: a test's runner passes its
own, not ``sys.argv``)."""


def input_files(params: Mapping[str, Any]) -> list[str]:
    """The files a command reads, from its parsed parameters (paths that are not outputs), in their order."""
    return [str(value) for name, value in params.items() if isinstance(value, Path) and name not in OUTPUT_PARAMETERS]


def debugging(env: Mapping[str, str] | None = None) -> bool:
    value = (os.environ if env is None else env).get(DEBUG_VARIABLE, "")
    return value not in ("", "0")


def internal_error_line(files: Sequence[str], command: Sequence[str]) -> str:
    """The one line a player reads, in the terminal's language."""
    if files:
        return ngettext("Internal error: please report it with this file: {files}",
                        "Internal error: please report it with these files: {files}", len(files)).format(
            files=", ".join(files))
    return _("Internal error: please report it with this command line: {command}").format(
        command=" ".join(["flametable", *command]))


def _write_safely(text: str) -> None:
    """``text`` and a newline on stderr, whatever it holds (a file name with a lone surrogate, a stream that
    cannot encode it): the line itself must not fail."""
    stream = sys.stderr
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        safe = text.encode(encoding, "backslashreplace").decode(encoding, "replace")
    except LookupError:
        safe = text.encode("ascii", "backslashreplace").decode("ascii")
    stream.write(safe + "\n")
    stream.flush()


def report(exc: BaseException, files: Sequence[str], command: Sequence[str]) -> None:
    """Tell the player (and, debugging, the developer) about an unexpected exception."""
    if debugging():
        _write_safely("".join(traceback.format_exception(exc)).rstrip("\n"))
    _write_safely(internal_error_line(files, command))


@contextmanager
def guarded(files: Sequence[str] = (), command: Sequence[str] | None = None) -> Iterator[None]:
    """Run a command's body: expected ends pass through, a stray project error is shown as an error, anything
    else is reported as an internal error (exit :data:`INTERNAL_ERROR`)."""
    try:
        yield
    except EXPECTED:
        raise
    except FlametableError as exc:
        fail(explain(exc))
    except Exception as exc:
        report(exc, files, command_line if command is None else command)
        raise typer.Exit(INTERNAL_ERROR) from exc


def last_resort(exc: Exception, command: Sequence[str]) -> NoReturn:
    """An exception that escaped even the commands' guard (in the program's group itself): the same line,
    naming the command line, and the same exit code."""
    report(exc, (), command)
    sys.exit(INTERNAL_ERROR)
