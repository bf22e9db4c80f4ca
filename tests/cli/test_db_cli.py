"""``flametable db upgrade``: it makes or updates the server's database and says which one (never its password)
and the revision reached; a bad URL or a database that does not answer is one line, in the player's language."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from flametable.texts.translator import Translator
from tests.cli.conftest import Cli
from tests.services import fresh_postgresql_database, postgresql_url
from tests.web.test_store import HEAD
from tests.web.test_store import TABLES as STORE_TABLES

TABLES = {"alembic_version", *STORE_TABLES}


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def in_language(lang: str, message: str) -> str:
    return Translator.for_language(lang).translate(message)


def test_upgrade_makes_the_tables_of_a_new_sqlite_file_and_says_the_revision(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "server.db"
    for _ in range(2):  # the second time there is nothing to do
        result = cli("db", "upgrade", "--db", str(path), "--lang", "en")
        assert result.exit_code == 0, result.output
        assert lines(result.output) == [f"The database sqlite+aiosqlite:///{path} is up to date (revision {HEAD})."]
    assert tables(path) == TABLES


def test_upgrade_without_db_uses_the_file_in_the_data_directory(cli: Cli, tmp_path: Path) -> None:
    result = cli("db", "upgrade", "--lang", "en", env={"FLAMETABLE_DATA_DIR": str(tmp_path / "data")})
    assert result.exit_code == 0, result.output
    assert str(tmp_path / "data" / "flametable.db") in result.output
    assert tables(tmp_path / "data" / "flametable.db") == TABLES


def test_upgrade_of_postgresql_hides_the_password(cli: Cli) -> None:
    with fresh_postgresql_database() as name:
        result = cli("db", "upgrade", "--db", postgresql_url(name, password="hunter2").replace("+asyncpg", ""),
                     "--lang", "en")
    assert result.exit_code == 0, result.output
    assert lines(result.output) == [
        f"The database postgresql+asyncpg://postgres:***@127.0.0.1:5432/{name} is up to date (revision {HEAD})."]


@pytest.mark.parametrize("url", ["mysql://root:hunter2@localhost/db", "postgresql://u:hunter2@h:port/db"])
def test_an_unsupported_url_is_one_line(cli: Cli, url: str) -> None:
    result = cli("db", "upgrade", "--db", url, "--lang", "en")
    assert result.exit_code == 1
    assert lines(result.output) == [
        f"Error: Unsupported database {url.replace('hunter2', '***')}: give a file path, sqlite:///FILE or "
        "postgresql://USER@HOST/DATABASE."]


def test_a_database_that_does_not_answer_is_one_line(cli: Cli) -> None:
    result = cli("db", "upgrade", "--db", "postgresql://postgres:hunter2@127.0.0.1:1/nothing", "--lang", "en")
    assert result.exit_code == 1
    [line] = lines(result.output)
    assert line.startswith("Error: The database postgresql+asyncpg://postgres:***@127.0.0.1:1/nothing cannot be "
                           "upgraded: "), line
    assert "hunter2" not in result.output


def test_an_sqlite_file_that_cannot_be_made_is_one_line(cli: Cli, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    result = cli("db", "upgrade", "--db", str(blocker / "server.db"), "--lang", "en")
    assert result.exit_code == 1
    [line] = lines(result.output)
    assert line.startswith(f"Error: The database sqlite+aiosqlite:///{blocker / 'server.db'} cannot be upgraded: ")


def test_upgrade_speaks_spanish(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "server.db"
    done = cli("db", "upgrade", "--db", str(path), "--lang", "es")
    assert done.exit_code == 0, done.output
    assert lines(done.output) == [in_language("es", "The database {database} is up to date (revision {revision}).")
                                  .format(database=f"sqlite+aiosqlite:///{path}", revision=HEAD)]
    refused = cli("db", "upgrade", "--db", "mysql://h/d", "--lang", "es")
    assert refused.exit_code == 1
    assert lines(refused.output) == [in_language("es", "Error: {message}").format(message=in_language(
        "es", "Unsupported database {url}: give a file path, sqlite:///FILE or postgresql://USER@HOST/DATABASE.")
        .format(url="mysql://h/d"))]
    unreachable = cli("db", "--lang", "es", "upgrade", "--db", "postgresql://u@127.0.0.1:1/x")
    assert unreachable.exit_code == 1
    assert lines(unreachable.output)[0].startswith(in_language("es", "Error: {message}").format(message=in_language(
        "es", "The database {database} cannot be upgraded: {error}").format(
        database="postgresql+asyncpg://u@127.0.0.1:1/x", error="")))


def test_the_help_of_db_upgrade_is_in_the_players_language(cli: Cli) -> None:
    english = cli("db", "upgrade", "--help", "--lang", "en")
    assert english.exit_code == 0
    assert "--db" in english.output
    assert "Options" in english.output
    spanish = cli("db", "upgrade", "--help", "--lang", "es")
    assert spanish.exit_code == 0
    assert "Opciones" in spanish.output
    assert in_language("es", "Bring the database to the latest version of its tables.") in spanish.output
