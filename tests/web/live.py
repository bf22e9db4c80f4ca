"""A real game server for tests: ``flametable serve`` in a subprocess (this tree's code) on a free port of
127.0.0.1, spoken to over real sockets: HTTP through ``urllib`` (no proxy), WebSockets through the ``websockets``
library's sync client. The server runs in a process group of its own, so that :meth:`LiveServer.kill` (SIGKILL)
takes its bot workers down with it, as a machine crash would."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

SRC = Path(__file__).resolve().parents[2] / "src"
START_SECONDS = 60.0  # the longest a server may take to answer /healthz (a busy machine migrating PostgreSQL)
RECEIVE_SECONDS = 30.0  # the longest a client waits for one message it is owed

_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    """A TCP port of 127.0.0.1 free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """``flametable serve --db URL`` (and ``args``) on ``port``, its data directory ``data_dir``, its output in
    ``log``."""

    def __init__(self, db_url: str, data_dir: Path, port: int | None = None, pythonpath: Sequence[Path] = (),
                 args: Sequence[str] = ()) -> None:
        self.db_url = db_url
        self.args = list(args)  # more options of ``serve``
        self.pythonpath = [str(p) for p in pythonpath]  # before this tree's code (a plug-in game's)
        self.data_dir = data_dir
        self.port = port or free_port()
        self.log = data_dir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server (again, on the same port and database) and wait until ``/healthz`` says ok."""
        assert self.proc is None, "the server is running"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (*self.pythonpath, str(SRC), env.get("PYTHONPATH", "")) if p)
        env["FLAMETABLE_DATA_DIR"] = str(self.data_dir)
        env["PYTHONUNBUFFERED"] = "1"
        command = [sys.executable, "-m", "flametable.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--db", self.db_url, "--bot-workers", "1", *self.args]
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts}: {' '.join(command)}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                         env=env, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while True:
            if self.proc.poll() is not None:
                code, self.proc = self.proc.returncode, None
                raise AssertionError(f"the server exited with {code} before it was ready:\n{self.output()}")
            try:
                if self.get("/healthz").get("status") == "ok":
                    return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"the server did not answer /healthz in {START_SECONDS} s:\n{self.output()}")
            time.sleep(0.05)  # polling a process that is starting: there is nothing to wait on

    def kill(self) -> None:
        """SIGKILL the server and everything it started (its process group), then reap it. Idempotent."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.returncode is None:  # not reaped yet: its pid (the group's id) cannot have been reused
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)

    def kill_alone(self) -> int:
        """SIGKILL the server's own process only (not what it started), reap it; its process group's id."""
        proc, self.proc = self.proc, None
        assert proc is not None, "the server is not running"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        return proc.pid

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    # ------------------------------------------------------------------ HTTP

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with _HTTP.open(request, timeout=RECEIVE_SECONDS) as response:
                return int(response.status), bytes(response.read())
        except urllib.error.HTTPError as exc:
            return int(exc.code), bytes(exc.read())

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        return json.loads(body) if status == 200 else {"status": status}

    def post(self, path: str, body: Any, expect: int) -> dict[str, Any]:
        status, raw = self.request("POST", path, body)
        assert status == expect, (status, raw)
        answer: dict[str, Any] = json.loads(raw)
        return answer

    # ------------------------------------------------------------------ WebSockets

    def connect(self, room: str) -> Socket:
        return Socket(f"ws://127.0.0.1:{self.port}/api/rooms/{room}/ws")


class Socket:
    """One client's WebSocket: what it sends, every message it received (``got``), in order."""

    def __init__(self, url: str) -> None:
        self._stack = ExitStack()  # connect() as a context manager: the form every websockets >= 13 accepts
        self.ws: ClientConnection = self._stack.enter_context(
            connect(url, proxy=None, open_timeout=RECEIVE_SECONDS, close_timeout=1))
        self.got: list[dict[str, Any]] = []

    def send(self, **message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, timeout: float = RECEIVE_SECONDS) -> dict[str, Any]:
        """The next message; ``TimeoutError`` if none comes in ``timeout`` s, ``ConnectionClosed`` once closed."""
        message: dict[str, Any] = json.loads(self.ws.recv(timeout))
        self.got.append(message)
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.recv()
            assert message["type"] != "error", message
            if message["type"] == kind:
                return message

    def drain(self) -> None:
        """Read what the connection still holds until it is closed (the server is gone)."""
        try:
            while True:
                self.recv()
        except ConnectionClosed:
            pass

    def close(self) -> None:
        self._stack.close()
