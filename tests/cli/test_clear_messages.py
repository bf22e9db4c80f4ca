"""Messages that say what is wrong, in the player's language, and never a traceback: a card file without its
``[set]`` section, a match record given to ``report``, a stored result that differs, a card twice in a deck,
a bot with no iterations, a deck left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.conftest import BOTS, Cli
from tests.cli.helpers import edit_record

NO_SET = "[[character]]\nnumber = 1\n"
"""A card file whose ``[set]`` section is missing (and everything else, but the set comes first)."""


def _card_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


COMMANDS_WITH_A_CARD_FILE = {
    "cards check": lambda f: ["cards", "check", f],
    "cards check --game duel": lambda f: ["cards", "check", f, "--game", "duel"],
    "play duel --cards": lambda f: ["play", "duel", *BOTS, "--cards", f],
    "cards duel --cards": lambda f: ["cards", "duel", "--cards", f],
    "replay --cards": lambda f: ["replay", "match.json", "--cards", f],
    "sim duel --data": lambda f: ["sim", "duel", "--games", "1", "--data", f],
}


@pytest.mark.parametrize("text", ["", NO_SET], ids=["empty file", "no [set]"])
@pytest.mark.parametrize("command", sorted(COMMANDS_WITH_A_CARD_FILE))
def test_a_card_file_without_its_set_section_is_named_not_a_traceback(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, text: str) -> None:
    """Every command that reads a Flame Duel card file says the file lacks its ``[set]`` section (exit 1)."""
    monkeypatch.chdir(tmp_path)
    cli.json("play", "duel", *BOTS, "--seed", "1", "--record", "match.json")
    file = str(_card_file(tmp_path, text))
    result = cli(*COMMANDS_WITH_A_CARD_FILE[command](file), "--lang", "en")
    assert result.exit_code == 1, result.output
    assert f"{file}: file: set: missing section" in " ".join(result.output.split())


def test_a_card_file_without_its_set_section_in_spanish(cli: Cli, tmp_path: Path) -> None:
    """The same message reads fully in Spanish: the field's name as in the file, the problem translated."""
    file = str(_card_file(tmp_path, NO_SET))
    result = cli("cards", "check", file, "--lang", "es")
    assert result.exit_code == 1
    assert f"{file}: archivo: set: falta la sección" in " ".join(result.output.split())


# ---------------------------------------------------------------- report given a match record


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "is a match record, not the results of flametable sim"),
    ("es", "es el registro de una partida, no los resultados de flametable sim"),
])
def test_report_says_a_match_record_is_no_results_file(cli: Cli, tmp_path: Path, lang: str, words: str) -> None:
    """``report`` on a match record (one indented JSON object) says what the file is and what to do with it,
    not that its first line is no valid JSON."""
    record = tmp_path / "match.json"
    cli.json("play", "duel", *BOTS, "--seed", "1", "--record", str(record))
    result = cli("report", str(record), "--html", str(tmp_path / "r.html"), "--lang", lang)
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert words in text, text
    assert "flametable replay" in text
    assert "JSON" not in text.replace("(JSON)", "")
    assert not (tmp_path / "r.html").exists()


# ---------------------------------------------------------------- replay --verify: a result that differs


def test_replay_verify_says_how_the_stored_result_differs_in_words(cli: Cli, tmp_path: Path) -> None:
    """The stored result and the replayed one are told as results (who won, why, the score), not as Python
    dictionaries."""
    record = tmp_path / "match.json"
    cli.json("play", "duel", *BOTS, "--seed", "11", "--record", str(record))
    real = json.loads(record.read_text(encoding="utf-8"))["result"]
    edited = edit_record(record, lambda d: d["result"].__setitem__("scores", [9, 9]))
    result = cli("replay", str(edited), "--verify", "--lang", "en")
    assert result.exit_code == 1
    text = " ".join(result.output.split())
    assert "{" not in text, text
    assert "'winner'" not in text
    assert "None" not in text
    assert "score 9–9" in text
    assert "score " + "–".join(str(s) for s in real["scores"]) in text
    spanish = " ".join(cli("replay", str(edited), "--verify", "--lang", "es").output.split())
    assert "{" not in spanish, spanish
    assert "resultado guardado" in spanish


def test_replay_verify_shows_a_malformed_stored_result_as_json(cli: Cli, tmp_path: Path) -> None:
    """A stored result that is no result at all is quoted as the JSON it is, never as a Python dict."""
    record = tmp_path / "match.json"
    cli.json("play", "duel", *BOTS, "--seed", "11", "--record", str(record))
    edited = edit_record(record, lambda d: d.__setitem__("result", {"who": None}))
    text = " ".join(cli("replay", str(edited), "--verify", "--lang", "en").output.split())
    assert '{"who": null}' in text, text


# ---------------------------------------------------------------- a card twice in a deck


@pytest.mark.parametrize(("field", "deck", "card"), [
    ("supports", "characters = [1, 2, 3]\nsupports = [4, 5, 6, 7, 8, 9, 10, 7]\n", "7"),
    ("characters", "characters = [12, 3, 12]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8]\n", "12"),
])
def test_a_card_twice_in_a_deck_is_named(cli: Cli, tmp_path: Path, field: str, deck: str, card: str) -> None:
    """The message that no card may appear twice says which card is there twice, in the player's language."""
    path = tmp_path / "deck.toml"
    path.write_text(deck, encoding="utf-8")
    en = cli("play", "duel", *BOTS, "--mode", "decks", "--deck1", str(path), "--lang", "en")
    assert en.exit_code == 1
    text = " ".join(en.output.split())
    assert f"deck: {field}: no card may appear twice within one deck: {card} is there twice" in text, text
    assert "(R2)" not in text
    es = " ".join(cli("play", "duel", *BOTS, "--mode", "decks", "--deck1", str(path), "--lang", "es").output.split())
    assert f"{card} está dos veces" in es, es


# ---------------------------------------------------------------- bot:ismcts:N


@pytest.mark.parametrize("command", [
    ["play", "duel"], ["play", "duals"], ["sim", "duel", "--games", "1"], ["ladder", "duel", "--games", "1"]])
@pytest.mark.parametrize("count", ["0", "lots"])
def test_bot_ismcts_without_a_positive_count_says_n_must_be_at_least_1(cli: Cli, command: list[str],
                                                                        count: str) -> None:
    """``bot:ismcts:0`` is a bot with a bad number, not an unknown seat: the message says N must be at least 1."""
    spec = f"bot:ismcts:{count}"
    seat = ["--bots", f"bot:random,{spec}"] if command[0] == "ladder" else ["--p2", spec]
    en = cli(*command, *seat, "--lang", "en")
    assert en.exit_code == 2
    text = " ".join(en.output.split())
    assert "Unknown seat" not in text, text
    assert f"{spec}: N in bot:ismcts:N must be a whole number of at least 1" in text, text
    es = " ".join(cli(*command, *seat, "--lang", "es").output.split())
    assert "al menos 1" in es, es


def test_an_unknown_bot_is_still_an_unknown_seat(cli: Cli) -> None:
    """A seat that names no bot at all keeps its message listing the known seats."""
    result = cli("play", "duel", "--p2", "bot:wizard", "--lang", "en")
    assert result.exit_code == 2
    assert "Unknown seat 'bot:wizard'" in result.output


# ---------------------------------------------------------------- a deck left out


def test_a_deck_left_out_is_said_in_the_help(cli: Cli) -> None:
    """``play duel --help`` says that a seat without a deck file gets a random deck."""
    text = " ".join(cli("play", "duel", "--help", "--lang", "en", env={"LC_ALL": "en_GB.UTF-8"}).output.split())
    assert "without it, a random deck" in text.replace("│ ", ""), text


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Player 2 has no deck file (--deck2): they play a random deck of 3 characters and"),
    ("es", "Jugador 2 no tiene archivo de mazo (--deck2): juega con un mazo al azar de 3 personajes y"),
])
def test_a_deck_left_out_is_said_at_the_start(cli: Cli, tmp_path: Path, lang: str, words: str) -> None:
    """With ``--mode decks`` and only ``--deck1``, the match starts by saying that Player 2's deck is random."""
    path = tmp_path / "deck.toml"
    path.write_text("characters = [1, 2, 3]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8]\n", encoding="utf-8")
    result = cli("play", "duel", *BOTS, "--seed", "4", "--mode", "decks", "--deck1", str(path), "--lang", lang)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert words in text, text
    assert "Player 1 has no deck" not in text
    assert "Jugador 1 no tiene" not in text
    both = cli("play", "duel", *BOTS, "--seed", "4", "--mode", "decks", "--deck1", str(path), "--deck2", str(path),
               "--lang", lang)
    assert "--deck2" not in both.output
