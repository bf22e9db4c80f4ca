"""A human seat at the terminal, driven by scripted standard input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flametable.core.i18n import pick
from flametable.games.duel.game import DuelGame
from tests.cli.conftest import Cli
from tests.cli.helpers import SEAT_TEXTS, interrupt_input

ALWAYS_FIRST = "1\n" * 300

TEXTS: dict[str, dict[str, Any]] = {  # per language: a message, or the words any of which may show
    "en": {
        **SEAT_TEXTS["en"],
        "unreadable": "Cannot read the action 'banana'.",
        "end": ("wins the match", "The match is a tie"),
        "mine": ("You win!", "You lose.", "Nobody wins this time."),
    },
    "es": {
        **SEAT_TEXTS["es"],
        "unreadable": "No se entiende la acción 'banana'.",
        "end": ("gana la partida", "La partida acaba en empate"),
        "mine": ("¡Has ganado!", "Has perdido.", "Esta vez no gana nadie."),
    },
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_human_against_bot(cli: Cli, lang: str, tmp_path: Path) -> None:
    text = TEXTS[lang]
    record = tmp_path / "match.json"
    result = cli("play", "duel", "--seed", "3", "--lang", lang, "--record", str(record),
                 input="banana\n99\n" + ALWAYS_FIRST)
    out = result.output
    assert result.exit_code == 0, out
    assert text["unreadable"] in out
    assert text["no_option"] in out
    # the bad inputs each got a new prompt, right after the message
    first = out.index(text["unreadable"])
    assert out.index(text["prompt"], first) < out.index(text["no_option"])
    assert any(t in out for t in text["end"])
    assert any(t in out for t in text["mine"])
    assert text["bot"] in out
    assert json.loads(record.read_text(encoding="utf-8"))["players"] == ["human", "bot:random"]
    assert cli("replay", str(record), "--verify").exit_code == 0


def test_notation_input_and_help(cli: Cli) -> None:
    view = DuelGame().new_match({}, 3).view(0)
    typed = view.legal[-1].text()
    result = cli("play", "duel", "--seed", "3", "--lang", "en", input=f"?\n{typed.upper()}\n" + ALWAYS_FIRST)
    assert result.exit_code == 0
    assert result.output.count("Your options:") >= 2
    without_help = cli("play", "duel", "--seed", "3", "--lang", "en", input=f"{typed.upper()}\n" + ALWAYS_FIRST)
    assert result.output.count("Your options:") == without_help.output.count("Your options:") + 1  # ? listed them


def test_same_match_same_seed(cli: Cli) -> None:
    one = cli("play", "duel", "--seed", "8", "--lang", "en", "--json", input=ALWAYS_FIRST)
    two = cli("play", "duel", "--seed", "8", "--lang", "en", "--json", input=ALWAYS_FIRST)
    assert one.exit_code == two.exit_code == 0
    assert json.loads(one.stdout) == json.loads(two.stdout)  # the board went to stderr
    assert "Your options:" in one.stderr


@pytest.mark.parametrize("lang", ["en", "es"])
def test_end_of_input_quits_cleanly(cli: Cli, lang: str, tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    result = cli("play", "duel", "--seed", "3", "--lang", lang, "--record", str(record), input="1\n")
    assert result.exit_code == 1
    assert TEXTS[lang]["quit"] in result.output
    assert len(json.loads(record.read_text(encoding="utf-8"))["actions"]) == 1  # what was played is kept


@pytest.mark.parametrize("word", ["quit", "salir"])
def test_quit_word(cli: Cli, word: str) -> None:
    result = cli("play", "duel", "--seed", "3", "--lang", "es", input=f"{word}\n")
    assert result.exit_code == 1
    assert "Partida abandonada." in result.output


def test_opponent_hidden_before_the_flip(cli: Cli) -> None:
    """During the line-up the bot's characters are face down: none of their names is on screen."""
    state = DuelGame().new_match({}, 3)
    theirs = [pick(state.cards.character(c).name, "en") for c in state.characters[1]]
    mine = [pick(state.cards.character(c).name, "en") for c in state.characters[0]]
    result = cli("play", "duel", "--seed", "3", "--lang", "en", input="")
    assert all(name in result.output for name in mine)
    assert not any(name in result.output for name in theirs)


def test_hot_seat(cli: Cli) -> None:
    result = cli("play", "duel", "--p1", "human", "--p2", "human", "--seed", "5", "--lang", "en",
                 input="\n1\n" * 200)
    out = result.output
    assert result.exit_code == 0, out
    assert "Pass the keyboard to Player 2" in out
    assert "Pass the keyboard to Player 1" in out
    assert "Player 2, your choice:" in out
    assert "(you)" not in out
    assert "wins the match" in out or "The match is a tie" in out


def test_ctrl_c_quits_cleanly(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_input(monkeypatch)
    result = cli("play", "duel", "--seed", "3", "--lang", "en")
    assert result.exit_code == 130
    assert "Match abandoned." in result.output
