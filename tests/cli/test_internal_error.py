"""The last line of defence: whatever goes wrong inside a command, the player reads one line in their language
naming the file to report, and the program ends with exit 70, never with a traceback. The failures here are
injected (a reader that raises): the fuzz tests make that line unreachable for real files."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from flametable.cli import main as cli_main
from flametable.cli.guard import INTERNAL_ERROR
from flametable.cli.main import app
from flametable.core.errors import DataError
from tests.builtin_data import DUEL_CARDS

CARDS = str(DUEL_CARDS)

LINE = {
    "en": "Internal error: please report it with this file: {file}\n",
    "es": "Error interno: por favor, infórmanos y adjunta este archivo: {file}\n",
}


def boom(*args: object, **kwargs: object) -> None:
    raise ValueError("an unexpected bug")


def run(*args: str, env: dict[str, str | None] | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env={"FLAMETABLE_DEBUG": None, **(env or {})})


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_reader_that_fails_unexpectedly_ends_in_one_translated_line_naming_the_file(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``cards check FILE`` whose reader raises a bug: exit 70, and stderr is exactly one line in the player's
    language naming FILE; no traceback, nothing on stdout."""
    monkeypatch.setattr("flametable.cli.cards.load_toml", boom)
    result = run("cards", "check", CARDS, "--lang", lang)
    assert result.exit_code == INTERNAL_ERROR == 70
    assert result.stderr == LINE[lang].format(file=CARDS)
    assert result.stdout == ""
    assert "Traceback" not in result.output


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_record_that_breaks_the_replay_is_the_file_named(lang: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``replay FILE`` failing inside the record's reader names the record (the file the player reports)."""
    record = tmp_path / "match.json"
    record.write_text("{}", encoding="utf-8")
    monkeypatch.setattr("flametable.core.record.MatchRecord.load", boom)
    result = run("replay", str(record), "--verify", "--lang", lang)
    assert result.exit_code == 70
    assert result.stderr == LINE[lang].format(file=record)


def test_every_input_file_is_named_and_written_files_are_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``report RESULTS --html OUT --cards CARDS``: the two files it reads are named, the one it writes is not."""
    results = tmp_path / "results.jsonl"
    results.write_text("", encoding="utf-8")
    monkeypatch.setattr("flametable.cli.lab.run_report", boom)
    result = run("report", str(results), "--html", str(tmp_path / "out.html"), "--cards", CARDS)
    assert result.exit_code == 70
    prefix = "Internal error: please report it with these files: "
    assert result.stderr.startswith(prefix)
    assert sorted(result.stderr.removeprefix(prefix).rstrip("\n").split(", ")) == sorted([str(results), CARDS])


def test_a_command_reading_no_file_names_its_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sim duel`` reads no file: the line names the command line to report instead."""
    monkeypatch.setattr("flametable.cli.lab.run_sim", boom)
    result = run("sim", "duel", "--games", "3", "--lang", "es")
    assert result.exit_code == 70
    assert result.stderr == ("Error interno: por favor, infórmanos y adjunta esta línea de órdenes: "
                             "flametable sim duel --games 3 --lang es\n")


def test_a_failure_in_the_program_group_itself_ends_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug before any command runs (the program's start-up) still ends in the line and exit 70, naming the
    command line."""
    monkeypatch.setattr(cli_main, "_reported", False)
    monkeypatch.setattr("flametable.core.registry.broken", boom)
    result = run("cards", "check", CARDS)
    assert result.exit_code == 70
    assert result.stderr == f"Internal error: please report it with this command line: flametable cards check {CARDS}\n"


def test_the_debug_variable_shows_the_traceback_then_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``FLAMETABLE_DEBUG=1``: developers see the traceback (ending with the exception) before the same line."""
    monkeypatch.setattr("flametable.cli.cards.load_toml", boom)
    result = run("cards", "check", CARDS, env={"FLAMETABLE_DEBUG": "1"})
    assert result.exit_code == 70
    lines = result.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-2] == "ValueError: an unexpected bug"
    assert lines[-1] == LINE["en"].format(file=CARDS).rstrip("\n")


def test_a_project_error_no_command_caught_is_an_ordinary_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A project error that escaped its command is shown like any error (``Error: ...`` translated, exit 1),
    not as an internal error."""

    def bad_file(*args: object, **kwargs: object) -> None:
        raise DataError("x.toml", "set", "name", "must be text")

    monkeypatch.setattr("flametable.cli.lab.run_sim", bad_file)
    result = run("sim", "duel")
    assert result.exit_code == 1
    assert result.stderr == "Error: x.toml: set: name: must be text\n"


def test_ctrl_c_and_deliberate_exits_keep_their_behaviour(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C inside a command ends it with exit 130 and no internal-error line; a usage error stays click's
    (exit 2)."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("flametable.cli.lab.run_sim", interrupted)
    result = run("sim", "duel")
    assert result.exit_code == 130
    assert "Internal error" not in result.output
    usage = run("sim", "duel", "--games", "many")
    assert usage.exit_code == 2
    assert "Internal error" not in usage.output
