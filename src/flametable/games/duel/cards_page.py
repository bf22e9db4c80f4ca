"""``flametable cards duel``: the Flame Duel card set in the player's language, a card looked up by name, and
``cards check`` of a card set or a deck."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.text import Text

from flametable.cli.cards import load_or_fail, page_title, show_page
from flametable.cli.i18n import _, language, translator
from flametable.core.data import load_toml
from flametable.core.i18n import pick
from flametable.games.duel.cards import CardSet, builtin_card_set, load_card_set, parse_card_set, parse_deck
from flametable.games.duel.texts import CardWords as BaseCardWords
from flametable.texts.commands import card_named, no_card_called
from flametable.texts.translator import Translator


class CardWords(BaseCardWords):
    """Flame Duel's card labels in the terminal's language (or ``tr``'s)."""

    def __init__(self, cards: CardSet, tr: Translator | None = None) -> None:
        super().__init__(tr or translator(), cards)


def check(path: Path) -> str:
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


def is_deck(data: Mapping[str, Any]) -> bool:
    """Whether parsed TOML looks like a Flame Duel deck rather than a card set."""
    return ("characters" in data or "supports" in data) and not any(
        key in data for key in ("set", "character", "support"))


def show(file: Path | None, as_json: bool) -> None:
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
