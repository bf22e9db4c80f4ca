"""The real ``flametable`` in a pseudo-terminal, and a strict little terminal that keeps everything a player could
read again: the tests of what the terminal holds (hot-seat secrets, what fits on the screen).

:class:`Terminal` reads the bytes the program writes and keeps, for the main screen, *everything ever written to
it*: a real terminal's scrollback may keep any line that was once on the main screen, even one the program
cleared or wrote over (some terminals push a cleared screen into the scrollback), so this is all the next player
could scroll back to. The alternate screen (``ESC[?1049h`` ... ``ESC[?1049l``) has no scrollback: what is written
there goes when it is left. Any escape sequence it does not know fails the test (a new way of moving or clearing
would need thought here, not a silent pass).
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

CSI = re.compile(rb"\x1b\[([0-9;?]*)([A-Za-z])")
HARMLESS = {
    b"m",  # colours and styles
    b"?25l", b"?25h",  # hide and show the cursor
    b"?2004h", b"?2004l",  # bracketed paste
}
"""Sequences that neither move text between screens nor destroy it (the final byte, or the whole sequence)."""


class UnknownSequence(AssertionError):
    pass


class Terminal:
    """What a terminal holds: the main screen's whole history and the alternate screen while it is on."""

    def __init__(self) -> None:
        self.main = ""  # everything ever written on the main screen: its screen and any scrollback
        self.alt = ""  # what was written on the alternate screen since it was entered
        self.in_alt = False
        self.alt_entries = 0
        self._pending = b""

    def feed(self, data: bytes) -> None:
        data = self._pending + data
        self._pending = b""
        pos = 0
        while pos < len(data):
            esc = data.find(b"\x1b", pos)
            if esc < 0:
                self._text(data[pos:])
                return
            self._text(data[pos:esc])
            match = CSI.match(data, esc)
            if match is None:
                if len(data) - esc < 16 and b"\x1b" not in data[esc + 1:]:  # cut in the middle: wait for more
                    self._pending = data[esc:]
                    return
                raise UnknownSequence(f"unknown escape sequence {data[esc:esc + 12]!r}")
            self._control(match.group(1), match.group(2))
            pos = match.end()

    def _text(self, raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace").replace("\r", "")
        if self.in_alt:
            self.alt += text
        else:
            self.main += text

    def _control(self, params: bytes, final: bytes) -> None:
        whole = params + final
        if final == b"m" or whole in HARMLESS:
            return
        if whole == b"?1049h":  # save the cursor, switch to the alternate screen and clear it
            self.in_alt = True
            self.alt = ""
            self.alt_entries += 1
        elif whole == b"?1049l":  # back to the main screen: the alternate screen is gone
            self.in_alt = False
            self.alt = ""
        elif whole in (b"H", b"2J", b"J", b"0J", b"K", b"0K"):
            # the cursor home, or clearing: on the main screen the lines stay readable in the history (kept
            # above); on the alternate screen, clearing it leaves nothing behind
            if self.in_alt and whole == b"2J":
                self.alt = ""
        else:
            raise UnknownSequence(f"unknown escape sequence ESC[{whole.decode()}")

    def readable(self) -> str:
        """All a player at this terminal can read now: the main screen with its scrollback, and the alternate
        screen if it is on."""
        return self.main + (self.alt if self.in_alt else "")


class Program:
    """``python -m flametable.cli ARGS`` in a pseudo-terminal of ``columns`` × ``lines``, its output fed to a
    :class:`Terminal`."""

    def __init__(self, args: Sequence[str], columns: int = 80, lines: int = 24) -> None:
        self.terminal = Terminal()
        self.recent = ""  # the output since the last key sent
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR")}
        env["TERM"] = "xterm-256color"
        src = str(Path(__file__).resolve().parents[2] / "src")
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
        self.process = subprocess.Popen([sys.executable, "-m", "flametable.cli", *args], stdin=slave, stdout=slave,
                                        stderr=slave, env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.master = master

    def wait_for(self, *texts: str, timeout: float = 20) -> str:
        """Read the output until one of ``texts`` is in what came since the last key; that text."""
        end = time.monotonic() + timeout
        while True:
            for text in texts:
                if text in self.recent:
                    return text
            left = end - time.monotonic()
            if left <= 0 or not self._read(left):
                raise AssertionError(f"none of {texts} came; the last output: {self.recent[-2000:]!r}")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], min(timeout, 1.0))
        if not ready:
            return self.process.poll() is None or self._drain()
        try:
            data = os.read(self.master, 65536)
        except OSError:  # the program ended and closed the terminal
            return False
        if not data:
            return False
        self.terminal.feed(data)
        self.recent += data.decode("utf-8", errors="replace")
        return True

    def _drain(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0.2)
        return bool(ready)

    def type(self, keys: str) -> None:
        self.recent = ""
        os.write(self.master, keys.encode())

    def finish(self, timeout: float = 20) -> int:
        """Read to the end; the exit code."""
        end = time.monotonic() + timeout
        while self._read(max(0.1, end - time.monotonic())) and time.monotonic() < end:
            pass
        code = self.process.wait(timeout=max(1.0, end - time.monotonic()))
        os.close(self.master)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
