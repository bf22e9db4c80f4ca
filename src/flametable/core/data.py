"""Helpers to read and validate human-edited data files (TOML), naming file, entry and field on error."""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from flametable.core.errors import DataError
from flametable.core.i18n import LANGUAGES

T = TypeVar("T")


def load_toml(path: Path | str, *, text: str | None = None) -> dict[str, Any]:
    """Parse a TOML file (or ``text`` under that name); any problem becomes a :class:`DataError`."""
    source = str(path)
    try:
        if text is None:
            text = Path(path).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except FileNotFoundError:
        raise DataError(source, "file", "path", "no such file") from None
    except UnicodeDecodeError as exc:
        raise DataError(source, "file", "encoding", f"not UTF-8 text ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(source, "file", "syntax", f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise DataError(source, "file", "path", exc.strerror or str(exc)) from None


def load_data(path: Path | str | None, builtin: str, parse: Callable[[dict[str, Any], str], T]) -> T:
    """The data file ``path`` read with ``parse``, or the package's built-in file ``builtin`` when it is None."""
    if path is None:
        text = resources.files("flametable.data").joinpath(builtin).read_text(encoding="utf-8")
        return parse(load_toml(builtin, text=text), f"<built-in {builtin}>")
    return parse(load_toml(path), str(path))


def read_text_file(path: Path | str, error: Callable[[str], Exception]) -> str:
    """The UTF-8 text of ``path``; a missing or unreadable file raises ``error`` with a message naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot read: {exc}") from None


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
            self.fail("(entry)", f"must be a table, got {type(data).__name__}")
        self.data: Mapping[str, Any] = data

    def fail(self, field: str, problem: str) -> NoReturn:
        raise DataError(self.source, self.entry, field, problem)

    def has(self, field: str) -> bool:
        return field in self.data

    def check_keys(self, allowed: set[str]) -> None:
        for key in self.data:
            if key not in allowed:
                self.fail(key, f"unknown field (allowed: {', '.join(sorted(allowed))})")

    def integer(self, field: str, lo: int | None = None, hi: int | None = None, default: int | None = None) -> int:
        if field not in self.data:
            if default is not None:
                return default
            self.fail(field, "missing")
        value = self.data[field]
        if not isinstance(value, int) or isinstance(value, bool):
            raise DataError(self.source, self.entry, field, f"must be an integer, got {value!r}")
        if lo is not None and value < lo:
            self.fail(field, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            self.fail(field, f"must be at most {hi}, got {value}")
        return value

    def string(self, field: str, choices: tuple[str, ...] | None = None) -> str:
        if field not in self.data:
            self.fail(field, "missing")
        value = self.data[field]
        if not isinstance(value, str) or not value.strip():
            raise DataError(self.source, self.entry, field, f"must be a non-empty string, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(field, f"must be one of {', '.join(choices)}, got {value!r}")
        return value

    def text(self, field: str) -> dict[str, str]:
        """A bilingual text: a table with a non-empty string for every language."""
        if field not in self.data:
            self.fail(field, "missing")
        value = self.data[field]
        if not isinstance(value, Mapping):
            self.fail(field, f"must be a table with {', '.join(LANGUAGES)} texts, got {value!r}")
        out: dict[str, str] = {}
        for lang in LANGUAGES:
            item = value.get(lang)
            if not isinstance(item, str) or not item.strip():
                self.fail(f"{field}.{lang}", "missing or empty text")
            out[lang] = str(item)
        for lang in value:
            if lang not in LANGUAGES:
                self.fail(f"{field}.{lang}", f"unknown language (known: {', '.join(LANGUAGES)})")
        return out

    def items(self, field: str, default: list[Any] | None = None) -> list[Any]:
        if field not in self.data:
            if default is not None:
                return default
            self.fail(field, "missing")
        value = self.data[field]
        if not isinstance(value, list):
            raise DataError(self.source, self.entry, field, f"must be a list, got {value!r}")
        return list(value)

    def sub(self, field: str, index: int | None = None) -> Reader:
        value = self.data[field] if index is None else self.data[field][index]
        where = field if index is None else f"{field}[{index}]"
        return Reader(self.source, f"{self.entry}: {where}", value)
