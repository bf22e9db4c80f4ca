"""Limits at the door: what any file flametable reads may hold, checked before and after the parser.

The standard library's parsers have limits of their own that end in a traceback rather than an error:
``tomllib`` and ``json`` recurse once per nested array or table (a ``RecursionError`` about 500 deep), and
Python refuses to turn more than 4,300 decimal digits into an int (a ``ValueError`` inside the parser). So the
text is scanned first (size, nesting depth, length of every number written), parsed, and the values walked
(integer range, string length, lone surrogates that no output can print). Every limit is listed, per format,
in ``docs/limits.md``; a problem raises :class:`LimitError`, whose message says what was wrong and where, and
which each reader wraps in its own error naming the file.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_, N_plural

KIB = 1024
MIB = 1024 * KIB

MAX_DATA_BYTES = 1 * MIB  # a TOML card set, Duals data file or deck
MAX_RECORD_BYTES = 4 * MIB  # a match record
MAX_RESULTS_BYTES = 256 * MIB  # a sim results file (JSON lines or CSV)
MAX_DEPTH = 32  # arrays and tables (objects) inside each other
MAX_NUMBER_CHARS = 100  # digits (and TOML's underscores) of one number as written
MAX_STRING_CHARS = 1000  # characters of one string (or key)
TOML_INT_MIN, TOML_INT_MAX = -(2**63), 2**63 - 1  # TOML's integers are 64-bit signed (the TOML spec)
JSON_INT_LIMIT = 2**64  # JSON integers: |n| < 2**64 (a seed, 0 to 2**64 - 1, fits)
MAX_CSV_FIELD_CHARS = 131_072  # the csv module's own limit on one field

# What the parsers do not read as code: strings (TOML: basic, literal, multi-line; JSON: basic) and comments.
_INERT = re.compile(r'"""(?:[^\\]|\\[\s\S])*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_BASIC_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')  # _INERT's basic string, unrolled (faster)
_LONG_NUMBER = re.compile(rf"[0-9_]{{{MAX_NUMBER_CHARS + 1},}}")
# What in a JSON text could parse into a value past a limit of check_values: a surrogate, as written (only in a text
# that is not ASCII) or escaped (any \u escape); in its code (numbers are never in strings), a number of 20 digits or
# more (2**64 has 20) or with an exponent (1e999 is inf); a string of more than MAX_STRING_CHARS characters (it is
# written with at least as many, so the text is longer). A text with none of them needs no walk of its values:
# loads_json skips it (most lines of a results file).
_NUMBER_PAST = re.compile(r"[0-9](?:[0-9]{19}|[eE])")
_LONG_STRING = re.compile(r'"(?:[^"\\]|\\.)' rf"{{{MAX_STRING_CHARS + 1}}}")


def _may_pass_a_limit(text: str, code: str) -> bool:
    return ("\\u" in text or (not text.isascii() and _SURROGATE.search(text) is not None)
            or _NUMBER_PAST.search(code) is not None
            or (len(text) > MAX_STRING_CHARS and _has_long_string(text)))


def _has_long_string(text: str) -> bool:
    """Whether a string of ``text`` (a JSON text) may be longer than :data:`MAX_STRING_CHARS` characters. Without
    a backslash, :data:`_LONG_STRING` tried at each quote runs only to the next one (linear); with escaped quotes
    (a JSON text inside a JSON string: ``\\"``) each try would run on past them for a thousand characters, so the
    text's strings, read from its start, are measured instead (3 ms a 1.5 KB message of the cluster's bus before)."""
    if "\\" not in text:
        return _LONG_STRING.search(text) is not None
    return any(match.end() - match.start() > MAX_STRING_CHARS + 2 for match in _BASIC_STRING.finditer(text))


NESTED = N_plural("lists and tables nested more than {limit} deep", "lists and tables nested more than {limit} deep",
                  "limit")  # the same in English; not in every language
LONG_NUMBER = N_plural("a number of more than {limit} digit", "a number of more than {limit} digits", "limit")


class LimitError(FlametableError):
    """A limit of :mod:`flametable.core.limits` that a text or a value goes past."""


def _blank(match: re.Match[str]) -> str:
    """A string or comment replaced by its line breaks only (so line numbers stay right)."""
    return "\n" * match.group().count("\n")


def check_size(size: int, limit: int) -> None:
    """A file of ``size`` bytes is at most ``limit`` bytes."""
    if size > limit:
        raise LimitError(N_plural("the file is larger than {limit} byte", "the file is larger than {limit} bytes",
                                  "limit"), limit=limit)


def scan_text(text: str) -> None:
    """Before parsing: arrays and tables at most :data:`MAX_DEPTH` inside each other and no number longer than
    :data:`MAX_NUMBER_CHARS` characters, outside strings and comments (TOML or JSON)."""
    _scan(text)


def _scan(text: str) -> str:
    """:func:`scan_text`, giving back the text's code (what is left without strings and comments)."""
    code = _code(text)
    long_number = _LONG_NUMBER.search(code)
    if long_number is not None and "\n" not in text:
        raise LimitError(LONG_NUMBER, limit=MAX_NUMBER_CHARS)
    if long_number is not None:
        raise LimitError(N_plural("line {line}: a number of more than {limit} digit",
                                  "line {line}: a number of more than {limit} digits", "limit"),
                         line=code.count("\n", 0, long_number.start()) + 1, limit=MAX_NUMBER_CHARS)
    if code.count("[") + code.count("{") > MAX_DEPTH and \
            max(accumulate(map(_STEP.__getitem__, _BRACKETS.sub("", code)))) > MAX_DEPTH:  # never deeper than it opens
        raise LimitError(NESTED, limit=MAX_DEPTH)
    return code


def _code(text: str) -> str:
    """``text`` without its strings and comments (:data:`_INERT`), their line breaks kept."""
    if "\n" in text:
        return _INERT.sub(_blank, text)
    if "'" in text or "#" in text or '"""' in text:
        return _INERT.sub("", text)
    # A JSON line: its basic strings are all that _INERT can find in it; with no escape, each pair of quotes is one
    if "\\" in text:
        return _BASIC_STRING.sub("", text)
    parts = text.split('"')
    if len(parts) % 2:
        return "".join(parts[::2])
    return "".join(parts[:-1:2]) + '"' + parts[-1]  # the last quote opens no string: it is code


def check_values(data: Any, int_min: int, int_max: int) -> None:
    """After parsing: every integer within ``[int_min, int_max]``, every string (and key) at most
    :data:`MAX_STRING_CHARS` characters and free of lone surrogates. Raises :class:`LimitError` naming where."""
    _walk(data, "", int_min, int_max, 0)


def _walk(value: Any, where: str, int_min: int, int_max: int, depth: int) -> None:
    if depth > MAX_DEPTH:  # pragma: no cover - the scan refuses deeper texts; values built in code may not be
        raise LimitError(NESTED, limit=MAX_DEPTH)
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        if not int_min <= value <= int_max:
            raise LimitError(N_("{where}: the integer is outside {lo} to {hi}"), where=where or "/", lo=int_min,
                             hi=int_max)
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise LimitError(N_("{where}: not a finite number"), where=where or "/")
    elif isinstance(value, str):
        check_string(value, where)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            check_string(str(key), where)  # a key's problem is named by where the key is: it may be unprintable
            _walk(item, f"{where}/{key}", int_min, int_max, depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, f"{where}/{i}", int_min, int_max, depth + 1)


def check_string(text: str, where: str) -> None:
    """``text`` is at most :data:`MAX_STRING_CHARS` characters and holds no lone surrogate."""
    if len(text) > MAX_STRING_CHARS:
        raise LimitError(N_plural("{where}: a text of more than {limit} character",
                                  "{where}: a text of more than {limit} characters", "limit"), where=where or "/",
                         limit=MAX_STRING_CHARS)
    bad = _SURROGATE.search(text)
    if bad is not None:
        raise LimitError(N_("{where}: a text holds a lone surrogate (\\u{code:04x}), which is no character"),
                         where=where or "/", code=ord(bad.group()))


def _no_constant(name: str) -> Any:
    raise LimitError(N_("{name} is not a JSON number"), name=name)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a key appears twice in it: Python's parser keeps the last value, another parser
    may keep the first, so one text would be read two ways."""
    made = dict(pairs)
    if len(made) < len(pairs):
        twice = next(key for key, count in Counter(key for key, _ in pairs).items() if count > 1)
        raise LimitError(N_("the key {key!r} appears twice in one object"), key=twice[:100])
    return made


_JSON = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_object)


def loads_json(text: str) -> Any:
    """Parse JSON within the limits: raises :class:`LimitError` (a limit) or ``json.JSONDecodeError`` (syntax).
    ``NaN`` and ``Infinity``, which Python's parser accepts but JSON has not, are refused, and so is an object with
    a key twice (``{"type": "act", "type": "sync"}``: the last wins in Python, another parser may keep the first)."""
    code = _scan(text)
    try:  # json.loads would make a decoder each time; it alone says what a byte order mark is
        data = _JSON.decode(text) if not text.startswith("\ufeff") else json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # pragma: no cover - the scan refuses nesting long before the parser's stack ends
        raise LimitError(NESTED, limit=MAX_DEPTH) from None
    if _may_pass_a_limit(text, code):
        check_values(data, 1 - JSON_INT_LIMIT, JSON_INT_LIMIT - 1)
    return data
