"""``flametable serve`` refuses what it cannot do in one clear line, in the user's language, before it starts: a
database URL it cannot use, a database that does not answer, a port out of range or in use, a proxy address that is
none, a password hashing cost (``FLAMETABLE_ARGON2``, for tests) that is none."""

from __future__ import annotations

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
