"""One glossary per game (docs/glossary-duel.md, docs/glossary-duals.md) and the catalogue agree: every message of
a game whose English has a glossary term says it in Spanish with that term's Spanish, no message uses a word the
glossary rules out, every Spanish term is used, and the command words and token letters are the catalogue's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import flametable
from flametable.texts.translator import Translator

ROOT = Path(__file__).resolve().parents[2]
PO = Path(flametable.__file__).parent / "locale" / "es" / "LC_MESSAGES" / "flametable.po"
ES = Translator.for_language("es")
# Where each game's messages live: its folder (the shared ones, such as the table's, are in neither).
GAMES = {"duel": ("Flame Duel command", ("games/duel/",)), "duals": ("Flamecraft Duals command", ("games/duals/",))}


def _forms(cell: str) -> list[str]:
    return [form.strip() for form in cell.split(" / ") if form.strip()]


def glossary(game: str) -> dict[str, list[list[str]]]:
    """The glossary's tables by heading: each row as its cells."""
    tables: dict[str, list[list[str]]] = {}
    heading = ""
    for line in (ROOT / "docs" / f"glossary-{game}.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        elif line.startswith("|") and not line.startswith("| ---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            tables.setdefault(heading, []).append(cells)
    return {name: rows[1:] for name, rows in tables.items()}  # without the header row


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    with PO.open("rb") as f:
        return read_po(f, locale="es")


def _texts(value: Any) -> list[str]:
    return list(value) if isinstance(value, tuple) else [value]


def game_messages(catalog: Catalog, game: str) -> list[tuple[str, str]]:
    """(English, Spanish) of every message that lives in the game's files only."""
    places = GAMES[game][1]
    out = []
    for message in catalog:
        if not message.id or message.context:
            continue
        files = {where.replace("src/flametable/", "") for where, _line in message.locations}
        if files and all(any(f.startswith(p) for p in places) for f in files):
            out += list(zip(_texts(message.id), _texts(message.string)[:len(_texts(message.id))], strict=True))
    return out


def _has(text: str, form: str) -> bool:
    """Whether ``form`` is a word of ``text`` (placeholders such as ``{token}`` are no words)."""
    words = re.sub(r"\{[^}]*\}", " ", text).lower()
    return re.search(rf"(?<!\w){re.escape(form.lower())}(?!\w)", words) is not None


@pytest.mark.parametrize("game", GAMES)
def test_every_term_is_said_with_the_glossarys_spanish(catalog: Catalog, game: str) -> None:
    messages = game_messages(catalog, game)
    assert len(messages) > 40
    wrong = []
    for english, spanish, *_rest in glossary(game)["Terms"]:
        for en, es in messages:
            if any(_has(en, form) for form in _forms(english)) and not any(_has(es, f) for f in _forms(spanish)):
                wrong.append((english, en, es))
    assert not wrong, "\n".join(map(str, wrong))


@pytest.mark.parametrize("game", GAMES)
def test_no_message_uses_a_word_the_glossary_rules_out(catalog: Catalog, game: str) -> None:
    ruled_out = [(row[0], form) for row in glossary(game)["Terms"] for form in _forms(row[2])]
    assert ruled_out
    used = [(term, form, es) for en, es in game_messages(catalog, game) for term, form in ruled_out if _has(es, form)]
    assert not used, used


@pytest.mark.parametrize("game", GAMES)
def test_every_spanish_term_is_used(catalog: Catalog, game: str) -> None:
    spanish = " ".join(es for _en, es in game_messages(catalog, game))
    unused = [row[1] for row in glossary(game)["Terms"] if not any(_has(spanish, f) for f in _forms(row[1]))]
    assert not unused, unused


@pytest.mark.parametrize("game", GAMES)
def test_the_command_words_are_the_catalogues(game: str) -> None:
    context = GAMES[game][0]
    rows = glossary(game)["Command words"]
    assert len(rows) >= 9
    for english, spanish, *_note in rows:
        assert ES.pgettext(context, english) == spanish, english


def test_the_token_letters_are_the_catalogues() -> None:
    rows = glossary("duals")["Token letters"]
    assert len(rows) == 6
    for english, spanish in rows:
        assert ES.pgettext("token letter", english) == spanish, english
