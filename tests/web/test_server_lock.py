"""A plain ``flametable serve`` (no ``--redis``) is the only server of its PostgreSQL database (issue 22): two of
them would each drive the same rooms from their own memory (a seat resigned on one while the other went on storing
moves). A second plain server on the same database is refused at start, in one clear line in the user's language,
exit code 1; once the first stops or dies, a new one starts. Servers of other databases do not meet.

Real servers (``flametable serve`` subprocesses, :class:`tests.web.live.LiveServer`) on fresh PostgreSQL databases;
and the lock itself, :class:`ServerLock`, in this process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from flametable.web.store import ServerLock, shown_url
from tests.services import fresh_postgresql_database, postgresql_url
from tests.web.live import SRC, LiveServer, free_port

REFUSED = {
    "en": "Error: The database {database} is already served by another flametable server. To run several server "
          "processes on one database, give every one --redis (see docs/deploy.md).",
    "es": "Error: La base de datos {database} ya la sirve otro servidor de flametable. Para servir una base de "
          "datos con varios procesos, da --redis a cada uno de ellos (véase docs/deploy.md).",
}


@pytest.fixture
def database() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database (skipped where there is none)."""
    with fresh_postgresql_database() as name:
        yield postgresql_url(name)


def serve_once(url: str, data_dir: Path, args: list[str], env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    """Run ``flametable serve`` on ``url`` to its end (a refused one ends at once; 60 s at most)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH"))
                                                               if p),
                   "FLAMETABLE_DATA_DIR": str(data_dir), **(env or {})}
    return subprocess.run([sys.executable, "-m", "flametable.cli", "serve", "--host", "127.0.0.1", "--port",
                           str(free_port()), "--db", url, "--bot-workers", "1", *args], env=environment,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False)


def stop(server: LiveServer) -> None:
    """Stop the server as Ctrl+C does (SIGINT), and reap it."""
    assert server.proc is not None
    server.proc.send_signal(signal.SIGINT)
    assert server.proc.wait(30) == 0, server.output()
    server.proc = None


def test_a_second_plain_server_of_the_database_is_refused_in_the_users_language_until_the_first_is_gone(
        database: str, tmp_path: Path) -> None:
    first = LiveServer(database, tmp_path / "first")
    second = LiveServer(database, tmp_path / "second")
    try:
        first.start()
        for args, env, lang in [(["--lang", "en"], {}, "en"), (["--lang", "es"], {}, "es"),
                                ([], {"LC_ALL": "es_ES.UTF-8"}, "es")]:
            refused = serve_once(database, tmp_path / "refused", args, env)
            assert refused.returncode == 1, refused
            assert "Traceback" not in refused.stdout + refused.stderr
            assert refused.stderr.splitlines() == [REFUSED[lang].format(database=shown_url(database))]
        assert first.get("/healthz")["status"] == "ok"  # the first serves on
        first.kill()  # it dies: its connection closes, and the lock with it
        second.start()
        refused = serve_once(database, tmp_path / "refused", ["--lang", "en"])
        assert refused.returncode == 1
        assert "already served by another flametable server" in refused.stderr
        stop(second)  # stopped as Ctrl+C stops it: the lock is let go
        first.start()
        assert first.get("/healthz")["status"] == "ok"
    finally:
        first.kill()
        second.kill()


def test_plain_servers_of_two_databases_of_one_postgresql_both_run(database: str, tmp_path: Path) -> None:
    with fresh_postgresql_database() as other_name:
        servers = [LiveServer(database, tmp_path / "one"), LiveServer(postgresql_url(other_name), tmp_path / "two")]
        try:
            for server in servers:
                server.start()
            assert [s.get("/healthz")["status"] for s in servers] == ["ok"] * 2
        finally:
            for server in servers:
                server.kill()


def test_the_lock_is_held_once_per_database_and_taken_again_once_released(database: str) -> None:
    first, second = ServerLock(database), ServerLock(database)
    try:
        assert first.take()
        assert not second.take()
        assert not ServerLock(database).take()
        first.release()
        assert second.take()
    finally:
        first.release()
        second.release()


def test_sqlite_needs_no_lock(tmp_path: Path) -> None:
    lock = ServerLock(str(tmp_path / "server.db"))
    assert not lock.needed
    assert lock.take()
    assert ServerLock(str(tmp_path / "server.db")).take()
    lock.release()
