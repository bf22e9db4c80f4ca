"""The command line's help and its usage errors speak the player's language: ``--lang`` anywhere on the line
(with ``--help`` too, before or after it), else the locale (LC_ALL, LC_MESSAGES, LANG); Typer's own words
(``Usage:``, ``Options``, ``[default: …]``, the help option, its error panel) as well as the commands' texts."""

from __future__ import annotations

import pytest

from tests.cli.conftest import Cli

EN_LOCALE: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "en_GB.UTF-8"}
ES_LOCALE: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANG": "es_ES.UTF-8"}
SPANISH = ("Uso:", "Opciones", "Muestra esta ayuda y termina.", "Juega al Duelo de llamas", "[por defecto: human]",
           "Semilla de la partida", "[OPCIONES]")
ENGLISH = ("Usage:", "Options", "Show this message and exit.", "Play Flame Duel", "[default: human]", "Match seed",
           "[OPTIONS]")


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
    (["play", "--lang", "es"], "Falta el comando."),
])
def test_usage_errors_in_spanish(cli: Cli, args: list[str], spanish: str) -> None:
    result = cli(*args, env=ES_LOCALE)
    assert result.exit_code == 2
    out = _words(result.output)
    assert spanish in out
    assert "Error" in out
    assert "Prueba '" in out
    assert "Try '" not in out
