"""Data, record and deck errors are message templates with parameters: they read fully in the player's language
(names from the file as they are, every word around them translated) and never show a literal ``{placeholder}``.
"""

from __future__ import annotations

import ast
import copy
import re
import string
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import flametable
from flametable.core.data import load_toml, read_text_file
from flametable.core.errors import DataError, FlametableError, RecordError
from flametable.core.i18n import Phrase
from flametable.core.record import MatchRecord, start
from flametable.games.duals.data import parse_duals_data
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import DualsOptions
from flametable.games.duel.cards import parse_card_set, parse_deck
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import DuelOptions
from flametable.games.duel.view import VIEW_FORMAT, DuelView
from flametable.texts.translator import Translator

ES, EN = Translator.for_language("es"), Translator.for_language("en")
PLACEHOLDER = re.compile(r"\{\w*(![rsa])?(:[^{}]*)?\}")
# Words of the English messages that are no Spanish words: none may be left in a Spanish message once the names
# and values it quotes are taken out.
ENGLISH = re.compile(
    r"\b(must|got|missing|unknown|fields?|file|such|cannot|read|listed|twice|only|needs?|has|the|is|not|be|of|and|"
    r"with|to|used|more|than|cards?|number|characters?|deck|record|game|rules|data|loaded|pass|same|line|column|"
    r"text|table|list|integer|string|least|most|empty|language|known|allowed|types|board|spaces?|tokens?|cells?|"
    r"name|entry|count|path|encoding|syntax|valid|object|format|wrong|match|start|engine|plays|played|"
    r"equip|items|events|condition|effect|takes|lists|support|mode|own|bring|their|options|decks|inner|ring|"
    r"holds|each|pair|different|lowercase|letters|then|digits|like|shop|leave|room|fits|nowhere|section|"
    r"permission|denied|folder|decimal|date|time)\b")

DUEL_TOML = tomllib.loads(resources.files("flametable.games.duel").joinpath("data", "cards.toml").read_text("utf-8"))
DUALS_TOML = tomllib.loads(resources.files("flametable.games.duals").joinpath("data", "duals.toml").read_text("utf-8"))
DECK = {"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}


def quoted(exc: FlametableError) -> list[str]:
    """What the message quotes as it is: the file, the entry and field names, the values (longest first)."""
    out: list[str] = []
    if isinstance(exc, DataError):
        out += [exc.source] + [x for x in (exc.entry, exc.field) if not isinstance(x, Phrase)]
    for value in exc.params.values():
        if isinstance(value, FlametableError):
            out += quoted(value)
        elif not isinstance(value, Phrase):
            out += [str(value), repr(value)]
    return sorted(out, key=len, reverse=True)


def check(exc: FlametableError) -> str:
    es, en = ES.error(exc), EN.error(exc)
    assert en == str(exc)
    assert es != en
    for text in (es, en):
        assert not PLACEHOLDER.search(text), text
    rest = es
    for name in quoted(exc):
        rest = rest.replace(name, " ")
    assert not ENGLISH.search(rest), (es, ENGLISH.findall(rest))
    return es


def raised(kind: type[FlametableError], make: Callable[[], object]) -> FlametableError:
    with pytest.raises(kind) as info:
        make()
    return info.value


def card_set(change: Callable[[dict[str, Any]], object]) -> Callable[[], object]:
    data = copy.deepcopy(DUEL_TOML)
    change(data)
    return lambda: parse_card_set(data, "cards.toml")


def duals_data(change: Callable[[dict[str, Any]], object]) -> Callable[[], object]:
    data = copy.deepcopy(DUALS_TOML)
    change(data)
    return lambda: parse_duals_data(data, "duals.toml")


def deck(**change: Any) -> Callable[[], object]:
    return lambda: parse_deck({**DECK, **change}, "deck.toml")


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


DATA_CASES: dict[str, Callable[[], object]] = {
    "not an integer": card_set(_set(("character", 0, "spark"), "lots")),
    "too high": card_set(_set(("character", 0, "spark"), 1000)),
    "too low": card_set(_set(("support", 0, "bonus"), -1000)),
    "missing field": card_set(_drop(("character", 2, "heat"))),
    "unknown field": card_set(_set(("character", 0, "colour"), "red")),
    "not a table": card_set(_set(("character", 0), [1, 2])),
    "missing text": card_set(_set(("character", 0, "name"), {"en": "Marciano"})),
    "unknown language": card_set(_set(("character", 0, "name"), {"en": "M", "es": "M", "fr": "M"})),
    "text not a table": card_set(_set(("character", 0, "ability"), "Hello")),
    "bad choice": card_set(_set(("support", 0, "kind"), "spell")),
    "not a list": card_set(_set(("character", 0, "effects"), "draw")),
    "empty string": card_set(_set(("set", "id"), " ")),
    "effect takes no n": card_set(_set(("character", 2, "effects"), [{"kind": "recover", "n": 1}])),
    "same name": card_set(_set(("character", 1, "name"), {"en": "Marciano", "es": "Otro"})),
    "number twice": card_set(_set(("character", 1, "number"), 1)),
    "no set section": card_set(_drop(("set",))),
    "missing section": duals_data(_drop(("tokens",))),
    "no spaces": duals_data(_set(("board", "spaces"), [])),
    "bad space name": duals_data(_set(("board", "spaces", 0, "name"), "A-1")),
    "inner not a space": duals_data(_set(("board", "inner", 5), "z9")),
    "inner count": duals_data(_set(("board", "inner"), ["b2", "b3"])),
    "fire-up order": duals_data(_set(("tokens", "fire_up_order"), ["bread"] * 6)),
    "same-type dual": duals_data(_set(("tokens", "duals", 0), ["bread", "bread"])),
    "dual not a pair": duals_data(_set(("tokens", "duals", 0), ["bread"])),
    "too many tokens": duals_data(_set(("tokens", "artisans_per_type"), 30)),
    "starburst": duals_data(_set(("card", 42, "starburst"), 1)),
    "no cells": duals_data(_set(("card", 0, "cells"), [])),
    "cell at": duals_data(_set(("card", 0, "cells", 2, "at"), [2, 0, 1])),
    "type and var": duals_data(_set(("card", 0, "cells", 0, "var"), "A")),
    "bad variable": duals_data(_set(("card", 42, "cells", 0, "var"), "1A")),
    "fits nowhere": duals_data(_set(("card", 0, "cells", 2, "at"), [9, 0])),
    "no cards": duals_data(_set(("card",), [])),
    "deck: three characters": deck(characters=[1, 2]),
    "deck: 8 to 12 supports": deck(supports=[1, 2, 3]),
    "deck: a card twice": deck(supports=[1, 1, 2, 3, 4, 5, 6, 7]),
    "deck: a number out of range": deck(characters=[1, 2, 99]),
    "deck: unknown field": deck(sideboard=[4]),
    "deck: not a list": deck(characters=3),
}


@pytest.mark.parametrize("case", sorted(DATA_CASES))
def test_data_and_deck_errors_read_fully_in_spanish(case: str) -> None:
    exc = raised(DataError, DATA_CASES[case])
    assert isinstance(exc, DataError)
    es = check(exc)
    assert es.startswith(f"{exc.source}: ")


def test_file_errors_read_fully_in_spanish(tmp_path: Path) -> None:
    missing = raised(DataError, lambda: load_toml(tmp_path / "missing.toml"))
    assert check(missing) == f"no existe el archivo {tmp_path / 'missing.toml'}"
    assert check(raised(DataError, lambda: load_toml(tmp_path))) == f"{tmp_path} es una carpeta, no un archivo"
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name = "Espa\xf1a"\n')
    assert check(raised(DataError, lambda: load_toml(latin))) == f"{latin} no es texto UTF-8 (byte 13)"
    bad = tmp_path / "bad.toml"
    bad.write_text("[set]\nid = \n", encoding="utf-8")
    assert check(raised(DataError, lambda: load_toml(bad))) == (
        f"{bad} no es TOML válido en la línea 2, columna 6: falta un valor")
    assert check(raised(RecordError, lambda: read_text_file(tmp_path / "nothing.json", RecordError, 100))) == (
        f"no existe el archivo {tmp_path / 'nothing.json'}")


def test_a_data_error_in_spanish_word_for_word() -> None:
    """File, entry and field as they are in the file; the problem and the value's kind in Spanish."""
    exc = raised(DataError, card_set(_set(("character", 0, "spark"), "lots")))
    assert ES.error(exc) == "cards.toml: character 1: spark: debe ser un número entero, no 'lots'"
    assert str(exc) == "cards.toml: character 1: spark: must be an integer, got 'lots'"
    whole = raised(DataError, card_set(_set(("character", 0), [1, 2])))
    assert ES.error(whole) == "cards.toml: character[0]: (entrada): debe ser una tabla, pero es una lista"


GOOD_RECORD: dict[str, Any] = MatchRecord("duel", "flame-duel/1", {"id": "x", "hash": "h"}, {}, 1, ["a", "b"]).to_json()

RECORD_CASES: dict[str, Callable[[], object]] = {
    "not an object": lambda: MatchRecord.from_json([1], "m.json"),
    "format": lambda: MatchRecord.from_json({**GOOD_RECORD, "format": "v0"}, "m.json"),
    "unknown field": lambda: MatchRecord.from_json({**GOOD_RECORD, "colour": 1}, "m.json"),
    "missing field": lambda: MatchRecord.from_json({k: v for k, v in GOOD_RECORD.items() if k != "seed"}, "m.json"),
    "wrong type": lambda: MatchRecord.from_json({**GOOD_RECORD, "seed": "one"}, "m.json"),
    "action not a string": lambda: MatchRecord.from_json({**GOOD_RECORD, "actions": ["pass", 3]}, "m.json"),
    "setup not an object": lambda: MatchRecord.from_json({**GOOD_RECORD, "setup": [1]}, "m.json"),
    "result not an object": lambda: MatchRecord.from_json({**GOOD_RECORD, "result": 2}, "m.json"),
    "another game": lambda: start(DuelGame(), MatchRecord.from_json({**GOOD_RECORD, "game": "chess"})),
    "other rules": lambda: start(DuelGame(), MatchRecord.from_json({**GOOD_RECORD, "rules_version": "v9"})),
    "other data": lambda: start(DuelGame(), MatchRecord.from_json(GOOD_RECORD)),
    "options not an object": lambda: DuelOptions.from_json([1]),
    "options: unknown field": lambda: DuelOptions.from_json({"speed": 2}),
    "options: mode": lambda: DuelOptions.from_json({"mode": "solo"}),
    "options: pick": lambda: DuelOptions.from_json({"pick": "auction"}),
    "options: decks not a pair": lambda: DuelOptions.from_json({"mode": "decks", "decks": [None]}),
    "options: decks in shared mode": lambda: DuelOptions.from_json({"decks": [DECK, DECK]}),
    "options: drafting own decks": lambda: DuelOptions.from_json({"mode": "decks", "pick": "draft"}),
}


DUEL_SETUP: dict[str, Any] = {"lineups": [[1, 2, 3], [4, 5, 6]], "piles": [[7, 8, 9]]}


def duel_setup(options: dict[str, Any] | None = None, **change: Any) -> Callable[[], object]:
    return lambda: DuelGame().new_match(options, 1, setup={**DUEL_SETUP, **change})


def duals_setup(options: dict[str, Any] | None = None, **setup: Any) -> Callable[[], object]:
    return lambda: DualsGame().new_match(options, 1, setup=setup)


SETUP_CASES: dict[str, Callable[[], object]] = {
    "duel: unknown field": duel_setup(colour=1),
    "duel: not lists of lists": duel_setup(hands=[1, 2]),
    "duel: character number": duel_setup(lineups=[[1, 2, 99], [4, 5, 6]]),
    "duel: support number": duel_setup(piles=[[0]]),
    "duel: no piles": duel_setup(piles=None),
    "duel: piles in own decks": duel_setup({"mode": "decks"}),
    "duel: one list per player": duel_setup(hands=[[10]]),
    "duel: lineups and characters": duel_setup(characters=[[1, 2, 3], [4, 5, 6]]),
    "duel: first picker": duel_setup(first_picker=2),
    "duel: no characters": duel_setup(lineups=None),
    "duel: three different characters": duel_setup(lineups=[[1, 1, 2], [4, 5, 6]]),
    "duel: a character with both": duel_setup(lineups=[[1, 2, 3], [3, 4, 5]]),
    "duel: place shape": duel_setup(place=[1]),
    "duel: place owner": duel_setup(place={"card": 1, "owner": 2}),
    "duel: a card twice in the shared deck": duel_setup(hands=[[7], []]),
    "duel: a card twice in an own deck": duel_setup({"mode": "decks"}, piles=[[7, 8], [9]], hands=[[8], []]),
    "duel: first picker 1.0": duel_setup({"pick": "draft"}, lineups=None, first_picker=1.0),
    "duel: place owner true": duel_setup(place={"card": 1, "owner": True}),
    "duel: a hand too big": duel_setup(hands=[[10, 11, 12, 13, 14, 15, 16, 17], []]),
    "duel: an own deck too big": duel_setup({"mode": "decks"}, piles=[list(range(7, 20)), []]),
    "duel: characters not the declared deck's": duel_setup(
        {"mode": "decks", "decks": [{"characters": [7, 8, 9], "supports": list(range(1, 9))}, None]},
        piles=[list(range(1, 9)), []]),
    "duel: supports not the declared deck's": duel_setup(
        {"mode": "decks", "decks": [{"characters": [1, 2, 3], "supports": list(range(1, 9))}, None]},
        piles=[list(range(2, 10)), []]),
    "duel: not a view": lambda: DuelView.from_json({"format": "chess"}),
    "duel: a malformed view": lambda: DuelView.from_json({"format": VIEW_FORMAT}),
    "duals: options not an object": lambda: DualsOptions.from_json([1]),
    "duals: options unknown field": lambda: DualsGame().new_match({"speed": 1}),
    "duals: buddy": lambda: DualsGame().new_match({"buddy": "yes"}),
    "duals: unknown field": duals_setup(colour=1),
    "duals: not token names": duals_setup(bag="meat"),
    "duals: unknown token": duals_setup(bag=["gold"]),
    "duals: buddy without the variant": duals_setup(bag=["buddy"]),
    "duals: board shape": duals_setup(board=["c3"]),
    "duals: no such space": duals_setup(board={"z9": ["bread"]}),
    "duals: stack too high": duals_setup(board={"c3": ["bread"] * 4}),
    "duals: more tokens than the data has": duals_setup(bag=["bread"] * 40),
    "duals: deck not integers": duals_setup(deck=["K1"]),
    "duals: hands per player": duals_setup(hands=[[1]]),
    "duals: card number": duals_setup(deck=[999]),
    "duals: a card twice": duals_setup(deck=[1], hands=[[1], []]),
    "duals: coins": duals_setup(coins=[3, -1]),
    "duals: first": duals_setup(first=2),
    "duals: first 1.0": duals_setup(first=1.0),
    "duals: a hand too big": duals_setup(hands=[[1, 2, 3], []]),
    "duals: too many coins": duals_setup(coins=[4, 3]),
}


@pytest.mark.parametrize("case", sorted(SETUP_CASES))
def test_setup_and_options_errors_read_fully_in_spanish(case: str) -> None:
    check(raised(RecordError, SETUP_CASES[case]))


def test_a_setup_error_in_spanish_word_for_word() -> None:
    """Field names and values as they are in the record; every word around them in Spanish."""
    exc = raised(RecordError, duel_setup(lineups=[[1, 2, 99], [4, 5, 6]]))
    assert str(exc) == "setup.lineups[0]: character numbers are 1..33, got 99"
    assert ES.error(exc) == "setup.lineups[0]: los números de personaje van del 1 al 33, no 99"


@pytest.mark.parametrize("case", sorted(RECORD_CASES))
def test_record_errors_read_fully_in_spanish(case: str) -> None:
    check(raised(RecordError, RECORD_CASES[case]))


def test_a_record_that_cannot_start_says_why_in_the_same_language() -> None:
    """The cause (here a bad deck in the options) is translated inside the record's error."""
    game = DuelGame()
    record = MatchRecord.from_json({**GOOD_RECORD, "content": {"id": "x", "hash": game.content_id()[1]},
                                    "options": {"mode": "decks", "decks": [DECK, {**DECK, "characters": [1]}]}})
    exc = raised(RecordError, lambda: start(game, record))
    assert ES.error(exc) == ("con el registro no se puede empezar una partida: options.decks[1]: deck: characters: "
                             "un mazo tiene exactamente 3 personajes, no 1")
    check(exc)


def test_bad_json_reads_fully_in_spanish(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text('{"format": ,}', encoding="utf-8")
    exc = raised(RecordError, lambda: MatchRecord.load(path))
    assert check(exc) == f"{path} no es JSON válido en la línea 1, columna 12: falta un valor"


# ------------------------------------------------------------------ every raise, read from the source

SOURCES = ("core/data.py", "core/record.py", "games/duel/cards.py", "games/duel/rules.py", "games/duel/game.py",
           "games/duel/view.py", "games/duals/data.py", "games/duals/game.py", "games/duals/rules.py")
TEMPLATE_ARG = {"fail": 1, "DataError": 3, "FileError": 3, "RecordError": 0, "error": 0}


def _fields(template: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


def _raises(path: Path) -> list[tuple[int, str, ast.Call]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in TEMPLATE_ARG and not any(k.arg is None for k in node.keywords):
                out.append((node.lineno, name, node))
    return out


@pytest.mark.parametrize("source", SOURCES)
def test_every_error_is_a_marked_template_filled_by_its_parameters(source: str) -> None:
    """Each error raised in these files passes an N_-marked English template (no f-string with English baked
    in) and exactly the parameters its placeholders name: a player never sees a literal ``{card}``."""
    path = Path(flametable.__file__).parent / source
    found = _raises(path)
    assert found
    for line, name, call in found:
        where = f"{source}:{line} {name}"
        template = call.args[TEMPLATE_ARG[name]]
        if isinstance(template, ast.Call) and isinstance(template.func, ast.Name) and template.func.id == "N_plural":
            plural = template.args[1]
            assert isinstance(plural, ast.Constant), where
            assert isinstance(plural.value, str), where
            assert _fields(plural.value) == {k.arg for k in call.keywords}, where  # the plural form's too
        if isinstance(template, ast.Call) and isinstance(template.func, ast.Name) and template.func.id in (
                "N_", "N_plural"):
            template = template.args[0]
        else:  # not marked: only a template of nothing but placeholders ("{problem}") needs no translation
            assert isinstance(template, ast.Constant), where
            assert not PLACEHOLDER.sub("", str(template.value)), where
        assert isinstance(template, ast.Constant), where
        assert isinstance(template.value, str), where
        assert _fields(template.value) == {k.arg for k in call.keywords}, where
