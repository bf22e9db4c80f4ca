"""The engine toolkit both games' states are built with: fields declared once, and one handler per step.

A state class (an :class:`EngineState`) declares each field once, with its type and :func:`slot` (how a clone
copies it, its value in a blank state, the view field a determiniser reads it back from), and is decorated with
:func:`engine_state`, which makes from the declarations, once when the class is created:

* ``__slots__`` (the class is made again with them, as ``dataclass(slots=True)`` does);
* the class's ``clone()``, written out as one assignment per field (as fast as one typed by hand: it is on the
  search's hot path, once per determinised sample);
* a keyword-only blank constructor (:func:`blank_of`): the fields declared without an empty value must be given,
  the others may be, and every one not given gets its declared empty value (lists fresh at every call).

:func:`fields_of` gives the declarations back (tests, and determinisers copying public fields from a view).

:func:`step_table` makes the handler table ``apply`` dispatches through: one handler per step (an ``IntEnum``),
looked up by the step's value in a tuple.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="EngineState")
H = TypeVar("H")


class Copy(Enum):
    """How :meth:`clone` copies a field (and how a blank state gets its empty value)."""

    SHARED = "shared"  # the same object: an immutable value, the game's data and tables, or a value replaced, never
    # mutated in place; a blank state gets the declared empty object itself
    CACHE = "cache"  # shared by clones (facts about the state, replaced, never cleared, when it changes); a blank
    # state gets a fresh copy of the declared empty value
    LIST = "list"  # a flat list of immutable values: copied
    PER_SEAT = "per_seat"  # a list of two flat lists, one per seat: each copied
    LISTS = "lists"  # a list of flat lists, as many as there are: each copied
    DICT = "dict"  # a dict of immutable values: copied
    CLONE = "clone"  # an object with its own ``clone()`` (the generator): cloned


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""A field's empty value when a blank state must be given it (the game's data, the generator, ...)."""

_UNSET: Any = object()

# The expression copying field {0} of ``self`` in a clone.
_COPY_CODE = {
    Copy.SHARED: "self.{0}",
    Copy.CACHE: "self.{0}",
    Copy.LIST: "self.{0}[:]",
    Copy.PER_SEAT: "[self.{0}[0][:], self.{0}[1][:]]",
    Copy.LISTS: "[x[:] for x in self.{0}]",
    Copy.DICT: "self.{0}.copy()",
    Copy.CLONE: "self.{0}.clone()",
}


class EngineState:
    """What a state made with :func:`engine_state` derives from: no ``__dict__``, only its declared slots."""

    __slots__: ClassVar[tuple[str, ...]] = ()


@dataclass(frozen=True, slots=True)
class Field:
    """One declared field of a state: its name, how it is copied, its empty value (:data:`REQUIRED`: a blank state
    must be given it), and the view field a determiniser reads it back from (``""``: none)."""

    name: str
    copy: Copy
    empty: Any
    view: str


# Runs only at import, before mutation testing can switch a mutant in (docs/mutation.md); the state-fields
# tests pin what it makes.
def slot(copy: Copy, empty: Any = REQUIRED, view: str = "") -> Any:  # pragma: no mutate block
    """Declare a state field (its annotation gives the type): ``name: list[int] = slot(Copy.LIST, [0, 0])``."""
    if not isinstance(copy, Copy):
        raise TypeError(f"slot() wants a Copy, got {copy!r}")
    return dataclasses.field(metadata={"engine": Field("", copy, empty, view)})


# Runs only at import, before mutation testing can switch a mutant in (docs/mutation.md); the state-fields
# tests pin what it makes.
def engine_state(cls: type[T]) -> type[T]:  # pragma: no mutate block
    """Class decorator: the class (an :class:`EngineState`) made again with ``__slots__`` of its declared fields,
    its ``clone`` written out from them, its blank constructor kept for :func:`blank_of`. Every annotated field
    must be declared with :func:`slot`."""
    if not issubclass(cls, EngineState):
        raise TypeError(f"{cls.__name__} must derive from EngineState")
    made: Any = dataclass(slots=True, init=False, repr=False, eq=False, match_args=False)(cls)
    declared = []
    for f in dataclasses.fields(made):
        spec = f.metadata.get("engine")
        if not isinstance(spec, Field):
            raise TypeError(f"{cls.__name__}.{f.name} is not declared with slot()")
        declared.append(dataclasses.replace(spec, name=f.name))
    fields = tuple(declared)
    clone, blank = _compile(made, fields)
    stub = made.__dict__.get("clone")
    clone.__doc__ = getattr(stub, "__doc__", None) or "A copy sharing nothing mutable (see its fields' Copy)."
    clone.__qualname__ = f"{made.__qualname__}.clone"
    clone.__module__ = made.__module__
    made.clone = clone
    made.__engine_fields__ = fields
    made.__engine_blank__ = staticmethod(blank)
    result: type[T] = made
    return result


def fields_of(cls: type[EngineState]) -> tuple[Field, ...]:
    """The fields declared in an :func:`engine_state` class, in order (the order of ``__slots__``)."""
    fields: tuple[Field, ...] = getattr(cls, "__engine_fields__")  # noqa: B009 - set by engine_state
    return fields


def blank_of(cls: type[T]) -> Callable[..., T]:
    """The blank constructor of an :func:`engine_state` class: keyword arguments only; every field declared
    :data:`REQUIRED` must be given, an unknown name raises ``TypeError``; the others not given get their empty
    values."""
    blank: Callable[..., T] = getattr(cls, "__engine_blank__")  # noqa: B009 - set by engine_state
    return blank


def step_table(steps: type[IntEnum], handlers: Mapping[Any, H]) -> tuple[H, ...]:
    """The handlers as a tuple indexed by the step's value: ``table[step](state, ...)``, the fastest lookup.

    ``handlers`` must name the first steps of ``steps``, from 0, without a gap (the steps after them, if any, are
    handled before the dispatch)."""
    strangers = [s for s in handlers if not isinstance(s, steps)]
    if strangers:
        raise ValueError(f"not a {steps.__name__}: {strangers!r}")
    if sorted(int(s) for s in handlers) != list(range(len(handlers))):
        raise ValueError(f"the handlers must name {steps.__name__} 0 to {len(handlers) - 1}, without a gap")
    return tuple(handlers[steps(i)] for i in range(len(handlers)))


# Runs only at import, before mutation testing can switch a mutant in (docs/mutation.md); the state-fields
# tests pin what it makes.
def _is_literal(value: object) -> bool:  # pragma: no mutate block
    """``repr(value)`` is Python source that makes an equal value of the same type (ints, lists of them...)."""
    try:
        again = ast.literal_eval(repr(value))
    except (ValueError, SyntaxError):
        return False
    return bool(again == value) and type(again) is type(value)


# Runs only at import, before mutation testing can switch a mutant in (docs/mutation.md); the state-fields
# tests pin what it makes.
def _compile(cls: type[Any], fields: tuple[Field, ...]) -> tuple[Any, Any]:  # pragma: no mutate block
    """``clone`` and ``blank`` written out from the declarations, one assignment per field, as fast as if typed
    by hand (a loop over the fields made a new match half as fast again). A blank state's empty lists and dicts
    are literals (fresh at every call) when their items are; otherwise copies of the declared value."""
    namespace: dict[str, Any] = {"new": object.__new__, "State": cls, "_UNSET": _UNSET}
    clone_body = "".join(f"    c.{f.name} = {_COPY_CODE[f.copy].format(f.name)}\n" for f in fields)
    params = []
    blank_body = []
    for f in fields:
        name = f.name
        if f.empty is REQUIRED:
            params.append(name)
            blank_body.append(f"    st.{name} = {name}\n")
            continue
        namespace[f"_e_{name}"] = f.empty
        if f.copy is Copy.SHARED:
            value = f"_e_{name}"  # the declared object itself
        elif f.copy is not Copy.CLONE and _is_literal(f.empty):
            value = repr(f.empty)  # a fresh list or dict at every call
        else:
            value = _COPY_CODE[Copy.DICT if f.copy is Copy.CACHE else f.copy].replace("self.", "_e_").format(name)
        params.append(f"{name}=_UNSET")
        blank_body.append(f"    st.{name} = {value} if {name} is _UNSET else {name}\n")
    source = (
        f"def clone(self):\n    c = new(State)\n{clone_body}    return c\n"
        f"def blank(*, {', '.join(params)}):\n    st = new(State)\n{''.join(blank_body)}    return st\n"
    )
    exec(source, namespace)  # code made from the class's declarations, no outside input
    return namespace["clone"], namespace["blank"]
