"""A human seat of Flamecraft Duals at the terminal, driven by scripted standard input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flametable.games.duals.game import DualsGame
from tests.cli.conftest import Cli
from tests.cli.helpers import SEAT_TEXTS, interrupt_input

ALWAYS_FIRST = "1\n" * 400  # option 1 again and again: the match ends well before

TEXTS: dict[str, dict[str, Any]] = {  # per language: a message, or the words any of which may show
    "en": {
        **SEAT_TEXTS["en"],
        "unreadable": "Unknown action 'banana' in 'banana'.",
        "not_now": "score K1 is not one of your options now.",
        "end": ("wins with", "Shared victory", "more scored cards"),
        "mine": ("You win!", "You lose.", "You share the victory."),
        "board": ("Bag:", "Reserve:", "Shop deck:", "Your hand", "Coins", "Tokens:"),
    },
    "es": {
        **SEAT_TEXTS["es"],
        "unreadable": "Acción desconocida 'banana' en 'banana'.",
        "not_now": "puntuar K1 no es ninguna de tus opciones ahora.",
        "end": ("Gana ", "Victoria compartida", "más cartas puntuadas"),
        "mine": ("¡Has ganado!", "Has perdido.", "Compartes la victoria."),
        "board": ("Bolsa:", "Reserva:", "Mazo de tienda:", "Tu mano", "Monedas", "Fichas:"),
    },
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_human_against_bot(cli: Cli, lang: str, tmp_path: Path) -> None:
    """A whole match against a bot on a terminal tall enough for the whole board (the compact one:
    tests/cli/test_layout.py): bad input is told and asked again, the board and the end are shown, the record
    replays."""
    text = TEXTS[lang]
    record = tmp_path / "match.json"
    result = cli("play", "duals", "--seed", "3", "--lang", lang, "--record", str(record),
                 input="banana\n99\nscore K1\n" + ALWAYS_FIRST, env={"LINES": "100"})
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    for key in ("unreadable", "no_option", "not_now", "bot", "options"):
        assert text[key] in out, key
    # each bad input got its message and then a new prompt
    first = out.index(text["unreadable"])
    second = out.index(text["no_option"])
    assert first < out.index(text["prompt"], first) < second < out.index(text["prompt"], second)
    for word in text["board"]:
        assert word in out, word
    assert any(t in out for t in text["end"])
    assert any(t in out for t in text["mine"])
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["players"] == ["human", "bot:random"]
    assert cli("replay", str(record), "--verify").exit_code == 0


def test_notation_shortcuts_and_help(cli: Cli) -> None:
    """``?`` shows the menu again; a notation in any case, or only its arguments (``c3`` for ``place c3``)."""
    view = DualsGame().new_match({}, 3).view(0)
    assert "place c3" in [a.text() for a in view.legal]
    result = cli("play", "duals", "--seed", "3", "--lang", "en", "--json", input="?\nC3\nskip\n1\n")
    assert result.exit_code == 1  # input ends: the match is abandoned
    assert result.stderr.count("Your options:") >= 3
    without_help = cli("play", "duals", "--seed", "3", "--lang", "en", "--json", input="C3\nskip\n1\n")
    assert result.stderr.count("Your options:") == without_help.stderr.count("Your options:") + 1  # ? listed them
    assert "Player 1 (you): FIRE UP" in " ".join(result.stderr.split())
    assert result.stdout == ""  # nothing but the JSON result goes to stdout, and there is none


@pytest.mark.parametrize("lang", ["en", "es"])
def test_end_of_input_quits_cleanly(cli: Cli, lang: str, tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    result = cli("play", "duals", "--seed", "3", "--lang", lang, "--record", str(record), input="c3\n")
    assert result.exit_code == 1
    assert TEXTS[lang]["quit"] in result.output
    assert json.loads(record.read_text(encoding="utf-8"))["actions"] == ["place c3"]  # what was played is kept


@pytest.mark.parametrize("word", ["quit", "salir"])
def test_quit_word(cli: Cli, word: str) -> None:
    result = cli("play", "duals", "--seed", "3", "--lang", "es", input=f"{word}\n")
    assert result.exit_code == 1
    assert "Partida abandonada." in result.output


def test_ctrl_c_quits_cleanly(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    interrupt_input(monkeypatch)
    result = cli("play", "duals", "--seed", "3", "--lang", "en")
    assert result.exit_code == 130
    assert "Match abandoned." in result.output


def test_opponent_hand_stays_hidden(cli: Cli) -> None:
    """Before any card is scored, the bot's hand is nowhere on the human's screen."""
    state = DualsGame().new_match({}, 3)
    mine, theirs = state.hands
    result = cli("play", "duals", "--seed", "3", "--lang", "en", input="")
    for card in mine:
        assert f"K{card} " in result.output
    for card in theirs:
        assert f"K{card} " not in result.output
        assert f"K{card}\n" not in result.output


def test_hot_seat(cli: Cli) -> None:
    result = cli("play", "duals", "--p1", "human", "--p2", "human", "--seed", "5", "--lang", "en",
                 input="\n1\n" * 400)
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Pass the keyboard to Player 2" in out
    assert "Pass the keyboard to Player 1" in out
    assert "Since your last turn:" in out
    assert "Player 2, your choice:" in out
    assert "(you)" not in out
    assert "wins with" in out or "Shared victory" in out or "more scored cards" in out
