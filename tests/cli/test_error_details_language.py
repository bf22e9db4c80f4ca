"""Error details read fully in the player's language: what the JSON parser found wrong (a results file, the
game options) is said in Spanish, not as the parser's English (``Expecting value``) inside a Spanish sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flametable.core.jsonerr import JSON_PROBLEMS, json_problem
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
