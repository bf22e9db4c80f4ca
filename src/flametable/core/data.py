"""Helpers to read and validate human-edited data files (TOML), naming file, entry and field on error."""

from __future__ import annotations

import errno
import hashlib
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from flametable.core.errors import DataError, FileError, FlametableError
from flametable.core.i18n import LANGUAGES, N_, Phrase
from flametable.core.jsonerr import toml_position, toml_problem
from flametable.core.limits import (
    LONG_NUMBER,
    MAX_DATA_BYTES,
    MAX_DEPTH,
    MAX_NUMBER_CHARS,
    NESTED,
    TOML_INT_MAX,
    TOML_INT_MIN,
    LimitError,
    check_size,
    check_values,
    scan_text,
)

T = TypeVar("T")

FILE = Phrase(N_("file"))  # the entry of a problem with the whole file
PATH, ENCODING, SYNTAX = Phrase(N_("path")), Phrase(N_("encoding")), Phrase(N_("syntax"))
LIMITS = Phrase(N_("limits"))  # the field of a file that goes past a limit of flametable.core.limits
WHOLE_ENTRY, COUNT = Phrase(N_("(entry)")), Phrase(N_("(count)"))
# Why a file cannot be read, as a sentence naming it (the system's own words may be in any language).
_ERRNO = {errno.ENOENT: N_("there is no file {file}"),
          errno.EACCES: N_("the file {file} may not be read (permission denied)"),
          errno.EISDIR: N_("{file} is a folder, not a file"),
          errno.ENOTDIR: N_("there is no file {file}: a part of its path is no folder")}


def os_problem(exc: OSError) -> str:
    """Why a file cannot be read: a sentence (an ``N_``-marked template) naming the file as ``{file}``."""
    known = _ERRNO.get(exc.errno) if exc.errno is not None else None
    return known if known is not None else N_("the file {file} cannot be read")


def type_phrase(value: object) -> Phrase:
    """What a value read from a data file is, in words (``got a list``)."""
    if isinstance(value, bool):
        return Phrase(N_("true or false"))
    if isinstance(value, int):
        return Phrase(N_("an integer"))
    if isinstance(value, float):
        return Phrase(N_("a decimal number"))
    if isinstance(value, str):
        return Phrase(N_("a string"))
    if isinstance(value, list):
        return Phrase(N_("a list"))
    if isinstance(value, Mapping):
        return Phrase(N_("a table"))
    return Phrase(N_("a date or time"))


def load_toml(path: Path | str, *, text: str | None = None) -> dict[str, Any]:
    """Parse a TOML file (or ``text`` under that name) within the limits of :mod:`flametable.core.limits`; any
    problem becomes a :class:`DataError`."""
    source = str(path)
    try:
        if text is None:
            text = _read(path, MAX_DATA_BYTES)
        scan_text(text)
        try:
            data = tomllib.loads(text)
        except RecursionError:  # pragma: no cover - the scan refuses such nesting first
            raise LimitError(NESTED, limit=MAX_DEPTH) from None
        except tomllib.TOMLDecodeError as exc:
            line, column = toml_position(exc, text)
            raise FileError(source, FILE, SYNTAX, N_("{file} is not valid TOML at line {line}, column {column}: "
                                                     "{problem}"),
                            file=source, line=line, column=column, problem=toml_problem(exc)) from None
        except ValueError:  # pragma: no cover - Python's 4,300-digit limit; the scan refuses such numbers first
            raise LimitError(LONG_NUMBER, limit=MAX_NUMBER_CHARS) from None
        check_values(data, TOML_INT_MIN, TOML_INT_MAX)
        return data
    except _Unreadable as exc:
        if exc.field is LIMITS:
            raise DataError(source, FILE, LIMITS, "{problem}", problem=exc.params["problem"]) from None
        raise FileError(source, FILE, exc.field, exc.template, **exc.params) from None
    except LimitError as exc:
        raise DataError(source, FILE, LIMITS, "{problem}", problem=exc) from None


def load_data(path: Path | str | None, builtin: str, parse: Callable[[dict[str, Any], str], T], package: str) -> T:
    """The data file ``path`` read with ``parse``, or the built-in file ``builtin`` of the game's ``package`` (its
    ``data/`` folder) when it is None."""
    if path is None:
        text = resources.files(package).joinpath("data", builtin).read_text(encoding="utf-8")
        return parse(load_toml(builtin, text=text), f"<built-in {builtin}>")
    return parse(load_toml(path), str(path))


class _Unreadable(FlametableError):
    """Why :func:`read_text_file` could not read a file, before it is wrapped in the caller's error."""

    def __init__(self, field: Phrase, template: str, /, **params: Any) -> None:
        self.field = field
        super().__init__(template, **params)


def _read(path: Path | str, limit: int) -> str:
    """The UTF-8 text of ``path``, at most ``limit`` bytes (never read further); else :class:`_Unreadable`, a
    sentence naming the file (``file``)."""
    try:
        with Path(path).open("rb") as stream:
            raw = stream.read(limit + 1)
    except OSError as exc:
        raise _Unreadable(PATH, os_problem(exc), file=str(path)) from None
    try:
        check_size(len(raw), limit)
    except LimitError as exc:
        raise _Unreadable(LIMITS, N_("{file}: {problem}"), file=str(path), problem=exc) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unreadable(ENCODING, N_("{file} is not UTF-8 text (byte {position})"), file=str(path),
                          position=exc.start + 1) from None


def read_text_file(path: Path | str, error: type[FlametableError], limit: int) -> str:
    """The UTF-8 text of ``path``, at most ``limit`` bytes; a missing, unreadable or larger file raises
    ``error`` with a message naming it (``there is no file X``)."""
    try:
        return _read(path, limit)
    except _Unreadable as exc:
        raise error(exc.template, **exc.params) from None


def content_hash(data: Any) -> str:
    """A stable hash of parsed content (independent of comments and formatting)."""
    import json

    blob = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


class Reader:
    """Typed access to one entry of a data file; every failure names file, entry and field."""

    def __init__(self, source: str, entry: str, data: Any) -> None:
        self.source = source
        self.entry = entry
        if not isinstance(data, Mapping):
            self.fail(WHOLE_ENTRY, N_("must be a table, got {kind}"), kind=type_phrase(data))
        self.data: Mapping[str, Any] = data

    def fail(self, field: str, problem: str, **params: Any) -> NoReturn:
        """Raise a :class:`DataError` on ``field``: ``problem`` is an N_-marked template filled by ``params``."""
        raise DataError(self.source, self.entry, field, problem, **params)

    def has(self, field: str) -> bool:
        return field in self.data

    def check_keys(self, allowed: set[str]) -> None:
        for key in self.data:
            if key not in allowed:
                self.fail(key, N_("unknown field (allowed: {allowed})"), allowed=", ".join(sorted(allowed)))

    def integer(self, field: str, lo: int | None = None, hi: int | None = None, default: int | None = None) -> int:
        if field not in self.data:
            if default is not None:
                return default
            self.fail(field, N_("missing"))
        value = self.data[field]
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(field, N_("must be an integer, got {value!r}"), value=value)
        if lo is not None and value < lo:
            self.fail(field, N_("must be at least {lo}, got {value}"), lo=lo, value=value)
        if hi is not None and value > hi:
            self.fail(field, N_("must be at most {hi}, got {value}"), hi=hi, value=value)
        return value

    def string(self, field: str, choices: tuple[str, ...] | None = None) -> str:
        if field not in self.data:
            self.fail(field, N_("missing"))
        value = self.data[field]
        if not isinstance(value, str) or not value.strip():
            self.fail(field, N_("must be a non-empty string, got {value!r}"), value=value)
        if choices is not None and value not in choices:
            self.fail(field, N_("must be one of {choices}, got {value!r}"), choices=", ".join(choices),
                      value=value)
        return value

    def text(self, field: str) -> dict[str, str]:
        """A bilingual text: a table with a non-empty string for every language."""
        if field not in self.data:
            self.fail(field, N_("missing"))
        value = self.data[field]
        if not isinstance(value, Mapping):
            self.fail(field, N_("must be a table with {languages} texts, got {value!r}"),
                      languages=", ".join(LANGUAGES), value=value)
        out: dict[str, str] = {}
        for lang in LANGUAGES:
            item = value.get(lang)
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{field}.{lang}", N_("missing or empty text"))
            out[lang] = str(item)
        for lang in value:
            if lang not in LANGUAGES:
                self.fail(f"{field}.{lang}", N_("unknown language (known: {languages})"),
                          languages=", ".join(LANGUAGES))
        return out

    def items(self, field: str, default: list[Any] | None = None) -> list[Any]:
        if field not in self.data:
            if default is not None:
                return default
            self.fail(field, N_("missing"))
        value = self.data[field]
        if not isinstance(value, list):
            self.fail(field, N_("must be a list, got {value!r}"), value=value)
        return list(value)

    def sub(self, field: str, index: int | None = None) -> Reader:
        """The table ``field`` (or its ``index``-th item) as a reader of its own; a missing one is a DataError."""
        if field not in self.data:
            self.fail(field, N_("missing section"))
        value = self.data[field] if index is None else self.data[field][index]
        where = field if index is None else f"{field}[{index}]"
        return Reader(self.source, where if isinstance(self.entry, Phrase) else f"{self.entry}: {where}", value)
