"""Declared schemas: the shape of every file flametable reads, as data, checked by one function.

A schema is a tree of small frozen declarations (:class:`Int`, :class:`Num`, :class:`Str`, :class:`Bool`,
:class:`Const`, :class:`Text`, :class:`List`, :class:`Obj`, :class:`Map`, :class:`Nullable`, :class:`Anything`).
:func:`validate` checks a parsed value against one and raises the project's own error (a :class:`DataError` by
default) naming the file, the entry and the field, with an ``N_``-marked template the reader sees in their
language; :func:`json_schema` turns the same declaration into a JSON Schema (draft 2020-12) document, so the
documents in ``docs/schemas/`` never drift from what the readers accept (``python -m flametable.core.schema``
regenerates them; a test compares). Why no validation library: ``docs/formats.md``.

Entries and fields are named as the readers always named them: the top-level tables of a file and the items of
its top-level lists are entries (``set``, ``character 4`` when the list is labelled by ``number``,
``character[0]`` otherwise); a table inside an entry is an entry of its own (``character 4: effects[0]``);
anything else is a field of the entry (``spark``, ``name.es``, ``equips_to[2]``).

Rules between fields (an effect that takes ``n``, numbers used once, a pattern that fits the board) are not
shape: the readers check them after :func:`validate`, and ``docs/formats.md`` lists them beside each format.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from flametable.core.data import WHOLE_ENTRY, type_phrase
from flametable.core.errors import DataError, FlametableError
from flametable.core.i18n import LANGUAGES, N_, N_plural, Phrase

RECORD = Phrase(N_("record"))  # the entry of a problem at the top of a match record

ErrorFactory = Callable[..., FlametableError]
"""``(source, entry, field, problem, **params) -> error``: :class:`DataError` or :func:`located` of a class."""

_SHOWN = 60  # a value quoted in a message is cut to this many characters
EXACTLY = N_plural("must hold exactly {n} item, got {count}", "must hold exactly {n} items, got {count}", "n")
AT_LEAST = N_plural("must hold at least {n} item, got {count}", "must hold at least {n} items, got {count}", "n")
AT_MOST = N_plural("must hold at most {n} item, got {count}", "must hold at most {n} items, got {count}", "n")
LONG_TEXT = N_plural("at most {n} character, got {count}", "at most {n} characters, got {count}", "n")


# ------------------------------------------------------------------ declarations


@dataclass(frozen=True)
class Int:
    """An integer (never true/false) from ``lo`` to ``hi``."""

    lo: int | None = None
    hi: int | None = None
    description: str = ""


@dataclass(frozen=True)
class Num:
    """A finite number (an integer or a decimal, never true/false) from ``lo`` to ``hi``."""

    lo: float | None = None
    hi: float | None = None
    description: str = ""


@dataclass(frozen=True)
class Str:
    """A string: one of ``choices``, or matching ``pattern`` (``pattern_problem`` says what it must look like,
    a template filled with ``value``); ``blank`` allows an empty or all-space string; at most ``max_len``."""

    choices: tuple[str, ...] | None = None
    pattern: str | None = None
    pattern_problem: str = N_("must match {pattern}, got {value!r}")
    blank: bool = False
    max_len: int | None = 1000
    description: str = ""


@dataclass(frozen=True)
class Bool:
    description: str = ""


@dataclass(frozen=True)
class Const:
    """Exactly this value (a format's name)."""

    value: str | int
    description: str = ""


@dataclass(frozen=True)
class Text:
    """A bilingual text: a table with a non-empty string for every language of the project."""

    description: str = ""


@dataclass(frozen=True)
class Anything:
    """Any value of the given JSON type (``object``, ``array``) or any at all (None); its own reader checks it."""

    kind: str | None = None
    description: str = ""


@dataclass(frozen=True)
class Nullable:
    of: Schema
    description: str = ""


@dataclass(frozen=True)
class List:
    """A list of ``of``, from ``min`` to ``max`` items (``size_problem``: what a wrong size means, filled with
    ``count``, ``min`` and ``max``), each different when ``unique`` (``unique_problem``: what a repeated item
    means, filled with ``value``; the field named is the list's). Items that are tables are entries named
    ``<field> <label>`` by their ``label`` field when it is valid (``character 4``), else ``<field>[i]``."""

    of: Schema
    min: int = 0
    max: int | None = None
    unique: bool = False
    label: str | None = None
    size_problem: str | None = None
    unique_problem: str = N_("{value!r} is there twice")
    description: str = ""


@dataclass(frozen=True)
class Tuple:
    """A list of exactly ``len(items)`` values, each with its own schema (``[seat, kind, card, round]``)."""

    items: tuple[Schema, ...]
    description: str = ""


@dataclass(frozen=True)
class Obj:
    """A table (JSON object) with ``required`` and ``optional`` fields and no others. ``cases`` picks the schema
    of a field by the value of another: ``(by, field, {value: schema})`` (a result line's summary by its game)."""

    required: Mapping[str, Schema] = field(default_factory=dict)
    optional: Mapping[str, Schema] = field(default_factory=dict)
    cases: tuple[str, str, Mapping[str, Schema]] | None = None
    title: str = ""
    description: str = ""


@dataclass(frozen=True)
class Map:
    """A table whose names match ``keys`` and whose values are ``values`` (counts by token type)."""

    keys: Str
    values: Schema
    description: str = ""


Schema = Int | Num | Str | Bool | Const | Text | Anything | Nullable | List | Tuple | Obj | Map


# ------------------------------------------------------------------ validation


def located(kind: type[FlametableError]) -> ErrorFactory:
    """An error factory for :func:`validate` raising ``kind`` as ``source: entry: field: problem`` (for errors
    that are no :class:`DataError`, like a record's or a results file's)."""

    def make(source: str, entry: Any, fieldname: Any, problem: str, /, **params: Any) -> FlametableError:
        return kind(N_("{source}: {entry}: {field}: {problem}"), source=source, entry=entry, field=fieldname,
                    problem=FlametableError(problem, **params))

    return make


def label(template: str, /, **params: Any) -> FlametableError:
    """An entry name with parameters, translated like a message (``line 3`` of a results file)."""
    return FlametableError(template, **params)


def shown(value: Any) -> Any:
    """A value as a message quotes it: as it is, or its ``repr`` cut short when it is long."""
    text = repr(value)
    if len(text) <= _SHOWN:
        return value
    return _Cut(text[: _SHOWN - 1] + "…")


class _Cut(str):
    """A long value's repr cut short: ``{value!r}`` shows it as it is (no second quoting)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


def kind_phrase(value: object, json: bool) -> Phrase:
    """What a value read from a file is, in words (``got a list``): TOML's words or JSON's."""
    if value is None:
        return Phrase(N_("null"))
    if json and isinstance(value, Mapping):
        return Phrase(N_("an object"))
    return type_phrase(value)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Check:
    """One run of :func:`validate`: the file, the error factory and the words (TOML or JSON)."""

    def __init__(self, source: str, error: ErrorFactory, json: bool) -> None:
        self.source = source
        self.error = error
        self.json = json

    def fail(self, entry: Any, where: Any, problem: str, **params: Any) -> NoReturn:
        raise self.error(self.source, entry, where, problem, **params)

    def value(self, value: Any, schema: Schema, entry: Any, where: Any) -> None:
        """Check ``value`` found at field ``where`` of ``entry`` (``WHOLE_ENTRY``: the entry itself)."""
        if isinstance(schema, Obj):
            self.obj(value, schema, *self.enter(entry, where))
        elif isinstance(schema, Nullable):
            if value is not None:
                self.value(value, schema.of, entry, where)
        elif isinstance(schema, List):
            self.list(value, schema, entry, where)
        elif isinstance(schema, Map):
            self.map(value, schema, entry, where)
        elif isinstance(schema, Tuple):
            self.is_list(value, entry, where)
            if len(value) != len(schema.items):
                self.fail(entry, where, EXACTLY, n=len(schema.items), count=len(value))
            name = where if where is not WHOLE_ENTRY else ""
            for i, (item, sub) in enumerate(zip(value, schema.items, strict=True)):
                self.value(item, sub, entry, f"{name}[{i}]")
        elif isinstance(schema, Text):
            self.text(value, entry, where)
        else:
            self.scalar(value, schema, entry, where)

    def table(self, value: Any, entry: Any, where: Any) -> None:
        """A table (TOML) or an object (JSON), else fail naming what it is."""
        if not isinstance(value, Mapping):
            self.fail(entry, where, N_("must be an object, got {kind}") if self.json else
                      N_("must be a table, got {kind}"), kind=kind_phrase(value, self.json))

    def is_list(self, value: Any, entry: Any, where: Any) -> None:
        if not isinstance(value, list):
            self.fail(entry, where, N_("must be a list, got {value!r}"), value=shown(value))

    @staticmethod
    def enter(entry: Any, where: Any) -> tuple[Any, Any]:
        """The entry a table found at ``where`` is: itself at the top, a named part of a named entry."""
        if where is WHOLE_ENTRY:
            return entry, WHOLE_ENTRY
        if isinstance(entry, Phrase):  # the whole file (or record): its tables are entries
            return where, WHOLE_ENTRY
        if isinstance(entry, str):
            return f"{entry}: {where}", WHOLE_ENTRY
        return entry, where  # an entry with a translated label (a results line): the path stays a field

    @staticmethod
    def inside(entry: Any, where: Any, key: str) -> str:
        if where is WHOLE_ENTRY:
            return key
        return f"{where}.{key}"

    def obj(self, value: Any, schema: Obj, entry: Any, where: Any) -> None:
        self.table(value, entry, where)
        known = {**schema.required, **schema.optional}
        for key in value:
            if key not in known:
                allowed = ", ".join(sorted(known))
                self.fail(entry, self.inside(entry, where, str(key)), N_("unknown field (allowed: {allowed})"),
                          allowed=shown(allowed) if len(allowed) > 200 else allowed)
        for key, sub in known.items():
            if key in value:
                self.value(value[key], sub, entry, self.inside(entry, where, key))
            elif key in schema.required:
                section = isinstance(sub, Obj) and not self.json
                self.fail(entry, self.inside(entry, where, key), N_("missing section") if section else N_("missing"))
        if schema.cases is not None:
            by, target, cases = schema.cases
            key = value.get(by)
            chosen = cases.get(key) if isinstance(key, str) else None
            if chosen is not None and target in value:
                self.value(value[target], chosen, entry, self.inside(entry, where, target))

    def list(self, value: Any, schema: List, entry: Any, where: Any) -> None:
        self.is_list(value, entry, where)
        n = len(value)
        if n < schema.min or (schema.max is not None and n > schema.max):
            if schema.size_problem is not None:
                self.fail(entry, where, schema.size_problem, count=n, min=schema.min, max=schema.max)
            if schema.max == schema.min:
                self.fail(entry, where, EXACTLY, n=schema.min, count=n)
            if n < schema.min:
                self.fail(entry, where, AT_LEAST, n=schema.min, count=n)
            self.fail(entry, where, AT_MOST, n=schema.max, count=n)
        name = where if where is not WHOLE_ENTRY else ""
        for i, item in enumerate(value):
            at = f"{name}[{i}]"
            if isinstance(schema.of, Obj) and schema.label is not None and isinstance(item, Mapping):
                key = item.get(schema.label)
                sub = schema.of.required.get(schema.label) or schema.of.optional.get(schema.label)
                if sub is not None and key is not None and self.valid(key, sub):
                    at = f"{name} {key}"
            self.value(item, schema.of, entry, at)
        if schema.unique:
            seen: list[Any] = []
            for item in value:
                if item in seen:
                    self.fail(entry, where, schema.unique_problem, value=shown(item))
                seen.append(item)

    def valid(self, value: Any, schema: Schema) -> bool:
        try:
            self.value(value, schema, "", "")
        except FlametableError:
            return False
        return True

    def map(self, value: Any, schema: Map, entry: Any, where: Any) -> None:
        self.table(value, entry, where)
        for key, item in value.items():
            self.scalar(key, schema.keys, entry, self.inside(entry, where, str(key)))
            self.value(item, schema.values, entry, self.inside(entry, where, str(key)))

    def text(self, value: Any, entry: Any, where: Any) -> None:
        if not isinstance(value, Mapping):
            self.fail(entry, where, N_("must be a table with {languages} texts, got {value!r}"),
                      languages=", ".join(LANGUAGES), value=shown(value))
        for lang in LANGUAGES:
            item = value.get(lang)
            if not isinstance(item, str) or not item.strip():
                self.fail(entry, f"{where}.{lang}", N_("missing or empty text"))
            if len(item) > 10_000:
                self.fail(entry, f"{where}.{lang}", LONG_TEXT, n=10_000, count=len(item))
        for lang in value:
            if lang not in LANGUAGES:
                self.fail(entry, f"{where}.{lang}", N_("unknown language (known: {languages})"),
                          languages=", ".join(LANGUAGES))

    def scalar(self, value: Any, schema: Schema, entry: Any, where: Any) -> None:
        if isinstance(schema, Int):
            if not is_int(value):
                self.fail(entry, where, N_("must be an integer, got {value!r}"), value=shown(value))
            self.bounds(value, schema.lo, schema.hi, entry, where)
        elif isinstance(schema, Num):
            if not (is_int(value) or isinstance(value, float)) or not math.isfinite(value):
                self.fail(entry, where, N_("must be a number, got {value!r}"), value=shown(value))
            self.bounds(value, schema.lo, schema.hi, entry, where)
        elif isinstance(schema, Bool):
            if not isinstance(value, bool):
                self.fail(entry, where, N_("must be true or false, got {value!r}"), value=shown(value))
        elif isinstance(schema, Const):
            if type(value) is not type(schema.value) or value != schema.value:
                self.fail(entry, where, N_("must be {expected!r}, got {value!r}"), expected=schema.value,
                          value=shown(value))
        elif isinstance(schema, Str):
            self.string(value, schema, entry, where)
        elif isinstance(schema, Anything):
            if schema.kind == "object" and not isinstance(value, Mapping):
                self.fail(entry, where, N_("must be an object, got {kind}") if self.json else
                          N_("must be a table, got {kind}"), kind=kind_phrase(value, self.json))
            if schema.kind == "array" and not isinstance(value, list):
                self.fail(entry, where, N_("must be a list, got {value!r}"), value=shown(value))
        else:  # pragma: no cover - a container reached as a scalar (a map's keys are strings)
            self.value(value, schema, entry, where)

    def string(self, value: Any, schema: Str, entry: Any, where: Any) -> None:
        if not isinstance(value, str) or (not schema.blank and not value.strip()):
            problem = N_("must be a string, got {value!r}") if schema.blank else \
                N_("must be a non-empty string, got {value!r}")
            self.fail(entry, where, problem, value=shown(value))
        if schema.max_len is not None and len(value) > schema.max_len:
            self.fail(entry, where, LONG_TEXT, n=schema.max_len, count=len(value))
        if schema.choices is not None and value not in schema.choices:
            self.fail(entry, where, N_("must be one of {choices}, got {value!r}"), choices=", ".join(schema.choices),
                      value=shown(value))
        if schema.pattern is not None and not re.fullmatch(schema.pattern, value):
            self.fail(entry, where, schema.pattern_problem, pattern=schema.pattern, value=shown(value))

    def bounds(self, value: float, lo: float | None, hi: float | None, entry: Any, where: Any) -> None:
        if lo is not None and value < lo:
            self.fail(entry, where, N_("must be at least {lo}, got {value}"), lo=lo, value=shown(value))
        if hi is not None and value > hi:
            self.fail(entry, where, N_("must be at most {hi}, got {value}"), hi=hi, value=shown(value))


def validate(value: Any, schema: Schema, source: str, entry: Any, *, error: ErrorFactory = DataError,
             json: bool = False) -> None:
    """Check ``value`` (parsed from ``source``) against ``schema``; the first problem raises ``error`` naming the
    file, the entry (``entry``: a name, a :class:`Phrase` for a whole file, or a :func:`label`) and the field.
    ``json``: name kinds in JSON's words (an object, null) rather than TOML's (a table)."""
    _Check(source, error, json).value(value, schema, entry, WHOLE_ENTRY)


Conforms = Callable[[Any], bool]


def conforms(schema: Schema) -> Conforms:
    """A quick yes-or-no of :func:`validate` on ``schema``, made once for many values (each line of a results
    file): True only for values :func:`validate` accepts, and for the values the readers parse (JSON, TOML) True
    exactly when :func:`validate` accepts them. It names no problem: on False, call :func:`validate`, which says
    what and where. It is :func:`validate`'s walk written out as one Python function for ``schema`` (no calls
    per value, no paths of fields built for messages that are not needed): ten times faster or more. It is
    stricter only in asking for the exact types a parser makes (``dict``, ``list``, ``int``, ``float``, ``str``,
    ``bool``), not their subclasses."""
    code = _Code()
    code.check(schema, "v", 1)
    text = "def conforms(v):\n" + "\n".join(code.lines) + "\n    return True\n"
    scope: dict[str, Any] = dict(code.constants)
    exec(compile(text, f"<conforms {getattr(schema, 'title', '') or type(schema).__name__}>", "exec"), scope)
    check: Conforms = scope["conforms"]
    return check


def _unique(value: list[Any]) -> bool:
    return all(item not in value[:i] for i, item in enumerate(value))


def _text(value: Any) -> bool:
    return (type(value) is dict and all(lang in LANGUAGES for lang in value)
            and all(type(value.get(lang)) is str and value[lang].strip() and len(value[lang]) <= 10_000
                    for lang in LANGUAGES))


class _Code:
    """The lines of a :func:`conforms` function: each check returns False when the value is not right."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {"_unique": _unique, "_text": _text,
                                          "_MISSING": object()}
        self.names = 0

    def name(self, prefix: str = "x") -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def constant(self, value: Any) -> str:
        name = self.name("_k")
        self.constants[name] = value
        return name

    def refuse_if(self, condition: str, depth: int) -> None:
        self.lines.append("    " * depth + f"if {condition}: return False")

    def line(self, text: str, depth: int) -> None:
        self.lines.append("    " * depth + text)

    def literal(self, value: Any) -> str:
        """A number as the code writes it (faster than a name), else a constant's name."""
        if type(value) is int or (type(value) is float and math.isfinite(value)):
            return repr(value)
        return self.constant(value)

    def bounds(self, x: str, lo: float | None, hi: float | None) -> str:
        return " or ".join([f"{x} < {self.literal(lo)}"] * (lo is not None) + [f"{x} > {self.literal(hi)}"] *
                           (hi is not None)) or "False"

    def block(self, head: str, schema: Schema, x: str, depth: int) -> None:
        """``head`` (an ``if`` or a ``for``) with the checks of ``x`` inside (``pass`` when there are none)."""
        self.line(head, depth)
        before = len(self.lines)
        self.check(schema, x, depth + 1)
        if len(self.lines) == before:
            self.line("pass", depth + 1)

    def check(self, schema: Schema, x: str, depth: int) -> None:
        if isinstance(schema, Int):
            self.refuse_if(f"type({x}) is not int or {self.bounds(x, schema.lo, schema.hi)}", depth)
        elif isinstance(schema, Num):
            self.refuse_if(f"not (type({x}) is int or (type({x}) is float and {x} - {x} == 0.0)) or "  # not inf, nan
                           f"{self.bounds(x, schema.lo, schema.hi)}", depth)
        elif isinstance(schema, Str):
            self.refuse_if(f"type({x}) is not str", depth)
            choices = schema.choices
            if choices is None or not all((schema.blank or c.strip()) and (schema.max_len is None or
                                                                            len(c) <= schema.max_len) for c in choices):
                if schema.max_len is not None:
                    self.refuse_if(f"len({x}) > {schema.max_len}", depth)
                if not schema.blank:
                    self.refuse_if(f"not {x}.strip()", depth)
            if choices is not None:  # when every choice is long enough and not blank, being one of them is enough
                self.refuse_if(f"{x} not in {self.constant(frozenset(choices))}", depth)
            if schema.pattern is not None:
                self.refuse_if(f"{self.constant(re.compile(schema.pattern))}.fullmatch({x}) is None", depth)
        elif isinstance(schema, Bool):
            self.refuse_if(f"type({x}) is not bool", depth)
        elif isinstance(schema, Const):
            self.refuse_if(f"type({x}) is not {self.constant(type(schema.value))} or "
                           f"{x} != {self.constant(schema.value)}", depth)
        elif isinstance(schema, Anything):
            if schema.kind in ("object", "array"):
                self.refuse_if(f"type({x}) is not {'dict' if schema.kind == 'object' else 'list'}", depth)
        elif isinstance(schema, Text):
            self.refuse_if(f"not _text({x})", depth)
        elif isinstance(schema, Nullable):
            self.block(f"if {x} is not None:", schema.of, x, depth)
        elif isinstance(schema, List):
            self.refuse_if(f"type({x}) is not list", depth)
            if schema.min == schema.max:
                self.refuse_if(f"len({x}) != {schema.min}", depth)
            else:
                if schema.min:
                    self.refuse_if(f"len({x}) < {schema.min}", depth)
                if schema.max is not None:
                    self.refuse_if(f"len({x}) > {schema.max}", depth)
            item = self.name()
            self.block(f"for {item} in {x}:", schema.of, item, depth)
            if schema.unique:
                self.refuse_if(f"not _unique({x})", depth)
        elif isinstance(schema, Tuple):
            self.refuse_if(f"type({x}) is not list or len({x}) != {len(schema.items)}", depth)
            items = [self.name() for _ in schema.items]
            self.line(f"{', '.join(items)}, = {x}", depth)
            for sub, item in zip(schema.items, items, strict=True):
                self.check(sub, item, depth)
        elif isinstance(schema, Map):
            key, item = self.name(), self.name()
            self.refuse_if(f"type({x}) is not dict", depth)
            self.line(f"for {key}, {item} in {x}.items():", depth)
            self.check(schema.keys, key, depth + 1)
            self.check(schema.values, item, depth + 1)
        else:
            self.obj(schema, x, depth)

    def obj(self, schema: Obj, x: str, depth: int) -> None:
        known = {**schema.required, **schema.optional}
        self.refuse_if(f"type({x}) is not dict", depth)
        self.refuse_if(f"not {x}.keys() <= {self.constant(frozenset(known))}", depth)
        if schema.required:
            self.refuse_if(f"not {x}.keys() >= {self.constant(frozenset(schema.required))}", depth)
        for key, sub in known.items():
            item = self.name()
            if key in schema.required:
                self.line(f"{item} = {x}[{key!r}]", depth)
                self.check(sub, item, depth)
            else:
                self.line(f"{item} = {x}.get({key!r}, _MISSING)", depth)
                self.block(f"if {item} is not _MISSING:", sub, item, depth)
        if schema.cases is not None:
            by, target, cases = schema.cases
            chosen, item = self.name(), self.name()
            self.line(f"{chosen} = {x}.get({by!r})", depth)
            self.line(f"if type({chosen}) is str and {target!r} in {x}:", depth)
            self.line(f"{item} = {x}[{target!r}]", depth + 1)
            for i, (value, case) in enumerate(cases.items()):
                self.block(f"{'if' if i == 0 else 'elif'} {chosen} == {value!r}:", case, item, depth + 1)


# ------------------------------------------------------------------ JSON Schema

DRAFT = "https://json-schema.org/draft/2020-12/schema"


def json_schema(schema: Schema, *, title: str = "", description: str = "", id: str = "") -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) document of ``schema``."""
    doc: dict[str, Any] = {"$schema": DRAFT}
    if id:
        doc["$id"] = id
    if title:
        doc["title"] = title
    if description:
        doc["description"] = description
    doc.update(_json(schema))
    return doc


def _described(out: dict[str, Any], description: str) -> dict[str, Any]:
    if description:
        out["description"] = description
    return out


def _json(schema: Schema) -> dict[str, Any]:
    out: dict[str, Any]
    if isinstance(schema, Int | Num):
        out = {"type": "integer" if isinstance(schema, Int) else "number"}
        if schema.lo is not None:
            out["minimum"] = schema.lo
        if schema.hi is not None:
            out["maximum"] = schema.hi
    elif isinstance(schema, Str):
        out = {"type": "string"}
        if schema.choices is not None:
            out["enum"] = list(schema.choices)
        if schema.pattern is not None:
            out["pattern"] = f"^(?:{schema.pattern})$"
        elif not schema.blank and schema.choices is None:
            out["pattern"] = r"\S"
        if schema.max_len is not None:
            out["maxLength"] = schema.max_len
    elif isinstance(schema, Bool):
        out = {"type": "boolean"}
    elif isinstance(schema, Const):
        out = {"const": schema.value}
    elif isinstance(schema, Text):
        out = {"type": "object", "additionalProperties": False, "required": list(LANGUAGES),
               "properties": {lang: {"type": "string", "pattern": r"\S", "maxLength": 10_000} for lang in LANGUAGES}}
    elif isinstance(schema, Anything):
        out = {"type": schema.kind} if schema.kind is not None else {}
    elif isinstance(schema, Nullable):
        out = {"anyOf": [_json(schema.of), {"type": "null"}]}
    elif isinstance(schema, List):
        out = {"type": "array", "items": _json(schema.of)}
        if schema.min:
            out["minItems"] = schema.min
        if schema.max is not None:
            out["maxItems"] = schema.max
        if schema.unique:
            out["uniqueItems"] = True
    elif isinstance(schema, Tuple):
        n = len(schema.items)
        out = {"type": "array", "prefixItems": [_json(x) for x in schema.items], "items": False, "minItems": n,
               "maxItems": n}
    elif isinstance(schema, Map):
        out = {"type": "object", "propertyNames": _json(schema.keys), "additionalProperties": _json(schema.values)}
    else:
        out = {"type": "object", "additionalProperties": False}
        if schema.title:
            out["title"] = schema.title
        if schema.required:
            out["required"] = list(schema.required)
        out["properties"] = {k: _json(v) for k, v in {**schema.required, **schema.optional}.items()}
        if schema.cases is not None:
            by, target, cases = schema.cases
            out["allOf"] = [{"if": {"required": [by], "properties": {by: {"const": value}}},
                             "then": {"properties": {target: _json(case)}}} for value, case in cases.items()]
    return _described(out, schema.description)
