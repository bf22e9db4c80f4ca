"""What players expect of the command: the match so far and any card at the prompt, ``--version``, switches
that read as switches in the help, and ``cards check`` on a deck file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import flametable
from tests.cli.conftest import Cli

ALWAYS_FIRST = "1\n" * 600


def _between(output: str, first: str, then: str) -> str:
    """The text after the first ``first`` up to the next ``then``."""
    start = output.index(first)
    return output[start:output.index(then, start + len(first))]


@pytest.mark.parametrize(("lang", "log", "title"), [("en", "log", "The match so far"),
                                                    ("es", "historial", "La partida hasta ahora")])
def test_the_log_command_shows_the_match_so_far(cli: Cli, lang: str, log: str, title: str) -> None:
    """Typing the log word at the prompt shows everything told so far (the other seat's moves, the rounds
    begun) and the player's own choices, then asks again."""
    result = cli("play", "duel", "--seed", "3", "--lang", lang, input=f"{log}\n1\n1\n1\n{log}\n" + ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    first, second = result.output.split(title)[1:3]
    assert "Nothing has happened yet." in first or "Todavía no ha pasado nada." in first
    said = _between(result.output, "Round 1 of 3:" if lang == "en" else "Ronda 1 de 3:", "\n")
    assert said.split(":")[0] in second  # the round that began is in the log
    # and the player's own moves, as the table told them
    assert ("Player 1 (you) lines up C" if lang == "en" else "Jugador 1 (tú) coloca a C") in second
    assert ("Player 1 (you) chooses " if lang == "en" else "Jugador 1 (tú) elige ") in second


@pytest.mark.parametrize(("lang", "card", "ability"), [("en", "card", "Ability:"), ("es", "carta", "Habilidad:")])
def test_the_card_command_shows_any_card_of_the_set(cli: Cli, lang: str, card: str, ability: str) -> None:
    """``card C1``, ``card s7`` or a card's name shows the card as the cards page does; a card that does not exist
    is said, and the prompt asks again."""
    typed = f"{card} C1\n{card} s7\n{card} marciano\n{card} nobody\n{card}\n"
    result = cli("play", "duel", "--seed", "3", "--lang", lang, input=typed + ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert out.count("C1 Marciano — ") == 2, out
    assert out.count(f"{ability} ") >= 2
    assert "S7 " in out
    if lang == "en":
        assert "S7 Sparkly Top Hat — Item · Charm +10 · Equips to: C1, C9, C13" in out
        assert "No card is called 'nobody': type card and a card's number or name, like card C1." in out
        assert "Type card and a card's number or name, like card C1." in out
        assert "Also: log shows the match so far. card C1 shows a card." in out
    else:
        assert "Ninguna carta se llama 'nobody'" in out
        assert "Además: historial muestra la partida hasta ahora. carta C1 muestra una carta." in out


def test_the_card_command_in_flamecraft_duals(cli: Cli) -> None:
    """In Flamecraft Duals the card command shows a shop card by its number, with its points."""
    result = cli("play", "duals", "--seed", "3", "--lang", "en", input="card K12\ncard k999\n" + ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert re.search(r"╭─ K12\b", result.output), result.output
    assert "No card is called 'k999'" in result.output


def test_hot_seat_log_keeps_each_players_choices_to_themselves(cli: Cli) -> None:
    """In hot-seat both players read one log: it holds only what is told to the whole table, never a line-up
    typed by the other player."""
    result = cli("play", "duel", "--p1", "human", "--p2", "human", "--seed", "5", "--lang", "en",
                 input="\n1\n\nlog\n" + "\n1\n" * 200)
    assert result.exit_code == 0, result.output
    log = _between(result.output, "The match so far", "────\n")
    assert "line C" not in log


def test_version(cli: Cli) -> None:
    """``flametable --version`` prints the version and nothing else."""
    result = cli("--version")
    assert result.exit_code == 0
    assert result.output == f"flametable {flametable.__version__}\n"


@pytest.mark.parametrize("command", [["replay"], ["play", "duel"], ["play", "duals"], ["sim"], ["cards", "duel"]])
def test_switches_read_as_switches_in_the_help(cli: Cli, command: list[str]) -> None:
    """A switch (``--verify``, ``--json``, ``--buddy``, ``--help``) takes no value: its help shows none, while
    an option with a value keeps its kind (``--seed <int>``)."""
    result = cli(*command, "--help", env={"LC_ALL": "en_GB.UTF-8", "COLUMNS": "120"})
    assert result.exit_code == 0
    assert "<bool>" not in result.output
    assert "--json" in result.output
    if command[0] != "replay":
        assert re.search(r"--(seed|games)\s+<int>", result.output) or command == ["cards", "duel"]


def test_cards_check_accepts_a_deck(cli: Cli, tmp_path: Path) -> None:
    """``cards check`` on a Flame Duel deck file checks it as a deck: a summary when it is good, what is wrong
    (file, entry, field) when it is not."""
    good = tmp_path / "deck.toml"
    good.write_text("characters = [1, 2, 3]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8, 9]\n", encoding="utf-8")
    result = cli("cards", "check", str(good), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert f"OK: {good}: a Flame Duel deck of 3 characters and 9 support cards." in " ".join(result.output.split())
    spanish = cli("cards", "check", str(good), "--game", "duel", "--lang", "es")
    assert "un mazo de Duelo de llamas con 3 personajes y 9 cartas de apoyo" in " ".join(spanish.output.split())
    bad = tmp_path / "short.toml"
    bad.write_text("characters = [1, 2]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8]\n", encoding="utf-8")
    refused = cli("cards", "check", str(bad), "--lang", "en")
    assert refused.exit_code == 1
    assert f"{bad}: deck: characters: a deck has exactly 3 characters" in " ".join(refused.output.split())
