"""The interface's door to the game registry (:mod:`flametable.core.registry`): a game found by name (a
record's ``game``, a subcommand) or by the look of a data file, and the built-in games' data-file summaries
(their registry entries' ``check`` pieces)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flametable.cli.i18n import _
from flametable.core import registry
from flametable.core.data import load_toml
from flametable.core.registry import GameEntry
from flametable.duals.data import load_duals_data
from flametable.duel.cards import parse_card_set, parse_deck


def check_duel(path: Path) -> str:
    """A Flame Duel card set, or a deck (a file that lists ``characters`` or ``supports`` and holds no cards)."""
    data = load_toml(path)
    if is_deck(data):
        deck = parse_deck(data, str(path))
        return _("{file}: a Flame Duel deck of {characters} characters and {supports} support cards.").format(
            file=path, characters=len(deck.characters), supports=len(deck.supports))
    cards = parse_card_set(data, str(path))
    return _("{file}: card set {id} (version {version}): {characters} characters and {supports} support cards.").format(
        file=path, id=cards.id, version=cards.version, characters=len(cards.characters),
        supports=len(cards.supports))


def check_duals(path: Path) -> str:
    data = load_duals_data(path)
    return _("{file}: Flamecraft Duals data {id} (version {version}): {spaces} spaces, {tokens} tokens, {cards} shop "
             "cards.").format(file=path, id=data.id, version=data.version, spaces=data.board.size,
                              tokens=sum(data.supply), cards=len(data.cards))


def is_deck(data: Mapping[str, Any]) -> bool:
    """Whether parsed TOML looks like a Flame Duel deck rather than a card set."""
    return ("characters" in data or "supports" in data) and not any(
        key in data for key in ("set", "character", "support"))


def lookup(name: str) -> GameEntry | None:
    return registry.find(name)


def detect(data: Mapping[str, Any]) -> GameEntry | None:
    """The game whose data files look like ``data`` (its ``claims`` piece says so); when none or several do,
    the first game that checks data files (whose check then says what is missing); None when no game does."""
    checking = [entry for entry in registry.entries() if entry.has("check")]
    found = [entry for entry in checking if entry.has("claims") and entry.piece("claims")(data)]
    if len(found) == 1:
        return found[0]
    return checking[0] if checking else None


def checkable() -> list[str]:
    """The games whose data files ``cards check`` can check."""
    return [entry.name for entry in registry.entries() if entry.has("check")]
