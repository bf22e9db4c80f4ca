"""``flametable play duel --record`` then ``flametable replay FILE --verify``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.builtin_data import DUEL_CARDS
from tests.cli.conftest import BOTS, Cli
from tests.cli.helpers import edit_record, record_with_other_data


@pytest.fixture
def record(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    cli.json("play", "duel", *BOTS, "--seed", "11", "--record", str(path))
    return path


def test_record_replays(cli: Cli, record: Path) -> None:
    result = cli("replay", str(record), "--verify", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "OK" in result.output
    data = cli.json("replay", str(record), "--verify")
    assert data["ok"] is True
    assert data["steps"] == len(json.loads(record.read_text(encoding="utf-8"))["actions"])


def test_record_result_matches_the_json(cli: Cli, record: Path, tmp_path: Path) -> None:
    saved = json.loads(record.read_text(encoding="utf-8"))
    played = cli.json("play", "duel", *BOTS, "--seed", "11")
    assert saved["result"] == {"winner": played["winner"], "reason": played["reason"], "scores": played["scores"]}
    assert saved["players"] == ["bot:random", "bot:random"]
    assert len(saved["actions"]) == played["actions"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_illegal_action_names_index(cli: Cli, record: Path, lang: str) -> None:
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    index = next(i for i, a in enumerate(actions) if a.startswith(("play ", "pass")) and i > 4)

    def change(data: dict[str, Any]) -> None:
        data["actions"][index] = "pick C1"  # never legal outside the draft

    edited = edit_record(record, change)
    result = cli("replay", str(edited), "--verify", "--lang", lang)
    assert result.exit_code == 1
    assert str(index) in result.output
    assert "pick C1" in result.output
    assert ("Bad action at index" if lang == "en" else "Acción no válida en el índice") in result.output
    expected = {"en": "play a card, trigger your ability or pass",
                "es": "jugar una carta, activar tu habilidad o pasar"}
    assert expected[lang] in result.output  # the engine's phrase parameter is translated too
    data = json.loads(cli("replay", str(edited), "--verify", "--json").stdout)
    assert data["ok"] is False
    assert data["index"] == index


def test_unreadable_action(cli: Cli, record: Path) -> None:
    edited = edit_record(record, lambda d: d["actions"].__setitem__(2, "dance wildly"))
    result = cli("replay", str(edited), "--lang", "en")
    assert result.exit_code == 1
    assert "index 2" in result.output


def test_truncated_record(cli: Cli, record: Path) -> None:
    edited = edit_record(record, lambda d: d["actions"].pop())
    result = cli("replay", str(edited), "--verify", "--lang", "en")
    assert result.exit_code == 1
    assert "ends before the match" in result.output


def test_wrong_stored_result(cli: Cli, record: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["result"]["scores"] = [9, 9]

    edited = edit_record(record, change)
    assert cli("replay", str(edited), "--verify").exit_code == 1
    assert cli("replay", str(edited)).exit_code == 0  # without --verify, only the actions are checked


@pytest.mark.parametrize("how", ["null", "missing"])
@pytest.mark.parametrize("lang", ["en", "es"])
def test_verify_fails_on_a_record_without_a_result(cli: Cli, record: Path, how: str, lang: str) -> None:
    """``--verify`` on a record whose result is null or missing fails with its reason (nothing to compare),
    in the player's language; without ``--verify`` the actions alone replay fine."""

    def change(data: dict[str, Any]) -> None:
        if how == "null":
            data["result"] = None
        else:
            del data["result"]

    edited = edit_record(record, change)
    result = cli("replay", str(edited), "--verify", "--lang", lang)
    assert result.exit_code == 1, result.output
    assert {"en": "holds no result to compare", "es": "no guarda ningún resultado"}[lang] in result.output
    assert "OK" not in result.output
    data = json.loads(cli("replay", str(edited), "--verify", "--json").stdout)
    assert (data["ok"], data["no_result"]) == (False, True)
    assert cli("replay", str(edited)).exit_code == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "there is no file"),
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be an object, got a list"),
        ('{"format": "something else"}', "format"),
    ],
)
def test_bad_files_are_clear_errors(cli: Cli, tmp_path: Path, content: str | None, words: str) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = cli("replay", str(path), "--verify", "--lang", "en")
    assert result.exit_code == 1
    assert words in result.output
    assert "Error" in result.output


def test_unknown_game(cli: Cli, record: Path) -> None:
    edited = edit_record(record, lambda d: d.__setitem__("game", "chess"))
    result = cli("replay", str(edited), "--lang", "en")
    assert result.exit_code == 1
    assert "chess" in result.output


def test_custom_cards_are_needed_to_replay(cli: Cli, tmp_path: Path) -> None:
    cards, path = record_with_other_data(cli, tmp_path, "duel", DUEL_CARDS, "flametable-base", "my-set")
    assert cli("replay", str(path), "--verify").exit_code == 1  # the built-in set is not the one played
    assert cli("replay", str(path), "--verify", "--cards", str(cards)).exit_code == 0


@pytest.mark.parametrize(("lang", "kept", "words"), [
    ("en", 1, "Player 1 resigned after 1 action, a legal one: Player 2 wins."),
    ("en", 3, "Player 1 resigned after 3 actions, every one legal: Player 2 wins."),
    ("es", 1, "El jugador 1 abandonó tras 1 acción, legal: gana el jugador 2."),
    ("es", 3, "El jugador 1 abandonó tras 3 acciones, todas legales: gana el jugador 2."),
])
def test_a_resignation_counts_its_actions_with_the_nouns_plural_form(cli: Cli, record: Path, lang: str, kept: int,
                                                                     words: str) -> None:
    """A match given up after one action says "1 action", not "1 actions" (ngettext, in both languages)."""
    def resign(data: dict[str, Any]) -> None:
        del data["actions"][kept:]
        data["result"] = {"winner": 1, "reason": "resigned", "scores": [0, 0]}

    result = cli("replay", str(edit_record(record, resign)), "--verify", "--lang", lang)
    assert result.exit_code == 0, result.output
    assert words in " ".join(result.output.split())
