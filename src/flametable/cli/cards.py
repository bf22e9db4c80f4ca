"""``flametable cards``: show a game's cards in the player's language, or check a data file."""

from __future__ import annotations

import re
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
from flametable.texts.commands import card_named, no_card_called
from flametable.texts.duel import CardWords as BaseCardWords

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
        parts += character_lines(words, c.number)
    parts.append(Rule(_("Support cards")))
    for s in cards.supports:
        parts += support_lines(words, s.number)
    return parts


def character_lines(words: BaseCardWords, number: int) -> list[RenderableType]:
    """A character as the cards page shows it: name and stats, then its ability."""
    _ = words.tr.gettext
    return [Text(f"{words.character(number)} — {words.character_stats(number)}", style="bold"),
            Padding(Text(_("Ability: {text}").format(text=words.ability(number))), (0, 0, 0, 4))]


def support_lines(words: BaseCardWords, number: int) -> list[RenderableType]:
    """A support card as the cards page shows it: name, kind, stat and bonus, whom it equips to, its text."""
    _ = words.tr.gettext
    head = f"{words.support(number)} — {words.support_detail(number)}"
    if words.cards.support(number).equips_to:
        head += " · " + _("Equips to: {characters}").format(characters=words.equips_to(number))
    return [Text(head, style="bold"), Padding(Text(words.support_text(number)), (0, 0, 0, 4))]


def find_duel_card(cards: CardSet, query: str) -> tuple[str, int] | None:
    """The card ``query`` names: ``("C", n)`` or ``("S", n)``, from its notation (``C12``, ``s7``) or its name in
    any language, capitals and accents aside (whole, or a part that only one card's name has: :func:`card_named`);
    None when it names none."""
    notation = re.fullmatch(r"([cs]) ?(\d+)", " ".join(query.casefold().split()))
    if notation is not None:
        letter, n = notation.group(1).upper(), int(notation.group(2))
        last = len(cards.characters) if letter == "C" else len(cards.supports)
        return (letter, n) if 1 <= n <= last else None
    return card_named(query, [(("C", c.number), c.name) for c in cards.characters]
                      + [(("S", s.number), s.name) for s in cards.supports])


def duel_card(words: BaseCardWords, query: str, example: str) -> RenderableType | str:
    """The card ``query`` names, as the cards page shows it, or what is wrong (in ``words``' language)."""
    found = find_duel_card(words.cards, query)
    if found is None:
        return no_card_called(words.tr, query, example)
    letter, number = found
    return Group(*(character_lines(words, number) if letter == "C" else support_lines(words, number)))


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
