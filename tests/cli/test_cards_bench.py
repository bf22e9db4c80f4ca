"""``flametable cards duel``, ``flametable cards check`` and ``flametable bench duel``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from tests.cli.conftest import Cli

BUILTIN = resources.files("flametable.games.duel").joinpath("data", "cards.toml").read_text(encoding="utf-8")


def test_cards_in_spanish(cli: Cli) -> None:
    result = cli("cards", "duel", "--lang", "es")
    assert result.exit_code == 0
    for word in ("Personajes", "Cartas de apoyo", "Chispa", "Calor", "Simpatía", "Objeto", "Lugar", "Evento",
                 "Habilidad", "Equipable por", "Marciano", "Petardo de Bolsillo"):
        assert word in result.output, word
    assert "Pocket Firecracker" not in result.output


def test_cards_in_english(cli: Cli) -> None:
    result = cli("cards", "duel", "--lang", "en")
    assert result.exit_code == 0
    for word in ("Characters", "Support cards", "Spark", "Heat", "Charm", "Item", "Place", "Event", "Equips to",
                 "Pocket Firecracker"):
        assert word in result.output, word


def test_cards_language_from_environment(cli: Cli) -> None:
    spanish = cli("cards", "duel", env={"LC_ALL": None, "LC_MESSAGES": None, "LANG": "es_ES.UTF-8"})
    assert "Cartas de apoyo" in spanish.output
    english = cli("cards", "duel", env={"LC_ALL": "en_GB.UTF-8", "LANG": "es_ES.UTF-8"})
    assert "Support cards" in english.output


@pytest.mark.parametrize("lang", ["en", "es"])
def test_cards_json(cli: Cli, lang: str) -> None:
    data = cli.json("cards", "duel", "--lang", lang)
    assert len(data["characters"]) == 33
    assert len(data["supports"]) == 21
    first = data["supports"][0]
    assert first["name"] == {"en": "Pocket Firecracker", "es": "Petardo de Bolsillo"}[lang]
    assert first["kind"] == "item"
    assert first["stat"] == "spark"
    assert first["equips_to"]
    assert {"number", "name", "spark", "heat", "charm", "ability"} <= set(data["characters"][0])


def test_check_builtin_file(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(BUILTIN, encoding="utf-8")
    result = cli("cards", "check", str(path), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "OK" in result.output
    assert "33 characters" in result.output


def _character_block(number: int) -> tuple[int, int]:
    start = BUILTIN.index(f"[[character]]\nnumber = {number}\n")
    end = BUILTIN.index("[[", start + 2)
    return start, end


def _without_field(text: str, number: int, field: str) -> str:
    start, end = _character_block(number)
    block = "\n".join(line for line in text[start:end].splitlines() if not line.startswith(f"{field} ="))
    return text[:start] + block + "\n\n" + text[end:]


def _support_stat(text: str, number: int, stat: str) -> str:
    start = text.index(f"[[support]]\nnumber = {number}\n")
    end = text.index("[[", start + 2) if "[[" in text[start + 2:] else len(text)
    block = text[start:end]
    lines = [f'stat = "{stat}"' if line.startswith("stat =") else line for line in block.splitlines()]
    return text[:start] + "\n".join(lines) + "\n\n" + text[end:]


def _drop_last_character(text: str) -> str:
    start, end = _character_block(33)
    return text[:start] + text[end:]


@pytest.mark.parametrize(
    ("broken", "entry", "field"),
    [
        (_without_field(BUILTIN, 5, "heat"), "character 5", "heat"),
        (_support_stat(BUILTIN, 3, "fire"), "support 3", "stat"),
        (_drop_last_character(BUILTIN), "character", "number"),
    ],
    ids=["missing-field", "bad-stat", "wrong-count"],
)
def test_check_broken_files(cli: Cli, tmp_path: Path, broken: str, entry: str, field: str) -> None:
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    result = cli("cards", "check", str(path), "--lang", "en")
    assert result.exit_code == 1
    assert f"{path}: {entry}: {field}:" in result.output


def test_check_missing_and_invalid_files(cli: Cli, tmp_path: Path) -> None:
    missing = cli("cards", "check", str(tmp_path / "nope.toml"))
    assert missing.exit_code == 1
    assert "nope.toml" in missing.output
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml", encoding="utf-8")
    result = cli("cards", "check", str(bad))
    assert result.exit_code == 1
    assert "bad.toml" in result.output


def test_bench_json(cli: Cli) -> None:
    data = cli.json("bench", "duel", "--seconds", "0.5")
    assert data["game"] == "duel"
    assert data["seconds"] >= 0.5
    assert data["steps"] > data["matches"] > 0
    assert data["steps_per_second"] == pytest.approx(data["steps"] / data["seconds"], rel=0.01)
    assert data["matches_per_second"] == pytest.approx(data["matches"] / data["seconds"], rel=0.01)


def test_bench_text(cli: Cli) -> None:
    result = cli("bench", "duel", "--seconds", "0.1", "--lang", "en")
    assert result.exit_code == 0
    assert "steps per second" in result.output


def test_check_guesses_the_game_or_takes_it(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(BUILTIN, encoding="utf-8")
    assert cli("cards", "check", str(path), "--game", "duel").exit_code == 0
    result = cli("cards", "check", str(path), "--game", "chess", "--lang", "en")
    assert result.exit_code == 2
    assert "chess" in result.output
