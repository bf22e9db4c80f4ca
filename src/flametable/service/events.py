"""What the match service tells each audience (seat 0, seat 1, the spectators), as values and as JSON.

An :class:`Event` is one audience's news at one version of the match: its view after the step, who acted and,
only when that audience may know it, the action's notation. An event whose ``actor`` is ``None`` is a *sync*:
the audience's view at that version and nothing more (the start of a match, or a full resync after a gap).

The JSON form holds ids, numbers and notation, never language: front ends make the texts from it::

    {"format": "flametable-event/1", "version": 7, "audience": 1, "actor": 0, "action": null,
     "to_act": 1, "result": null, "view": {...}}

``audience`` is the seat (0 or 1) or ``null`` for the spectators; ``action`` is ``null`` when it is hidden
from this audience (and in a sync); ``result`` is the outcome's JSON once the match is over. The view is
serialised by its own ``to_json()``; a view without one (a plain dataclass of numbers, tuples, enums and
actions) is written field by field, actions as their notation and enums by name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_, Phrase
from flametable.core.schema import Anything, Const, Int, Nullable, Obj, Str, validate

EVENT_FORMAT = "flametable-event/1"

Audience = int | None
"""A seat (0 or 1), or ``None`` for the spectators."""

AUDIENCES: tuple[Audience, Audience, Audience] = (0, 1, None)


class EventError(FlametableError):
    """An event's JSON that cannot be read."""


EVENT = Phrase(N_("event"))
SCHEMA = Obj(
    required={
        "format": Const(EVENT_FORMAT),
        "version": Int(0, None, "the match's version after the step (0 at the start)"),
        "audience": Nullable(Int(0, 1), "the seat this event is for; null: the spectators"),
        "actor": Nullable(Int(0, 1), "the seat that acted; null: a sync (the view and nothing more)"),
        "action": Nullable(Str(max_len=200), "the action's notation, only when this audience may know it"),
        "to_act": Nullable(Int(0, 1), "the seat to act after the step; null once the match is over"),
        "result": Nullable(Anything("object"), "the outcome's JSON once the match is over"),
        "view": Anything(None, "the audience's view after the step, as the game's view writes it"),
    },
    title="flametable event",
)
"""The shape of an event's JSON (``docs/schemas/event.schema.json``)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One audience's news at ``version``: ``view`` is that audience's view after the step."""

    version: int
    audience: Audience
    view: Any
    to_act: int | None  # the seat to act after the step, None once the match is over (public)
    actor: int | None = None  # the seat that acted; None: a sync (no action)
    action: str | None = None  # the action's notation, only if this audience may know it
    result: dict[str, Any] | None = None  # the outcome's JSON once the match is over (public)

    @property
    def is_sync(self) -> bool:
        return self.actor is None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": EVENT_FORMAT,
            "version": self.version,
            "audience": self.audience,
            "actor": self.actor,
            "action": self.action,
            "to_act": self.to_act,
            "result": self.result,
            "view": view_json(self.view),
        }

    @staticmethod
    def from_json(data: Any, view_from_json: Callable[[Any], Any] | None = None) -> Event:
        """The event of ``data`` (checked against :data:`SCHEMA`); its view made by ``view_from_json`` (the view
        class's own ``from_json``), or left as JSON data without it."""
        validate(data, SCHEMA, "event", EVENT, error=_event_error, json=True)
        action = data["action"]
        if action is not None and data["actor"] is None:
            raise EventError(N_("a sync event (actor null) has no action"))
        view = data["view"]
        return Event(
            version=data["version"],
            audience=data["audience"],
            view=view_from_json(view) if view_from_json is not None else view,
            to_act=data["to_act"],
            actor=data["actor"],
            action=action,
            result=data["result"],
        )


def _event_error(source: str, entry: Any, fieldname: Any, problem: str, /, **params: Any) -> FlametableError:
    """A schema problem of an event, naming the field (the error factory of ``validate``)."""
    return EventError(N_("event {field}: {problem}"), field=fieldname, problem=FlametableError(problem, **params))


@dataclass(frozen=True, slots=True)
class Applied:
    """What one accepted action produced: the new version and the event of each audience."""

    version: int
    actor: int
    events: tuple[Event, Event, Event]  # seat 0, seat 1, the spectators

    def to(self, audience: Audience) -> Event:
        """The event of ``audience`` (a seat, or ``None`` for the spectators)."""
        if audience is None:
            return self.events[2]
        check_audience(audience)
        return self.events[audience]


def check_audience(audience: Audience) -> None:
    """A ``ValueError`` unless ``audience`` is seat 0, seat 1 or ``None`` (the spectators): a caller's bug."""
    if audience is not None and audience != 0 and audience != 1:
        raise ValueError(f"an audience is seat 0, seat 1 or None (spectators), got {audience!r}")


def view_json(view: Any) -> Any:
    """A view as JSON data: its own ``to_json()`` when it has one, else field by field (see the module)."""
    return _data(view)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _data(value: Any) -> Any:
    if value is None or (isinstance(value, (bool, str, float)) and not isinstance(value, Enum)):
        return value
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    if isinstance(value, Enum):
        return str(value) if isinstance(value, StrEnum) else value.name.lower()
    if isinstance(value, int):
        return int(value)
    text = getattr(value, "text", None)
    if callable(text) and _is_int(getattr(value, "id", None)):  # an action: its notation
        return text()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_data(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _data(v) for k, v in value.items()}
    raise TypeError(f"cannot write a {type(value).__name__} as event JSON: give the view a to_json()")
