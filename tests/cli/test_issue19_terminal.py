"""What players of either language expect at the terminal: a card found by its name typed without accents or
capitals, the seats typed in Spanish, the way back to a recorded match that was left, an action not understood
pointing to ``?``, one board layout through a Flame Duel match, its shared draw pile said once, and counts
with their plural forms."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest
from rich.console import Console

from flametable.cli.i18n import set_language
from flametable.games.duel import render as duel_render
from flametable.games.duel.game import DuelGame
from flametable.games.duel.texts import CardWords
from flametable.texts.commands import card_named, seat_spec
from flametable.texts.translator import Translator
from tests.cli.conftest import Cli
from tests.cli.helpers import interrupt_input
from tests.cli.test_layout import screens_of_a_duel

ALWAYS_FIRST = "1\n" * 600


def _flat(text: str) -> str:
    return " ".join(text.split())


# ------------------------------------------------------------------ a card by its name, accents aside


@pytest.mark.parametrize(("lang", "typed", "shown"), [
    ("es", "carta duende hollin", "Duende Hollín — "),
    ("es", "carta BEBE VOLCAN", "Bebé Volcán — "),
    ("es", "carta bebé  volcán", "Bebé Volcán — "),
    ("en", "card baby volcano", "Baby Volcano — "),
    ("en", "card bebe volcan", "Baby Volcano — "),  # the Spanish name, from an English table
])
def test_a_card_is_found_by_its_name_without_accents_or_capitals(cli: Cli, lang: str, typed: str,
                                                                 shown: str) -> None:
    """The card command reads a card's name as the action words are read: capitals and accents do not matter
    (Duende Hollín, Bebé Volcán)."""
    result = cli("play", "duel", "--seed", "3", "--lang", lang, input=f"{typed}\nquit\n")
    out = _flat(result.output)
    assert shown in out, out
    assert "Ninguna carta se llama" not in out
    assert "No card is called" not in out


def test_one_folding_finds_the_cards_of_either_game() -> None:
    """Both games' card command find a card with the same reading of names (:func:`card_named`): whole name
    first, else the only name that has the words; several or none is no card."""
    names = [(1, {"en": "Soot Sprite", "es": "Duende Hollín"}), (2, {"en": "Sooty Hat", "es": "Sombrero Tiznado"})]
    assert card_named("duende HOLLIN", names) == 1
    assert card_named("hollín", names) == 1
    assert card_named("soot sprite", names) == 1
    assert card_named("soot", names) is None  # both
    assert card_named("nobody", names) is None


# ------------------------------------------------------------------ seats in Spanish


@pytest.mark.parametrize(("typed", "seat"), [
    ("humano", "human"), ("Humano", "human"), ("bot:aleatorio", "bot:random"), ("bot:difícil", "bot:hard"),
    ("bot:dificil", "bot:hard"), ("BOT:Fácil", "bot:easy"), ("bot:medio", "bot:medium"), ("bot:voraz", "bot:greedy"),
    ("bot:planificador", "bot:planner"), ("bot:hard", "bot:hard"), ("bot:ismcts:50", "bot:ismcts:50"),
])
def test_the_seats_are_read_in_spanish_too(typed: str, seat: str) -> None:
    assert seat_spec(typed) == seat


def test_a_match_of_spanish_seats_is_played_and_recorded_as_any_other(cli: Cli, tmp_path: Path) -> None:
    """``--p1 bot:aleatorio --p2 bot:difícil`` plays bot:random against bot:hard; the record keeps the seats as
    they are written in every language."""
    record = tmp_path / "m.json"
    result = cli.json("play", "duel", "--p1", "bot:aleatorio", "--p2", "bot:difícil", "--seed", "2", "--lang", "es",
                      "--record", str(record))
    assert result["players"] == ["bot:random", "bot:hard"]
    assert json.loads(record.read_text(encoding="utf-8"))["players"] == ["bot:random", "bot:hard"]
    human = cli("play", "duals", "--p1", "humano", "--p2", "bot:medio", "--seed", "2", "--lang", "es",
                input="salir\n")
    assert "Jugador 1 (tú), tu elección:" in human.output


# ------------------------------------------------------------------ leaving a recorded match


@pytest.mark.parametrize(("game", "lang", "how"), [("duel", "es", "salir\n"), ("duals", "en", "quit\n"),
                                                   ("duel", "en", ""), ("duals", "es", "ctrl-c")])
def test_leaving_a_recorded_match_says_how_to_come_back(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        game: str, lang: str, how: str) -> None:
    """After ``--record``, leaving (the quit word, the end of input, Ctrl-C) prints the command that goes on
    with the match, in a sentence of the player's language; that command goes on with it."""
    record = tmp_path / "left match.json"
    if how == "ctrl-c":
        interrupt_input(monkeypatch)
    result = cli("play", game, "--seed", "4", "--lang", lang, "--record", str(record),
                 input=None if how == "ctrl-c" else how)
    assert result.exit_code in (1, 130)
    said = {"en": "Match abandoned. To go on with it from its record, type:",
            "es": "Partida abandonada. Para seguir con ella desde su registro, escribe:"}[lang]
    assert said in result.output
    line = result.output.splitlines()[-1]
    assert line == shlex.join(["flametable", "play", game, "--lang", lang, "--resume", str(record)])
    monkeypatch.undo()
    again = cli(*shlex.split(line)[1:], input="quit\n")
    resumed = {"en": "Match resumed from", "es": "Partida continuada desde"}[lang]
    assert resumed in again.output, again.output


def test_leaving_a_match_without_a_record_says_goodbye(cli: Cli) -> None:
    result = cli("play", "duel", "--seed", "4", "--lang", "en", input="quit\n")
    assert "Match abandoned. Goodbye!" in result.output
    assert "--resume" not in result.output


# ------------------------------------------------------------------ small things


@pytest.mark.parametrize(("game", "lang", "said"), [
    ("duel", "es", "No se entiende la acción 'banana'. Escribe ? para ver tus opciones."),
    ("duel", "en", "Type ? to see your options."),
    ("duals", "es", "Escribe ? para ver tus opciones."),
    ("duals", "en", "Unknown action 'banana' in 'banana'. Type ? to see your options."),
])
def test_an_action_not_understood_points_to_the_options(cli: Cli, game: str, lang: str, said: str) -> None:
    result = cli("play", game, "--seed", "3", "--lang", lang, input="banana\nquit\n")
    assert said in _flat(result.output)


def test_a_word_understood_does_not_point_to_the_options(cli: Cli) -> None:
    """A command word with a wrong card is understood: its own message says what to type."""
    result = cli("play", "duel", "--seed", "3", "--lang", "en", input="play S99\nquit\n")
    assert "needs a card" in _flat(result.output)
    assert "Type ? to see your options." not in result.output


@pytest.mark.parametrize("height", [30, 40, 50, 60, 70, 80, 100])
def test_the_duel_board_keeps_one_layout_through_the_match(monkeypatch: pytest.MonkeyPatch, height: int) -> None:
    """Once the rounds begin, the screens of a match keep one layout and one hint (the whole board, or the
    compact one with ``?`` for the whole): on a terminal of up to 70 lines it does not turn compact after the
    first play, and on any terminal a compact board never turns whole again."""
    for seed in range(3):
        screens = screens_of_a_duel(monkeypatch, {}, seed, height=height)
        rounds = ["?: the whole board" in s for s in screens if "Round wins" in s]
        assert rounds
        if height <= 70:
            assert len(set(rounds)) == 1, (height, seed, rounds)
        assert rounds == sorted(rounds), (height, seed, rounds)  # whole, then compact: never back


def _rendered(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text


@pytest.mark.parametrize("board", [duel_render.board, duel_render.compact_board])
def test_the_shared_draw_pile_is_shown_once(board: object) -> None:
    """R2: in shared mode both players draw from one support deck: the board says its size once, not once per
    player; with own decks, each player's pile is shown."""
    set_language("en")
    game = DuelGame()
    words = CardWords(Translator.for_language("en"), game.cards)
    names = ("Player 1 (you)", "Player 2 (bot:random)")
    for mode in ("shared", "decks"):
        state = game.new_match({"mode": mode}, 5)
        while state.to_act is not None and (state.to_act != 0 or state.view(0).stat < 0):  # to the first plays
            state.apply(state.view(state.to_act).legal[0])
        view = state.view(0)
        text = _rendered(board(view, words, names))  # type: ignore[operator]
        if mode == "shared":
            assert text.count("Shared draw pile: ") == 1, text
            assert "Draw pile (shared)" not in text
            assert f"Shared draw pile: {view.seats[0].pile_size} cards" in text
        else:
            assert "Shared draw pile" not in text
            assert re.search(r"[Dd]raw pile", text), text


def test_a_bench_of_one_match_says_match(cli: Cli) -> None:
    """Counts take their plural forms: ``1 match``, not ``1 matches``."""
    result = cli("bench", "duel", "--seconds", "0", "--lang", "en")
    assert result.exit_code == 0
    assert re.search(r"duel \((native|Python) engine\): 1 match, [\d,]+ steps in ", result.output), result.output
    spanish = cli("bench", "duel", "--seconds", "0", "--lang", "es")
    assert re.search(r"duel \(motor (nativo|Python)\): 1 partida, [\d.]+ pasos en ", spanish.output), spanish.output
