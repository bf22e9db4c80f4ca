"""``flametable play duals`` with bots, records and replays, and ``bench duals``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.builtin_data import DUALS_DATA
from tests.cli.conftest import BOTS, Cli
from tests.cli.helpers import edit_record, record_with_other_data, run_without_terminal

REASONS = {"most_vp", "more_cards", "shared_victory"}


@pytest.mark.parametrize("buddy", [False, True], ids=["base", "buddy"])
def test_bots_json(cli: Cli, buddy: bool) -> None:
    extra = ["--buddy"] if buddy else []
    data = cli.json("play", "duals", *BOTS, "--seed", "3", *extra)
    assert data["game"] == "duals"
    assert data["seed"] == 3
    assert data["buddy"] is buddy
    assert data["players"] == ["bot:random", "bot:random"]
    assert data["winner"] in (0, 1, None)
    assert data["reason"] in REASONS
    assert len(data["scores"]) == len(data["cards"]) == 2
    assert data["actions"] > 10
    assert cli.json("play", "duals", *BOTS, "--seed", "3", *extra) == data  # same seed, same match


def test_default_seed_is_printed_and_replays(cli: Cli) -> None:
    data = cli.json("play", "duals", *BOTS)
    assert cli.json("play", "duals", *BOTS, "--seed", str(data["seed"])) == data


@pytest.mark.parametrize(("lang", "words"), [("en", ("Seed 4", "Turn 1 ·", "Final count")),
                                             ("es", ("Semilla 4", "Turno 1 ·", "Recuento final"))])
def test_narrated_bot_match(cli: Cli, lang: str, words: tuple[str, ...]) -> None:
    result = cli("play", "duals", *BOTS, "--seed", "4", "--lang", lang)
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output, word
    ends = {"en": ("wins with", "Shared victory", "more scored cards"),
            "es": ("Gana ", "Victoria compartida", "más cartas puntuadas")}[lang]
    assert any(e in result.output for e in ends)


@pytest.mark.parametrize(
    ("args", "words"),
    [(["--p2", "bot:nonsense"], "bot:nonsense"), (["--p1", "robot"], "robot")],
)
def test_bad_seats_are_clear_errors(cli: Cli, args: list[str], words: str) -> None:
    result = cli("play", "duals", *BOTS, *args, "--lang", "en")
    assert result.exit_code == 2
    assert words in result.output
    assert "Flamecraft Duals" in result.output
    assert "bot:random" in result.output  # the seats that can play are listed


def test_missing_data_file(cli: Cli, tmp_path: Path) -> None:
    result = cli("play", "duals", *BOTS, "--cards", str(tmp_path / "nope.toml"))
    assert result.exit_code == 1
    assert "nope.toml" in result.output


def test_bots_need_no_terminal() -> None:
    """Standard input closed, output to a pipe: the match is played and the JSON printed."""
    proc = run_without_terminal("play", "duals", *BOTS, "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["seed"] == 3


# ------------------------------------------------------------------ records


@pytest.fixture(params=[False, True], ids=["base", "buddy"])
def record(request: pytest.FixtureRequest, cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    extra = ["--buddy"] if request.param else []
    cli.json("play", "duals", *BOTS, "--seed", "11", *extra, "--record", str(path))
    return path


def test_record_replays(cli: Cli, record: Path) -> None:
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["game"] == "duals"
    assert saved["players"] == ["bot:random", "bot:random"]
    assert set(saved["options"]) == {"buddy"}
    result = cli("replay", str(record), "--verify", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "OK" in result.output
    data = cli.json("replay", str(record), "--verify")
    assert data["ok"] is True
    assert data["game"] == "duals"
    assert data["steps"] == len(saved["actions"])
    assert data["result"] == saved["result"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_tampered_record_names_the_index(cli: Cli, record: Path, lang: str) -> None:
    actions = json.loads(record.read_text(encoding="utf-8"))["actions"]
    index = next(i for i, a in enumerate(actions) if a.startswith("place ") and i > 3)
    edited = edit_record(record, lambda d: d["actions"].__setitem__(index, "score K1"))  # never legal when placing
    result = cli("replay", str(edited), "--verify", "--lang", lang)
    assert result.exit_code == 1
    assert f" {index} " in result.output
    assert "score K1" in result.output
    expected = {"en": ("Bad action at index", "is not possible now: place the token on a space"),
                "es": ("Acción no válida en el índice", "no es posible ahora")}[lang]
    for words in expected:
        assert words in result.output
    data = json.loads(cli("replay", str(edited), "--verify", "--json").stdout)
    assert data["ok"] is False
    assert data["index"] == index
    assert data["action"] == "score K1"


def test_wrong_stored_result_and_truncated_record(cli: Cli, record: Path) -> None:
    wrong = edit_record(record, lambda d: d["result"].__setitem__("scores", [99, 99]))
    assert cli("replay", str(wrong), "--verify").exit_code == 1
    assert cli("replay", str(wrong)).exit_code == 0  # without --verify, only the actions are checked
    short = edit_record(record, lambda d: d["actions"].pop())
    result = cli("replay", str(short), "--verify", "--lang", "en")
    assert result.exit_code == 1
    assert "ends before the match" in result.output


def test_replay_needs_the_same_data(cli: Cli, tmp_path: Path) -> None:
    data, path = record_with_other_data(cli, tmp_path, "duals", DUALS_DATA, "flamecraft-duals-base", "my-duals")
    assert cli("replay", str(path), "--verify").exit_code == 1  # the built-in data is not the one played
    assert cli("replay", str(path), "--verify", "--cards", str(data)).exit_code == 0


# ------------------------------------------------------------------ bench


def test_bench_json(cli: Cli) -> None:
    data = cli.json("bench", "duals", "--seconds", "0.3")
    assert data["game"] == "duals"
    assert data["seconds"] >= 0.3
    assert data["steps"] > data["matches"] > 0
    assert data["steps_per_second"] == pytest.approx(data["steps"] / data["seconds"], rel=0.01)


def test_bench_text(cli: Cli) -> None:
    result = cli("bench", "duals", "--seconds", "0.1", "--lang", "es")
    assert result.exit_code == 0
    assert "pasos por segundo" in result.output
