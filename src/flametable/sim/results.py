"""Reading and writing sim result lines as JSON lines or CSV (chosen by the file's extension)."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from flametable.core import registry
from flametable.core.data import os_problem
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_, N_plural
from flametable.core.jsonerr import json_problem
from flametable.core.limits import MAX_CSV_FIELD_CHARS, MAX_RESULTS_BYTES, LimitError, check_size, loads_json
from flametable.core.record import SCHEMA as RECORD_SCHEMA
from flametable.core.rng import SEED_MAX, SEED_MIN
from flametable.core.schema import Anything, Int, List, Nullable, Num, Obj, Str, conforms, label, located, validate
from flametable.sim.stats import Interval, Score, wilson

CSV_FIELDS = ("index", "seed", "game", "p1", "p2", "p1_seat", "winner", "winner_seat", "reason", "score1",
              "score2", "p1_points", "actions", "seconds", "summary")


class ResultsError(FlametableError):
    """A results file that cannot be read."""


_SEAT = Int(0, 1)
_COUNT = Int(0, 10**9)


_LINE = Obj(
    required={
        "game": Str(max_len=100),
        "seats": List(Str(max_len=200), min=2, max=2, description="the players' specs, by seat"),
        "p1_seat": Int(0, 1, "the seat of the first player named on the command line"),
        "winner": Nullable(Str(choices=("p1", "p2")), description="null for a draw"),
        "winner_seat": Nullable(_SEAT, description="null for a draw"),
        "p1_points": Num(0, 1, "the first player's points: 1, 0.5 for a draw, 0"),
        "summary": Anything("object", "what the game keeps of the match (its own schema, by game)"),
    },
    optional={
        "index": _COUNT,
        "seed": Int(SEED_MIN, SEED_MAX),
        "reason": Str(max_len=100),
        "scores": List(Int(-10**9, 10**9), min=2, max=2),
        "actions": _COUNT,
        "seconds": Num(0, 10**9),
        "record": RECORD_SCHEMA,
    },
    title="flametable sim result line",
)
"""One line of a JSON-lines results file (``docs/formats.md``), its summary any object."""


def line_schema(entries: Iterable[registry.GameEntry]) -> Obj:
    """The shape of a result line, its summary checked by the schema of the line's game among ``entries``."""
    summaries = {e.name: e.required("summary_schema") for e in entries if e.has("summary_schema")}
    return Obj(required=_LINE.required, optional=_LINE.optional, cases=("game", "summary", summaries),
               title=_LINE.title)


_WHOLE = r"[0-9]{1,20}"
_NUMBER = r"[0-9]{1,20}(\.[0-9]{1,20})?([eE][-+]?[0-9]{1,3})?"
_IS_WHOLE = N_("must be a whole number, got {value!r}")
_IS_NUMBER = N_("must be a number, got {value!r}")
_CELL = Str(blank=True, max_len=1000)
CSV_ROW = Obj(
    required={
        "index": Str(pattern=_WHOLE, pattern_problem=_IS_WHOLE),
        "seed": Str(pattern=_WHOLE, pattern_problem=_IS_WHOLE),
        "game": _CELL, "p1": _CELL, "p2": _CELL,
        "p1_seat": Str(pattern="[01]", pattern_problem=N_("must be 0 or 1, got {value!r}")),
        "winner": Str(choices=("p1", "p2", ""), blank=True),
        "winner_seat": Str(pattern="[01]?", pattern_problem=N_("must be 0, 1 or empty, got {value!r}"), blank=True),
        "reason": _CELL,
        "score1": Str(pattern=f"-?{_WHOLE}", pattern_problem=_IS_WHOLE),
        "score2": Str(pattern=f"-?{_WHOLE}", pattern_problem=_IS_WHOLE),
        "p1_points": Str(pattern=_NUMBER, pattern_problem=_IS_NUMBER),
        "actions": Str(pattern=_WHOLE, pattern_problem=_IS_WHOLE),
        "seconds": Str(pattern=_NUMBER, pattern_problem=_IS_NUMBER),
        "summary": Str(blank=True, max_len=100_000, description="the line's summary as JSON text"),
    },
    title="flametable sim result CSV row",
    description="One row of a CSV results file, column by column as text; read into a result line.",
)
"""One row of a CSV results file, as the CSV reader gives it (every cell a string)."""


def is_csv(path: str | Path) -> bool:
    return str(path).lower().endswith(".csv")


def csv_header() -> str:
    """The header line of a CSV results file."""
    return _csv_text(CSV_FIELDS)


def _csv_text(row: Iterable[Any]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(row)
    return buffer.getvalue()


def encode_line(line: dict[str, Any], csv_format: bool) -> str:
    """One result line as the text of a JSON-lines file (or a CSV row), newline included."""
    if not csv_format:
        return json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
    return _csv_text([
        line["index"], line["seed"], line["game"], line["seats"][line["p1_seat"]],
        line["seats"][1 - line["p1_seat"]], line["p1_seat"], line["winner"] or "", line["winner_seat"]
        if line["winner_seat"] is not None else "", line["reason"], line["scores"][0], line["scores"][1],
        line["p1_points"], line["actions"], line["seconds"],
        json.dumps(line["summary"], ensure_ascii=False, separators=(",", ":")),
    ])


class Entry(NamedTuple):
    """What the lab's parent process needs of one match: its encoded text (or "") and the first player's result.

    Sim workers turn each result line into an entry (``jsonl_entry``, ``csv_entry``, ``score_entry``), so the
    parent only writes text and counts: it no longer rebuilds and re-encodes every line, and with ``--jobs`` as
    large as the cores it takes as little as possible from the workers.
    """

    text: str
    winner: str | None
    p1_points: float


def jsonl_entry(line: dict[str, Any]) -> Entry:
    return Entry(encode_line(line, False), line["winner"], float(line["p1_points"]))


def csv_entry(line: dict[str, Any]) -> Entry:
    return Entry(encode_line(line, True), line["winner"], float(line["p1_points"]))


def score_entry(line: dict[str, Any]) -> Entry:
    return Entry("", line["winner"], float(line["p1_points"]))


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """Every result line of a JSON-lines or CSV file; errors name the file and the line."""
    return list(iter_results(path))


def iter_results(path: str | Path) -> Iterator[dict[str, Any]]:
    """The result lines of a JSON-lines or CSV file one at a time, each checked as it is read (so a report holds
    one line, not the file): the same lines and the same errors as :func:`read_results`, a problem raised when
    the reading reaches it. The file is read as :func:`~flametable.core.data.read_text_file` reads it (UTF-8, at
    most :data:`MAX_RESULTS_BYTES`), a piece at a time."""
    source = str(path)
    if is_csv(path):
        return _csv_lines(_pieces(path, lines=True), source)
    return _jsonl_lines(_pieces(path), source)


_BLOCK = 1 << 20  # bytes read at a time: whole lines of about a MiB, decoded at once


def _pieces(path: str | Path, lines: bool = False) -> Iterator[str]:
    """The text of ``path`` in pieces that each end after a newline (but the last), decoded one piece at a time:
    blocks of whole lines, or with ``lines`` each line (as ``io.StringIO`` iterates). A problem is
    :func:`~flametable.core.data.read_text_file`'s, the byte of a bad character counted from the file's start."""
    source = str(path)
    read = done = 0  # bytes read; bytes given (the start of the next piece)
    rest: list[bytes] = []  # what was read after the last newline
    try:
        with Path(path).open("rb") as stream:
            size = os.fstat(stream.fileno()).st_size  # a file too large is refused before any line is read
            while True:
                block = stream.read(min(_BLOCK, MAX_RESULTS_BYTES + 1 - read))
                read += len(block)
                try:
                    check_size(max(size, read), MAX_RESULTS_BYTES)  # read: a pipe's size is 0
                except LimitError as exc:
                    raise ResultsError(N_("{path}: {problem}"), path=source, problem=exc) from None
                end = block.rfind(b"\n") + 1 if block else -1
                if not end:  # no line ends in this block: a long line, read on
                    rest.append(block)
                    continue
                whole = b"".join([*rest, block[:end]] if block else rest)  # at the end: the last line
                rest = [block[end:]] if block else []
                if whole:
                    try:
                        text = whole.decode("utf-8")
                    except UnicodeDecodeError as exc:
                        raise ResultsError(N_("{path}: {problem}"), path=source, problem=FlametableError(
                            N_("not UTF-8 text (byte {position})"), position=done + exc.start + 1)) from None
                    done += len(whole)
                    if lines:
                        yield from io.StringIO(text)
                    else:
                        yield text
                if not block:
                    return
    except OSError as exc:
        raise ResultsError(os_problem(exc), file=source) from None  # one sentence naming the file


class _Checked:
    """The checks of each line of a results file: :func:`validate` only on a line that :func:`conforms` refuses
    (to say why), so the lines that are right cost a quick walk each."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.line = line_schema(registry.entries())
        self.line_ok = conforms(self.line)
        self.row_ok = conforms(CSV_ROW)

    def check(self, value: Any, n: int, csv_row: bool = False) -> None:
        if not (self.row_ok if csv_row else self.line_ok)(value):
            validate(value, CSV_ROW if csv_row else self.line, self.source, _line(n), error=located(ResultsError),
                     json=not csv_row)


def parse_jsonl(text: str, source: str) -> list[dict[str, Any]]:
    return list(_jsonl_lines([text], source))


def _jsonl_lines(pieces: Iterable[str], source: str) -> Iterator[dict[str, Any]]:
    """The lines of JSON-lines text given in pieces, each ending after a newline: numbered as ``str.splitlines``
    numbers the whole text's lines (a piece ends no line before its last newline; ``\r\n`` stays whole)."""
    checked = _Checked(source)
    n = 0
    for piece in pieces:
        for raw in piece.splitlines():
            n += 1
            if not raw or raw.isspace():  # not raw.strip(), without a copy of the line
                continue
            try:
                line = loads_json(raw)
            except LimitError as exc:
                raise ResultsError(N_("{source}: line {n}: {problem}"), source=source, n=n, problem=exc) from None
            except json.JSONDecodeError as exc:
                raise ResultsError(N_("{source}: line {n}: not valid JSON: {problem} (column {column})"),
                                   source=source, n=n, problem=json_problem(exc), column=exc.colno) from None
            checked.check(line, n)
            yield line


def parse_csv(text: str, source: str) -> list[dict[str, Any]]:
    return list(_csv_lines(io.StringIO(text), source))


def _csv_lines(pieces: Iterable[str], source: str) -> Iterator[dict[str, Any]]:
    checked = _Checked(source)
    reader = csv.DictReader(pieces)
    try:
        missing = [f for f in CSV_FIELDS if f not in (reader.fieldnames or [])]
        if missing:
            raise ResultsError(N_("{source}: missing CSV column(s) {columns}"), source=source,
                               columns=", ".join(missing))
        for row in reader:
            n = reader.line_num
            count = _fields(row)
            if count != len(reader.fieldnames or ()):
                raise ResultsError(N_plural("{source}: line {n}: {count} field, the header has {columns}",
                                            "{source}: line {n}: {count} fields, the header has {columns}", "count"),
                                   source=source,
                                   n=n, count=count, columns=len(reader.fieldnames or ()))
            yield _csv_line(row, checked, source, n)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise ResultsError(N_("{source}: line {n}: a field of more than {limit} characters"), source=source,
                               n=reader.line_num + 1, limit=MAX_CSV_FIELD_CHARS) from None
        raise ResultsError(N_("{source}: line {n}: not valid CSV"), source=source, n=reader.line_num + 1) from None


def _fields(row: dict[Any, Any]) -> int:
    """How many fields a row of :class:`csv.DictReader` had: the ones beyond the header are a list under None, the
    missing ones None."""
    extra = row.get(None)
    if extra is None and None not in row.values():  # the usual row: as many fields as the header
        return len(row)
    return sum(key is not None and value is not None for key, value in row.items()) + len(extra or ())


def _csv_line(row: dict[str, str], checked: _Checked, source: str, n: int) -> dict[str, Any]:
    """One CSV row as a result line: its cells checked by :data:`CSV_ROW` (ASCII numbers, seats), then the line
    by the same declaration as a JSON line's."""
    cells = {k: v for k, v in row.items() if v is not None and k in CSV_FIELDS}
    checked.check(cells, n, csv_row=True)
    p1_seat = int(row["p1_seat"])
    seats = [row["p1"], row["p2"]] if p1_seat == 0 else [row["p2"], row["p1"]]
    try:
        summary = loads_json(row["summary"] or "{}")
    except LimitError as exc:
        raise ResultsError(N_("{source}: line {n}: {problem}"), source=source, n=n, problem=exc) from None
    except json.JSONDecodeError as exc:
        raise ResultsError(N_("{source}: line {n}: the summary is not valid JSON: {problem} (column {column})"),
                           source=source, n=n, problem=json_problem(exc), column=exc.colno) from None
    line = {
        "index": int(row["index"]), "seed": int(row["seed"]), "game": row["game"], "seats": seats,
        "p1_seat": p1_seat, "winner": row["winner"] or None,
        "winner_seat": int(row["winner_seat"]) if row["winner_seat"] else None,
        "reason": row["reason"], "scores": [int(row["score1"]), int(row["score2"])],
        "p1_points": float(row["p1_points"]), "actions": int(row["actions"]),
        "seconds": float(row["seconds"]), "summary": summary,
    }
    checked.check(line, n)
    return line


def _line(n: int) -> FlametableError:
    return label(N_("line {n}"), n=n)


class Tally:
    """Running counts of results from the first player's side: wins, draws, losses and points (a :class:`Score`:
    counts, not every match's points)."""

    def __init__(self) -> None:
        self.wins = self.draws = self.losses = 0
        self.points = Score()

    @classmethod
    def of(cls, lines: Iterable[dict[str, Any]]) -> Tally:
        tally = cls()
        for line in lines:
            tally.add(line["winner"], float(line["p1_points"]))
        return tally

    @property
    def n(self) -> int:
        return self.points.n

    def add(self, winner: str | None, p1_points: float) -> None:
        if winner == "p1":
            self.wins += 1
        elif winner is None:
            self.draws += 1
        else:
            self.losses += 1
        self.points.add(p1_points)

    def intervals(self) -> dict[str, Interval]:
        """The first player's wins, the draws, the second player's wins and the first player's score (a draw as ½),
        each with its 95% interval (:mod:`flametable.sim.stats`)."""
        n = self.n
        return {"p1_wins": wilson(self.wins, n), "draws": wilson(self.draws, n), "p2_wins": wilson(self.losses, n),
                "p1_score": self.points.interval()}
