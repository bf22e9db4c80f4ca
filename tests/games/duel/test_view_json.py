"""Views as data: every Flame Duel view has a JSON form that round-trips, fits the published schema
(``docs/schemas/duel-view.schema.json``, JSON Schema draft 2020-12) and holds only what its seat may see (R15)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from flametable.core.errors import RecordError
from flametable.core.rng import Rng
from flametable.games.duel.determinize import Sampler
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from flametable.games.duel.view import DuelView

GAME = DuelGame()
SCHEMA_PATH = Path(__file__).resolve().parents[3] / "docs" / "schemas" / "duel-view.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
MODES: tuple[dict[str, str], ...] = ({"mode": "shared", "pick": "random"}, {"mode": "shared", "pick": "draft"},
                                     {"mode": "decks"})
MATCHES = 1002  # random matches, a third in each mode
CARD = re.compile(r"\b([SC])(\d+)\b")


def _states(matches: int, first_seed: int = 1) -> Iterator[DuelState]:
    """Every state of ``matches`` seeded random matches, the modes in turn."""
    for i in range(matches):
        seed = first_seed + i
        st = GAME.new_match(MODES[i % 3], seed)
        rng = Rng(seed)
        while True:
            yield st
            if st.outcome is not None:
                break
            legal = st.legal_actions()
            st = st.clone()
            st.apply(legal[rng.below(len(legal))])


# ---------------------------------------------------------------- the schema, checked by parts


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_is_an_object_of_independent_required_properties() -> None:
    """A closed object, every property required, no keyword tying properties together."""
    assert set(SCHEMA) == {"$schema", "$id", "title", "description", "type", "additionalProperties", "required",
                           "properties"}
    assert SCHEMA["type"] == "object"
    assert SCHEMA["additionalProperties"] is False
    assert sorted(SCHEMA["required"]) == sorted(SCHEMA["properties"])


_OBJECT_KEYS = {"$schema", "$id", "$defs", "type", "additionalProperties", "required", "properties", "description",
                "title"}
_ARRAY_KEYS = {"type", "items", "minItems", "maxItems", "uniqueItems", "description"}
Check = Callable[[Any], None]


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    """A node that is only a ``$ref`` into ``$defs`` (and a description) is the node it names."""
    while set(node) <= {"$ref", "description"} and "$ref" in node:
        node = SCHEMA.get("$defs", {})[node["$ref"].removeprefix("#/$defs/")]
    return node


def _validator(node: dict[str, Any]) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({"$defs": SCHEMA.get("$defs", {}), **node})


def _compile(node: dict[str, Any]) -> Check:
    """A check that a value fits ``node`` of the schema, done by jsonschema part by part: a closed object of required
    properties and an array of items are taken apart (their own keywords checked by jsonschema on the object's keys
    and the array's length), every other part (numbers, enums, notation patterns, oneOf) is given to jsonschema
    whole, once per distinct value. The same verdict as validating the whole document, much faster."""
    node = _resolve(node)
    if node.get("type") == "object" and set(node) <= _OBJECT_KEYS and node.get("additionalProperties") is False \
            and sorted(node.get("required", [])) == sorted(node["properties"]):
        keys = set(node["required"])
        parts = [(key, _compile(sub)) for key, sub in node["properties"].items()]

        def check_object(value: Any) -> None:
            if not isinstance(value, dict) or value.keys() != keys:
                raise jsonschema.ValidationError(f"{value!r} is not an object with exactly {sorted(keys)}")
            for key, part in parts:
                part(value[key])

        return check_object
    if node.get("type") == "array" and set(node) <= _ARRAY_KEYS and "items" in node:
        outer = _validator({k: v for k, v in node.items() if k != "items"})
        unique = "uniqueItems" in node
        item_check = _compile(node["items"])
        seen: set[Any] = set()

        def check_array(value: Any) -> None:
            key = (type(value), tuple(value) if unique and isinstance(value, list) else len(value))
            if key not in seen:
                outer.validate(value)  # type, length, uniqueness: they depend on the length and (unique) the items
                seen.add(key)
            for item in value:
                item_check(item)

        return check_array
    whole = _validator(node)
    valid: set[Any] = set()

    def check_leaf(value: Any) -> None:
        key = (type(value), value) if value is None or isinstance(value, (int, str)) else json.dumps(value)
        if key not in valid:
            whole.validate(value)
            valid.add(key)

    return check_leaf


_validate = _compile(SCHEMA)


def test_validating_by_parts_agrees_with_validating_whole() -> None:
    views = [st.view(seat).to_json() for st in _states(6) for seat in (0, 1, None)]
    for data in views[::7]:
        VALIDATOR.validate(data)
        _validate(data)
    last = views[-1]
    seat0 = last["seats"][0]
    for broken in (dict(last, seats=[seat0]), dict(last, legal=["play S22"]), {**last, "extra": 1},
                   dict(last, seats=[{**seat0, "plays": 3}, seat0]), dict(last, legal=["pass", "pass"]),
                   {k: v for k, v in last.items() if k != "hand"}, dict(last, phase=7),
                   dict(last, log=[{"seat": 0, "action": "pass"}]), dict(last, outcome={"winner": 2})):
        with pytest.raises(jsonschema.ValidationError):
            VALIDATOR.validate(broken)
        with pytest.raises(jsonschema.ValidationError):
            _validate(broken)


# ---------------------------------------------------------------- round trip and schema over many matches


def test_every_view_round_trips_through_json_and_fits_the_schema() -> None:
    """Over 1,000 seeded random matches (shared deck, draft, own decks), every view of seat 0, seat 1 and a
    spectator survives json.dumps/json.loads and DuelView.from_json exactly, and fits the schema."""
    phases: set[Phase] = set()
    matches = 0
    for st in _states(MATCHES):
        phases.add(st.phase)
        matches += st.outcome is not None
        for seat in (0, 1, None):
            view = st.view(seat)
            data = view.to_json()
            back = json.loads(json.dumps(data))
            assert back == data
            assert DuelView.from_json(back) == view
            _validate(back)
    assert matches == MATCHES
    assert phases == set(Phase)


def test_a_malformed_view_is_refused_with_a_record_error() -> None:
    data = GAME.new_match({}, 1).view(0).to_json()
    bad: Any
    for bad in ({}, [], {**data, "format": "other"}, {**data, "phase": 9}, {**data, "legal": ["fly"]},
                {**data, "seats": []}, {k: v for k, v in data.items() if k != "hand"}):
        with pytest.raises(RecordError):
            DuelView.from_json(bad)


# ---------------------------------------------------------------- only what the seat may see (R3, R15)


def _mentioned(data: dict[str, Any]) -> tuple[set[int], set[int]]:
    """Every character and every support card number a view's JSON names, anywhere."""
    chars: set[int] = set()
    sups: set[int] = set()
    chars.update(data["lineup"], data["my_characters"], data["draft_pool"], [data["champion"]])
    sups.update(data["hand"], data["known_top"], data["my_pile"], [data["place"]], (e["card"] for e in data["events"]))
    for seat in data["seats"]:
        chars.update(seat["flipped"], seat["known_characters"], [seat["character"]])
        sups.update(seat["revealed"], seat["discard"], seat["items"])
    for result in data["results"]:
        chars.update(result["characters"])
    for text in [*data["legal"], *(e["action"] for e in data["log"])]:
        for prefix, number in CARD.findall(text):
            (sups if prefix == "S" else chars).add(int(number))
    return chars - {0}, sups - {0}


def _unseen(st: DuelState, seat: int | None) -> tuple[set[int], set[int]]:
    """Shared deck: the characters and support cards ``seat`` must not learn of. Outside the draft, the
    opponents' unflipped characters (R3); the opponents' hands beyond the cards known to be in them, and the draw
    pile below the cards ``seat`` looked at (R15)."""
    chars: set[int] = set()
    sups: set[int] = set()
    shown = 0 if st.phase in (Phase.DRAFT, Phase.LINEUP) else min(st.round_no + 1, 3)
    for p in (0, 1):
        if p == seat:
            continue
        if not st.draft:
            flipped = set(st.lineups[p][:shown])
            if st.tiebreak and st.phase is not Phase.CHAMPION:
                flipped.add(st.current[p])
            chars |= set(st.characters[p]) - flipped
        sups |= set(st.hands[p]) - set(st.revealed[p])
    pile = st.piles[0]
    looked = st.looked_at[seat] if seat is not None else 0
    sups |= set(pile[: len(pile) - looked])
    return chars, sups


def test_the_json_of_a_view_never_names_a_hidden_card() -> None:
    """Shared deck (where every card is unique): the JSON of a seat's view (and of a spectator's) names none of the
    opponent's unflipped characters (outside the draft), none of the opponent's unknown hand and none of the draw
    pile's cards below those the seat looked at; so neither the hand, nor the line-up, nor the pile order."""
    checked = 0
    for st in _states(300):
        if not st.shared:
            continue
        for seat in (0, 1, None):
            chars, sups = _mentioned(st.view(seat).to_json())
            hidden_chars, hidden_sups = _unseen(st, seat)
            assert not chars & hidden_chars, f"seat {seat} sees unflipped characters {chars & hidden_chars}"
            assert not sups & hidden_sups, f"seat {seat} sees hidden support cards {sups & hidden_sups}"
            checked += 1
    assert checked > 10_000


def test_the_json_of_a_seats_view_is_the_same_in_every_state_it_cannot_tell_apart() -> None:
    """Determinise a seat's view into other full states (other opponent's hand, line-up, pile order): the seat's
    view of each, as JSON, is the view it had, character for character."""
    rng = Rng(2024)
    different = 0
    for i, st in enumerate(_states(150, first_seed=5000)):
        if st.outcome is not None or i % 3:
            continue
        for seat in (0, 1):
            text = json.dumps(st.view(seat).to_json())
            sampler = Sampler(st.view(seat), GAME.cards)
            for _ in range(2):
                other = sampler(rng)
                assert json.dumps(other.view(seat).to_json()) == text
                different += other.hands[1 - seat] != st.hands[1 - seat] or other.piles != st.piles
    assert different > 1000


def test_the_view_module_is_data_only() -> None:
    """duel.view imports nothing of the engine (no circle with duel.state): only core, actions, rules and the
    card set's numbers (duel.cards, data only: its schema names card numbers 1..33 and 1..21)."""
    import ast

    import flametable.games.duel.view as view_module

    tree = ast.parse(Path(view_module.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    engine = {m for m in imported if m.startswith("flametable.games.duel.")}
    assert engine <= {f"flametable.games.duel.{name}" for name in ("actions", "rules", "cards")}, engine


def test_the_phase_goes_on_the_wire_by_its_name_and_is_read_back() -> None:
    """Issue 20: the view's JSON names the phase ("lineup", "play"), as the Duals view names its steps."""
    st = GAME.new_match({}, 1)
    data = st.view(0).to_json()
    assert data["phase"] == st.phase.name.lower() == "lineup"
    assert DuelView.from_json(data).phase is Phase.LINEUP
    with pytest.raises(RecordError):
        DuelView.from_json({**data, "phase": int(Phase.LINEUP)})
