"""The native engine (issue 26) plays Flame Duel exactly as the reference engine does.

Differential tests: seeded random matches of every kind (shared pile, draft, own decks random or brought, custom
card sets with other stats, effects and conditions), played on both engines with the same actions, compared at
every step: the legal actions (same values, same order), both seats' views and the spectator's as JSON, the whole
state (the hidden pile order and the generator too, through ``to_python``), every illegal action refused with the
same reason and parameters, and the outcome. Then the golden records and the perft counts on the native engine.

Without the extension built (``pip install ./native``) these tests skip, saying so; with
``FLAMETABLE_REQUIRE_SERVICES=1`` (CI) the skip is a failure. The long run: ``benchmarks/native_duel.py``.
"""

from __future__ import annotations

import json
import pickle
import tomllib
from pathlib import Path
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.errors import IllegalAction
from flametable.core.rng import Rng
from flametable.games.duel.actions import ACTIONS
from flametable.games.duel.cards import CardSet, EffectKind, builtin_card_set, parse_card_set
from flametable.games.duel.game import DuelGame
from flametable.games.duel.native import NativeDuelGame, extension, to_python
from flametable.games.duel.state import FIELDS, DuelState
from tests.games.duel.golden import regen_perft
from tests.golden import replay_golden
from tests.services import require_or_skip

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
DATA = Path(__file__).resolve().parents[3] / "src/flametable/games/duel/data/cards.toml"


@pytest.fixture(autouse=True)
def _native_built() -> None:
    if extension() is None:
        require_or_skip("the native engine (flametable_native)", "not built here: pip install -c constraints.txt "
                        "./native")


def custom_card_set(seed: int) -> CardSet:
    """The built-in cards with seeded other stats (Charm often tied: tie-breaks and champion picks), effects on
    many cards (every kind: draw, peek, recover, swap a place, clear the place, boost, sap) and event
    conditions: a custom card set as a player could write one."""
    data: dict[str, Any] = tomllib.loads(DATA.read_text(encoding="utf-8"))
    rng = Rng(seed)
    kinds = [k.key for k in EffectKind]

    def effects() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for _ in range(rng.below(4)):
            kind = rng.choice(kinds)
            out.append({"kind": kind, "n": 1 + rng.below(3)} if kind in ("draw", "peek", "boost", "sap")
                       else {"kind": kind})
        return out

    for c in data["character"]:
        c["spark"], c["heat"], c["charm"] = 30 + rng.below(15), 30 + rng.below(15), 36 + rng.below(3)
        c["effects"] = effects()
    for s in data["support"]:
        s["effects"] = effects()
        s["bonus"] = rng.below(21) - 5
        if s["kind"] == "event" and rng.coin():
            s["condition"] = {"printed_at_most": 38} if rng.coin() else {"printed_at_least": 37}
    return parse_card_set(data, f"custom-{seed}")


def own_decks(rng: Rng) -> dict[str, Any]:
    """Own decks (R2): one or both brought, the other dealt at random."""
    def deck() -> dict[str, list[int]] | None:
        if not rng.coin():
            return None
        return {"characters": rng.sample(list(range(1, 34)), 3),
                "supports": rng.sample(list(range(1, 22)), 8 + rng.below(5))}
    return {"mode": "decks", "decks": [deck(), deck()]}


def python_fields(st: DuelState) -> dict[str, Any]:
    """Every declared field of a reference state, the generator as its integer state."""
    out = {f.name: getattr(st, f.name) for f in FIELDS if f.name not in ("cards", "rng")}
    out["rng"] = st.rng.state
    return out


def refusal(state: Any, action: Any) -> tuple[str, dict[str, Any]] | None:
    try:
        state.clone().apply(action)
    except IllegalAction as exc:
        return exc.reason, exc.params
    return None


def play_both(python: DuelGame, native: NativeDuelGame, options: dict[str, Any], seed: int, illegal: int) -> int:
    """One seeded random match on both engines, compared at every step; ``illegal`` random illegal actions tried
    on both at each step. The number of steps."""
    a = python.new_match(options, seed)
    b = native.new_match(options, seed)
    rng = Rng(seed ^ 0xD1FF)
    steps = 0
    while True:
        for seat in (0, 1, None):
            assert a.view(seat).to_json() == json.loads(b.view_json(seat)), (options, seed, steps, seat)
        assert python_fields(a) == python_fields(to_python(native.cards, b)), (options, seed, steps)
        legal = a.legal_actions()
        assert b.legal_actions() == legal, (options, seed, steps)
        assert b.to_act == a.to_act
        others = [x for x in ACTIONS if x not in legal]
        for _ in range(illegal):
            wrong = rng.choice(others)
            assert refusal(b, wrong) == refusal(a, wrong) is not None, (options, seed, steps, wrong)
        if a.to_act is None:
            break
        action = legal[rng.below(len(legal))]
        a.apply(action)
        b.apply(action)
        steps += 1
    assert b.outcome == a.outcome is not None
    return steps


PYTHON = DuelGame()
KINDS: list[tuple[str, dict[str, Any], int]] = [  # a draft has 30-odd actions a pick: fewer matches
    ("shared", {}, 400), ("draft", {"pick": "draft"}, 120), ("decks", {"mode": "decks"}, 400),
]


@pytest.mark.parametrize(("kind", "options", "matches"), KINDS)
def test_random_matches_agree_at_every_step(kind: str, options: dict[str, Any], matches: int) -> None:
    native = NativeDuelGame()
    steps = sum(play_both(PYTHON, native, options, seed, illegal=2) for seed in range(matches))
    assert steps > matches * 10


def test_brought_own_decks_agree() -> None:
    native = NativeDuelGame()
    rng = Rng(26)
    for seed in range(300):
        play_both(PYTHON, native, own_decks(rng), seed, illegal=1)


@pytest.mark.parametrize("card_seed", range(6))
def test_custom_card_sets_agree(card_seed: int) -> None:
    """Other stats and many effects: choices (R10), tie-breaks (R14), peeks and saps, all played natively."""
    cards = custom_card_set(card_seed)
    python, native = DuelGame(cards), NativeDuelGame(cards)
    rng = Rng(card_seed)
    for seed in range(60):
        options = [{}, {"pick": "draft"}, {"mode": "decks"}, own_decks(rng)][seed % 4]
        play_both(python, native, options, seed, illegal=1)


def test_custom_card_sets_reach_choices_and_tie_breaks() -> None:
    """The custom sets above do exercise what the built-in set rarely shows (else the comparison says little)."""
    phases = set()
    for card_seed in range(6):
        native = NativeDuelGame(custom_card_set(card_seed))
        for seed in range(60):
            st = native.new_match({}, seed)
            rng = Rng(seed ^ 0xD1FF)
            while st.to_act is not None:
                phases.add(json.loads(st.view_json(None))["phase"])
                legal = st.legal_actions()
                st.apply(legal[rng.below(len(legal))])
    assert {"choice", "champion"} <= phases


def test_an_illegal_action_leaves_the_native_state_as_it_was() -> None:
    native = NativeDuelGame()
    st = native.new_match({}, 3)
    before = st.view_json(0)
    with pytest.raises(IllegalAction, match="not possible now"):
        st.apply(ACTIONS[0])  # pass during the line-up
    assert st.view_json(0) == before


def test_a_clone_is_independent() -> None:
    native = NativeDuelGame()
    st = native.new_match({}, 5)
    copy = st.clone()
    copy.apply(copy.legal_actions()[0])
    assert st.view_json(0) != copy.view_json(0)
    assert st.view_json(0) == native.new_match({}, 5).view_json(0)


def test_a_setup_plays_natively_as_in_python() -> None:
    setup = {"lineups": [[1, 2, 3], [4, 5, 6]], "hands": [[1, 2, 3], [4, 5, 6]],
             "piles": [[7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]]}
    a = PYTHON.new_match({}, 9, setup)
    b = NativeDuelGame().new_match({}, 9, setup)
    rng = Rng(9)
    while a.to_act is not None:
        assert a.view(0).to_json() == json.loads(b.view_json(0))
        legal = a.legal_actions()
        assert b.legal_actions() == legal
        action = legal[rng.below(len(legal))]
        a.apply(action)
        b.apply(action)
    assert a.outcome == b.outcome


def test_the_native_view_is_the_views_value() -> None:
    native = NativeDuelGame()
    st = native.new_match({"pick": "draft"}, 2)
    assert st.view(1) == PYTHON.new_match({"pick": "draft"}, 2).view(1)
    with pytest.raises(ValueError, match="seat must be 0, 1 or None"):
        st.view(2)


def test_other_attributes_read_the_reference_state() -> None:
    """What the lab's summaries read of a finished match (results, line-ups) is there on a native state."""
    native = NativeDuelGame()
    a, b = PYTHON.new_match({}, 4), native.new_match({}, 4)
    while a.to_act is not None:
        action = a.legal_actions()[0]
        a.apply(action)
        b.apply(action)
    assert b.results == a.results
    assert b.lineups == a.lineups


@pytest.mark.parametrize("name", sorted(p.name for p in GOLDEN_DIR.glob("*.json") if p.name != "perft.json"))
def test_golden_records_replay_natively(name: str) -> None:
    native = NativeDuelGame()
    state = replay_golden(native, GOLDEN_DIR / name, native.cards.hash, "tests/games/duel/golden/regen.py")
    assert state.outcome is not None


PERFT: dict[str, Any] = json.loads((GOLDEN_DIR / "perft.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", PERFT["cases"], ids=lambda c: c["name"])
def test_perft_counts_natively(case: dict[str, Any]) -> None:
    native = NativeDuelGame()
    state = native.new_match(case["options"], case["seed"])
    for text in case["moves"]:
        state.apply(native.action_from_text(text))
    assert regen_perft.perft(state, case["depth"]) == (case["counts"], case["finished"])


def test_the_registry_picks_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = registry.get("duel")
    monkeypatch.delenv(registry.ENGINE_VARIABLE, raising=False)
    assert entry.engine() == "native"
    assert isinstance(entry.make(), NativeDuelGame)
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "python")
    assert entry.engine() == "python"
    assert type(entry.make()) is DuelGame
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "native")
    assert entry.engine() == "native"
    monkeypatch.setenv(registry.ENGINE_VARIABLE, "fast")
    with pytest.raises(registry.EngineError):
        entry.make()


def test_bench_says_which_engine_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    from flametable.cli.bench import playouts

    assert playouts(NativeDuelGame(), 10.0, max_matches=3)["engine"] == "native"
    assert playouts(PYTHON, 10.0, max_matches=3)["engine"] == "python"


def test_the_native_game_pickles_as_the_python_one_does() -> None:
    """Process pools send the game to their workers (the lab, the server's bots)."""
    cards = custom_card_set(1)
    copy = pickle.loads(pickle.dumps(NativeDuelGame(cards)))
    assert isinstance(copy, NativeDuelGame)
    assert copy.cards == cards
    assert copy.new_match({}, 7).view_json(0) == NativeDuelGame(cards).new_match({}, 7).view_json(0)


def test_the_builtin_card_set_is_shared() -> None:
    assert NativeDuelGame().cards is builtin_card_set()


@pytest.mark.parametrize("options", [{}, {"pick": "draft"}, {"mode": "decks"}], ids=["shared", "draft", "decks"])
def test_the_batch_plays_each_match_as_the_reference_engine(options: dict[str, Any]) -> None:
    """Every slot of a batch is the reference engine's match of its seed, reset with the next seed when it ends:
    masks are the legal actions, rewards +1 / -1 / 0 at the end (the learning environments'), done then."""
    np = pytest.importorskip("numpy")
    from flametable.games.duel.native import NativeDuelBatch

    size, seed = 5, 40
    batch = NativeDuelBatch(NativeDuelGame(), size, options, seed)
    matches = [PYTHON.new_match(options, seed + i) for i in range(size)]
    seeds = [seed + i for i in range(size)]
    rng = Rng(7)
    ends = 0
    for _ in range(1000):
        for i, st in enumerate(matches):
            assert [a for a in range(187) if batch.mask[i, a]] == sorted(a.id for a in st.legal_actions())
            assert batch.to_act[i] == st.to_act
            assert batch.seed(i) == seeds[i]
            assert json.loads(batch.state(i).view_json(st.to_act)) == st.view(st.to_act).to_json()
        actions = [st.legal_actions()[rng.below(len(st.legal_actions()))] for st in matches]
        mask, rewards, dones = batch.step(np.array([a.id for a in actions]))
        assert mask is batch.mask
        for i, (st, action) in enumerate(zip(matches, actions, strict=True)):
            st.apply(action)
            assert bool(dones[i]) == (st.outcome is not None)
            if st.outcome is None:
                assert list(rewards[i]) == [0.0, 0.0]
                continue
            ends += 1
            winner = st.outcome.winner
            assert list(rewards[i]) == ([0.0, 0.0] if winner is None else [1.0 - 2 * (winner != 0),
                                                                             1.0 - 2 * (winner != 1)])
            seeds[i] += size
            matches[i] = PYTHON.new_match(options, seeds[i])
    assert ends > 150


def test_the_batch_refuses_an_illegal_action_before_any_match_moves() -> None:
    np = pytest.importorskip("numpy")
    from flametable.games.duel.native import NativeDuelBatch

    batch = NativeDuelBatch(NativeDuelGame(), 3, {}, 1)
    before = [batch.state(i).view_json(0) for i in range(3)]
    legal = [int(np.flatnonzero(batch.mask[i])[0]) for i in range(3)]
    expected = refusal(PYTHON.new_match({}, 3), ACTIONS[0])
    with pytest.raises(IllegalAction) as refused:
        batch.step(np.array([legal[0], legal[1], 0]))  # pass, during the line-up
    assert (refused.value.reason, refused.value.params) == expected
    assert [batch.state(i).view_json(0) for i in range(3)] == before


@pytest.mark.parametrize("card_seed", [None, 2, 3])
def test_the_core_encodes_the_observation_of_the_seats_view(card_seed: int | None) -> None:
    """The core's encoder, from the state, writes what DuelObservation.encode writes from the seat's view
    (R15: so it reads no more than the view holds), at every step, both seats, every kind of match."""
    np = pytest.importorskip("numpy")
    from flametable.games.duel.native import encoder
    from flametable.games.duel.observation import DuelObservation

    cards = builtin_card_set() if card_seed is None else custom_card_set(card_seed)
    python, native = DuelGame(cards), NativeDuelGame(cards)
    spec, encode = DuelObservation(python), encoder(native)
    want, got = np.zeros(spec.shape, np.float32), np.full(spec.shape, 9.0, np.float32)
    rng = Rng(5)
    for seed in range(80):
        options = [{}, {"pick": "draft"}, {"mode": "decks"}, own_decks(rng)][seed % 4]
        a, b = python.new_match(options, seed), native.new_match(options, seed)
        while True:
            for seat in (0, 1):
                spec.encode(a.view(seat), want)
                encode(b, seat, got)
                assert np.array_equal(want, got), (options, seed, seat, np.flatnonzero(want != got))
            if a.to_act is None:
                break
            action = a.legal_actions()[rng.below(len(a.legal_actions()))]
            a.apply(action)
            b.apply(action)


def test_the_batch_writes_each_matchs_observation_for_its_seat_to_act() -> None:
    np = pytest.importorskip("numpy")
    from flametable.games.duel.native import NativeDuelBatch, encoder
    from flametable.games.duel.observation import DuelObservation

    native = NativeDuelGame()
    batch, encode, spec = NativeDuelBatch(native, 6, {"pick": "draft"}, 3), encoder(native), DuelObservation(PYTHON)
    obs = np.zeros((6, *spec.shape), np.float32)
    want = np.zeros(spec.shape, np.float32)
    rng = np.random.default_rng(3)
    for _ in range(120):
        batch.observe(encode, obs)
        for i in range(6):
            st = batch.state(i)
            spec.encode(st.view(st.to_act), want)
            assert np.array_equal(obs[i], want)
        batch.step(np.argmax(rng.random(batch.mask.shape) * batch.mask, axis=1))


def test_the_learning_environment_observes_the_same_on_both_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """The PettingZoo environment on the native engine encodes its states in the core: the same observations
    and masks as on the Python engine, step by step (and the leak test's argument holds: the core reads the view's
    fields only, test_the_core_encodes_the_observation_of_the_seats_view)."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from flametable.rl.aec import raw_env

    envs = []
    for engine in ("python", "native"):
        monkeypatch.setenv(registry.ENGINE_VARIABLE, engine)
        envs.append(raw_env("duel", {"pick": "draft"}))
    python_env, native_env = envs
    assert isinstance(native_env.game, NativeDuelGame)
    assert type(python_env.game) is DuelGame
    rng = np.random.default_rng(2)
    for seed in range(15):
        for env in envs:
            env.reset(seed=seed)
        while python_env.agents:
            agent = python_env.agent_selection
            assert native_env.agent_selection == agent
            for who in python_env.agents:
                want, got = python_env.observe(who), native_env.observe(who)
                assert np.array_equal(want["observation"], got["observation"])
                assert np.array_equal(want["action_mask"], got["action_mask"])
            done = python_env.terminations[agent] or python_env.truncations[agent]
            action = None if done else int(rng.choice(np.flatnonzero(python_env.observe(agent)["action_mask"])))
            for env in envs:
                env.step(action)
            assert native_env.rewards == python_env.rewards


def test_the_batch_on_several_threads_gives_the_same_results() -> None:
    np = pytest.importorskip("numpy")
    from flametable.games.duel.native import NativeDuelBatch, encoder

    native = NativeDuelGame()
    encode = encoder(native)
    one, three = NativeDuelBatch(native, 50, {}, 8), NativeDuelBatch(native, 50, {}, 8, threads=3)
    obs_one, obs_three = np.zeros((50, *encode.spec.shape), np.float32), np.zeros((50, *encode.spec.shape), np.float32)
    rng = np.random.default_rng(8)
    for _ in range(200):
        actions = np.argmax(rng.random(one.mask.shape) * one.mask, axis=1)
        for (mask, rewards, dones), (mask3, rewards3, dones3) in [(one.step(actions), three.step(actions))]:
            assert np.array_equal(mask, mask3)
            assert np.array_equal(rewards, rewards3)
            assert np.array_equal(dones, dones3)
        assert np.array_equal(one.observe(encode, obs_one), three.observe(encode, obs_three))
    assert [one.seed(i) for i in range(50)] == [three.seed(i) for i in range(50)]
