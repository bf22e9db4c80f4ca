"""The command line's help and its usage errors speak the player's language: ``--lang`` anywhere on the line
(with ``--help`` too, before or after it), else the locale (LC_ALL, LC_MESSAGES, LANG); Typer's own words
(``Usage:``, ``Options``, ``[default: …]``, the help option, its error panel) as well as the commands' texts."""

from __future__ import annotations

import pytest

from tests.cli.conftest import Cli

EN_LOCALE: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}
ES_LOCALE: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "es_ES.UTF-8"}
SPANISH = ("Uso:", "Opciones", "Muestra esta ayuda y termina.", "Juega al Duelo de llamas", "[por defecto: humano]",
           "Semilla de la partida", "[OPCIONES]",
           "--p1 ASIENTO Jugador 1: humano (una persona) o un bot (bot:aleatorio,",
           "--seed <entero>", "--record ARCHIVO", "el registro sigue en ARCHIVO")
ENGLISH = ("Usage:", "Options", "Show this message and exit.", "Play Flame Duel", "[default: human]", "Match seed",
           "[OPTIONS]", "--p1 SEAT Player 1: human or a bot (bot:random,", "--seed <int>", "--record FILE")


def _words(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize("args", [
    ["play", "duel", "--help", "--lang", "es"],
    ["play", "duel", "--lang", "es", "--help"],
    ["play", "duel", "--lang=es", "--help"],
    ["--lang", "es", "play", "duel", "--help"],
    ["play", "--lang", "es", "duel", "--help"],
])
def test_help_in_spanish_wherever_lang_is(cli: Cli, args: list[str]) -> None:
    result = cli(*args, env=EN_LOCALE)
    assert result.exit_code == 0, result.output
    out = _words(result.output)
    for word in SPANISH:
        assert word in out, word
    for word in ENGLISH:
        assert word not in out, word


def test_help_follows_the_locale(cli: Cli) -> None:
    spanish = _words(cli("play", "duel", "--help", env=ES_LOCALE).output)
    english = _words(cli("play", "duel", "--help", env=EN_LOCALE).output)
    assert all(word in spanish for word in SPANISH)
    assert all(word in english for word in ENGLISH)
    assert all(word not in english for word in SPANISH)
    assert _words(cli("play", "duel", "--help", "--lang", "en", env=ES_LOCALE).output) == english


def test_the_program_help_in_either_language(cli: Cli) -> None:
    """``flametable --help --lang es`` is accepted, and lists the commands in Spanish."""
    result = cli("--help", "--lang", "es", env=EN_LOCALE)
    assert result.exit_code == 0, result.output
    out = _words(result.output)
    for word in ("Uso:", "Opciones", "Comandos", "Duelo de llamas y Flamecraft Duals en tu terminal.",
                 "Juega una partida.", "Reproduce el registro de una partida", "[OPCIONES] COMANDO [ARGUMENTOS]..."):
        assert word in out, word
    assert "Commands" not in out
    assert "[OPTIONS]" not in out
    english = _words(cli("--help", env=EN_LOCALE).output)
    assert "Commands" in english
    assert "Play a match." in english


@pytest.mark.parametrize(("args", "spanish"), [
    (["play", "duel", "--seed", "abc"], "Valor no válido para '--seed': se espera un número entero."),
    (["play", "duel", "--lang", "xx"], "Valor no válido para '--lang': 'xx' no es ninguno de estos: 'es', 'en'."),
    (["play", "duel", "--colour"], "No existe la opción --colour"),
    (["play", "duel", "--recrod", "x"], "No existe la opción --recrod (¿quizá --cards, --record?)"),
])
def test_usage_errors_in_spanish(cli: Cli, args: list[str], spanish: str) -> None:
    result = cli(*args, env=ES_LOCALE)
    assert result.exit_code == 2
    out = _words(result.output)
    assert spanish in out
    assert "Error" in out
    assert "Prueba '" in out
    assert "Try '" not in out


@pytest.mark.parametrize(("command", "lang", "said"), [
    ("play", "es", "Escribe el juego después de {prog} play: duel, duals (por ejemplo, {prog} play duel)."),
    ("cards", "en", "Name the game after {prog} cards: duel, duals (for example {prog} cards duel)."),
])
def test_a_group_without_its_game_names_the_games(cli: Cli, command: str, lang: str, said: str) -> None:
    """``flametable play`` given options but no game names the games, with an example, in the player's language
    (not a bare "Missing command")."""
    result = cli(command, "--lang", lang, env=EN_LOCALE)
    assert result.exit_code == 2
    out = _words(result.output)
    prog = out.split(" after ")[-1].split(" de ")[-1].split()[0]  # the program's name as the test runs it
    assert said.format(prog=prog) in out, out


@pytest.mark.parametrize("command", [["replay"], ["sim"], ["ladder"], ["serve"], ["report"], ["cards", "check"],
                                     ["play", "duals"], ["bench", "duel"], ["db", "upgrade"]])
def test_every_help_shows_spanish_placeholders(cli: Cli, command: list[str]) -> None:
    """In Spanish, an option's or argument's placeholder is Spanish too (ARCHIVO, ASIENTO, JUEGO...), as the help
    texts that name it are."""
    out = _words(cli(*command, "--help", "--lang", "es", env={**EN_LOCALE, "COLUMNS": "200"}).output)
    english = ("FILE", "SEAT", "GAME", "OUT", "<int>", "<float>", "<str>")
    assert not [word for word in english if word in out.replace("sqlite:///ARCHIVO", "")], out
