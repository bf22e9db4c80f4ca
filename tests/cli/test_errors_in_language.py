"""Every command shows a bad file's or record's error in the player's language, details included: the error's
template and its parameters are translated at the terminal, never an English detail inside a Spanish sentence."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.conftest import BOTS, Cli

BAD_CARD = '[set]\nid = "x"\nversion = 1\nname = { en = "X", es = "X" }\n[[character]]\nnumber = "a"\n'


@pytest.mark.parametrize(("lang", "detail"), [("es", "debe ser un número entero, no 'a'"),
                                              ("en", "must be an integer, got 'a'")])
def test_a_bad_card_file_is_explained_in_the_players_language(cli: Cli, tmp_path: Path, lang: str,
                                                               detail: str) -> None:
    cards = tmp_path / "bad.toml"
    cards.write_text(BAD_CARD, encoding="utf-8")
    for args in (["cards", "check", str(cards)], ["play", "duel", *BOTS, "--cards", str(cards), "--json"],
                 ["cards", "duel", "--cards", str(cards)]):
        result = cli(*args, "--lang", lang)
        assert result.exit_code == 1, result.output
        assert f"character[0]: number: {detail}" in result.output, (args, result.output)


def test_a_record_that_cannot_be_read_is_explained_in_spanish(cli: Cli, tmp_path: Path) -> None:
    record = tmp_path / "bad.json"
    record.write_text('{"game": "duel", "seed": "x"}', encoding="utf-8")
    result = cli("replay", str(record), "--lang", "es")
    assert result.exit_code == 1
    assert "registro: format: falta" in result.output, result.output  # the record's field, named in Spanish
    missing = cli("replay", str(tmp_path / "nothere.json"), "--lang", "es")
    assert "no existe el archivo" in missing.output, missing.output


Command = Callable[[str], list[str]]
"""A command's arguments, reading the file named."""

# Every command that reads a TOML file: a card set or a Duals data file, a deck (issue 19, point 3).
TOML_COMMANDS: dict[str, Command] = {
    "cards check": lambda f: ["cards", "check", f],
    "play duel --cards": lambda f: ["play", "duel", *BOTS, "--cards", f, "--json"],
    "play duals --cards": lambda f: ["play", "duals", *BOTS, "--cards", f, "--json"],
    "cards duals --cards": lambda f: ["cards", "duals", "--cards", f],
    "play duel --deck1": lambda f: ["play", "duel", *BOTS, "--mode", "decks", "--deck1", f, "--json"],
}
# Every command that reads a record (JSON) or sim results (JSON lines).
JSON_COMMANDS: dict[str, Command] = {
    "replay": lambda f: ["replay", f, "--verify"],
    "play duel --resume": lambda f: ["play", "duel", "--resume", f],
    "play duals --resume": lambda f: ["play", "duals", "--resume", f],
}
RESULTS_COMMANDS: dict[str, Command] = {"report": lambda f: ["report", f, "--html", "out.html"]}
ALL_COMMANDS = {**TOML_COMMANDS, **JSON_COMMANDS, **RESULTS_COMMANDS}


def said(cli: Cli, args: list[str], lang: str) -> str:
    """What a command that must fail says (its lines joined: the console may wrap a long one)."""
    result = cli(*args, "--lang", lang)
    assert result.exit_code == 1, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize("command", sorted(TOML_COMMANDS))
@pytest.mark.parametrize(("lang", "sentence", "english"), [
    ("en", "cut.toml is not valid TOML at line 1, column 8: a value was expected", None),
    ("es", "cut.toml no es TOML válido en la línea 1, columna 8: falta un valor", "Invalid value"),
])
def test_a_toml_syntax_error_names_its_line_and_column(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       command: str, lang: str, sentence: str,
                                                       english: str | None) -> None:
    """A file holding ``x = [1,`` (the issue's: a list that ends after a comma) names where tomllib stopped, the
    end of the text, as a sentence in the player's language: not "syntax: not valid TOML", not tomllib's
    English ("Invalid value (at end of document)")."""
    monkeypatch.chdir(tmp_path)
    Path("cut.toml").write_text("x = [1,", encoding="utf-8")
    text = said(cli, TOML_COMMANDS[command]("cut.toml"), lang)
    assert sentence in text, text
    assert english is None or english not in text


@pytest.mark.parametrize("command", sorted(JSON_COMMANDS))
@pytest.mark.parametrize(("lang", "sentence"), [
    ("en", "cut.json is not valid JSON at line 2, column 12: a value was expected"),
    ("es", "cut.json no es JSON válido en la línea 2, columna 12: falta un valor"),
])
def test_a_json_syntax_error_in_a_record_names_its_line_and_column(cli: Cli, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch, command: str,
                                                                   lang: str, sentence: str) -> None:
    """``replay`` and ``--resume`` say where a record's JSON breaks and what the parser found, translated."""
    monkeypatch.chdir(tmp_path)
    Path("cut.json").write_text('{\n "format": ,\n}', encoding="utf-8")
    text = said(cli, JSON_COMMANDS[command]("cut.json"), lang)
    assert sentence in text, text
    assert "Expecting" not in text


@pytest.mark.parametrize("command", sorted(ALL_COMMANDS))
@pytest.mark.parametrize(("lang", "sentence", "labels"), [
    ("en", "there is no file gone.txt", "file: path:"),
    ("es", "no existe el archivo gone.txt", "archivo: ruta:"),
])
def test_a_missing_file_is_one_sentence_in_the_players_language(cli: Cli, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch, command: str,
                                                                 lang: str, sentence: str, labels: str) -> None:
    """Every file flametable reads, missing, reads as one sentence naming it: not ``gone.txt: file: path: no
    such file``."""
    monkeypatch.chdir(tmp_path)
    text = said(cli, ALL_COMMANDS[command]("gone.txt"), lang)
    assert sentence in text, text
    assert labels not in text
    assert "gone.txt:" not in text  # the old chain: "gone.txt: file: path: no such file", "gone.txt: no such file"
