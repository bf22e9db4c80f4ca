"""``flametable report`` on a long results file: wall time and peak memory (issue 19).

    python -m benchmarks.report --lines 50000 [--game duel|duals] [--csv] [--matches 300] [--src DIR]... [--json]

Plays ``--matches`` real matches (``bot:greedy`` against ``bot:random``, seed 19), then writes a results file of
``--lines`` lines by repeating them, each copy with its own ``index`` and ``seed`` (the lines are real, their
summaries pass the checks, and the report has as much to count as for a real run), as JSON lines or, with
``--csv``, as CSV. Then runs ``python -m flametable.cli report FILE --html OUT`` in a subprocess, alone, and
measures its wall time, its CPU time (user and system: on a busy machine a fairer figure than the wall's) and its
peak resident memory (``ru_maxrss`` from ``os.wait4``: the child's own ``RUSAGE_CHILDREN``), with the load
average after it. Each ``--src DIR`` then runs the report of another checkout's ``src`` on the same file (the
code before a change: ``git archive COMMIT src | tar -x -C DIR``). Prints one JSON object (or a line of text)
per run. Figures: [docs/benchmarks.md](../docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from flametable.sim.results import csv_header, encode_line
from flametable.sim.runner import SimSpec, run


def write_results(path: Path, game: str, lines: int, matches: int, csv_format: bool) -> int:
    """A results file of ``lines`` lines made of ``matches`` real ones repeated; its size in bytes."""
    played = list(run(SimSpec(game, "bot:greedy", "bot:random", matches, seed=19), 1))
    with path.open("w", encoding="utf-8", newline="") as out:
        if csv_format:
            out.write(csv_header())
        for i in range(lines):
            line = played[i % len(played)] | {"index": i, "seed": (played[i % len(played)]["seed"] + i) % 2**32}
            out.write(encode_line(line, csv_format))
    return path.stat().st_size


def measure(results: Path, src: str | None) -> dict[str, Any]:
    """The report of ``results`` in a subprocess (of ``src``, else this checkout): seconds, CPU seconds, peak memory
    in MB, the load average after, and what it printed."""
    env = dict(os.environ, PYTHONPATH=src) if src else None
    page, said = results.with_suffix(".html"), results.with_suffix(".out")
    with said.open("w+", encoding="utf-8") as out:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "flametable.cli", "report", str(results), "--html", str(page),
                                  "--lang", "en"], stdout=out, stderr=subprocess.STDOUT, env=env)
        _, status, used = os.wait4(child.pid, 0)  # this child's own usage (RUSAGE_CHILDREN's, for it alone)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().strip()
    if child.returncode != 0:
        raise SystemExit(f"report failed ({child.returncode}): {text}")
    return {"seconds": round(seconds, 2), "cpu_seconds": round(used.ru_utime + used.ru_stime, 2),
            "peak_mb": round(used.ru_maxrss / 1024, 1), "load": round(os.getloadavg()[0], 1), "said": text}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--game", choices=("duel", "duals"), default="duel")
    parser.add_argument("--csv", action="store_true", help="a CSV results file rather than JSON lines")
    parser.add_argument("--matches", type=int, default=300, help="real matches played, then repeated")
    parser.add_argument("--src", action="append", default=[],
                        help="run the report of this src folder (another checkout's) on the same file, after this "
                             "checkout's; may be repeated")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / ("results.csv" if args.csv else "results.jsonl")
        size = write_results(results, args.game, args.lines, args.matches, args.csv)
        for src in [None, *args.src]:
            figures = {"game": args.game, "lines": args.lines, "format": "csv" if args.csv else "jsonl",
                       "file_mb": round(size / 2**20, 1), "src": src or "this checkout", **measure(results, src)}
            if args.json:
                print(json.dumps(figures), flush=True)
            else:
                print(f"{figures['src']}: {figures['lines']} lines ({figures['format']}, {figures['file_mb']} MB, "
                      f"{figures['game']}): {figures['seconds']} s ({figures['cpu_seconds']} s of CPU, load "
                      f"{figures['load']}), {figures['peak_mb']} MB peak", flush=True)


if __name__ == "__main__":
    main()
