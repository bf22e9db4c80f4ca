"""Views as data (D10): every view has a JSON form that round-trips exactly, follows the published schema
(``docs/schemas/duals-view.schema.json``) and holds only what its seat may see.

Over 1,000 seeded random matches (half of them in the Buddy variant, D11), the views of seat 0, seat 1 and a
spectator are checked at a sample of steps (one in sixteen, and always the first and the last): each
round-trips through JSON, and a different full state consistent with a seat's view (the determiniser's) gives
that seat the same JSON. Schema validation (``jsonschema``, a few ms a view) runs on one view per match (at the
last step or a sampled one, seat 0's, seat 1's and the spectator's in turn), and on every view of every step of
two whole matches.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from flametable.core.errors import RecordError
from flametable.core.rng import Rng
from flametable.games.duals.determinize import determinize
from flametable.games.duals.rules import Step
from flametable.games.duals.state import DualsState
from flametable.games.duals.view import DualsView

from .scripted import DATA, GAME, start

MATCHES = 1000
SCHEMA_PATH = Path(__file__).resolve().parents[3] / "docs" / "schemas" / "duals-view.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with its ``$ref``s to ``$defs`` written out: the same constraints, validated twice as fast."""
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline({**defs[node["$ref"].removeprefix("#/$defs/")],
                            **{k: v for k, v in node.items() if k != "$ref"}}, defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


jsonschema.Draft202012Validator.check_schema(SCHEMA)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
FAST_VALIDATOR = jsonschema.Draft202012Validator(_inline(SCHEMA, SCHEMA.get("$defs", {})))
CARD_IN_ACTION = re.compile(r"\bK(\d+)$")


def cards_in(obj: dict[str, Any]) -> set[int]:
    """Every card number the view's JSON names, wherever a card may stand."""
    found = set(obj["hand"]) | set(obj["matching"]) | {c for c, _ in obj["bottom_known"]}
    for seat in obj["seats"]:
        found |= set(seat["pile"])
    for text in obj["legal"]:
        m = CARD_IN_ACTION.search(text)
        if m:
            found.add(int(m.group(1)))
    return found


def may_see(state: DualsState, seat: int | None) -> set[int]:
    """The cards ``seat`` may know the place of: the score piles, and its own hand and cards at the bottom."""
    known = set(state.piles[0]) | set(state.piles[1])
    if seat is not None:
        known |= set(state.hands[seat]) | set(state.known_bottom[seat])
    return known


def check_view(state: DualsState, seat: int | None, salt: int, stats: Counter[str], validate: bool) -> None:
    view = state.view(seat)
    obj = view.to_json()
    text = json.dumps(obj)
    again = json.loads(text)
    assert again == obj, "the JSON form is plain JSON (survives dumps/loads unchanged)"
    if validate:
        FAST_VALIDATOR.validate(again)
        stats["validated"] += 1
    assert DualsView.from_json(again) == view
    # Nothing hidden from the seat: no card but the public ones and its own, the bag as counts only.
    assert cards_in(obj) <= may_see(state, seat)
    assert obj["bag"] == {DATA.kind_names[k]: n for k, n in sorted(Counter(state.bag).items())}
    assert obj["deck_size"] == len(state.deck)
    stats[f"phase {view.phase.name}"] += 1
    if seat is None:
        return
    # A different full state consistent with the view (the determiniser's) gives the seat the same JSON.
    other = determinize(view, GAME, Rng(salt))
    assert other.view(seat).to_json() == obj
    assert other.view(None).to_json() == state.view(None).to_json()
    if view.to_act == seat:  # and the same legal actions, worked out afresh from the other state
        assert other._compute_legal() == list(view.legal)
    if other.hands[1 - seat] != state.hands[1 - seat] or other.deck != state.deck or other.bag != state.bag:
        stats["hidden parts differ"] += 1
    stats["determinised"] += 1


def test_views_round_trip_validate_and_hide_what_they_must_over_1000_random_matches() -> None:
    stats: Counter[str] = Counter()
    for seed in range(MATCHES):
        state = GAME.new_match({"buddy": seed % 2 == 1}, seed)
        rng = Rng(seed ^ 0x5EED)
        n = 0
        validated = False
        while True:
            if n == 0 or state.to_act is None or rng.below(16) == 0:
                # one view per match is validated: the last step's, or (one match in two) a sampled step's;
                # seat 0's, seat 1's and the spectator's in turn
                if state.to_act is None:
                    validate = not validated
                else:
                    validate = seed % 2 == 0 and n > 0 and not validated and rng.below(3) == 0
                validated |= validate
                for seat in (0, 1, None):
                    check_view(state, seat, seed * 1000 + n, stats, validate and seat == (0, 1, None)[seed % 3])
            if state.to_act is None:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            n += 1
    assert {f"phase {s.name}" for s in Step} <= set(stats), f"every decision is met: {stats}"
    assert stats["validated"] == MATCHES, stats
    # the determiniser really changed hidden parts (the check above is not vacuous)
    assert stats["hidden parts differ"] > 0.9 * stats["determinised"], stats


@pytest.mark.parametrize("seed", [3, 8])
def test_every_view_of_whole_matches_follows_the_schema(seed: int) -> None:
    state = GAME.new_match({"buddy": seed % 2 == 1}, seed)
    rng = Rng(seed)
    while True:
        for seat in (0, 1, None):
            FAST_VALIDATOR.validate(state.view(seat).to_json())
        if state.to_act is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    for seat in (0, 1, None):  # the published schema itself, its references unresolved
        VALIDATOR.validate(state.view(seat).to_json())


def test_a_view_after_the_coin_names_the_cards_at_the_bottom_and_nothing_else_of_the_deck() -> None:
    """D10: the cards a seat put at the bottom are its own knowledge, with their places; the opponent's
    view of the same moment names none of the deck's cards."""
    st = start({"c3": ["bread"]}, ["meat", "iron"], deck=[10, 11, 12, 13, 14], hands=[[1, 2], [3, 4]],
               coins=[1, 0])
    st.apply(GAME.action_from_text("coin"))  # draws 10 and 11
    st.apply(GAME.action_from_text("bottom K1"))
    st.apply(GAME.action_from_text("bottom K10"))
    mine, theirs = st.view(0).to_json(), st.view(1).to_json()
    assert mine["bottom_known"] == [[10, 0], [1, 1]]  # positions from the bottom of the deck
    assert mine["hand"] == [2, 11]
    assert theirs["bottom_known"] == []
    assert theirs["hand"] == [3, 4]
    assert cards_in(theirs) == {3, 4}
    assert mine["deck_size"] == theirs["deck_size"] == 5


def test_the_json_form_uses_names_and_notation() -> None:
    st = start({"c3": ["bread", "meat+bread"]}, ["iron"], hands=[[1, 2], [3, 4]])
    obj = st.view(0).to_json()
    assert obj["board"] == {"c3": ["bread", "meat+bread"]}
    assert obj["held"] == "iron"
    assert obj["phase"] == "place"
    assert obj["src"] is None
    assert "place c3" in obj["legal"]
    assert obj["seats"][1] == {"coins": 0, "hand_size": 2, "pile": [], "points": 0}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("board", {"C3": ["bread"]}),
        ("held", "dragon"),
        ("legal", ["PLACE C3"]),
        ("phase", "PLACE"),
        ("seat", 2),
        ("hand", ["K1"]),
    ],
)
def test_from_json_refuses_what_is_not_a_view(field: str, value: Any) -> None:
    obj = start({"c3": ["bread"]}, ["iron"], hands=[[1, 2], [3, 4]]).view(0).to_json()
    obj[field] = value
    assert not VALIDATOR.is_valid(obj)
    assert not FAST_VALIDATOR.is_valid(obj)
    with pytest.raises(RecordError, match="malformed Flamecraft Duals view"):
        DualsView.from_json(obj)


def test_from_json_needs_every_field() -> None:
    obj = start({"c3": ["bread"]}, ["iron"]).view(None).to_json()
    del obj["fired"]
    with pytest.raises(RecordError, match="malformed Flamecraft Duals view"):
        DualsView.from_json(obj)
