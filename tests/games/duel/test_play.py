"""``flametable play duel`` with bots: no terminal needed, one JSON object with --json, reproducible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import BOTS, Cli
from tests.cli.helpers import run_without_terminal


@pytest.mark.parametrize(("mode", "pick"), [("shared", "random"), ("shared", "draft"), ("decks", "random")])
def test_bots_json_in_each_mode(cli: Cli, mode: str, pick: str) -> None:
    data = cli.json("play", "duel", *BOTS, "--seed", "3", "--mode", mode, "--pick", pick)
    assert data["game"] == "duel"
    assert data["seed"] == 3
    assert data["players"] == ["bot:random", "bot:random"]
    assert data["winner"] in (0, 1, None)
    assert data["reason"] in {"two_round_wins", "more_round_wins", "tiebreak_round", "tied_match"}
    assert len(data["scores"]) == 2
    assert data["actions"] > 0
    assert (data["mode"], data["pick"]) == (mode, pick)
    assert cli.json("play", "duel", *BOTS, "--seed", "3", "--mode", mode, "--pick", pick) == data


def test_seeds_differ_and_default_seed_is_printed(cli: Cli) -> None:
    results = {json.dumps(cli.json("play", "duel", *BOTS, "--seed", str(seed))) for seed in range(4)}
    assert len(results) > 1
    data = cli.json("play", "duel", *BOTS)
    again = cli.json("play", "duel", *BOTS, "--seed", str(data["seed"]))
    assert again == data


def test_narrated_bot_match(cli: Cli) -> None:
    result = cli("play", "duel", *BOTS, "--seed", "3", "--lang", "en")
    assert result.exit_code == 0
    assert "Seed 3" in result.output
    assert "wins the match" in result.output or "tie" in result.output
    assert "lines up a character" in result.output


def test_own_decks_from_files(cli: Cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text("characters = [1, 5, 9]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8]\n", encoding="utf-8")
    record = tmp_path / "match.json"
    data = cli.json("play", "duel", *BOTS, "--seed", "7", "--mode", "decks", "--deck1", str(deck),
                    "--record", str(record))
    assert data["mode"] == "decks"
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["options"]["decks"][0] == {"characters": [1, 5, 9], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}
    assert saved["options"]["decks"][1] is None


def test_bad_deck_file_names_file_and_field(cli: Cli, tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text("characters = [1, 5]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8]\n", encoding="utf-8")
    result = cli("play", "duel", *BOTS, "--mode", "decks", "--deck2", str(deck))
    assert result.exit_code == 1
    assert str(deck) in result.output
    assert "characters" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--mode", "decks", "--pick", "draft"], "--pick draft"),
        (["--deck1", "x.toml"], "--mode decks"),
        (["--p2", "bot:nonsense"], "bot:nonsense"),
        (["--p1", "robot"], "robot"),
    ],
)
def test_bad_options_are_clear_errors(cli: Cli, args: list[str], words: str) -> None:
    result = cli("play", "duel", *BOTS, *args, "--lang", "en")
    assert result.exit_code == 2
    assert words in result.output


def test_missing_card_file(cli: Cli, tmp_path: Path) -> None:
    result = cli("play", "duel", *BOTS, "--cards", str(tmp_path / "nope.toml"))
    assert result.exit_code == 1
    assert "nope.toml" in result.output


def test_bots_need_no_terminal(tmp_path: Path) -> None:
    """Standard input closed, output to a pipe: the match is played and the JSON printed."""
    proc = run_without_terminal("play", "duel", *BOTS, "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["seed"] == 3
