"""The long fuzz run of issue 10: a seeded corpus of mutated files of the five kinds flametable reads, each run
through every command that reads it; counts the runs that end in a traceback (or the internal-error line) and
the runs over 5 s, and prints the distinct causes.

    python -m benchmarks.fuzz_files --files 2500 --jobs 2

The corpus: ``--files`` variants (default 2,500) shared out evenly among the kinds (a Flame Duel card set, Duals
data, a Flame Duel deck, a match record of each game, sim results as JSON lines and CSV), made by
:mod:`tests.fuzz.mutate` from valid files the program makes itself; variant ``i`` of a kind is the same bytes
for the same ``--seed``. Each command runs in process through Typer's ``CliRunner`` (the same group, commands
and last line of defence as the installed ``flametable``), with ``FLAMETABLE_DEBUG=1`` so that a bug shows its
traceback, in ``--jobs`` worker processes. A run still going after ``--hang`` seconds is stopped and counted as
over 5 s. Records whose ``replay --verify`` ends with exit 0 are also checked in process: the stored result must
be the replayed one (``falsely verified`` otherwise).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from tests.fuzz.mutate import KINDS, originals, write_variant

SLOW = 5.0
"""A run over this many seconds is counted as too slow."""

BOTS = ["--p1", "bot:random", "--p2", "bot:random"]

COMMANDS: dict[str, list[list[str]]] = {
    "cards": [["cards", "check", "{file}"], ["cards", "duel", "--cards", "{file}", "--json"],
              ["play", "duel", "--cards", "{file}", *BOTS, "--seed", "1", "--json"],
              ["sim", "duel", "--data", "{file}", "--games", "2", "--json"]],
    "duals": [["cards", "check", "{file}"], ["cards", "duals", "--cards", "{file}", "--json"],
              ["play", "duals", "--cards", "{file}", *BOTS, "--seed", "1", "--json"],
              ["sim", "duals", "--data", "{file}", "--games", "2", "--json"]],
    "deck": [["cards", "check", "{file}"],
             ["play", "duel", "--mode", "decks", "--deck1", "{file}", *BOTS, "--seed", "1", "--json"]],
    "record-duel": [["replay", "{file}", "--verify"], ["replay", "{file}", "--json"]],
    "record-duals": [["replay", "{file}", "--verify"], ["replay", "{file}", "--json"]],
    "results-jsonl": [["report", "{file}", "--html", "{html}"]],
    "results-csv": [["report", "{file}", "--html", "{html}"]],
}
"""Every command that reads each kind of file (``{file}`` the variant, ``{html}`` a report to write)."""

INTERNAL = re.compile(r"internal error: please report it", re.IGNORECASE)
FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')


@dataclass(frozen=True)
class Run:
    kind: str
    file: str
    command: str
    exit_code: int
    seconds: float
    traceback: bool
    cause: str | None  # the traceback's last line and innermost frame
    hung: bool = False
    falsely_verified: str | None = None


class Hung(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hung


def cause_of(output: str) -> str:
    """``ExceptionType: message @ file.py:line`` from a traceback in ``output`` (the message cut short; numbers
    inside it kept, so similar causes may still differ)."""
    lines = output.splitlines()
    start = max((i for i, line in enumerate(lines) if line.startswith("Traceback")), default=None)
    if start is None:
        return "internal-error line without a traceback"
    frame, last = "?", "?"
    for line in lines[start:]:
        found = FRAME.match(line)
        if found:
            frame = f"{Path(found['file']).name}:{found['line']}"
        elif line and not line.startswith(" ") and not line.startswith("Traceback") and not INTERNAL.search(line):
            last = line
    return f"{last[:140]} @ {frame}"


def _worker_init() -> None:
    signal.signal(signal.SIGALRM, _alarm)
    import flametable.cli.main  # noqa: F401 - imported once per worker, before the clock runs


def run_one(task: tuple[str, str, list[str], int]) -> Run:
    kind, file, args, hang = task
    from typer.testing import CliRunner

    from flametable.cli.main import app

    runner = CliRunner()
    started = time.perf_counter()
    signal.alarm(hang)
    hung = False
    try:
        result = runner.invoke(app, args, env={"FLAMETABLE_DEBUG": "1", "LC_ALL": "C", "LANG": None})
        output, code = result.output, result.exit_code
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            import traceback

            output += "".join(traceback.format_exception(result.exception))
            code = -1
    except Hung:
        output, code, hung = "", -2, True
    finally:
        signal.alarm(0)
    took = time.perf_counter() - started
    failed = "Traceback" in output or bool(INTERNAL.search(output))
    falsely = None
    if kind.startswith("record") and "--verify" in args and code == 0:
        falsely = _falsely_verified(Path(file))
    shown = " ".join("FILE" if a == file else "OUT" if a.endswith(".html") else a for a in args)
    return Run(kind, file, shown, code, took, failed,
               cause_of(output) if failed else None, hung, falsely)


def _falsely_verified(path: Path) -> str | None:
    from tests.fuzz.readers import FalselyVerified, read_record

    try:
        read_record(path)
    except FalselyVerified as exc:
        return str(exc)[:200]
    except Exception:  # the command said ok; a failure here is counted by its own run
        return None
    return None


def build_corpus(directory: Path, files: int, seed: int) -> list[tuple[str, Path]]:
    valid = originals(directory / "originals")
    kinds = list(KINDS)
    corpus = []
    for i in range(files):
        kind = kinds[i % len(kinds)]
        corpus.append((kind, write_variant(directory, kind, valid[kind], seed * 1_000_003 + i // len(kinds))))
    return corpus


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--files", type=int, default=2500, help="mutated files in the corpus (default 2500)")
    parser.add_argument("--seed", type=int, default=0, help="the corpus's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--hang", type=int, default=60, help="stop a run after this many seconds (default 60)")
    parser.add_argument("--keep", type=Path, default=None, help="write the corpus here and keep it")
    parser.add_argument("--json", dest="as_json", action="store_true", help="the figures as one JSON object")
    options = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="flametable-fuzz-") as temp:
        directory = options.keep or Path(temp)
        directory.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        corpus = build_corpus(directory, options.files, options.seed)
        html = str(directory / "report.html")
        tasks = [(kind, str(path), [a.format(file=path, html=html) for a in command], options.hang)
                 for kind, path in corpus for command in COMMANDS[kind]]
        with multiprocessing.get_context("fork").Pool(options.jobs, initializer=_worker_init) as pool:
            runs = pool.map(run_one, tasks, chunksize=8)
        took = time.perf_counter() - started
    report(runs, len(corpus), took, options.as_json)
    return 1 if any(r.traceback or r.seconds > SLOW or r.falsely_verified for r in runs) else 0


def report(runs: list[Run], files: int, took: float, as_json: bool) -> None:
    causes: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for r in runs:
        if r.traceback and r.cause is not None:
            causes[(r.kind, r.command, r.cause)].append(Path(r.file).name)
    bad_files = {r.file for r in runs if r.traceback}
    slow = [r for r in runs if r.seconds > SLOW]
    falsely = [r for r in runs if r.falsely_verified]
    per_command: Counter[str] = Counter(r.command for r in runs)
    figures: dict[str, Any] = {
        "files": files, "runs": len(runs), "seconds": round(took, 1),
        "runs_with_traceback": sum(r.traceback for r in runs), "files_with_traceback": len(bad_files),
        "distinct_causes": len({c for _, _, c in causes}), "runs_over_5s": len(slow),
        "hung": sum(r.hung for r in runs), "falsely_verified": len(falsely),
        "exit_codes": dict(Counter(str(r.exit_code) for r in runs)),
        "runs_per_command": dict(per_command),
    }
    if as_json:
        figures["causes"] = [{"kind": k, "command": c, "cause": cause, "runs": len(f), "example": f[0]}
                             for (k, c, cause), f in sorted(causes.items())]
        figures["slow"] = [{"kind": r.kind, "command": r.command, "file": Path(r.file).name,
                            "seconds": round(r.seconds, 1)} for r in slow]
        print(json.dumps(figures))
        return
    print(f"{files} files, {len(runs)} command runs in {took:.0f} s")
    print(f"runs ending in a traceback or the internal-error line: {figures['runs_with_traceback']} "
          f"({len(bad_files)} files, {figures['distinct_causes']} distinct causes)")
    print(f"runs over {SLOW:.0f} s: {len(slow)} (stopped as hung: {figures['hung']})")
    print(f"records --verify accepts wrongly: {len(falsely)}")
    print(f"exit codes: {figures['exit_codes']}")
    if causes:
        print("\ncauses (kind | command | last traceback line @ innermost frame | runs | example file):")
        for (kind, command, cause), names in sorted(causes.items()):
            print(f"  {kind} | {command} | {cause} | {len(names)} | {names[0]}")
    if slow:
        print("\nslow runs:")
        for r in sorted(slow, key=lambda r: -r.seconds)[:30]:
            print(f"  {r.kind} | {r.command} | {Path(r.file).name} | {r.seconds:.1f} s")
    if falsely:
        print("\nfalsely verified:")
        for r in falsely[:20]:
            print(f"  {Path(r.file).name}: {r.falsely_verified}")


if __name__ == "__main__":
    sys.exit(main())
