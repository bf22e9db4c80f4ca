"""Real sockets for the server's tests: the app on a real uvicorn in a thread of this process (on a free port of
127.0.0.1, its hall there to look at), and a raw WebSocket client that writes its frames by hand, as a hostile or a
broken client would (a text frame that is not UTF-8, a connection dropped without a close)."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette

from tests.web.live import free_port

SECONDS = 10.0  # the longest a test waits for the server (to start, to answer, to close)

TEXT, BINARY, CLOSE = 0x1, 0x2, 0x8

_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@contextmanager
def uvicorn_thread(app: Starlette) -> Iterator[int]:
    """``app`` served by uvicorn in a thread (its own event loop) while the ``with`` lasts: the port. uvicorn's
    logging is left as the test process has it."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="on",
                                           ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, name="uvicorn-test", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + SECONDS
        while not server.started:
            assert thread.is_alive(), "the server stopped"
            assert time.monotonic() < deadline, f"the server did not start in {SECONDS} s"
            time.sleep(0.01)  # a thread starting: there is nothing to wait on
        yield port
    finally:
        server.should_exit = True
        thread.join(SECONDS)


def post(port: int, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON: the status and the JSON answer."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json", **(headers or {})})
    try:
        with _HTTP.open(request, timeout=SECONDS) as answer:
            return int(answer.status), json.load(answer)
    except urllib.error.HTTPError as exc:
        return int(exc.code), json.load(exc)


def wait_until(check: Any, what: str) -> None:
    """Wait (at most :data:`SECONDS`) until ``check()`` is true: the server works in another thread."""
    deadline = time.monotonic() + SECONDS
    while not check():
        assert time.monotonic() < deadline, f"not in {SECONDS} s: {what}"
        time.sleep(0.005)


class RawSocket:
    """One WebSocket of the room path ``path``, its handshake and frames made by hand."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=SECONDS)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = head.split(b"\r\n")[0].decode()
        assert " 101 " in self.status, self.status

    def _more(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        self.buffer += data

    def _take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self._more()
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def send_frame(self, opcode: int, payload: bytes) -> None:
        """One final frame, masked as a client's must be; ``payload`` as it is (a text frame's is not checked)."""
        mask = os.urandom(4)
        size = len(payload)
        length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + struct.pack("!H", size)
        self.sock.sendall(bytes([0x80 | opcode]) + length + mask
                          + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, **message: Any) -> None:
        self.send_frame(TEXT, json.dumps(message).encode())

    def frame(self) -> tuple[int, bytes]:
        """The server's next frame: its opcode and payload."""
        first, second = self._take(2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", self._take(2))[0]
        elif size == 127:
            size = struct.unpack("!Q", self._take(8))[0]
        return first & 0x0F, self._take(size)

    def recv(self) -> dict[str, Any]:
        """The server's next message (a close frame: ``ConnectionError``)."""
        opcode, payload = self.frame()
        if opcode == CLOSE:
            raise ConnectionError(f"closed: {payload!r}")
        message: dict[str, Any] = json.loads(payload)
        return message

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.recv()
            if message["type"] == kind:
                return message

    def close_code(self) -> int:
        """Read until the server's close frame: its code."""
        while True:
            opcode, payload = self.frame()
            if opcode == CLOSE:
                code: int = struct.unpack("!H", payload[:2])[0]
                return code

    def close(self) -> None:
        """The client's close frame (1000), then the connection closed."""
        self.send_frame(CLOSE, struct.pack("!H", 1000))
        self.sock.close()

    def drop(self) -> None:
        """The connection closed without a close frame (FIN), as a browser tab killed does."""
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

    def reset(self) -> None:
        """The connection reset (RST), as a network that fails does."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()
