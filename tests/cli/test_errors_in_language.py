"""Every command shows a bad file's or record's error in the player's language, details included: the error's
template and its parameters are translated at the terminal, never an English detail inside a Spanish sentence."""

from __future__ import annotations

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
