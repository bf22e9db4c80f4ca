"""``flametable sim``, ``report`` and ``ladder``: the simulation lab at the terminal."""

from __future__ import annotations

import contextlib
import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import BrokenExecutor
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from babel.numbers import format_decimal
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn
from rich.table import Table
from rich.text import Text

from flametable.bots.registry import HUMAN, bot_names
from flametable.cli.console import err, fail, out, print_json
from flametable.cli.games import lookup
from flametable.cli.generic import make_game_or_fail
from flametable.cli.i18n import _, explain, language, translate
from flametable.cli.options import checked_seed, json_options
from flametable.cli.seats import seat_message
from flametable.core import registry
from flametable.core.data import read_text_file
from flametable.core.errors import FlametableError
from flametable.core.limits import MAX_RECORD_BYTES, loads_json
from flametable.core.record import RECORD_FORMAT
from flametable.sim.progress import Pace, clock_text, time_left
from flametable.sim.report import build_report
from flametable.sim.results import (
    ResultsError,
    Tally,
    csv_entry,
    csv_header,
    is_csv,
    iter_results,
    jsonl_entry,
    score_entry,
)
from flametable.sim.runner import SimSpec, run
from flametable.sim.stats import Interval, ladder_elo, score_interval

if TYPE_CHECKING:
    from flametable.sim.cluster import Cluster


def _entry(game: str) -> registry.GameEntry:
    try:
        return registry.get(game)
    except registry.UnknownGame as exc:
        fail(exc.translated(translate), 2)


def _check_bots(entry: registry.GameEntry, specs: list[str]) -> None:
    """Exit (code 2) with a translated message naming the first seat that is not a bot for the game."""
    made = make_game_or_fail(entry, None)
    for spec in specs:
        if spec == HUMAN:
            fail(_("A simulation has only bots: {spec!r} is not one.").format(spec=spec), 2)
        problem = seat_message(spec, made, _("Unknown seat {spec!r} (known: {known}).").format(
            spec=spec, known=", ".join(f"bot:{name}" for name in bot_names(made))))
        if problem is not None:
            fail(problem, 2)


PLAIN_EVERY = 5.0
"""Seconds between two plain progress lines when stderr is not a terminal (a log, a pipe)."""


class TimeLeftColumn(ProgressColumn):
    """The time left at the overall rate so far (:func:`flametable.sim.progress.time_left`), not rich's rate of
    the last moments, which the workers' bursts of results throw off."""

    def render(self, task: Task) -> Text:
        total = task.total or 0
        return Text(clock_text(time_left(task.completed, total, task.elapsed or 0.0)), style="progress.remaining")


class _Bar:
    """Progress on a terminal: rich's bar, redrawn in place on stderr."""

    def __init__(self, progress: Progress, total: int, label: str) -> None:
        self.progress = progress
        self.task = progress.add_task(label, total=total)

    def advance(self) -> None:
        self.progress.advance(self.task)


class _Lines:
    """Progress in a log or a pipe: a plain line on stderr every ``PLAIN_EVERY`` seconds."""

    def __init__(self, total: int, label: str) -> None:
        self.pace = Pace(total, PLAIN_EVERY)
        self.label = label

    def advance(self) -> None:
        if self.pace.advance():
            pace = self.pace
            err().print(_("{label}: {done} of {total} ({percent}%), {elapsed} so far, about {left} left.").format(
                label=self.label, done=_number(pace.done), total=_number(pace.total),
                percent=_number(100 * pace.done / pace.total, "0"), elapsed=clock_text(pace.elapsed, up=False),
                left=clock_text(pace.left())), markup=False, highlight=False, soft_wrap=True)


@contextlib.contextmanager
def _progress(total: int, label: str) -> Iterator[_Bar | _Lines | None]:
    """Progress on stderr: a bar on a terminal, plain lines every few seconds otherwise; none for one match."""
    if total < 2:
        yield None
        return
    if not sys.stderr.isatty():
        yield _Lines(total, label)
        return
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeLeftColumn(),
                  console=err(), transient=True) as progress:
        yield _Bar(progress, total, label)


class _WriteFailed(Exception):
    def __init__(self, exc: OSError) -> None:
        super().__init__(exc)
        self.reason = exc.strerror or str(exc)


class _Output:
    """The results file, whose failures (and only those) become ``_WriteFailed``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
        except OSError as exc:
            raise _WriteFailed(exc) from exc

    def close(self) -> None:
        try:
            self.stream.close()
        except OSError as exc:
            raise _WriteFailed(exc) from exc


def _number(value: float, pattern: str | None = None) -> str:
    return format_decimal(value, format=pattern, locale=language())


def _share(i: Interval) -> str:
    """A share with its 95% interval, as the reader writes numbers: 49.8% [48.0, 51.6] / 49,8 % [48,0; 51,6]."""
    return _("{value}% [{low}, {high}]").format(
        value=_number(100 * i.value, "0.0"), low=_number(100 * i.low, "0.0"), high=_number(100 * i.high, "0.0"))


def _check_jobs(jobs: int, ray: str | None) -> None:
    if jobs < 1:
        fail(_("--jobs must be at least 1."), 2)
    if ray is not None and jobs != 1:
        fail(_("--ray runs the matches on the Ray cluster's CPUs: leave out --jobs."), 2)


@contextlib.contextmanager
def _cluster(address: str | None) -> Iterator[Cluster | None]:
    """The Ray cluster that ``--ray`` names (None without it), connected for the run and left afterwards; what
    goes wrong with Ray, at the start or during the run, ends in one translated line (exit 1)."""
    if address is None:
        yield None
        return
    from flametable.sim.cluster import LOCAL, ClusterError, connect

    if address == LOCAL:
        err().print(_("Starting a local Ray (a few seconds)..."), markup=False, highlight=False)
    else:
        err().print(_("Connecting to the Ray cluster at {address}...").format(address=address), markup=False,
                    highlight=False)
    try:
        with connect(address) as cluster:
            yield cluster
    except ClusterError as exc:
        fail(explain(exc))


def run_sim(game: str, p1: str, p2: str, games: int, jobs: int, seed: int, out_file: Path | None,
            options: str | None, data: Path | None, records: bool, as_json: bool, ray: str | None = None) -> None:
    known = _entry(game)
    _check_bots(known, [p1, p2])
    if games < 1:
        fail(_("--games must be at least 1."), 2)
    _check_jobs(jobs, ray)
    # A cluster's workers read the data file themselves: by its full path (the same on every node).
    data_path = None if data is None else str(data.resolve() if ray is not None else data)
    spec = SimSpec(game, p1, p2, games, checked_seed(seed), json_options(options), data_path, records)
    try:
        make_game_or_fail(known, data).new_match(spec.options or {}, 0)
    except (FlametableError, ValueError, TypeError) as exc:  # a bad option value: the game names it
        fail(_("Bad options: {error}").format(error=explain(exc)), 2)
    connecting = time.perf_counter()
    with _cluster(ray) as cluster:
        ray_seconds = None if cluster is None else round(time.perf_counter() - connecting, 3)
        if cluster is not None:
            jobs = cluster.cpus
        output = None
        if out_file is not None:
            try:
                output = _Output(out_file.open("w", encoding="utf-8", newline=""))
            except OSError as exc:
                fail(_("Cannot write {file}: {error}").format(file=out_file, error=exc.strerror or exc))
        as_csv = out_file is not None and is_csv(out_file)
        each = score_entry if output is None else csv_entry if as_csv else jsonl_entry
        tally = Tally()  # the parent keeps counts, not lines: long runs stay small and the workers keep the cores
        started = time.perf_counter()
        try:
            try:
                if output is not None and as_csv:
                    output.write(csv_header())
                with _progress(games, _("Simulating")) as bar:
                    for entry in run(spec, jobs, each=each, cluster=cluster):
                        tally.add(entry.winner, entry.p1_points)
                        if output is not None:
                            output.write(entry.text)
                        if bar is not None:
                            bar.advance()
            finally:
                if output is not None:
                    output.close()
        except _WriteFailed as exc:  # a full disk, a lost drive: say so, never a traceback
            fail(_("Cannot write {file}: {error}. It holds only the results written before that.")
                 .format(file=out_file, error=exc.reason))
        except ValueError as exc:
            fail(explain(exc), 2)
        except (OSError, BrokenExecutor) as exc:  # the worker processes could not start, or one of them died
            fail(_("The simulation could not run: {error}").format(error=exc or type(exc).__name__))
        took = time.perf_counter() - started
    n = tally.n
    shares = tally.intervals()
    summary = {
        "game": game, "p1": p1, "p2": p2, "games": n, "jobs": jobs, "seed": seed, "seconds": round(took, 3),
        "matches_per_second": round(n / took, 2) if took > 0 else None, "ray": ray, "ray_seconds": ray_seconds,
        **{k: v.to_json() for k, v in shares.items()},
    }
    if as_json:
        print_json(summary)
        return
    console = out()
    console.print(_("{n} matches of {game}, {p1} against {p2} (seats swapped every other match), in {s} s.")
                  .format(n=_number(n), game=game, p1=p1, p2=p2, s=_number(took, "0.0")))
    table = Table(_("result"), _("share (95% interval)"))
    table.add_row(_("{p1} wins").format(p1=p1), _share(shares["p1_wins"]))
    table.add_row(_("draws"), _share(shares["draws"]))
    table.add_row(_("{p2} wins").format(p2=p2), _share(shares["p2_wins"]))
    table.add_row(_("{p1} score (win 1, draw ½)").format(p1=p1), _share(shares["p1_score"]))
    console.print(table)
    if out_file is not None:
        console.print(_("Results written to {file}.").format(file=out_file))


def _is_match_record(file: Path) -> bool:
    """Whether ``file`` holds a match record (one JSON object of the record format) rather than results."""
    try:
        data = loads_json(read_text_file(file, ResultsError, MAX_RECORD_BYTES))
    except (FlametableError, ValueError):
        return False
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT


def run_report(file: Path, html_out: Path, cards: Path | None) -> None:
    """Read the results one line at a time into the report (counts, not lines: the memory stays the same however
    long the file); a bad line anywhere is refused before anything is written."""
    try:
        lines = iter_results(file)
        first = next(lines, None)
        if first is None:
            fail(_("{file} holds no results.").format(file=file))
        name = first["game"]
        lines = chain(iter([first]), lines)  # not chain([first], ...), which would keep the first line
        del first
        known = lookup(name)
        if known is None:
            for _line in lines:  # a bad line later in the file is said first, as when the file was read whole
                pass
            fail(_("{file}: unknown game {game!r}.").format(file=file, game=name))
        game = make_game_or_fail(known, cards)
        try:
            page, figures = build_report(lines, game, tr=translate, lang=language())
        except (ValueError, KeyError) as exc:
            fail(_("Cannot build the report from {file}: {error}").format(file=file, error=explain(exc)))
    except ResultsError as exc:
        if _is_match_record(file):
            fail(_("{file} is a match record, not the results of flametable sim: replay it with flametable replay "
                   "{file}, or make results with flametable sim --out.").format(file=file))
        fail(_("Cannot read the results: {error}").format(error=explain(exc)))
    try:
        html_out.write_text(page, encoding="utf-8")
    except OSError as exc:
        fail(_("Cannot write {file}: {error}").format(file=html_out, error=exc.strerror or exc))
    out().print(_("Report of {n} matches written to {file}.").format(n=figures["games"], file=html_out))


def run_ladder(game: str, bots: list[str], games: int, jobs: int, seed: int, as_json: bool,
               ray: str | None = None) -> None:
    _check_bots(_entry(game), bots)
    if len(bots) < 2:
        fail(_("A ladder needs at least two bots."), 2)
    checked_seed(seed)
    if games < 1:
        fail(_("--games must be at least 1."), 2)
    _check_jobs(jobs, ray)
    pairs: list[tuple[int, int, list[float]]] = []
    total = len(bots) * (len(bots) - 1) // 2 * games
    with _cluster(ray) as cluster:
        try:
            with _progress(total, _("Ladder")) as bar:
                for i in range(len(bots)):
                    for j in range(i + 1, len(bots)):
                        spec = SimSpec(game, bots[i], bots[j], games, seed + 7919 * (i * len(bots) + j))
                        pts = []
                        for entry in run(spec, jobs, each=score_entry, cluster=cluster):
                            pts.append(entry.p1_points)
                            if bar is not None:
                                bar.advance()
                        pairs.append((i, j, pts))
        except ValueError as exc:
            fail(explain(exc), 2)
    ratings = ladder_elo(len(bots), pairs)
    order = sorted(range(len(bots)), key=lambda p: -ratings[p].value)
    if as_json:  # an unbounded end of an interval (every game won or lost) is null
        print_json({
            "game": game, "games_per_pair": games,
            "ratings": [{"bot": bots[p], "elo": round(ratings[p].value, 1), "low": _rounded(ratings[p].low),
                         "high": _rounded(ratings[p].high)} for p in order],
            "pairs": [{"p1": bots[i], "p2": bots[j], "games": len(pts),
                       **_pair_score(score_interval(pts))} for i, j, pts in pairs],
        })
        return
    console = out()
    table = Table(_("bot"), _("Elo"), _("95% interval"))
    for p in order:
        r = ratings[p]
        table.add_row(bots[p], f"{r.value:.0f}", _elo_range(r))
    console.print(_("Round-robin ladder of {game}, {n} matches per pair:").format(game=game, n=games))
    console.print(table)
    scores = Table(_("pairing"), _("score of the first (95% interval)"))
    for i, j, pts in pairs:
        scores.add_row(f"{bots[i]} – {bots[j]}", _share(score_interval(pts)))
    console.print(scores)


def _rounded(x: float) -> float | None:
    return round(x, 1) if math.isfinite(x) else None


def _pair_score(s: Interval) -> dict[str, float]:
    return {"p1_score": s.value, "low": s.low, "high": s.high}


def _elo_range(r: Interval) -> str:
    """A rating's 95% interval as ``[1420, 1580]``; an end with no bound (every game won or lost) as ``∞``."""
    low = "(−∞" if math.isinf(r.low) else f"[{r.low:.0f}"
    high = "∞)" if math.isinf(r.high) else f"{r.high:.0f}]"
    return f"{low}, {high}"
