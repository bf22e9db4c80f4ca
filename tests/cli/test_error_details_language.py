"""Error details read fully in the player's language: what the JSON or TOML parser found wrong (a results file,
the game options, a card file) is said in Spanish, not as the parser's English (``Expecting value``,
``Unclosed array``) inside a Spanish sentence."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from flametable.core.jsonerr import JSON_PROBLEMS, TOML_OTHER, json_problem, toml_position, toml_problem
from flametable.texts.translator import Translator
from tests.cli.conftest import Cli

ES = Translator.for_language("es")


def test_a_bad_results_line_in_spanish(cli: Cli, tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    results.write_text('{"game": "duel"\n', encoding="utf-8")
    result = cli("report", str(results), "--html", str(tmp_path / "r.html"), "--lang", "es")
    assert result.exit_code == 1
    out = " ".join(result.output.split())
    assert "No se pueden leer los resultados:" in out
    assert "línea 1: no es JSON válido: falta una coma (columna 16)" in out
    assert "Expecting" not in out


def test_bad_options_in_spanish(cli: Cli) -> None:
    result = cli("sim", "duel", "--options", "{mode: 1}", "--lang", "es")
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert "--options no es JSON válido: falta un nombre entre comillas dobles (columna 2)" in out
    assert "Expecting" not in out


@pytest.mark.parametrize("text", ["", "{", '{"a" 1}', '{"a": 1,}', "[1,]", '"abc', "[1] 2", '"\\x"', '{"a": 1 "b": 2}'])
def test_every_parser_message_has_a_phrase(text: str) -> None:
    """The parser's messages for common mistakes are all known, each with its Spanish phrase."""
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads(text)
    assert err.value.msg in JSON_PROBLEMS
    phrase = json_problem(err.value)
    assert ES.translate(phrase) != phrase


@pytest.mark.parametrize("text", [
    "x = [1,", "x = [1", "x", "x = 1 2", "[a\n", "[[a]\n", "a=1\na=2", "[a]\n[a]", "x = {a=1", "x = {a=1, a=2}",
    'x = "a\\q"', 'x = "\\uZZZZ"', 'x = "\\uD800"', 'x = "abc', "x = '''abc", "x = 'a\x01'", 'x = "\x01"', "x = ?",
    "= 1", "x = [1]\n[[x]]", "x = 2000-02-30", "a. = 1",
])
def test_every_toml_parser_message_has_a_phrase(text: str) -> None:
    """tomllib's messages for common mistakes are all known, each with its Spanish phrase (a Spanish sentence
    never carries tomllib's English)."""
    with pytest.raises(tomllib.TOMLDecodeError) as err:
        tomllib.loads(text)
    phrase = toml_problem(err.value)
    assert phrase != TOML_OTHER, str(err.value)
    assert ES.translate(phrase) != phrase


@pytest.mark.parametrize(("text", "where"), [
    ("x = [1,", (1, 8)),  # the end of the text, on its last line
    ("x = [1,\n", (2, 1)),  # the end, after a last line break
    ("a = 1\nb = \n", (2, 5)),  # where tomllib says
])
def test_a_toml_problem_is_placed_at_a_line_and_column(text: str, where: tuple[int, int]) -> None:
    """tomllib says "at end of document" rather than where that is: the line and column of the text's end."""
    with pytest.raises(tomllib.TOMLDecodeError) as err:
        tomllib.loads(text)
    assert toml_position(err.value, text) == where
