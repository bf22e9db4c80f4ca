"""``flametable cards duals`` and ``flametable cards check`` on Flamecraft Duals data files."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from tests.cli.conftest import Cli

BUILTIN = resources.files("flametable.games.duals").joinpath("data", "duals.toml").read_text(encoding="utf-8")


def test_cards_in_english(cli: Cli) -> None:
    result = cli("cards", "duals", "--lang", "en")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # words wrapped at the terminal's width
    for word in ("Flamecraft Duals (version 1)", "Tokens", "Board", "Shop deck: 43 cards", "bread", "crystal",
                 "meat", "iron", "potion", "plant", "Buddy", "bread+crystal", "FIRE UP order", "K1", "K42",
                 "K43 STARBURST", "5 VP", "three different types", "coins are worth 0", "1 on the inner ring",
                 "1 in the reserve", "4 in the bag", "never both", "Centre: c3"):
        assert word in out, word
    assert "B B B" in out  # card 1's pattern, drawn
    assert "pan" not in out


def test_cards_in_spanish(cli: Cli) -> None:
    result = cli("cards", "duals", "--lang", "es")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    for word in ("Fichas", "Tablero", "Mazo de tienda: 43 cartas", "pan", "cristal", "asado", "hierro", "elixir",
                 "flor", "pan+cristal", "Orden de FIRE UP", "K43 STARBURST", "5 PV", "tres tipos distintos",
                 "tus monedas valen 0", "anillo interior", "nunca las dos", "Centro: c3"):
        assert word in out, word
    assert "bread" not in out


@pytest.mark.parametrize("lang", ["en", "es"])
def test_cards_json(cli: Cli, lang: str) -> None:
    data = cli.json("cards", "duals", "--lang", lang)
    assert data["game"] == "duals"
    assert len(data["cards"]) == 43
    assert len(data["board"]["spaces"]) == 19
    assert len(data["board"]["inner"]) == 6
    tokens = data["tokens"]
    assert [t["key"] for t in tokens["types"]] == ["bread", "crystal", "meat", "iron", "potion", "plant"]
    assert tokens["types"][0]["name"] == {"en": "bread", "es": "pan"}[lang]
    assert [t["count"] for t in tokens["types"]] == [6] * 6
    assert len(tokens["duals"]) == 6
    assert tokens["duals"][0]["types"] == ["bread", "crystal"]
    assert tokens["buddy"]["count"] == 1
    assert tokens["fire_up_order"] == ["bread", "crystal", "meat", "iron", "potion", "plant"]
    starburst = [c for c in data["cards"] if c["starburst"]]
    assert len(starburst) == 1
    assert all("var" in cell for cell in starburst[0]["cells"])
    assert data["cards"][0]["cells"][0] == {"at": [0, 0], "type": "bread"}


def _copy(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "duals.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_check_builtin_file(cli: Cli, tmp_path: Path) -> None:
    path = _copy(tmp_path, BUILTIN)
    for args in ([], ["--game", "duals"]):
        result = cli("cards", "check", str(path), *args, "--lang", "en")
        assert result.exit_code == 0, result.output
        assert "OK" in result.output
        assert "Flamecraft Duals" in result.output
        assert "19 spaces" in result.output
        assert "43 shop cards" in result.output
    spanish = cli("cards", "check", str(path), "--lang", "es")
    assert "43 cartas de tienda" in spanish.output


def _swap(old: str, new: str) -> str:
    assert old in BUILTIN, old
    return BUILTIN.replace(old, new, 1)


@pytest.mark.parametrize(
    ("broken", "entry", "field"),
    [
        (_swap('number = 5\nvp = 3\ncells = [{ at = [0, 0], type = "potion" }',
               'number = 5\nvp = 3\ncells = [{ at = [0, 0], type = "fire" }'), "card 5: cells[0]", "type"),
        (_swap("number = 9\nvp = 3\n", 'number = 9\nvp = "three"\n'), "card 9", "vp"),
        (_swap('"potion", "plant"]\n# D2', '"potion"]\n# D2'), "tokens", "fire_up_order"),
        (_swap('"d2", "d3"]', '"d2", "z9"]'), "board", "inner"),
        (_swap("[[card]]\nnumber = 42\n", "[[card]]\nnumber = 44\n"), "card", "number"),
        (_swap('["meat", "bread"]]', '["meat", "meat"]]'), "tokens", "duals[5]"),
    ],
    ids=["bad-type", "bad-vp", "short-order", "bad-inner", "missing-card", "bad-dual"],
)
def test_check_broken_files(cli: Cli, tmp_path: Path, broken: str, entry: str, field: str) -> None:
    path = _copy(tmp_path, broken)
    for args in ([], ["--game", "duals"]):
        result = cli("cards", "check", str(path), *args, "--lang", "en")
        assert result.exit_code == 1
        assert f"{path}: {entry}: {field}:" in result.output


def test_broken_file_is_refused_by_play_and_cards(cli: Cli, tmp_path: Path) -> None:
    path = _copy(tmp_path, _swap("number = 9\nvp = 3\n", 'number = 9\nvp = "three"\n'))
    for args in (["cards", "duals"], ["play", "duals", "--p1", "bot:random"]):
        result = cli(*args, "--cards", str(path), "--lang", "en")
        assert result.exit_code == 1
        assert f"{path}: card 9: vp:" in result.output
