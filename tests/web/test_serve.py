"""``flametable serve`` as it runs: a real uvicorn on a free port of 127.0.0.1, its WebSockets as a browser meets
them."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def served(tmp_path: Path) -> Iterator[int]:
    """The port of a ``flametable serve`` on an SQLite file, stopped afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "flametable.cli", "serve", "--host", "127.0.0.1", "--port",
                             str(port), "--db", str(tmp_path / "t.db"), "--bot-workers", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        limit = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                    if json.load(answer)["status"] == "ok":
                        break
            except OSError:
                pass
            assert proc.poll() is None, "the server stopped"
            assert time.monotonic() < limit, "the server did not start in 60 s"
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(30)


def test_the_server_declines_permessage_deflate_which_costs_46_kib_a_connection(served: int) -> None:
    from websockets.asyncio.client import connect

    request = urllib.request.Request(f"http://127.0.0.1:{served}/api/rooms", method="POST",
                                     data=json.dumps({"game": "duel", "seats": ["me", "open"]}).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        made = json.load(answer)

    async def hello() -> tuple[str | None, str]:
        async with connect(f"ws://127.0.0.1:{served}/api/rooms/{made['room']}/ws", compression="deflate",
                           proxy=None) as ws:
            assert ws.response is not None
            await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            welcome = json.loads(await ws.recv())
            return ws.response.headers.get("sec-websocket-extensions"), welcome["type"]

    assert asyncio.run(hello()) == (None, "welcome")
