"""Where the memory of a wave of connections goes (issue 21, point 9). Long: run by hand, not in the test suite
(``tests/web/test_connection_leaks.py`` checks the objects left after a wave of 302).

    python -m benchmarks.server_memory [--connections 1000] [--waves 3] [--seconds 5] [--trim] [--json]

Starts the game server in a subprocess as ``flametable serve`` makes it (the same app and uvicorn settings, what
was loaded frozen out of the garbage collector, SQLite in a temporary directory), plus a report written when it
gets SIGUSR1. Then waves: ``--connections`` / 4 rooms of two people, each with two spectators (who ask for the log
once); the players play random legal moves for ``--seconds`` (thinking 0.5 s: the load benchmark's seats); then
every connection closes. The server reports before the first wave, with each wave open and 2 s after it closed:
its VmRSS; its objects (all, and the server's own kinds: connections, sessions, rooms, match services, tasks); the
hall's rooms and pending loads; pymalloc's arenas (1 MiB each) and the bytes of its blocks in use
(``sys._debugmallocstats``); glibc's heap, in use and free (``mallinfo2``); then it calls ``malloc_trim(0)`` and
says what came back and how long it took. The server's own trim after a wave (``flametable.web.memory``) is off
unless ``--trim``, so that each report shows what the allocators kept. Linux and glibc only. Prints a line per
report, or with ``--json`` one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks import server as load

KINDS = ("Conn", "Session", "Room", "MatchService", "Task", "Future", "ServerProtocol", "WebSocket")
"""The kinds of object counted by name (the server's per connection and per room, asyncio's)."""


class MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def pymalloc() -> dict[str, int]:
    """pymalloc's arenas now and at most, and the bytes of its blocks in use (``sys._debugmallocstats`` writes to
    the C stderr: read through a temporary file)."""
    saved = os.dup(2)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode()
    stats = {}
    for line in text.splitlines():
        name, _, value = line.partition("=")
        stats[name.strip("# ").strip()] = value.strip().replace(",", "")
    return {"arenas": int(stats["arenas allocated current"]), "arenas_peak": int(stats["arenas highwater mark"]),
            "blocks_in_use_kib": int(stats["bytes in allocated blocks"]) // 1024}


def report(app: Any, tag: str, libc: Any) -> dict[str, Any]:
    """What the server holds now (after a full collection), then what ``malloc_trim(0)`` gives back."""
    gc.collect()
    counts = Counter(type(obj).__name__ for obj in gc.get_objects())
    hall = app.state.hall
    info = libc.mallinfo2()
    out: dict[str, Any] = {
        "tag": tag, "rss_kib": rss_kib(), "objects": sum(counts.values()),
        "kinds": {kind: counts.get(kind, 0) for kind in KINDS}, "tasks": len(asyncio.all_tasks()),
        "hall_rooms": len(hall.rooms), "hall_loading": len(hall._loading),
        "pymalloc": pymalloc(),
        "glibc_in_use_kib": info.uordblks // 1024, "glibc_free_kib": info.fordblks // 1024,
    }
    before = rss_kib()
    started = time.perf_counter()
    libc.malloc_trim(0)
    out["trim_ms"] = round((time.perf_counter() - started) * 1000, 2)
    out["trim_gave_back_kib"] = before - rss_kib()
    return out


def server_main(port: int, url: str, log: Path, trim: bool) -> None:
    """The server as ``flametable serve`` runs it; SIGUSR1 appends a report (its tag read from ``log``.tag)."""
    import uvicorn

    from flametable.cli.serve import WS_DEFLATE, WS_MAX_BYTES
    from flametable.web.app import Settings, create_app
    from flametable.web.memory import Connections

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    app = create_app(Settings(url, bot_workers=1))
    if not trim:
        app.state.connections = Connections()  # counted, never trimmed: the reports show what the allocators keep

    def on_signal() -> None:
        data = report(app, Path(f"{log}.tag").read_text().strip(), libc)
        with log.open("a") as out:
            out.write(json.dumps(data) + "\n")

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, on_signal)
            print("ready", flush=True)

    gc.collect()
    gc.freeze()
    with contextlib.suppress(KeyboardInterrupt):  # SIGINT: the benchmark stops it
        Server(uvicorn.Config(app, host=load.HOST, port=port, ws_max_size=WS_MAX_BYTES,
                              ws_per_message_deflate=WS_DEFLATE, log_level="warning", lifespan="on")).run()


class Probe:
    """The server's process, and its reports."""

    def __init__(self, tmp: Path, trim: bool) -> None:
        self.port = load.free_port()
        self.log = tmp / "reports.jsonl"
        command = [sys.executable, "-m", "benchmarks.server_memory", "--server",
                   json.dumps({"port": self.port, "url": str(tmp / "memory.db"), "log": str(self.log),
                               "trim": trim})]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the server did not start")

    def lines(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def report(self, tag: str) -> dict[str, Any]:
        Path(f"{self.log}.tag").write_text(tag)
        done = len(self.lines())
        self.proc.send_signal(signal.SIGUSR1)
        limit = time.monotonic() + 120
        while len(self.lines()) == done:
            if time.monotonic() > limit:
                raise RuntimeError("no report from the server")
            time.sleep(0.1)
        data: dict[str, Any] = json.loads(self.lines()[-1])
        return data

    def stop(self) -> None:
        load.stop_process(self.proc)


async def wave(port: int, connections: int, seconds: float, index: int) -> tuple[list[Any], list[asyncio.Task[Any]]]:
    """Open a wave (rooms of two players and two spectators) and play it: its sockets and tasks."""
    from websockets.asyncio.client import connect

    rooms = [await asyncio.to_thread(load.make_pair, port, load.GAMES[i % 2], i + index * 10_000)
             for i in range(max(1, connections // 4))]
    seats = await load.open_seats(port, rooms, random.Random(index), None, index * 10_000)
    gate = asyncio.Semaphore(50)

    async def spectator(room: str, i: int) -> Any:
        async with gate:  # the i-th room's spectators from addresses of their own (40 sockets an address)
            ws = await connect(f"ws://{load.HOST}:{port}/api/rooms/{room}/ws", compression=None, proxy=None,
                               open_timeout=60, ping_interval=None, max_size=2**22,
                               local_addr=(load.source_address(index * 10_000 + 5_000 + i), 0))
            await ws.send('{"type": "hello"}')
            await ws.send('{"type": "log"}')
            return ws

    async def drain(ws: Any) -> None:
        try:
            async for _frame in ws:
                pass
        except Exception:  # closed
            return

    watchers = await asyncio.gather(*(spectator(room, i) for i, (room, _t0, _t1) in enumerate(rooms)
                                         for _ in range(2)))
    phase = load.Phase(think=0.5)
    tasks = [asyncio.create_task(seat.play(phase)) for seat in seats]
    tasks += [asyncio.create_task(drain(ws)) for ws in watchers]
    await load.play_phase(phase, seconds)
    return [seat.ws for seat in seats] + list(watchers), tasks


async def drive(probe: Probe, args: argparse.Namespace) -> list[dict[str, Any]]:
    reports = [probe.report("before")]
    for index in range(args.waves):
        sockets, tasks = await wave(probe.port, args.connections, args.seconds, index)
        reports.append(probe.report(f"wave {index + 1} open"))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        del sockets, tasks
        await asyncio.sleep(2)
        reports.append(probe.report(f"wave {index + 1} closed"))
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--connections", type=int, default=1000, help="connections a wave (default 1000)")
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds each wave plays")
    parser.add_argument("--trim", action="store_true", help="leave the server's own trim after a wave on")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--server", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.server is not None:
        config = json.loads(args.server)
        server_main(config["port"], config["url"], Path(config["log"]), config["trim"])
        return 0
    load.raise_open_files()
    with tempfile.TemporaryDirectory(prefix="flametable-memory-") as tmp:
        probe = Probe(Path(tmp), args.trim)
        try:
            reports = asyncio.run(drive(probe, args))
        finally:
            probe.stop()
    if args.json:
        print(json.dumps({"connections": args.connections, "seconds": args.seconds, "reports": reports}))
        return 0
    print("report | RSS MiB | objects | Conn Session Room MatchService Task | hall rooms | pymalloc arenas (peak) | "
          "pymalloc in use MiB | glibc in use MiB | glibc free MiB | trim gave back MiB | trim ms")
    for r in reports:
        kinds, arenas = r["kinds"], r["pymalloc"]
        print(" | ".join(str(x) for x in (
            r["tag"], round(r["rss_kib"] / 1024, 1), r["objects"],
            " ".join(str(kinds[k]) for k in ("Conn", "Session", "Room", "MatchService", "Task")),
            r["hall_rooms"], f"{arenas['arenas']} ({arenas['arenas_peak']})",
            round(arenas["blocks_in_use_kib"] / 1024, 1), round(r["glibc_in_use_kib"] / 1024, 1),
            round(r["glibc_free_kib"] / 1024, 1), round(r["trim_gave_back_kib"] / 1024, 1), r["trim_ms"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
