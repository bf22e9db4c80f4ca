"""Flamecraft Duals' native engine for learning (issue 26, points 3 and 4): the core's observations and its batch.

The core's encoder writes a seat's observation straight from the native state: it must be exactly
``DualsObservation.encode`` of that seat's view (D10: so it reads no more than the view holds), at every step of
random matches (both variants, the built-in data and custom data), and two states with the same view must give it
the same observation (the learning environments' leak test, ``tests/rl/leakcheck.py``, run on the core's encoder).
The learning environments use it when the native engine is built. The batch steps N matches in one call: each
slot is the reference engine's match of its seed, reset with the next seed at its end.

Without the extension built (``pip install ./native``) these tests skip, saying so; with
``FLAMETABLE_REQUIRE_SERVICES=1`` (CI) the skip is a failure.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.errors import IllegalAction, RecordError
from flametable.core.rng import Rng
from flametable.games.duals.game import DualsGame
from flametable.games.duals.native import NativeDualsGame, extension
from flametable.games.duals.state import DualsState
from tests.games.duals.test_native import TEXT, custom_data, refusal
from tests.services import require_or_skip

np = pytest.importorskip("numpy")

from flametable.games.duals.native import NativeDualsBatch, encoder  # noqa: E402  (numpy: the learning extras')
from flametable.games.duals.observation import DualsObservation  # noqa: E402

PYTHON = DualsGame()


@pytest.fixture(autouse=True)
def _native_built() -> None:
    if extension() is None:
        require_or_skip("the native engine (flametable_native)", "not built here: pip install -c constraints.txt "
                        "./native")


@pytest.mark.parametrize("data_seed", [None, 0, 1, 2, 3], ids=["builtin", "custom0", "custom1", "custom2", "custom3"])
def test_the_core_encodes_the_observation_of_the_seats_view(data_seed: int | None) -> None:
    """At every step of random matches (the plain game and Buddy), for both seats: the core's observation of the
    state is DualsObservation.encode of the seat's view, cell for cell."""
    data = None if data_seed is None else custom_data(data_seed)
    python, native = DualsGame(data), NativeDualsGame(data)
    spec, encode = DualsObservation(python), encoder(native)
    want, got = np.zeros(spec.shape, np.float32), np.full(spec.shape, 9.0, np.float32)
    rng = Rng(5)
    matches = 60 if data_seed is None else 15
    seen: set[str] = set()
    for seed in range(matches):
        options = {"buddy": bool(python.data.buddy_tokens) and seed % 2 == 1}
        a, b = python.new_match(options, seed), native.new_match(options, seed)
        while True:
            for seat in (0, 1):
                view = a.view(seat)
                spec.encode(view, want)
                encode(b, seat, got)
                assert np.array_equal(want, got), (options, seed, seat, np.flatnonzero(want != got))
                seen.update(name for name, there in (("bottom", view.bottom_known), ("drawn", view.drawn),
                                                     ("fired", view.fired), ("matching", view.matching),
                                                     ("iron", view.iron_dest >= 0)) if there)
            if a.to_act is None:
                break
            action = a.legal_actions()[rng.below(len(a.legal_actions()))]
            a.apply(action)
            b.apply(action)
    if data_seed is None:  # the comparison reached every part of the layout that is not always there
        assert seen == {"bottom", "drawn", "fired", "matching", "iron"}


def test_the_encoder_refuses_a_spectator_another_layout_and_another_length() -> None:
    native = NativeDualsGame()
    st = native.new_match({}, 1)
    encode = encoder(native)
    out = np.zeros(encode.spec.shape, np.float32)
    with pytest.raises(ValueError, match="spectator"):
        encode(st, 2, out)
    with pytest.raises(ValueError, match="length"):
        encode(st, 0, np.zeros(encode.spec.shape[0] - 1, np.float32))
    other = NativeDualsGame(custom_data(2))
    with pytest.raises(ValueError, match="layout"):
        encoder(other)(st, 0, out)


class NativeChecker:
    """The leak check (tests/rl/leakcheck.py) with the core's encoder: at the checker's samples, the core's
    observation of the state is the view's, and the determiniser's second state (the hidden information sampled
    afresh, copied into the core) gives the core's encoder the same observation."""

    def __init__(self) -> None:
        from tests.rl import leakcheck

        checker = self.checker = leakcheck.Checker("duals")
        assert isinstance(checker.game, NativeDualsGame)
        self.encode = encoder(checker.game)
        self.native_samples = 0
        original = checker.check_sample

        def check_sample(state: Any, seat: int, seed: int, tally: leakcheck.Tally, where: str) -> None:
            original(state, seat, seed, tally, where)
            self.check(state, seat, seed, tally, where)

        checker.check_sample = check_sample  # type: ignore[method-assign]

    def native_obs(self, state: Any, seat: int) -> Any:
        if isinstance(state, DualsState):
            state = self.checker.game.native_state(state)
        out = np.full(self.encode.spec.shape, 9.0, np.float32)
        self.encode(state, seat, out)
        return out

    def check(self, state: Any, seat: int, seed: int, tally: Any, where: str) -> None:
        view = state.view(seat)
        obs = self.native_obs(state, seat)
        if obs.tobytes() != self.checker.observe(view).tobytes():
            tally.leaks.append(f"{where} seat {seat}: the core's observation is not the view's")
        second = self.checker.determinizer(view)(Rng(seed))
        if second.view(seat) != view:
            return
        self.native_samples += 1
        if self.native_obs(second, seat).tobytes() != obs.tobytes():
            tally.leaks.append(f"{where} seat {seat}: the core encodes a state with the same view otherwise")


def test_states_with_the_same_view_give_the_core_the_same_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(registry.ENGINE_VARIABLE, raising=False)
    native = NativeChecker()
    tally = native.checker.run(0, 150, samples_per_match=3)
    assert tally.leaks == []
    assert tally.determiniser_mismatches == 0
    assert tally.samples == native.native_samples == 2 * 4 * 150
    assert tally.hidden_changed > tally.samples // 2  # the second states really hid other things


def test_the_learning_environments_use_the_core_and_observe_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """The PettingZoo environment on the native engine encodes its states in the core: the same observations,
    masks and rewards as on the Python engine, step by step."""
    pytest.importorskip("pettingzoo")
    from flametable.games.duals.native import NativeEncoder
    from flametable.rl.aec import raw_env

    envs = []
    for engine in ("python", "native"):
        monkeypatch.setenv(registry.ENGINE_VARIABLE, engine)
        envs.append(raw_env("duals", {"buddy": True}))
    python_env, native_env = envs
    assert isinstance(native_env.game, NativeDualsGame)
    assert type(python_env.game) is DualsGame
    assert isinstance(native_env._encode, NativeEncoder)
    rng = np.random.default_rng(2)
    for seed in range(8):
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


def test_the_gymnasium_environment_uses_the_core_and_observes_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gymnasium")
    from flametable.games.duals.native import NativeEncoder
    from flametable.rl.single import SingleEnv

    envs = []
    for engine in ("python", "native"):
        monkeypatch.setenv(registry.ENGINE_VARIABLE, engine)
        envs.append(SingleEnv("duals"))
    python_env, native_env = envs
    assert isinstance(native_env._encode, NativeEncoder)
    assert not isinstance(python_env._encode, NativeEncoder)
    rng = np.random.default_rng(4)
    for seed in range(6):
        (want, _), (got, _) = (env.reset(seed=seed) for env in envs)
        while True:
            assert np.array_equal(want["observation"], got["observation"])
            assert np.array_equal(want["action_mask"], got["action_mask"])
            action = int(rng.choice(np.flatnonzero(want["action_mask"])))
            (want, r0, end0, cut0, _), (got, r1, end1, cut1, _) = (env.step(action) for env in envs)
            assert (r0, end0, cut0) == (r1, end1, cut1)
            if end0 or cut0:
                break


@pytest.mark.parametrize("buddy", [False, True], ids=["plain", "buddy"])
def test_the_batch_plays_each_match_as_the_reference_engine(buddy: bool) -> None:
    """Every slot of a batch is the reference engine's match of its seed, reset with the next seed when it ends:
    masks are the legal actions, rewards +1 / -1 / 0 at the end (the learning environments'), done then."""
    options = {"buddy": buddy}
    size, seed = 5, 40
    batch = NativeDualsBatch(NativeDualsGame(), size, options, seed)
    matches = [PYTHON.new_match(options, seed + i) for i in range(size)]
    seeds = [seed + i for i in range(size)]
    rng = Rng(7)
    ends = 0
    for _ in range(1500):
        for i, st in enumerate(matches):
            assert list(np.flatnonzero(batch.mask[i])) == sorted(a.id for a in st.legal_actions())
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
    assert ends > 30


def test_the_batch_refuses_an_illegal_action_before_any_match_moves() -> None:
    batch = NativeDualsBatch(NativeDualsGame(), 3, {}, 1)
    before = [batch.state(i).view_json(0) for i in range(3)]
    legal = [int(np.flatnonzero(batch.mask[i])[0]) for i in range(3)]
    done = PYTHON.actions.DONE
    expected = refusal(PYTHON.new_match({}, 3), done)
    assert expected is not None
    with pytest.raises(IllegalAction) as refused:
        batch.step(np.array([legal[0], legal[1], done.id]))  # done, while the turn's token is to be placed
    assert (refused.value.reason, refused.value.params) == expected
    assert [batch.state(i).view_json(0) for i in range(3)] == before
    with pytest.raises(ValueError, match="action id"):
        batch.step(np.array([legal[0], legal[1], PYTHON.num_actions]))
    assert [batch.state(i).view_json(0) for i in range(3)] == before


def test_the_batch_refuses_buddy_without_its_token() -> None:
    import tomllib

    from flametable.games.duals.data import parse_duals_data

    no_buddy = parse_duals_data(tomllib.loads(TEXT.replace("buddy = 1", "buddy = 0")), "no-buddy.toml")
    with pytest.raises(RecordError, match="no Buddy token"):
        NativeDualsBatch(NativeDualsGame(no_buddy), 2, {"buddy": True})


def test_the_batch_writes_each_matchs_observation_for_its_seat_to_act() -> None:
    native = NativeDualsGame()
    batch, encode, spec = NativeDualsBatch(native, 6, {"buddy": True}, 3), encoder(native), DualsObservation(PYTHON)
    obs = np.zeros((6, *spec.shape), np.float32)
    want = np.zeros(spec.shape, np.float32)
    rng = np.random.default_rng(3)
    for _ in range(300):
        batch.observe(encode, obs)
        for i in range(6):
            st = batch.state(i)
            spec.encode(st.view(st.to_act), want)
            assert np.array_equal(obs[i], want)
        batch.step(np.argmax(rng.random(batch.mask.shape) * batch.mask, axis=1))


def test_the_batch_on_several_threads_gives_the_same_results() -> None:
    native = NativeDualsGame(custom_data(3))
    encode = encoder(native)
    one, three = NativeDualsBatch(native, 50, {}, 8), NativeDualsBatch(native, 50, {}, 8, threads=3)
    obs_one, obs_three = np.zeros((50, *encode.spec.shape), np.float32), np.zeros((50, *encode.spec.shape), np.float32)
    rng = np.random.default_rng(8)
    ends = 0
    for _ in range(300):
        actions = np.argmax(rng.random(one.mask.shape) * one.mask, axis=1)
        mask, rewards, dones = (x.copy() for x in one.step(actions))
        mask3, rewards3, dones3 = three.step(actions)
        assert np.array_equal(mask, mask3)
        assert np.array_equal(rewards, rewards3)
        assert np.array_equal(dones, dones3)
        ends += int(dones.sum())
        assert np.array_equal(one.observe(encode, obs_one), three.observe(encode, obs_three))
    assert [one.seed(i) for i in range(50)] == [three.seed(i) for i in range(50)]
    assert ends > 0
