"""Reading and writing sim result lines as JSON lines or CSV (chosen by the file's extension)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from flametable.core.data import read_text_file
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.core.jsonerr import json_problem
from flametable.core.limits import MAX_CSV_FIELD_CHARS, MAX_RESULTS_BYTES, LimitError, check_string, loads_json
from flametable.sim.stats import Interval, score_interval, wilson

CSV_FIELDS = ("index", "seed", "game", "p1", "p2", "p1_seat", "winner", "winner_seat", "reason", "score1",
              "score2", "p1_points", "actions", "seconds", "summary")


class ResultsError(FlametableError):
    """A results file that cannot be read."""


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
    text = read_text_file(path, ResultsError, MAX_RESULTS_BYTES)
    return parse_csv(text, str(path)) if is_csv(path) else parse_jsonl(text, str(path))


def parse_jsonl(text: str, source: str) -> list[dict[str, Any]]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = loads_json(raw)
        except LimitError as exc:
            raise ResultsError(N_("{source}: line {n}: {problem}"), source=source, n=n, problem=exc) from None
        except json.JSONDecodeError as exc:
            raise ResultsError(N_("{source}: line {n}: not valid JSON: {problem} (column {column})"), source=source,
                               n=n, problem=json_problem(exc), column=exc.colno) from None
        _check(line, source, n)
        out.append(line)
    return out


def parse_csv(text: str, source: str) -> list[dict[str, Any]]:
    out = []
    reader = csv.DictReader(io.StringIO(text))
    try:
        missing = [f for f in CSV_FIELDS if f not in (reader.fieldnames or [])]
        if missing:
            raise ResultsError(N_("{source}: missing CSV column(s) {columns}"), source=source,
                               columns=", ".join(missing))
        for row in reader:
            n = reader.line_num
            count = _fields(row)
            if count != len(reader.fieldnames or ()):
                raise ResultsError(N_("{source}: line {n}: {count} fields, the header has {columns}"), source=source,
                                   n=n, count=count, columns=len(reader.fieldnames or ()))
            out.append(_csv_line(row, source, n))
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise ResultsError(N_("{source}: line {n}: a field of more than {limit} characters"), source=source,
                               n=reader.line_num + 1, limit=MAX_CSV_FIELD_CHARS) from None
        raise ResultsError(N_("{source}: line {n}: not valid CSV"), source=source, n=reader.line_num + 1) from None
    return out


def _fields(row: dict[Any, Any]) -> int:
    """How many fields a row of :class:`csv.DictReader` had: the ones beyond the header are a list under None, the
    missing ones None."""
    extra = row.get(None)
    return sum(key is not None and value is not None for key, value in row.items()) + len(extra or ())


_INT = re.compile(r"-?[0-9]{1,20}")
_FLOAT = re.compile(r"-?[0-9]{1,20}(\.[0-9]{1,20})?([eE][-+]?[0-9]{1,3})?")


def _int(text: str) -> int:
    """A CSV integer: ASCII digits, at most 20 (else ValueError)."""
    if not _INT.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _float(text: str) -> float:
    """A CSV decimal number: ASCII digits, finite (else ValueError)."""
    value = float(text) if _FLOAT.fullmatch(text) else math.nan
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _csv_line(row: dict[str, str], source: str, n: int) -> dict[str, Any]:
    try:
        for key in ("game", "p1", "p2", "winner", "reason"):
            check_string(row[key], key)
        p1_seat = _int(row["p1_seat"])
        seats = [row["p1"], row["p2"]] if p1_seat == 0 else [row["p2"], row["p1"]]
        line = {
            "index": _int(row["index"]), "seed": _int(row["seed"]), "game": row["game"], "seats": seats,
            "p1_seat": p1_seat, "winner": row["winner"] or None,
            "winner_seat": _int(row["winner_seat"]) if row["winner_seat"] else None,
            "reason": row["reason"], "scores": [_int(row["score1"]), _int(row["score2"])],
            "p1_points": _float(row["p1_points"]), "actions": _int(row["actions"]),
            "seconds": _float(row["seconds"]), "summary": loads_json(row["summary"] or "{}"),
        }
    except LimitError as exc:
        raise ResultsError(N_("{source}: line {n}: {problem}"), source=source, n=n, problem=exc) from None
    except json.JSONDecodeError as exc:
        raise ResultsError(N_("{source}: line {n}: the summary is not valid JSON: {problem} (column {column})"),
                           source=source, n=n, problem=json_problem(exc), column=exc.colno) from None
    except (ValueError, KeyError):
        raise ResultsError(N_("{source}: line {n}: a value that should be a number is not one"), source=source,
                           n=n) from None
    _check(line, source, n)
    return line


def _check(line: Any, source: str, n: int) -> None:
    if not isinstance(line, dict):
        raise ResultsError(N_("{source}: line {n}: a result is a JSON object"), source=source, n=n)
    for key in ("game", "seats", "p1_seat", "winner", "p1_points", "summary"):
        if key not in line:
            raise ResultsError(N_("{source}: line {n}: field {key!r} is missing"), source=source, n=n, key=key)


class Tally:
    """Running counts of results from the first player's side: wins, draws, losses and points."""

    def __init__(self) -> None:
        self.wins = self.draws = self.losses = 0
        self.points: list[float] = []

    @classmethod
    def of(cls, lines: Iterable[dict[str, Any]]) -> Tally:
        tally = cls()
        for line in lines:
            tally.add(line["winner"], float(line["p1_points"]))
        return tally

    @property
    def n(self) -> int:
        return len(self.points)

    def add(self, winner: str | None, p1_points: float) -> None:
        if winner == "p1":
            self.wins += 1
        elif winner is None:
            self.draws += 1
        else:
            self.losses += 1
        self.points.append(p1_points)

    def intervals(self) -> dict[str, Interval]:
        """The first player's wins, the draws, the second player's wins and the first player's score (a draw as ½),
        each with its 95% interval (:mod:`flametable.sim.stats`)."""
        n = self.n
        return {"p1_wins": wilson(self.wins, n), "draws": wilson(self.draws, n), "p2_wins": wilson(self.losses, n),
                "p1_score": score_interval(self.points)}
