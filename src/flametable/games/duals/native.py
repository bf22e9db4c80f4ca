"""Flamecraft Duals on the native engine (issue 26): the C++ core of ``native/`` (the ``flametable-native``
distribution, module ``flametable_native._duals``) behind the same protocol, where it is built; the Python engine
(``duals.state``) stays the reference.

:class:`NativeDualsGame` is a :class:`DualsGame` whose matches are the extension's states: the data is read by
Python as ever and handed to the core as integer tables (the board, the tokens, every pattern's placements: custom
data plays natively too), the actions are the same :class:`DualsAction` values, the views the same
:class:`DualsView` (the core writes the view's JSON form), the outcomes the same :class:`Outcome`, and an illegal
action raises the same :class:`IllegalAction` (its reason and parameters made here, from the core's code). A match
with an explicit setup is set up by the Python engine and copied into the core. Reading any other attribute of a
native state (``stacks``, ``hands``, ``points``...) gives the reference engine's, from a copy of the state
(:func:`to_python`): slower, and never written back.

The differential tests (``tests/games/duals/test_native.py``) hold the two engines to the same play.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from flametable.core.errors import IllegalAction, RecordError
from flametable.core.i18n import N_, Phrase
from flametable.core.outcome import Outcome
from flametable.core.registry import ENGINE_VARIABLE, native_wanted
from flametable.core.rng import Rng
from flametable.games.duals.data import DualsData
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import NUM_TYPES, STACK_LIMIT, TYPE_KEYS, DualsOptions, Reason, Step
from flametable.games.duals.state import EXPECTED, DualsState, _positions
from flametable.games.duals.view import DualsView

_MASK = (1 << 64) - 1
_REASONS = tuple(Reason)  # the core's reason index: MOST_VP, MORE_CARDS, SHARED


def extension() -> ModuleType | None:
    """The core's extension module, or None where it is not built (installed)."""
    try:
        return importlib.import_module("flametable_native._duals")
    except ImportError:
        return None


def factory() -> Callable[..., DualsGame] | None:
    """The registry's ``native`` piece: the native game's factory, or None without the extension or with
    ``FLAMETABLE_ENGINE=python`` (:func:`~flametable.core.registry.native_wanted`)."""
    wanted = native_wanted("duals", os.environ.get(ENGINE_VARIABLE, ""), lambda: extension() is not None)
    return NativeDualsGame if wanted else None


def _outcome(winner: int | None, reason: int, points0: int, points1: int) -> Outcome:
    return Outcome(winner, _REASONS[reason], (points0, points1))


class _Refusals:
    """The core's refusal codes (duals.cpp, enum Illegal), in order: the reference engine's messages (state.py)."""

    def __init__(self, game: DualsGame) -> None:
        self.actions = game.actions.actions
        self.spaces = game.data.board.names
        self.kinds = game.data.kind_names

    def __call__(self, code: int, action_id: int, a: int, b: int) -> IllegalAction:
        action = self.actions[action_id]
        space, kinds = self.spaces, self.kinds
        if code == 0:
            return IllegalAction(N_("The match is over."))
        if code == 1:
            return IllegalAction(N_("{card} is not in your hand."), card=f"K{a}")
        if code == 2:
            return IllegalAction(N_("You can spend a coin only once per turn."))  # FAQ
        if code == 3:
            return IllegalAction(N_("You have no coins left."))
        if code == 4:
            return IllegalAction(N_("{card} does not match the board in any rotation."), card=f"K{a}")  # D5
        if code == 5:
            return IllegalAction(N_("Space {space} already holds 3 tokens."), space=space[a])
        if code == 6:
            return IllegalAction(N_("The {token} token has no {ability} ability."), token=Phrase(kinds[a]),
                                 ability=Phrase(TYPE_KEYS[b]))
        if code == 7:
            return IllegalAction(N_("The {ability} ability has nothing to do here."), ability=Phrase(TYPE_KEYS[a]))
        if code == 8:
            return IllegalAction(N_("The plant uses this token: choose one of its abilities."))  # D6
        if code == 9:
            return IllegalAction(N_("No {token} token was drawn."), token=Phrase(kinds[a]))
        if code == 10:
            return IllegalAction(N_("The iron moves two different tokens: this one has moved."))  # D6
        if code == 11:
            return IllegalAction(N_("The iron moves a token by one space: {to} is not next to {space}."),
                                 to=space[a], space=space[b])
        if code == 12:
            return IllegalAction(N_("There is no token on {space}."), space=space[a])
        if code == 13:
            return IllegalAction(N_("Swapping two {token} tokens changes nothing."), token=Phrase(kinds[a]))
        if code == 14:
            return IllegalAction(N_("The token on {space} has already fired in this chain."), space=space[a])
        if code == 15:
            return IllegalAction(N_("The token on {space} has no ability that can do something."), space=space[a])
        if code == 16:
            return IllegalAction(N_("{space} is not next to the firing token on {src}."), space=space[a],
                                 src=space[b])
        if code == 17:
            return IllegalAction(N_("Space {space} already holds 3 tokens: no stack ever exceeds 3."),  # FAQ, D6
                                 space=space[a])
        return IllegalAction(N_("{action} is not possible now: {expected}."), action=action.text(),
                             expected=EXPECTED[Step(a)])


def _rank(data: DualsData, kind: int) -> int:
    """D3's rank key of a token kind as one int ordered as the key (data.rank_key: (rank, dual) pairs)."""
    rank, dual = data.rank_key(kind)
    return 2 * rank + dual


def tables(game: DualsGame) -> Any:
    """The core's tables of ``game``'s data (and of its actions and the factories of what leaves the core)."""
    core = extension()
    if core is None:
        raise RuntimeError("the native engine is not built")
    data = game.data
    acts = game.actions
    patterns: list[list[Any]] = [[]]
    for pat in data.matcher.patterns:
        patterns.append([(list(pl.fixed), [list(g) for g in pl.groups]) for pl in pat.placements])
    bag = [t for t in range(NUM_TYPES) for _ in range(data.artisans_per_type - 2)]
    bag += range(NUM_TYPES, NUM_TYPES + len(data.duals))
    return core.make_tables({
        "spaces": data.board.size,
        "cards": len(data.cards),
        "kinds": data.num_kinds,
        "buddy_kind": data.buddy,
        "buddy_tokens": data.buddy_tokens,
        "offsets": [acts.offset[kind] for kind in sorted(acts.offset)],
        "adj": [list(a) for a in data.board.adj],
        "inner": list(data.board.inner),
        "abilities": [sorted(a) for a in data.kind_abilities],
        "kind_mask": list(data.kind_mask),
        "rank": [_rank(data, k) for k in range(data.num_kinds)],
        "pool": [k for k in range(data.num_kinds) for _ in range(data.supply[k])],
        "bag": bag,
        "vp": list(data.vp),
        "starburst": [c in data.starburst for c in range(len(data.cards) + 1)],
        "patterns": patterns,
        "space_names": list(data.board.names),
        "kind_names": list(data.kind_names),
        "actions": acts.actions,
        "make_outcome": _outcome,
        "illegal": _Refusals(game),
        "make_view": lambda text: DualsView.from_json(json.loads(text), data),
        "fallback": lambda native, name: getattr(to_python(game, native), name),
    })


class NativeDualsGame(DualsGame):
    """Flamecraft Duals whose matches are played by the C++ core."""

    engine = "native"

    def __init__(self, data: DualsData | Any = None) -> None:
        super().__init__(data)
        core = extension()
        if core is None:
            raise RuntimeError("the native engine is not built")
        self._core: ModuleType = core
        self._native = tables(self)

    def new_match(
        self,
        options: Mapping[str, Any] | DualsOptions | None = None,
        seed: int = 0,
        setup: Mapping[str, Any] | None = None,
    ) -> Any:
        if setup is not None:
            return to_native(self, super().new_match(options, seed, setup))
        if not options and type(seed) is int:  # the plain game (the bench's and the learning loops' call)
            return self._core.new_match(self._native, False, seed & _MASK)
        opts = DualsOptions.from_json(options)
        if opts.buddy and not self.data.buddy_tokens:
            raise RecordError(N_("the data {data!r} has no Buddy token for the Buddy variant"), data=self.data.id)
        if type(seed) is not int:
            Rng(seed)  # the reference's TypeError for what is no int
        return self._core.new_match(self._native, opts.buddy, seed & _MASK)

    def state_encoder(self, spec: Any) -> NativeEncoder | None:
        """The core's encoder of this game's states for ``spec`` when it is Flamecraft Duals' own layout (the
        learning environments: ``rl.spec.state_encoder``), else None (they encode the views)."""
        from flametable.games.duals.observation import DualsObservation  # numpy: the learning extras'

        if type(spec) is not DualsObservation or spec.shape != DualsObservation(self).shape:
            return None
        return NativeEncoder(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its data (a worker process makes its own core tables)."""
        return (NativeDualsGame, (self.data,))

    def native_state(self, st: DualsState) -> Any:
        """A native copy of a reference state (of this game's data)."""
        return to_native(self, st)


def to_native(game: NativeDualsGame, st: DualsState) -> Any:
    """The core's copy of the reference state ``st``."""
    fields = {
        "stacks": st.stacks, "bag": st.bag, "reserve": st.reserve, "deck": st.deck, "drawn": st.drawn,
        "hands": st.hands, "piles": st.piles, "known_bottom": st.known_bottom, "coins": st.coins,
        "rng_state": st.rng.state, "first": st.first, "first_draws": st.first_draws, "buddy": st.buddy,
        "turn": st.turn, "turn_number": st.turn_number, "step": st.step, "firing_space": st.firing_space,
        "held": st.held, "fire_after": st.fire_after, "fire_optional": st.fire_optional,
        "fired": _positions(st.fired), "iron_destination": st.iron_destination, "coin_used": st.coin_used,
        "bottom_left": st.bottom_left, "ended": st.ended, "last": st.last,
    }
    return game._core.from_fields(game._native, fields)


def to_python(game: DualsGame, native: Any) -> DualsState:
    """The reference engine's copy of a native state (``game``: its game)."""
    f = native.fields()
    rng = Rng(0)
    rng.state = f["rng_state"]
    st = game.blank(f["buddy"], rng)
    for name in ("stacks", "bag", "reserve", "deck", "drawn", "hands", "piles", "known_bottom", "coins", "first",
                 "turn", "turn_number", "step", "firing_space", "held", "fire_after", "fire_optional",
                 "iron_destination", "coin_used", "bottom_left", "ended", "last"):
        setattr(st, name, f[name])
    st.first_draws = tuple(f["first_draws"])
    st.fired = sum(1 << (s * STACK_LIMIT + level) for s, level in f["fired"])
    st.index_board()
    st._legal = [game.actions.actions[i] for i in f["legal"]]
    st._outcome = native.outcome
    return st


class NativeDualsBatch:
    """N Flamecraft Duals matches on the native engine stepped in one call, for learning (issue 26, point 4):
    ``step`` takes one action id per match (for its seat to act) and gives the legal-action masks ``mask[N, A]``
    (A: the game's actions), the rewards ``rewards[N, 2]`` (+1 a win, -1 a loss, 0 a shared victory, at a match's
    end) and ``dones[N]``; a finished match starts its next one at once (slot ``i`` plays the seeds ``seed + i``,
    ``seed + i + N``, ...), and ``to_act[N]`` says whose decision each mask is. The core runs without the GIL. The
    arrays are the batch's own, overwritten by every step. ``observe`` writes each match's observation for its
    seat to act. ``threads``: the matches are split among that many threads in each call (the same results)."""

    def __init__(self, game: NativeDualsGame, size: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0, threads: int = 1) -> None:
        import numpy as np

        opts = DualsOptions.from_json(options) if options else DualsOptions()
        if opts.buddy and not game.data.buddy_tokens:
            raise RecordError(N_("the data {data!r} has no Buddy token for the Buddy variant"), data=game.data.id)
        self.size = size
        self._core = game._core.DualsBatch(game._native, size, opts.buddy, seed & _MASK)
        self._core.threads = threads  # the matches split among that many threads in each call
        self.mask = np.zeros((size, game.num_actions), np.uint8)
        self.rewards = np.zeros((size, 2), np.float32)
        self.dones = np.zeros(size, np.bool_)
        self.to_act = np.zeros(size, np.int8)
        self._core.observe(self.mask, self.to_act)

    def step(self, actions: Any) -> tuple[Any, Any, Any]:
        """Play ``actions`` (int64, one per match); raises IllegalAction (no match moved) for an illegal one."""
        import numpy as np

        self._core.step(np.ascontiguousarray(actions, np.int64), self.mask, self.rewards, self.dones, self.to_act)
        return self.mask, self.rewards, self.dones

    def observe(self, encode: NativeEncoder, obs: Any) -> Any:
        """Each match's observation for its seat to act into ``obs[N, L]`` (a finished match: its next one's), as
        ``DualsObservation.encode`` of that seat's view; ``obs``."""
        self._core.encode(encode.core, obs)
        return obs

    def state(self, i: int) -> Any:
        """A copy of match ``i``'s state (a native state: views, clone...)."""
        return self._core.state(i)

    def seed(self, i: int) -> int:
        """The seed of match ``i``'s current match."""
        seed: int = self._core.seed(i)
        return seed


class NativeEncoder:
    """``encoder(state, seat, out)``: the core writes ``seat``'s observation of a native state into ``out`` (a
    float32 array of the layout's length), equal to ``DualsObservation.encode`` of that seat's view, from the same
    fields of the state the view holds (issue 26, point 3): the bag's contents, never its order; the deck's size
    and the places of the cards this seat put at the bottom; the opponent's hand's size."""

    def __init__(self, game: NativeDualsGame) -> None:
        from flametable.games.duals.observation import DualsObservation  # numpy: the learning extras'

        spec = self.spec = DualsObservation(game)
        offsets = [spec.o_board, spec.o_tops, spec.o_filled, spec.o_bag, spec.o_bag_size, spec.o_reserve,
                   spec.o_held, spec.o_drawn, spec.o_phase, spec.o_step, spec.o_src, spec.o_iron, spec.o_fired,
                   spec.o_flags, spec.o_bottom_left, spec.o_turn, spec.o_deck, spec.o_hand, spec.o_matching,
                   spec.o_bottom, spec.o_outcome, spec.shape[0]]
        scales = {"tokens": spec.tokens, "turn_scale": spec.turn_scale, "hand_scale": spec.hand_scale,
                  "vp_scale": spec.vp_scale, "cards": spec.c, "spaces": game.data.board.size}
        types = [sum(1 << x for x in kinds) for kinds in spec.types_of]
        self.core = game._core.make_encoder(offsets, [list(o) for o in spec.seat_offsets], scales,
                                            list(spec.inv_supply), types)

    def __call__(self, state: Any, seat: int, out: Any) -> None:
        state.encode(seat, self.core, out)


def encoder(game: NativeDualsGame) -> NativeEncoder:
    """The core's observation encoder for ``game``'s data (:class:`NativeEncoder`)."""
    return NativeEncoder(game)
