"""Reading and writing sim result lines as JSON lines or CSV (chosen by the file's extension)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from flametable.core.errors import FlametableError

CSV_FIELDS = ("index", "seed", "game", "p1", "p2", "p1_seat", "winner", "winner_seat", "reason", "score1",
              "score2", "p1_points", "actions", "seconds", "summary")


class ResultsError(FlametableError):
    """A results file that cannot be read."""


def is_csv(path: str | Path) -> bool:
    return str(path).lower().endswith(".csv")


class ResultWriter:
    def __init__(self, stream: TextIO, csv_format: bool) -> None:
        self.stream = stream
        self.csv = csv.writer(stream) if csv_format else None
        if self.csv is not None:
            self.csv.writerow(CSV_FIELDS)

    def write(self, line: dict[str, Any]) -> None:
        if self.csv is None:
            self.stream.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
            return
        self.csv.writerow([
            line["index"], line["seed"], line["game"], line["seats"][line["p1_seat"]],
            line["seats"][1 - line["p1_seat"]], line["p1_seat"], line["winner"] or "", line["winner_seat"]
            if line["winner_seat"] is not None else "", line["reason"], line["scores"][0], line["scores"][1],
            line["p1_points"], line["actions"], line["seconds"],
            json.dumps(line["summary"], ensure_ascii=False, separators=(",", ":")),
        ])


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """Every result line of a JSON-lines or CSV file; errors name the file and the line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResultsError(f"{path}: cannot read: {exc}") from None
    return parse_csv(text, str(path)) if is_csv(path) else parse_jsonl(text, str(path))


def parse_jsonl(text: str, source: str) -> list[dict[str, Any]]:
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ResultsError(f"{source}: line {n}: not valid JSON: {exc}") from None
        _check(line, source, n)
        out.append(line)
    return out


def parse_csv(text: str, source: str) -> list[dict[str, Any]]:
    out = []
    reader = csv.DictReader(io.StringIO(text))
    missing = [f for f in CSV_FIELDS if f not in (reader.fieldnames or [])]
    if missing:
        raise ResultsError(f"{source}: missing CSV column(s) {', '.join(missing)}")
    for n, row in enumerate(reader, 2):
        try:
            p1_seat = int(row["p1_seat"])
            seats = [row["p1"], row["p2"]] if p1_seat == 0 else [row["p2"], row["p1"]]
            line = {
                "index": int(row["index"]), "seed": int(row["seed"]), "game": row["game"], "seats": seats,
                "p1_seat": p1_seat, "winner": row["winner"] or None,
                "winner_seat": int(row["winner_seat"]) if row["winner_seat"] else None,
                "reason": row["reason"], "scores": [int(row["score1"]), int(row["score2"])],
                "p1_points": float(row["p1_points"]), "actions": int(row["actions"]),
                "seconds": float(row["seconds"]), "summary": json.loads(row["summary"] or "{}"),
            }
        except (ValueError, KeyError, json.JSONDecodeError) as exc:
            raise ResultsError(f"{source}: line {n}: bad value: {exc}") from None
        _check(line, source, n)
        out.append(line)
    return out


def _check(line: Any, source: str, n: int) -> None:
    if not isinstance(line, dict):
        raise ResultsError(f"{source}: line {n}: a result is a JSON object")
    for key in ("game", "seats", "p1_seat", "winner", "p1_points", "summary"):
        if key not in line:
            raise ResultsError(f"{source}: line {n}: field {key!r} is missing")


def summarize_points(lines: Iterable[dict[str, Any]]) -> tuple[int, int, int, int]:
    """(p1 wins, draws, p1 losses, n)."""
    w = d = loss = n = 0
    for line in lines:
        n += 1
        if line["winner"] == "p1":
            w += 1
        elif line["winner"] is None:
            d += 1
        else:
            loss += 1
    return w, d, loss, n
