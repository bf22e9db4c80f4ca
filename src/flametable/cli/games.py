"""The games the interface knows, looked up by name (a record's ``game``, a subcommand).

Each entry says how to make the game from an optional data file and how to check such a file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from flametable.cli.i18n import _
from flametable.core.protocol import Game
from flametable.duals.data import load_duals_data
from flametable.duel.cards import load_card_set
from flametable.sim.games import make_game


@dataclass(frozen=True)
class GameEntry:
    make: Callable[[Path | None], Game[Any, Any]]
    """The game playing with the data file given (``None``: the built-in data); raises DataError."""
    check: Callable[[Path], str]
    """Validate a data file: a one-line translated summary, or a DataError naming file, entry and field."""
    claims: Callable[[Mapping[str, Any]], bool]
    """Whether parsed TOML content looks like this game's data (``cards check`` without ``--game``)."""


def _make(name: str, path: Path | None) -> Game[Any, Any]:
    game: Game[Any, Any] = make_game(name, str(path) if path is not None else None)
    return game


def _check_duel(path: Path) -> str:
    cards = load_card_set(path)
    return _("{file}: card set {id} (version {version}): {characters} characters and {supports} support cards.").format(
        file=path, id=cards.id, version=cards.version, characters=len(cards.characters),
        supports=len(cards.supports))


def _claims_duel(data: Mapping[str, Any]) -> bool:
    return "character" in data or "support" in data


def _check_duals(path: Path) -> str:
    data = load_duals_data(path)
    return _("{file}: Flamecraft Duals data {id} (version {version}): {spaces} spaces, {tokens} tokens, {cards} shop "
             "cards.").format(file=path, id=data.id, version=data.version, spaces=data.board.size,
                              tokens=sum(data.supply), cards=len(data.cards))


def _claims_duals(data: Mapping[str, Any]) -> bool:
    return "board" in data or "tokens" in data or "card" in data


GAMES: dict[str, GameEntry] = {
    "duel": GameEntry(partial(_make, "duel"), _check_duel, _claims_duel),
    "duals": GameEntry(partial(_make, "duals"), _check_duals, _claims_duals),
}


def lookup(name: str) -> GameEntry | None:
    return GAMES.get(name)


def detect(data: Mapping[str, Any]) -> GameEntry:
    """The game whose data ``data`` looks like (Flame Duel when none or several claim it)."""
    found = [entry for entry in GAMES.values() if entry.claims(data)]
    return found[0] if len(found) == 1 else GAMES["duel"]
