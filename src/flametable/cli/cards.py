"""``flametable cards``: show a game's cards in the player's language, or check a data file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.text import Text

from flametable.cli.console import fail, out, print_json
from flametable.cli.games import checkable, detect, lookup
from flametable.cli.i18n import TerminalCardWords as CardWords
from flametable.cli.i18n import _, explain, language
from flametable.core.data import load_toml
from flametable.core.errors import DataError
from flametable.core.i18n import pick
from flametable.duel.cards import CardSet, builtin_card_set, load_card_set

T = TypeVar("T")


def check_file(game: str | None, file: Path) -> None:
    """Validate a data file of ``game`` (None: guessed from the content): a short OK summary (exit 0) or
    the DataError (exit 1)."""
    try:
        found = detect(load_toml(file)) if game is None else lookup(game)
        if found is None or not found.has("check"):
            fail(_("Unknown game {game!r}: choose one of {games}.").format(game=game, games=", ".join(checkable())),
                 2)
        summary = found.piece("check")(file)
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


def show_duel(file: Path | None, as_json: bool) -> None:
    cards = load_or_fail(file, load_card_set, builtin_card_set, _("Bad card file: {error}"))
    show_page(cards, as_json, duel_json, duel_page)


def duel_page(cards: CardSet) -> list[RenderableType]:
    words = CardWords(cards)
    parts: list[RenderableType] = [page_title(cards.name, cards.version, words.lang), Rule(_("Characters"))]
    for c in cards.characters:
        parts.append(Text(f"{words.character(c.number)} — {words.character_stats(c.number)}", style="bold"))
        parts.append(Padding(Text(_("Ability: {text}").format(text=words.ability(c.number))), (0, 0, 0, 4)))
    parts.append(Rule(_("Support cards")))
    for s in cards.supports:
        head = f"{words.support(s.number)} — {words.support_detail(s.number)}"
        if s.equips_to:
            head += " · " + _("Equips to: {characters}").format(characters=words.equips_to(s.number))
        parts.append(Text(head, style="bold"))
        parts.append(Padding(Text(words.support_text(s.number)), (0, 0, 0, 4)))
    return parts


def duel_json(cards: CardSet) -> dict[str, Any]:
    """The card set in the current language, kinds and stats as their keys."""
    lang = language()
    return {
        "game": "duel",
        "id": cards.id,
        "version": cards.version,
        "lang": lang,
        "name": pick(cards.name, lang),
        "characters": [
            {"number": c.number, "name": pick(c.name, lang), "spark": c.spark, "heat": c.heat, "charm": c.charm,
             "ability": pick(c.ability, lang), "effects": [{"kind": e.kind.key, "n": e.n} for e in c.effects]}
            for c in cards.characters
        ],
        "supports": [
            {"number": s.number, "name": pick(s.name, lang), "kind": s.kind.key, "stat": s.stat.key,
             "bonus": s.bonus, "equips_to": sorted(s.equips_to), "text": pick(s.text, lang),
             "effects": [{"kind": e.kind.key, "n": e.n} for e in s.effects],
             "condition": _condition(s.printed_at_most, s.printed_at_least)}
            for s in cards.supports
        ],
    }


def _condition(at_most: int | None, at_least: int | None) -> dict[str, int] | None:
    if at_most is not None:
        return {"printed_at_most": at_most}
    if at_least is not None:
        return {"printed_at_least": at_least}
    return None
