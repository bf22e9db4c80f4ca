"""``flametable cards``: show a game's cards in the player's language, or check a data file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Group, RenderableType
from rich.text import Text

from flametable.cli.console import fail, out, print_json
from flametable.cli.games import checkable, detect, lookup
from flametable.cli.i18n import _, explain
from flametable.core.data import load_toml
from flametable.core.errors import DataError
from flametable.core.i18n import pick

T = TypeVar("T")


def check_file(game: str | None, file: Path) -> None:
    """Validate a data file of ``game`` (None: guessed from the content): a short OK summary (exit 0) or
    the DataError (exit 1)."""
    try:
        found = detect(load_toml(file)) if game is None else lookup(game)
        if found is None or not found.has("check"):
            fail(_("Unknown game {game!r}: choose one of {games}.").format(game=game, games=", ".join(checkable())),
                 2)
        summary = found.required("check")(file)
    except DataError as exc:
        fail(_("{file} is not a valid data file: {error}").format(file=file, error=explain(exc)))
    out().print(Text(_("OK: {summary}").format(summary=summary)), soft_wrap=True)


def load_or_fail(file: Path | None, load: Callable[[Path], T], builtin: Callable[[], T], bad: str) -> T:
    """The data of ``file`` (None: the built-in data); when it is not valid, exit saying ``bad`` (with the
    ``{error}``)."""
    try:
        return load(file) if file is not None else builtin()
    except DataError as exc:
        fail(bad.format(error=explain(exc)))


def show_page(data: T, as_json: bool, to_json: Callable[[T], dict[str, Any]],
              page: Callable[[T], list[RenderableType]]) -> None:
    """A game's data as one JSON object, or as a page of text in the player's language."""
    if as_json:
        print_json(to_json(data))
        return
    out().print(Group(*page(data)))


def page_title(name: Mapping[str, str], version: int, lang: str) -> Text:
    return Text(_("{name} (version {version})").format(name=pick(name, lang), version=version), style="bold")
