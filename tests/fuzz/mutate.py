"""Mutated variants of valid files of the five kinds flametable reads, from a seed (the same seed, the same
bytes): the fuzz test in the suite draws seeds with hypothesis, the long run (``python -m
benchmarks.fuzz_files``) counts them.

A mutation is structural (the file is parsed, one place in it changed, the file written again: a key deleted,
renamed or duplicated, a value retyped, a number made huge, negative, a float, a bool or a string, a value
nested deeply, a list and a table swapped, a list emptied or grown) or byte-level (bits flipped, bytes
inserted or deleted, a range duplicated, the file truncated, invalid UTF-8). One to three mutations per file.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import math
import random
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.builtin_data import DUALS_DATA, DUEL_CARDS

# ------------------------------------------------------------------ values the emitters write as text


@dataclass(frozen=True)
class Raw:
    """A value written as this text, whatever the format (an integer too long for ``str(int)``, ``1e999``)."""

    text: str


@dataclass(frozen=True)
class Deep:
    """A value nested ``depth`` lists deep (written without recursion)."""

    depth: int
    inner: Any = 0


HUGE_DIGITS = Raw("9" * 5000)  # past Python's 4,300-digit limit of int(str)


def toml_key(key: str) -> str:
    return key if key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key) else toml_string(key)


def toml_string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")  # a lone surrogate is refused by TOML readers: a mutation too
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def toml_value(value: Any) -> str:
    """A TOML value on one line (tables inline)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Deep):
        return "[" * value.depth + toml_value(value.inner) + "]" * value.depth
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return toml_string(str(value))  # None and anything else TOML cannot say: a string


def dump_toml(data: Any) -> str:
    """A whole TOML document: top-level keys one per line, tables inline (arrays of tables as arrays of inline
    tables). A top level that is not a table is written as the value of a key ``value``."""
    if not isinstance(data, dict):
        return f"value = {toml_value(data)}\n"
    return "".join(f"{toml_key(str(k))} = {toml_value(v)}\n" for k, v in data.items())


def json_value(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Deep):
        return "[" * value.depth + json_value(value.inner) + "]" * value.depth
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {json_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(json_value(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")  # Python's json reads them
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return json.dumps(value.isoformat())
    return json.dumps(value)


# ------------------------------------------------------------------ structural mutations of a parsed tree


def _places(tree: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in ``tree``, the root's own slot first (container None)."""
    places: list[tuple[Any, Any]] = [(None, None)]
    stack = [tree]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            places.append((node, key))
            if isinstance(value, (dict, list)):
                stack.append(value)
    return places


def _number(rng: random.Random, value: Any) -> Any:
    choices: list[Any] = [HUGE_DIGITS, Raw("-" + "9" * 5000), 2**64, 2**64 + (value if isinstance(value, int) else 0),
                          10**30, -1, -(2**63), 0, 1.0, 0.5, 1e308, Raw("1e999"), float("nan"), True, False,
                          str(value), "", None, 99, 22, 1.5]
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [value + 1, value - 1, -value, float(value)]
    return rng.choice(choices)


def _retyped(rng: random.Random, value: Any) -> Any:
    return rng.choice([None, True, 0, -1, 1.0, "", "x", "C1", "K\U0001d7d0\U0001d7d3", "\u0663", "\ud800", [],
                       [value], {}, {"value": value}, datetime.date(2024, 1, 1), "x" * 200_000, HUGE_DIGITS])


def _swapped(value: Any) -> Any:
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return [value]


def _changed(rng: random.Random, value: Any) -> Any:
    kind = rng.randrange(6)
    if kind == 0 and isinstance(value, (int, float)):
        return _number(rng, value)
    if kind == 1:
        return Deep(rng.choice([5, 60, 400, 600, 1200, 5000]), value if not isinstance(value, (dict, list)) else 0)
    if kind == 2:
        return _swapped(value)
    if kind == 3 and isinstance(value, list):
        if not value or rng.random() < 0.4:
            return []
        return value + [rng.choice(value)] * rng.choice([1, 2, 10, 3000])
    if kind == 4 and isinstance(value, str):
        return rng.choice([value * 2, value[:1], value + "\ud800", value + "\x00", value.upper(), "K" + value,
                           value + "\u00b2", "x" * 200_000])
    return _retyped(rng, value) if rng.random() < 0.5 else _number(rng, value)


def mutate_tree(tree: Any, rng: random.Random) -> Any:
    """One structural change somewhere in ``tree`` (changed in place where it can be; the new tree returned)."""
    places = _places(tree)
    container, key = rng.choice(places)
    if container is None:  # the root itself
        return rng.choice([[], {}, None, 0, "x", [tree], Deep(rng.choice([600, 5000])), _swapped(tree)])
    action = rng.randrange(5)
    if action == 0:  # delete the key or element
        del container[key]
    elif action == 1 and isinstance(container, dict):  # rename the key
        value = container.pop(key)
        container[rng.choice([key + "_", key.upper(), "", "\ud800", str(rng.randrange(10))])] = value
    elif action == 2 and isinstance(container, dict) and len(container) > 1:  # another key's value here
        other = rng.choice([k for k in container if k != key])
        container[key] = container[other]
    elif action == 2 and isinstance(container, list):  # duplicate the element
        container.insert(key, container[key])
    else:
        container[key] = _changed(rng, container[key])
    return tree


# ------------------------------------------------------------------ byte-level mutations


SPECIAL = [b"\xff", b"\x00", b"\xc3\x28", b"\xed\xa0\x80", b"\xe2\x82", b'"', b"[", b"{", b"]", b"}", b",", b"=",
           b"\n", b"\\u", b"\\ud800", b"9" * 40, b"-", b".5", b"e999", b"\r", b"\t", b"#", b"'", b"[[", b"]]"]


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return rng.choice(SPECIAL)
    at = rng.randrange(len(data) + 1)
    action = rng.randrange(7)
    if action == 0:  # flip bits
        buf = bytearray(data)
        for _ in range(rng.choice([1, 1, 2, 8])):
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        return bytes(buf)
    if action == 1:  # insert
        noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        piece = rng.choice(SPECIAL) if rng.random() < 0.7 else noise
        return data[:at] + piece + data[at:]
    if action == 2:  # delete a range
        return data[:at] + data[at + rng.randrange(1, 40):]
    if action == 3:  # duplicate a range
        end = min(len(data), at + rng.randrange(1, 400))
        return data[:end] + data[at:end] + data[end:]
    if action == 4:  # truncate
        return data[:at]
    if action == 5:  # invalid UTF-8 in place
        return data[:at] + rng.choice([b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]) + data[at:]
    # overwrite with a byte from elsewhere
    buf = bytearray(data)
    if at < len(buf):
        buf[at] = rng.choice(buf)
    return bytes(buf)


# ------------------------------------------------------------------ the five kinds of file


def _csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _csv_text(rows: list[list[Any]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def _mutate_csv(text: str, rng: random.Random) -> str:
    try:
        rows = _csv_rows(text)
    except csv.Error:  # a field made too long by a previous mutation
        return text + "\n" + ",".join(["x"] * rng.randrange(20))
    if len(rows) < 2:
        return text + "\n" + ",".join(["x"] * rng.randrange(20))
    r = rng.randrange(len(rows))
    row = rows[r]
    action = rng.randrange(6)
    if action == 0 and row:  # a short row, or a column too many
        rows[r] = row[:rng.randrange(len(row))] if rng.random() < 0.6 else [*row, "extra"]
    elif action == 1:  # a row twice, or none
        if rng.random() < 0.5:
            rows.insert(r, list(row))
        else:
            del rows[r]
    elif row:  # one cell changed
        c = rng.randrange(len(row))
        cell = row[c]
        if action == 2:
            parsed: Any
            try:
                parsed = json.loads(cell)
            except ValueError:
                parsed = cell
            row[c] = json_value(mutate_tree(parsed, rng))
        else:
            row[c] = rng.choice(["", "-1", "1.5", "1e308", "nan", "inf", "9" * 5000, "x" * 140_000, "true",
                                 "\u0663", "\ud800", "[" * 3000 + "]" * 3000, '{"a": ' * 800 + "1" + "}" * 800,
                                 "null", "[]", "{}", "C1", "0x10", " 1", "1_000"])
    return _csv_text(rows)


def _mutate_jsonl(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    if not lines:
        return json_value(mutate_tree({}, rng))
    i = rng.randrange(len(lines))
    try:
        tree = json.loads(lines[i])
    except ValueError:
        return text + "\n" + json_value(mutate_tree({}, rng))
    lines[i] = json_value(mutate_tree(tree, rng))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Kind:
    """One kind of file: its name, its extension, how to parse and write it again for a structural mutation."""

    name: str
    suffix: str
    structural: Callable[[str, random.Random], str]


def _toml_structural(text: str, rng: random.Random) -> str:
    try:
        tree: Any = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return text
    return dump_toml(mutate_tree(tree, rng))


def _json_structural(text: str, rng: random.Random) -> str:
    try:
        tree: Any = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return json_value(mutate_tree(tree, rng))


KINDS = {
    "cards": Kind("cards", ".toml", _toml_structural),
    "duals": Kind("duals", ".toml", _toml_structural),
    "deck": Kind("deck", ".toml", _toml_structural),
    "record-duel": Kind("record-duel", ".json", _json_structural),
    "record-duals": Kind("record-duals", ".json", _json_structural),
    "results-jsonl": Kind("results-jsonl", ".jsonl", _mutate_jsonl),
    "results-csv": Kind("results-csv", ".csv", _mutate_csv),
}
"""The five kinds of file (a match record of each game, sim results in both formats)."""


def mutate(kind: str, original: bytes, seed: int) -> bytes:
    """The mutated variant number ``seed`` of a valid file of ``kind``: one to three mutations, structural or
    byte-level."""
    rng = random.Random(f"{kind}:{seed}")
    data = original
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        if rng.random() < 0.6:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                data = mutate_bytes(data, rng)
                continue
            try:
                data = KINDS[kind].structural(text, rng).encode("utf-8", "surrogatepass")
            except RecursionError:  # a tree nested too deeply to write again by a previous mutation
                data = mutate_bytes(data, rng)
        else:
            data = mutate_bytes(data, rng)
    return data


def write_variant(directory: Path, kind: str, original: bytes, seed: int) -> Path:
    path = directory / f"{kind}-{seed}{KINDS[kind].suffix}"
    path.write_bytes(mutate(kind, original, seed))
    return path


# ------------------------------------------------------------------ the valid files the variants start from

DECK = "# a Flame Duel deck (R2)\ncharacters = [1, 5, 9]\nsupports = [1, 2, 3, 4, 5, 6, 7, 8]\n"
BOTS = ["--p1", "bot:random", "--p2", "bot:random"]


def originals(directory: Path) -> dict[str, bytes]:
    """A valid file of each kind: the built-in data, a deck, a record of a match of each game and the results
    of a short sim of each game (JSON lines of Flame Duel, CSV of Duals), made by the program itself."""
    from typer.testing import CliRunner

    from flametable.cli.main import app

    runner = CliRunner()

    def made(*args: str) -> None:
        result = runner.invoke(app, list(args))
        if result.exit_code != 0:
            raise RuntimeError(f"flametable {' '.join(args)}: {result.output}")

    directory.mkdir(parents=True, exist_ok=True)
    made("play", "duel", *BOTS, "--seed", "3", "--record", str(directory / "duel.json"), "--json")
    made("play", "duals", *BOTS, "--seed", "3", "--record", str(directory / "duals.json"), "--json")
    made("sim", "duel", *BOTS, "--games", "4", "--seed", "1", "--out", str(directory / "duel.jsonl"), "--json")
    made("sim", "duals", *BOTS, "--games", "2", "--seed", "1", "--out", str(directory / "duals.csv"), "--json")
    return {
        "cards": DUEL_CARDS.read_bytes(),
        "duals": DUALS_DATA.read_bytes(),
        "deck": DECK.encode(),
        "record-duel": (directory / "duel.json").read_bytes(),
        "record-duals": (directory / "duals.json").read_bytes(),
        "results-jsonl": (directory / "duel.jsonl").read_bytes(),
        "results-csv": (directory / "duals.csv").read_bytes(),
    }
