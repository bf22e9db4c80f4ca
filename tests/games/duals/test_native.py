"""The native engine (issue 26) plays Flamecraft Duals exactly as the reference engine does.

Differential tests: seeded random matches (the plain game and the Buddy variant, D11; the built-in data and custom
data sets with other boards, token counts, duals, FIRE UP orders and patterns with variables), played on both
engines with the same actions, compared at every step: the legal actions (same values, same order), both seats'
views and the spectator's as JSON, the whole state (the hidden bag and deck order and the generator too, through
``to_python``), illegal actions refused with the same reason and parameters (some at random at every step, every
action of the game at some steps), and the outcome. A lighter comparison (legal actions at every step, the views
and the state at the end) runs over a few thousand more matches. Then the golden records, the bots' golden
matches and the perft counts on the native engine.

Without the extension built (``pip install ./native``) these tests skip, saying so; with
``FLAMETABLE_REQUIRE_SERVICES=1`` (CI) the skip is a failure. The long run: ``benchmarks/native_duals.py``.
"""

from __future__ import annotations

import json
import pickle
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.errors import IllegalAction, RecordError
from flametable.core.rng import Rng
from flametable.games.duals.data import DualsData, builtin_duals_data, parse_duals_data
from flametable.games.duals.game import DualsGame
from flametable.games.duals.native import NativeDualsGame, extension, to_python
from flametable.games.duals.rules import TYPE_KEYS, Step
from flametable.games.duals.state import FIELDS, DualsState
from tests.games.duals.golden import regen
from tests.golden import check_played_today, replay_golden
from tests.services import require_or_skip

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN = "tests/games/duals/golden/regen.py"
TEXT = resources.files("flametable.games.duals").joinpath("data", "duals.toml").read_text(encoding="utf-8")
_OFFSETS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@pytest.fixture(autouse=True)
def _native_built() -> None:
    if extension() is None:
        require_or_skip("the native engine (flametable_native)", "not built here: pip install -c constraints.txt "
                        "./native")


def _board(radius: int) -> dict[str, Any]:
    """A hexagonal board of ``radius`` (2: D1's 19 spaces), rows a, b, ... from the top, numbered from the left."""
    spaces = []
    for row, r in enumerate(range(-radius, radius + 1)):
        qs = [q for q in range(-radius, radius + 1) if abs(q + r) <= radius]
        spaces += [{"name": f"{chr(97 + row)}{i + 1}", "q": q, "r": r} for i, q in enumerate(qs)]
    names = {(s["q"], s["r"]): s["name"] for s in spaces}
    return {"spaces": spaces, "inner": [names[o] for o in _OFFSETS]}


def custom_data(seed: int) -> DualsData:
    """The built-in data changed at random as a data file may change it: another board (19 or 37 spaces), other
    token counts (D2: few artisans, so the reserve and the end come early), another set of duals, another FIRE UP
    order (D3), Buddy or none (D11), fewer cards and new patterns with variables (D5's "same type" and "different
    types")."""
    data: dict[str, Any] = tomllib.loads(TEXT)
    rng = Rng(seed)
    radius = 2 + rng.below(2)
    data["board"] = _board(radius)
    tokens = data["tokens"]
    tokens["artisans_per_type"] = 2 + rng.below(4 if radius == 2 else 8)
    pairs = [[a, b] for i, a in enumerate(TYPE_KEYS) for b in TYPE_KEYS[i + 1:]]
    tokens["duals"] = rng.sample(pairs, rng.below(len(pairs) + 1))
    order = list(TYPE_KEYS)
    rng.shuffle(order)
    tokens["fire_up_order"] = order
    tokens["buddy"] = rng.below(2)
    cards = rng.sample(data["card"], 6 + rng.below(len(data["card"]) - 6))
    for _ in range(rng.below(8)):
        at = [(0, 0)]
        while len(at) < 2 + rng.below(4):
            dq, dr = rng.choice(_OFFSETS)
            q, r = rng.choice(at)
            if (q + dq, r + dr) not in at:
                at.append((q + dq, r + dr))
        cells = [{"at": list(a), "type": rng.choice(TYPE_KEYS)} if rng.below(3) == 0 else
                 {"at": list(a), "var": "ABC"[rng.below(3)]} for a in at]
        cards.append({"number": 0, "vp": rng.below(6), "cells": cells, "starburst": rng.below(4) == 0})
    for number, card in enumerate(cards, 1):
        card["number"] = number
    data["card"] = cards
    return parse_duals_data(data, f"custom-{seed}.toml")


def python_fields(st: DualsState) -> dict[str, Any]:
    """Every declared field of a reference state but the game's tables and caches, the generator as its state."""
    skip = {"data", "actions", "neighbours", "abilities", "kind_types", "open_cache", "rng", "_match_cache"}
    out = {f.name: getattr(st, f.name) for f in FIELDS if f.name not in skip}
    out["rng"] = st.rng.state
    return out


def refusal(state: Any, action: Any) -> tuple[str, dict[str, Any]] | None:
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return exc.reason, exc.params
    return None


def play_both(python: DualsGame, native: NativeDualsGame, options: dict[str, Any], seed: int, illegal: int,
              every: int = 0) -> int:
    """One seeded random match on both engines, compared at every step; ``illegal`` random actions that are not
    legal tried on both at each step, and at every ``every``-th step (0: never) every action of the game. The
    number of steps."""
    a = python.new_match(options, seed)
    b = native.new_match(options, seed)
    actions = python.actions.actions
    rng = Rng(seed ^ 0xD1FF)
    steps = 0
    while True:
        for seat in (0, 1, None):
            assert a.view(seat).to_json() == json.loads(b.view_json(seat)), (options, seed, steps, seat)
        assert python_fields(a) == python_fields(to_python(native, b)), (options, seed, steps)
        legal = a.legal_actions()
        assert b.legal_actions() == legal, (options, seed, steps)
        assert b.to_act == a.to_act
        if every and steps % every == 0:
            tried = list(actions)
        else:
            ids = {x.id for x in legal}
            others = [x for x in actions if x.id not in ids]
            tried = [others[rng.below(len(others))] for _ in range(illegal)]
        for wrong in tried:
            expected = refusal(a, wrong)
            assert refusal(b, wrong) == expected, (options, seed, steps, wrong)
            assert expected is not None or wrong in legal
        if a.to_act is None:
            break
        action = legal[rng.below(len(legal))]
        a.apply(action)
        b.apply(action)
        steps += 1
    assert b.outcome == a.outcome is not None
    return steps


def play_light(python: DualsGame, native: NativeDualsGame, options: dict[str, Any], seed: int) -> int:
    """One seeded random match on both engines: the legal actions at every step, the views and the whole state
    at the end, and the outcome. The number of steps."""
    a = python.new_match(options, seed)
    b = native.new_match(options, seed)
    rng = Rng(seed ^ 0x11C7)
    steps = 0
    while a.to_act is not None:
        legal = a.legal_actions()
        assert b.legal_actions() == legal, (options, seed, steps)
        action = legal[rng.below(len(legal))]
        a.apply(action)
        b.apply(action)
        steps += 1
    assert b.to_act is None
    for seat in (0, 1, None):
        assert a.view(seat).to_json() == json.loads(b.view_json(seat)), (options, seed, seat)
    assert python_fields(a) == python_fields(to_python(native, b)), (options, seed)
    assert b.outcome == a.outcome is not None
    return steps


PYTHON = DualsGame()
NATIVE = NativeDualsGame() if extension() is not None else None


def _native() -> NativeDualsGame:
    assert NATIVE is not None
    return NATIVE


@pytest.mark.parametrize("buddy", [False, True], ids=["plain", "buddy"])
def test_random_matches_agree_at_every_step(buddy: bool) -> None:
    steps = sum(play_both(PYTHON, _native(), {"buddy": buddy}, seed, illegal=2) for seed in range(300))
    assert steps > 300 * 50


def test_every_action_is_refused_alike() -> None:
    """Every one of the 659 actions, at every 5th step of 16 matches: the same refusal (reason and parameters), or
    legal on both."""
    for seed in range(16):
        play_both(PYTHON, _native(), {"buddy": seed % 2 == 1}, 1000 + seed, illegal=0, every=5)


def test_thousands_of_matches_agree() -> None:
    """The lighter comparison over 5,000 more matches, both variants."""
    steps = sum(play_light(PYTHON, _native(), {"buddy": seed % 2 == 1}, seed) for seed in range(10_000, 15_000))
    assert steps > 5000 * 50


@pytest.mark.parametrize("data_seed", range(8))
def test_custom_data_agrees(data_seed: int) -> None:
    """Other boards, token counts, duals, orders and patterns play natively as in Python (the data stays data)."""
    data = custom_data(data_seed)
    python, native = DualsGame(data), NativeDualsGame(data)
    for seed in range(30):
        options = {"buddy": bool(data.buddy_tokens) and seed % 2 == 1}
        play_both(python, native, options, seed, illegal=2, every=0 if seed else 5)
    for seed in range(30, 300):
        play_light(python, native, {"buddy": bool(data.buddy_tokens) and seed % 2 == 1}, seed)


def test_custom_data_reaches_what_the_builtin_rarely_shows() -> None:
    """The custom data above does reach bigger boards, the reserve drawn (D7), variables and STARBURST-like
    cards scored (else the comparison says little)."""
    seen: set[str] = set()
    for data_seed in range(8):
        data = custom_data(data_seed)
        native = NativeDualsGame(data)
        if data.board.size > 19:
            seen.add("big board")
        if any(pat.variables for pat in data.matcher.patterns):
            seen.add("variables")
        for seed in range(40):
            st = native.new_match({}, seed)
            rng = Rng(seed ^ 0xD1FF)
            while st.to_act is not None:
                view = json.loads(st.view_json(None))
                if not view["reserve"]:
                    seen.add("reserve drawn")
                if view["phase"] == "take":
                    seen.add("crystal")
                legal = st.legal_actions()
                action = legal[rng.below(len(legal))]
                if action.text().startswith("score"):
                    seen.add("score")
                st.apply(action)
    assert {"big board", "variables", "reserve drawn", "crystal", "score"} <= seen


def test_an_illegal_action_leaves_the_native_state_as_it_was() -> None:
    st = _native().new_match({}, 3)
    before = st.view_json(0)
    with pytest.raises(IllegalAction, match="not possible now"):
        st.apply(PYTHON.actions.DONE)  # while the turn's token is to be placed
    assert st.view_json(0) == before


def test_a_clone_is_independent() -> None:
    st = _native().new_match({}, 5)
    copy = st.clone()
    copy.apply(copy.legal_actions()[-1])
    assert st.view_json(0) != copy.view_json(0)
    assert st.view_json(0) == _native().new_match({}, 5).view_json(0)


def test_each_call_gives_a_list_of_the_callers_own() -> None:
    """The core refills a list of the legal actions it handed out once nobody holds it any more (P3): a list a
    caller keeps is never changed afterwards, changing or clearing one changes no later call's, and a clone's lists
    are its own."""
    a, b = PYTHON.new_match({"buddy": True}, 6), _native().new_match({"buddy": True}, 6)
    rng = Rng(6)
    kept: list[tuple[list[Any], list[Any]]] = []
    while a.to_act is not None:
        legal = a.legal_actions()
        first, second = b.legal_actions(), b.legal_actions()
        assert first == second == legal
        assert first is not second
        first.append("not an action")
        second.clear()
        assert b.legal_actions() == legal
        copy = b.clone()
        assert copy.legal_actions() == b.legal_actions() == legal
        if rng.below(4) == 0:
            mine = b.legal_actions()
            kept.append((mine, list(mine)))
        action = legal[rng.below(len(legal))]
        a.apply(action)
        b.apply(action)
        del first, second, copy
    assert b.legal_actions() == []
    assert len(kept) > 10
    for mine, then in kept:
        assert mine == then


def test_a_setup_plays_natively_as_in_python() -> None:
    setup = {"board": {"c3": ["bread", "meat+bread"], "b2": ["plant"], "b3": ["iron", "potion", "crystal"]},
             "bag": ["meat", "potion+plant", "crystal", "plant", "iron", "bread"], "reserve": ["bread", "crystal"],
             "deck": [12, 5, 30, 1, 2, 3], "hands": [[7], [8, 9]], "coins": [1, 3], "first": 1, "scores": [[4], []]}
    for seed in range(30):
        a = PYTHON.new_match({}, seed, setup)
        b = _native().new_match({}, seed, setup)
        rng = Rng(seed)
        while a.to_act is not None:
            assert a.view(0).to_json() == json.loads(b.view_json(0))
            legal = a.legal_actions()
            assert b.legal_actions() == legal
            action = legal[rng.below(len(legal))]
            a.apply(action)
            b.apply(action)
        assert a.outcome == b.outcome


def test_a_bad_setup_or_option_is_refused_as_in_python() -> None:
    with pytest.raises(RecordError, match="unknown field"):
        _native().new_match({"budy": True}, 1)
    with pytest.raises(RecordError, match="unknown token"):
        _native().new_match({}, 1, {"bag": ["dragon"]})
    no_buddy = parse_duals_data(tomllib.loads(TEXT.replace("buddy = 1", "buddy = 0")), "no-buddy.toml")
    with pytest.raises(RecordError, match="no Buddy token"):
        NativeDualsGame(no_buddy).new_match({"buddy": True}, 1)
    with pytest.raises(TypeError):
        _native().new_match({}, "7")  # type: ignore[arg-type]


def test_the_native_view_is_the_views_value() -> None:
    st = _native().new_match({"buddy": True}, 2)
    assert st.view(1) == PYTHON.new_match({"buddy": True}, 2).view(1)
    with pytest.raises(ValueError, match="seat must be 0, 1 or None"):
        st.view(2)


def test_other_attributes_read_the_reference_state() -> None:
    """What the bots, texts and summaries read of a state (stacks, hands, points, phase) is there natively."""
    a, b = PYTHON.new_match({}, 4), _native().new_match({}, 4)
    rng = Rng(4)
    while a.to_act is not None:
        assert b.phase == a.phase
        action = a.legal_actions()[rng.below(len(a.legal_actions()))]
        a.apply(action)
        b.apply(action)
    assert b.phase is Step.OVER
    assert b.stacks == a.stacks
    assert b.hands == a.hands
    assert [b.points(0), b.points(1)] == [a.points(0), a.points(1)]


FILES = sorted(p.name for p in GOLDEN_DIR.glob("*.json") if p.name != regen.PERFT)
PERFT: list[dict[str, Any]] = json.loads((GOLDEN_DIR / regen.PERFT).read_text(encoding="utf-8"))["perft"]


@pytest.mark.parametrize("name", FILES)
def test_golden_records_replay_natively(name: str) -> None:
    state = replay_golden(_native(), GOLDEN_DIR / name, _native().data.hash, REGEN)
    assert state.outcome is not None


@pytest.mark.parametrize("name", FILES)
def test_the_bots_play_the_golden_matches_natively(name: str) -> None:
    check_played_today(regen.generate(_native())[name], GOLDEN_DIR / name, regen.render, REGEN)


@pytest.mark.parametrize("entry", PERFT, ids=[entry["name"] for entry in PERFT])
def test_perft_counts_natively(entry: dict[str, Any]) -> None:
    counts, digest = regen.measure(_native(), entry["options"], entry["seed"], entry["prefix"], entry["depth"])
    assert counts == entry["counts"], entry["name"]
    assert digest == entry["digest"], entry["name"]


def test_the_registry_picks_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = registry.get("duals")
    monkeypatch.delenv(registry.ENGINE_VARIABLE, raising=False)
    assert entry.engine() == "native"
    assert isinstance(entry.make(), NativeDualsGame)
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "python")
    assert entry.engine() == "python"
    assert type(entry.make()) is DualsGame
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "native")
    assert entry.engine() == "native"
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "fast")
    with pytest.raises(registry.EngineError):
        entry.make()


def test_bench_says_which_engine_ran() -> None:
    from flametable.cli.bench import playouts

    assert playouts(_native(), 10.0, max_matches=3)["engine"] == "native"
    assert playouts(PYTHON, 10.0, max_matches=3)["engine"] == "python"


def test_the_native_game_pickles_as_the_python_one_does() -> None:
    """Process pools send the game to their workers (the lab, the server's bots)."""
    data = custom_data(1)
    copy = pickle.loads(pickle.dumps(NativeDualsGame(data)))
    assert isinstance(copy, NativeDualsGame)
    assert copy.data.hash == data.hash
    assert copy.new_match({}, 7).view_json(0) == NativeDualsGame(data).new_match({}, 7).view_json(0)


def test_the_builtin_data_is_shared() -> None:
    assert _native().data is builtin_duals_data()
