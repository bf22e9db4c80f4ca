"""``flametable serve`` refuses what it cannot do in one clear line, in the user's language, before it starts: a
database URL it cannot use, a database that does not answer, a port out of range or in use, a proxy address that is
none, a password hashing cost (``FLAMETABLE_ARGON2``, for tests) that is none."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from tests.cli.conftest import Cli


def lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(("lang", "words"), [("en", "Unsupported database"), ("es", "Base de datos no admitida")])
def test_a_database_url_it_cannot_use_is_one_line(cli: Cli, lang: str, words: str) -> None:
    result = cli("serve", "--db", "mysql://someone@host/db", "--lang", lang)
    assert result.exit_code == 1
    assert len(lines(result.output)) == 1
    assert words in result.output
    assert "Traceback" not in result.output


def test_a_database_that_does_not_answer_is_one_line(cli: Cli) -> None:
    result = cli("serve", "--db", "postgresql://postgres:secret@127.0.0.1:1/none", "--port", "8999", "--lang", "es")
    assert result.exit_code == 1
    assert "No se puede actualizar la base de datos" in result.output
    assert "secret" not in result.output  # the password is never printed


def test_a_port_in_use_is_named(cli: Cli, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("serve", "--port", str(port), "--db", str(tmp_path / "x.db"), "--lang", "en")
    assert result.exit_code == 1
    assert lines(result.output) == [f"Error: Port {port} of 127.0.0.1 is in use: choose another with --port."]


def test_a_port_out_of_range_is_refused(cli: Cli, tmp_path: Path) -> None:
    result = cli("serve", "--port", "70000", "--db", str(tmp_path / "x.db"), "--lang", "en")
    assert result.exit_code == 1
    assert "65535" in result.output


def test_a_proxy_address_that_is_none_is_one_line(cli: Cli, tmp_path: Path) -> None:
    result = cli("serve", "--forwarded-allow-ips", "10.0.0.5,proxy.local", "--db", str(tmp_path / "x.db"), "--lang",
                 "es")
    assert result.exit_code == 1
    assert lines(result.output) == [
        "Error: --forwarded-allow-ips toma las direcciones o redes del proxy separadas por comas (10.0.0.5,10.0.0.6 o "
        "10.0.0.0/24), o *; 'proxy.local' no es ninguna de ellas."]


@pytest.mark.parametrize("value", ["fast", "1,16384", "0,16384,1", "1,4,1"])
def test_a_hashing_cost_that_is_none_is_one_line(cli: Cli, tmp_path: Path, value: str) -> None:
    result = cli("serve", "--db", str(tmp_path / "x.db"), "--lang", "es", env={"FLAMETABLE_ARGON2": value})
    assert result.exit_code == 1
    assert lines(result.output) == [
        f"Error: FLAMETABLE_ARGON2 toma las pasadas de Argon2, la memoria en KiB y los carriles separados por comas "
        f"(1,16384,1); {value!r} no es eso."]


# ------------------------------------------------------------------ several processes (issue 22)

PG = "postgresql://postgres@127.0.0.1:5432/none"  # never reached: the refusals come first


@pytest.mark.parametrize("args", [["--workers", "2", "--redis", "redis://127.0.0.1:6379/0"],
                                  ["--redis", "redis://127.0.0.1:6379/0"]])
@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Several server processes (--workers above 1, or --redis) share one database, which SQLite cannot be"),
    ("es", "Varios procesos de servidor (--workers mayor que 1, o --redis) comparten una base de datos")])
def test_several_processes_on_sqlite_are_refused_saying_to_use_postgresql(cli: Cli, tmp_path: Path, args: list[str],
                                                                         lang: str, words: str) -> None:
    result = cli("serve", "--db", str(tmp_path / "x.db"), *args, "--lang", lang)
    assert result.exit_code == 1
    assert len(lines(result.output)) == 1
    assert words in result.output
    assert "postgresql://" in result.output


@pytest.mark.parametrize(("lang", "words"), [("en", "--workers 3 needs --redis redis://HOST:6379/0"),
                                             ("es", "--workers 3 necesita --redis redis://SERVIDOR:6379/0")])
def test_workers_without_redis_are_refused(cli: Cli, lang: str, words: str) -> None:
    result = cli("serve", "--db", PG, "--workers", "3", "--lang", lang)
    assert result.exit_code == 1
    assert lines(result.output) == [lines(result.output)[0]]
    assert words in result.output


def test_no_workers_is_refused(cli: Cli) -> None:
    result = cli("serve", "--db", PG, "--workers", "0", "--lang", "en")
    assert result.exit_code == 1
    assert lines(result.output) == ["Error: --workers takes a number of processes, 1 or more, got 0."]


@pytest.mark.parametrize(("url", "lang", "words"), [
    ("http://127.0.0.1:6379/0", "en", "--redis takes a Redis URL (redis://HOST:6379/0), got http://127.0.0.1:6379/0."),
    ("redis://:secret@127.0.0.1:1/0", "en", "Redis at redis://:***@127.0.0.1:1/0 does not answer: "),
    ("redis://127.0.0.1:1/0", "es", "Redis en redis://127.0.0.1:1/0 no responde: "),
])
def test_a_redis_that_cannot_be_used_is_one_line_without_its_password(cli: Cli, url: str, lang: str,
                                                                      words: str) -> None:
    result = cli("serve", "--db", PG, "--workers", "2", "--redis", url, "--lang", lang)
    assert result.exit_code == 1
    assert len(lines(result.output)) == 1, result.output
    assert words in result.output
    assert "secret" not in result.output
    assert "Traceback" not in result.output


def test_the_servers_own_lines_are_written_with_time_level_and_logger() -> None:
    """What the ``flametable`` loggers say as the server runs (a room taken over, rooms swept) reaches the operator:
    from INFO up, on standard error, one line each with its time; uvicorn's own lines stay as they were."""
    import subprocess
    import sys

    script = ("import logging, logging.config\n"
              "from flametable.cli.serve import log_config\n"
              "logging.config.dictConfig(log_config())\n"
              "logging.getLogger('flametable.web').info('room %s: taken over from an owner gone', 'r1')\n"
              "logging.getLogger('flametable.web.bus').debug('not shown')\n"
              "logging.getLogger('uvicorn.error').warning('uvicorn says')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    told = done.stderr.splitlines()
    assert len(told) == 2, told
    stamp, level, logger, message = told[0].split(" ", 4)[1:]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", told[0].split()[0])
    assert re.fullmatch(r"\d\d:\d\d:\d\d,\d{3}", stamp)
    assert (level, logger, message) == ("INFO", "flametable.web:", "room r1: taken over from an owner gone")
    assert told[1].split() == ["WARNING:", "uvicorn", "says"]
