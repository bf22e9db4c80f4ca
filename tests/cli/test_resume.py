"""A match left unfinished can be taken up again: its record is written as the match goes, ``replay`` says it
was abandoned and where, and ``play GAME --resume FILE`` goes on with it (same seats, seed and options)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.cli.conftest import BOTS, Cli
from tests.cli.helpers import edit_record

ALWAYS_FIRST = "1\n" * 600


def actions(path: Path) -> list[str]:
    data: list[str] = json.loads(path.read_text(encoding="utf-8"))["actions"]
    return data


def test_the_record_is_on_disk_and_up_to_date_at_every_prompt(cli: Cli, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Whenever the player is asked, the record file already holds every action played so far: a match
    stopped at any moment (even killed) leaves a record of everything played until then."""
    path = tmp_path / "match.json"
    seen: list[int] = []

    def answer(self: Console, prompt: str = "", **kwargs: Any) -> str:
        seen.append(len(actions(path)))
        if len(seen) > 8:
            raise EOFError
        return "1"

    monkeypatch.setattr(Console, "input", answer)
    result = cli("play", "duel", "--seed", "3", "--record", str(path), "--lang", "en")
    assert result.exit_code == 1  # the input ended: the match is abandoned
    assert seen[0] == 0
    assert all(later > earlier for earlier, later in pairwise(seen)), seen


def test_a_killed_match_leaves_a_record_to_resume(cli: Cli, tmp_path: Path) -> None:
    """A match whose process is killed (no goodbye, no last save) leaves a valid record of what was played, which
    ``replay`` calls abandoned and ``play --resume`` finishes."""
    path = tmp_path / "match.json"
    command = [sys.executable, "-m", "flametable.cli", "play", "duel", "--seed", "3", "--record", str(path),
               "--lang", "en"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          text=True) as process:
        try:
            assert process.stdin is not None
            process.stdin.write("1\n1\n")
            process.stdin.flush()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (path.exists() and len(actions(path)) >= 4):
                time.sleep(0.05)
        finally:
            process.kill()
    assert len(actions(path)) == 4  # both line-ups; the third line the player never typed
    assert "Abandoned at action 4" in cli("replay", str(path), "--lang", "en").output
    assert cli("play", "duel", "--resume", str(path), input=ALWAYS_FIRST).exit_code == 0
    assert cli("replay", str(path), "--verify").exit_code == 0


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Abandoned at action 4: the match stops there, every action before it legal. Go on with it: "
           "flametable play duel --resume"),
    ("es", "Abandonada en la acción 4: la partida se detiene ahí y todas las acciones anteriores son legales. "
           "Para continuarla: flametable play duel --resume"),
])
def test_replay_says_where_a_match_was_abandoned(cli: Cli, tmp_path: Path, lang: str, words: str) -> None:
    """A record left by a player who quit says it was abandoned, and where, not that it "ends before the match
    does"; the JSON report says so too."""
    path = tmp_path / "match.json"
    cli("play", "duel", "--seed", "3", "--record", str(path), "--lang", "en", input="1\n1\nquit\n")
    assert len(actions(path)) == 4  # both line-ups: two actions each, the bot's after the player's
    result = cli("replay", str(path), "--lang", lang)
    assert result.exit_code == 1  # the record does not reach the end of a match
    text = " ".join(result.output.split())
    assert words in text, text
    assert "ends before" not in text
    data = json.loads(cli("replay", str(path), "--json").stdout)
    assert data["abandoned"] is True
    assert data["reason"] == "the match was abandoned at action 4"


def _abandoned_bot_record(cli: Cli, tmp_path: Path, game: str, keep: int) -> tuple[Path, list[str]]:
    """A bot match's record cut after ``keep`` actions, as a match stopped there leaves it: (record, the full
    match's actions)."""
    full = tmp_path / "full.json"
    cli.json("play", game, *BOTS, "--seed", "5", "--record", str(full))

    def cut(data: dict[str, Any]) -> None:
        del data["actions"][keep:]
        data["result"] = None

    edited = edit_record(full, cut)
    cut_path = tmp_path / "abandoned.json"
    edited.rename(cut_path)
    return cut_path, actions(full)


@pytest.mark.parametrize("game", ["duel", "duals"])
def test_resume_goes_on_with_the_match_and_its_record(cli: Cli, tmp_path: Path, game: str) -> None:
    """``play GAME --resume FILE`` replays the record, plays on with the record's seats, seed and options, and
    writes the whole match into the same file: it then replays and verifies as any finished match."""
    path, full = _abandoned_bot_record(cli, tmp_path, game, 6)
    before = actions(path)
    result = cli.json("play", game, "--resume", str(path))
    assert result["players"] == ["bot:random", "bot:random"]
    assert result["seed"] == 5
    after = actions(path)
    assert after[:6] == before
    assert len(after) == result["actions"] > 6
    assert cli("replay", str(path), "--verify").exit_code == 0
    assert len(full) > 6


def test_resume_with_a_human_seat_says_where_it_goes_on(cli: Cli, tmp_path: Path) -> None:
    """A human who quit takes the match up again where it stopped, and is told so; the match ends normally."""
    path = tmp_path / "match.json"
    cli("play", "duel", "--seed", "3", "--record", str(path), "--lang", "es", input="1\nquit\n")
    result = cli("play", "duel", "--resume", str(path), "--lang", "es", input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"Partida continuada desde {path} tras 1 acción; su registro sigue en {path}." in text, text
    assert "Jugador 1 (tú) contra Jugador 2 (bot:random). Semilla 3" in text
    assert cli("replay", str(path), "--verify").exit_code == 0


def test_resume_can_write_the_record_elsewhere(cli: Cli, tmp_path: Path) -> None:
    """With ``--record`` the match goes on in another file; the abandoned record stays as it was."""
    path, _full = _abandoned_bot_record(cli, tmp_path, "duel", 4)
    kept = path.read_text(encoding="utf-8")
    other = tmp_path / "finished.json"
    cli.json("play", "duel", "--resume", str(path), "--record", str(other))
    assert path.read_text(encoding="utf-8") == kept
    assert actions(other)[:4] == actions(path)
    assert cli("replay", str(other), "--verify").exit_code == 0


@pytest.mark.parametrize(("game", "typed", "named"), [
    ("duel", ["--seed", "4", "--mode", "decks"], "--seed, --mode"),
    ("duel", ["--p2", "bot:hard"], "--p2"),
    ("duals", ["--buddy", "--p1", "bot:easy"], "--p1, --buddy"),
])
def test_resume_takes_the_setup_from_the_record_only(cli: Cli, tmp_path: Path, game: str, typed: list[str],
                                                     named: str) -> None:
    """Options that would set up another match are refused with ``--resume``, naming them (exit 2)."""
    path, _full = _abandoned_bot_record(cli, tmp_path, game, 3)
    result = cli("play", game, "--resume", str(path), *typed, "--lang", "en")
    assert result.exit_code == 2
    assert f"leave out {named}." in " ".join(result.output.split())


def test_resume_refuses_a_finished_match_or_another_games_record(cli: Cli, tmp_path: Path) -> None:
    """A finished match has nothing to go on with; a Flame Duel record is no Flamecraft Duals match."""
    path = tmp_path / "match.json"
    cli.json("play", "duel", *BOTS, "--seed", "2", "--record", str(path))
    over = cli("play", "duel", "--resume", str(path), "--lang", "en")
    assert over.exit_code == 1
    assert f"The match of {path} is already over: flametable replay {path} shows it." in " ".join(
        over.output.split())
    other = cli("play", "duals", "--resume", str(path), "--lang", "es")
    assert other.exit_code == 1
    assert "el registro es del juego 'duel', no de 'duals'" in " ".join(other.output.split())
    missing = cli("play", "duel", "--resume", str(tmp_path / "nothing.json"), "--lang", "en")
    assert missing.exit_code == 1
    assert "Cannot read the record" in missing.output


def test_resume_names_an_action_that_cannot_be_played(cli: Cli, tmp_path: Path) -> None:
    """A record whose actions cannot all be played is not resumed: the message names the action."""
    path, _full = _abandoned_bot_record(cli, tmp_path, "duel", 4)
    edited = edit_record(path, lambda d: d["actions"].__setitem__(1, "pass"))
    result = cli("play", "duel", "--resume", str(edited), "--lang", "en")
    assert result.exit_code == 1
    assert "action 1 (pass) cannot be played" in " ".join(result.output.split())


@pytest.mark.parametrize(("lang", "players", "sentence"), [
    ("en", ["bot:random"], "the record names 1 player; a match has 2"),
    ("en", ["bot:random"] * 3, "the record names 3 players; a match has 2"),
    ("es", ["bot:random"], "el registro nombra a 1 jugador; una partida tiene 2"),
    ("es", ["bot:random"] * 3, "el registro nombra a 3 jugadores; una partida tiene 2"),
])
def test_replay_and_resume_refuse_a_record_without_two_players_alike(cli: Cli, tmp_path: Path, lang: str,
                                                                     players: list[str], sentence: str) -> None:
    """Every match has two seats: ``replay --verify`` refused no record whose ``players`` list had 1 or 3 entries
    while ``--resume`` refused it; one check now says the same thing to both (issue 19, point 7), with the
    noun's plural form for the count."""
    def seats(data: dict[str, Any]) -> None:
        data["players"] = players

    cut, _ = _abandoned_bot_record(cli, tmp_path, "duel", 10)
    finished = edit_record(tmp_path / "full.json", seats).rename(tmp_path / "finished.json")
    abandoned = edit_record(cut, seats)
    for args in (["replay", str(finished), "--verify"], ["play", "duel", "--resume", str(abandoned)]):
        result = cli(*args, "--lang", lang)
        assert result.exit_code == 1, (args, result.output)
        text = " ".join(result.output.split())
        assert sentence in text, (args, text)
        assert "OK" not in text
