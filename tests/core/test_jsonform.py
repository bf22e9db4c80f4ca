"""Issue 20: a value's fields are declared once, and its JSON, its reading back and its JSON Schema follow."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, Any

import pytest

from flametable.core.jsonform import JsonForm, Wire, by_name, jsonform, names_of
from flametable.core.protocol import GameBase, complete
from flametable.core.registry import wrap
from flametable.core.schema import Bool, Int, List, Nullable, Str, json_schema, validate
from tests.service.tiny import QuietGame, TinyGame


class Light(IntEnum):
    RED = 0
    GREEN = 1


@jsonform()
@dataclass(frozen=True, slots=True)
class Lamp(JsonForm):
    on: Annotated[bool, Wire(Bool())]


@jsonform(title="Crossing", constants={"format": "crossing/1"})
@dataclass(frozen=True, slots=True)
class Crossing(JsonForm):
    seat: Annotated[int | None, Wire(Nullable(Int(0, 1)))]
    light: Annotated[Light, Wire(Str(choices=names_of(Light)), *by_name(Light))]
    cars: Annotated[tuple[int, ...], Wire(List(Int(0)))]
    lamps: Annotated[tuple[Lamp, Lamp], Wire()]
    note: str = "not on the wire"


CROSSING = Crossing(None, Light.GREEN, (3, 4), (Lamp(True), Lamp(False)))


def test_the_json_follows_the_declared_fields_with_enums_by_name_and_constants_first() -> None:
    assert CROSSING.to_json() == {"format": "crossing/1", "seat": None, "light": "green", "cars": [3, 4],
                                  "lamps": [{"on": True}, {"on": False}]}
    assert next(iter(CROSSING.to_json())) == "format"


def test_from_json_gives_the_value_back_and_the_fields_off_the_wire_from_its_arguments() -> None:
    assert Crossing.from_json(CROSSING.to_json()) == CROSSING
    assert Crossing.FORM.decode(CROSSING.to_json(), None, note="given").note == "given"


def test_the_schema_follows_the_same_declaration_and_accepts_the_json() -> None:
    schema = Crossing.FORM.schema
    validate(CROSSING.to_json(), schema, "crossing.json", "crossing", json=True)
    doc = json_schema(schema)
    assert doc["title"] == "Crossing"
    assert doc["required"] == ["format", "seat", "light", "cars", "lamps"]
    assert doc["properties"]["light"]["enum"] == ["red", "green"]
    assert doc["properties"]["lamps"]["minItems"] == doc["properties"]["lamps"]["maxItems"] == 2


@pytest.mark.parametrize(("field", "value"), [("seat", 2), ("seat", True), ("light", "blue"), ("light", 1),
                                               ("cars", [-1]), ("cars", "3"), ("lamps", [{"on": 1}, {"on": True}]),
                                               ("lamps", [{"on": True}]), ("format", "crossing/2")])
def test_from_json_refuses_what_the_declaration_does_not_allow(field: str, value: Any) -> None:
    with pytest.raises((TypeError, ValueError)):
        Crossing.from_json({**CROSSING.to_json(), field: value})


def test_a_game_of_the_core_protocol_only_gets_the_optional_methods_defaults() -> None:
    """A plug-in that says nothing keeps every action hidden, shows no option, swaps none."""
    quiet = complete(QuietGame())
    assert isinstance(quiet, GameBase)
    assert quiet.name == "tiny"
    assert quiet.public_action(quiet.action_from_id(0)) is False
    assert quiet.public_options({"x": 1}) == {}
    assert quiet.swapped_options({"x": 1}) == {"x": 1}
    entry = wrap(QuietGame())
    assert entry.make().public_options({"x": 1}) == {}


def test_a_game_keeps_the_optional_methods_it_has() -> None:
    tiny = complete(TinyGame())
    assert [tiny.public_action(a) for a in (tiny.action_from_text("take 1"), tiny.action_from_text("bid 1"))] \
        == [True, False]
