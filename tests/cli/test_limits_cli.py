"""Limits at the door, at the terminal (docs/limits.md): a seed outside 0 to 2**64 - 1 is refused, never reduced,
whether typed or read from a record; a record past a limit is refused in the player's language, never a
traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import BOTS, Cli

TOO_BIG = [str(2**64 + 5), str(10**30), "-1"]


@pytest.mark.parametrize("seed", TOO_BIG)
def test_a_typed_seed_outside_the_range_is_refused(cli: Cli, seed: str) -> None:
    """2**64 + 5 used to play the match of seed 5, and 10**30 a match of its low 64 bits."""
    result = cli("play", "duel", *BOTS, "--seed", seed, "--lang", "es")
    assert result.exit_code == 2, result.output
    assert f"--seed: una semilla es un entero de 0 a 18446744073709551615, no {seed}" in result.output


@pytest.mark.parametrize("command", [["play", "duals", *BOTS], ["sim", "duel", "--games", "1"],
                                     ["ladder", "duel", "--bots", "bot:random,bot:easy", "--games", "1"]])
def test_every_command_refuses_a_seed_outside_the_range(cli: Cli, command: list[str]) -> None:
    result = cli(*command, "--seed", str(2**64), "--lang", "en")
    assert result.exit_code == 2, result.output
    assert "--seed: a seed is an integer from 0 to 18446744073709551615" in result.output


def test_the_largest_seed_plays(cli: Cli) -> None:
    result = cli("play", "duel", *BOTS, "--seed", str(2**64 - 1), "--json")
    assert result.exit_code == 0, result.output


def test_a_record_whose_seed_is_outside_the_range_is_refused(cli: Cli, tmp_path: Path) -> None:
    """A record of seed s and its copies with s + 2**64 and s - 2**64 used to replay as the same match (the one
    past JSON's integers, the other past the seeds)."""
    good = tmp_path / "good.json"
    assert cli("play", "duel", *BOTS, "--seed", "3", "--record", str(good)).exit_code == 0
    data = json.loads(good.read_text(encoding="utf-8"))
    assert cli("replay", str(good), "--verify").exit_code == 0
    for seed, problem in [(3 - 2**64, f"registro: seed: debe ser como mínimo 0, no {3 - 2**64}"),
                          (3 + 2**64, "/seed: el entero no está entre -18446744073709551615 y 18446744073709551615")]:
        data["seed"] = seed
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        result = cli("replay", str(bad), "--verify", "--lang", "es")
        assert result.exit_code == 1, result.output
        assert f"{bad}: {problem}" in result.output.replace("\n", "")


def test_a_record_action_with_a_lone_surrogate_is_refused_in_text_and_json(cli: Cli, tmp_path: Path) -> None:
    """'play S3\\ud800' was echoed back and crashed both outputs (UnicodeEncodeError)."""
    good = tmp_path / "good.json"
    assert cli("play", "duel", *BOTS, "--seed", "3", "--record", str(good)).exit_code == 0
    data = json.loads(good.read_text(encoding="utf-8"))
    data["actions"][0] = "play S3\ud800"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    for extra in ([], ["--json"]):
        result = cli("replay", str(bad), "--verify", *extra, "--lang", "es")
        assert result.exit_code == 1, result.output
        assert "/actions/0: un texto contiene un sustituto suelto (\\ud800)" in result.output.replace("\n", "")


def test_options_nested_too_deep_are_refused(cli: Cli) -> None:
    result = cli("sim", "duel", "--games", "1", "--options", "[" * 600 + "]" * 600, "--lang", "es")
    assert result.exit_code == 2, result.output
    assert "--options: listas y tablas anidadas a más de 32 niveles" in result.output
