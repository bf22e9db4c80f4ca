"""Frozen values whose JSON form is declared once, beside each field: a view's fields, its JSON, its JSON Schema.

A class deriving from :class:`JsonForm` is a plain frozen dataclass (built as fast as any: nothing runs when a value
is made) whose fields say their JSON in their annotation, ``Annotated[type, Wire(schema, encode, decode)]``:

* ``schema`` is the field's :mod:`flametable.core.schema` declaration (the JSON Schema document follows from it);
  left out for a field that holds another :class:`JsonForm` value (or a tuple of them): that class's schema;
* ``encode(value, context)`` gives the JSON of the field's value and ``decode(json, context)`` takes it back,
  raising ``TypeError``/``ValueError``/``KeyError`` when the JSON is not what it must be; left out, they follow from
  the type and the schema: a nested :class:`JsonForm` value (or a tuple of them) by its own form, a tuple as a
  list, any other value as it is; a decoded value is checked against the scalar part of the schema (an integer in
  its bounds, true or false, one of a string's choices, null where it may be).

A field without a :class:`Wire` is not on the wire (``decode`` gets it from its ``extra`` arguments). The
class's :class:`Form` (``cls.FORM``: made once, when the class is defined, with ``to_json`` and ``from_json``
generated as straight-line code) also holds ``constants`` put first in the JSON (a format's name, checked by
``from_json``). ``context`` is what the codecs need to name things (a board's spaces): ``json_context()`` of the
value when encoding, an argument when decoding.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Self, TypeVar, cast, get_args, get_origin, get_type_hints

from flametable.core.outcome import Outcome
from flametable.core.schema import Bool, Const, Int, List, Nullable, Obj, Schema, Str, Tuple

Codec = Callable[[Any, Any], Any]
"""``(value, context) -> value``: one way of a field's JSON form."""


@dataclasses.dataclass(frozen=True, slots=True)
class Wire:
    """How one field goes on the wire (see the module's docstring)."""

    schema: Schema | None = None
    encode: Codec | None = None
    decode: Codec | None = None


def by_name(kind: type[enum.Enum]) -> tuple[Codec, Codec]:
    """The codecs of an enum sent by its member's name in lower case (``Phase.PLAY`` is ``"play"``)."""
    members = {member.name.lower(): member for member in kind}

    def encode(value: Any, _context: Any) -> str:
        return str(value.name.lower())

    def decode(value: Any, _context: Any) -> Any:
        if not isinstance(value, str) or value not in members:
            raise ValueError(f"unknown {kind.__name__.lower()} {value!r} (known: {', '.join(members)})")
        return members[value]

    return encode, decode


def names_of(kind: type[enum.Enum]) -> tuple[str, ...]:
    """The names :func:`by_name` sends, in the enum's order (a ``Str(choices=...)``)."""
    return tuple(member.name.lower() for member in kind)


# ------------------------------------------------------------------ checks of decoded scalars


def _check(schema: Schema) -> Callable[[Any], Any] | None:
    """A check of a decoded value against the scalar part of ``schema`` (None: nothing to check)."""
    if isinstance(schema, Nullable):
        inner = _check(schema.of)
        if inner is None:
            return None
        return lambda value: None if value is None else inner(value)
    if isinstance(schema, Int):
        lo, hi = schema.lo, schema.hi

        def integer(value: Any) -> Any:
            if not isinstance(value, int) or isinstance(value, bool):
                raise TypeError(f"expected an integer, got {value!r}")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"expected an integer from {lo} to {hi}, got {value!r}")
            return value

        return integer
    if isinstance(schema, Bool):
        def boolean(value: Any) -> Any:
            if not isinstance(value, bool):
                raise TypeError(f"expected true or false, got {value!r}")
            return value

        return boolean
    if isinstance(schema, Str) and schema.choices is not None:
        choices = frozenset(schema.choices)

        def choice(value: Any) -> Any:
            if value not in choices:
                raise ValueError(f"expected one of {', '.join(schema.choices or ())}, got {value!r}")
            return value

        return choice
    if isinstance(schema, Str):
        def string(value: Any) -> Any:
            if not isinstance(value, str):
                raise TypeError(f"expected a string, got {value!r}")
            return value

        return string
    return None


def _items(value: Any, size: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (size is not None and len(value) != size):
        raise TypeError(f"expected a list{f' of {size}' if size is not None else ''}, got {value!r}")
    return value


# ------------------------------------------------------------------ the form of a class


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    schema: Schema
    encode: Codec | None
    decode: Codec | None


def _field_of(name: str, hint: Any) -> _Field | None:
    """The wire of one field from its annotation (None: not on the wire)."""
    if get_origin(hint) is not Annotated:
        return None
    base, *marks = get_args(hint)
    wire = next((m for m in marks if isinstance(m, Wire)), None)
    if wire is None:
        return None
    schema, encode, decode = wire.schema, wire.encode, wire.decode
    nested, many = _nested(base)
    if nested is not None:
        form = nested.FORM
        if schema is None:
            schema = List(form.schema, min=many, max=many) if many is not None and many >= 0 else \
                List(form.schema) if many is not None else form.schema
        if many is None:
            encode = encode or (lambda value, context: form.encode(value, context))
            decode = decode or (lambda value, context: form.decode(value, context))
        else:
            size = many if many >= 0 else None
            encode = encode or (lambda value, context: [form.encode(v, context) for v in value])
            decode = decode or (lambda value, context: tuple(form.decode(v, context) for v in _items(value, size)))
    if schema is None:
        raise TypeError(f"field {name!r}: a Wire needs a schema unless the field holds JsonForm values")
    if decode is None:
        decode = _default_decode(base, schema)
    if encode is None and _is_tuple(base):
        encode = _as_list
    return _Field(name, schema, encode, decode)


def _as_list(value: Any, _context: Any) -> list[Any]:
    return list(value)


def _is_tuple(hint: Any) -> bool:
    return hint is tuple or get_origin(hint) is tuple


def _nested(hint: Any) -> tuple[type[JsonForm] | None, int | None]:
    """The JsonForm class a field holds and how many: None (one), -1 (a tuple of any length), n (a tuple of n)."""
    if isinstance(hint, type) and issubclass(hint, JsonForm):
        return hint, None
    if get_origin(hint) is tuple:
        args = get_args(hint)
        if args and all(isinstance(a, type) and issubclass(a, JsonForm) for a in args if a is not Ellipsis):
            if len(args) == 2 and args[1] is Ellipsis:
                return args[0], -1
            if len(set(args)) == 1:
                return args[0], len(args)
    return None, None


def _default_decode(base: Any, schema: Schema) -> Codec | None:
    check = _check(schema)
    if isinstance(schema, List | Tuple) and _is_tuple(base):
        item = _check(schema.of) if isinstance(schema, List) else None
        size = len(schema.items) if isinstance(schema, Tuple) else (schema.min if schema.min == schema.max else None)
        if item is None:
            return lambda value, _context: tuple(_items(value, size))
        return lambda value, _context: tuple(item(v) for v in _items(value, size))
    if check is None:
        return None
    return lambda value, _context: check(value)


class Form:
    """The JSON form of one :class:`JsonForm` class: its schema, ``encode`` and ``decode`` (generated)."""

    def __init__(self, cls: type[JsonForm], constants: Mapping[str, str | int], title: str) -> None:
        hints = get_type_hints(cls, include_extras=True)
        declared = dataclasses.fields(cast(Any, cls))
        fields = [f for f in (_field_of(d.name, hints[d.name]) for d in declared) if f is not None]
        self.fields = fields
        self.constants = dict(constants)
        self.schema = Obj(required={**{k: Const(v) for k, v in constants.items()},
                                    **{f.name: f.schema for f in fields}}, title=title)
        scope: dict[str, Any] = {"cls": cls, "_mapping": Mapping}
        out = [f"{k!r}: {v!r}" for k, v in constants.items()]
        args = []
        for i, f in enumerate(fields):
            scope[f"e{i}"], scope[f"d{i}"] = f.encode, f.decode
            out.append(f"{f.name!r}: " + (f"e{i}(self.{f.name}, context)" if f.encode else f"self.{f.name}"))
            args.append(f"{f.name}=" + (f"d{i}(_data[{f.name!r}], _context)" if f.decode else f"_data[{f.name!r}]"))
        checks = "".join(f"    if _data[{k!r}] != {v!r}: raise ValueError('not a ' + {k!r} + ' ' + {v!r})\n"
                         for k, v in constants.items())
        code = (f"def encode(self, context):\n    return {{{', '.join(out)}}}\n"
                f"def decode(_data, _context, **extra):\n"
                f"    if not isinstance(_data, _mapping): raise TypeError(f'expected an object, got {{_data!r:.60}}')\n"
                f"{checks}"
                f"    return cls({', '.join([*args, '**extra'])})\n")
        exec(code, scope)
        self.encode: Callable[[Any, Any], dict[str, Any]] = scope["encode"]
        self.decode: Callable[..., Any] = scope["decode"]


class JsonForm:
    """The base of a frozen dataclass whose fields declare their JSON (see the module's docstring); its form is
    made by :func:`jsonform`, put above its ``@dataclass``."""

    __slots__ = ()
    FORM: ClassVar[Form]

    def json_context(self) -> Any:
        """What the codecs need to name things when encoding (None: nothing)."""
        return None

    def to_json(self) -> dict[str, Any]:
        return self.FORM.encode(self, self.json_context())

    @classmethod
    def from_json(cls, data: Any, /) -> Self:
        value: Self = cls.FORM.decode(data, None)
        return value


T = TypeVar("T", bound=type[JsonForm])


def jsonform(*, title: str = "", constants: Mapping[str, str | int] | None = None) -> Callable[[T], T]:
    """Make the form of a :class:`JsonForm` dataclass, ``cls.FORM`` (put above ``@dataclass``): ``constants`` go
    first in its JSON, ``title`` is its schema's."""

    def make(cls: T) -> T:
        cls.FORM = Form(cls, constants or {}, title)
        return cls

    return make


# ------------------------------------------------------------------ wires of common shapes


def rows(item: Obj, description: str = "") -> Wire:
    """A tuple of same-length tuples sent as a list of objects, one key per place (``(seat, card)`` as
    ``{"seat": 0, "card": 4}``), in the order of ``item.required``."""
    keys = tuple(item.required)
    checks = tuple(_check(s) or (lambda v: v) for s in item.required.values())

    def encode(value: Any, _context: Any) -> list[dict[str, Any]]:
        return [dict(zip(keys, row, strict=True)) for row in value]

    def decode(value: Any, _context: Any) -> tuple[tuple[Any, ...], ...]:
        return tuple(tuple(check(row[key]) for key, check in zip(keys, checks, strict=True)) for row in _items(value))

    return Wire(List(item, description=description), encode, decode)


def outcome(schema: Obj, reasons: type[enum.StrEnum]) -> Wire:
    """A match's :class:`Outcome` or null, ``schema`` its object (``winner``, ``reason``, ``scores``), the reason
    one of ``reasons`` by its value."""
    winner = _check(schema.required["winner"]) or (lambda v: v)
    score = _check(Int())
    assert score is not None

    def encode(value: Any, _context: Any) -> Any:
        return None if value is None else value.to_json()

    def decode(value: Any, _context: Any) -> Any:
        if value is None:
            return None
        first, second = _items(value["scores"], 2)
        return Outcome(winner(value["winner"]), reasons(value["reason"]), (score(first), score(second)))

    return Wire(Nullable(schema), encode, decode)
