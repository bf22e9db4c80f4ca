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
from flametable.core.registry import ENGINE_VARIABLE, EngineError
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
    ``FLAMETABLE_ENGINE=python``; :class:`EngineError` for ``FLAMETABLE_ENGINE=native`` without the extension,
    or another value."""
    choice = os.environ.get(ENGINE_VARIABLE, "")
    if choice not in ("", "python", "native"):
        raise EngineError(N_("{variable} must be python or native, got {value!r}"), variable=ENGINE_VARIABLE,
                          value=choice)
    if choice == "python":
        return None
    if extension() is None:
        if choice == "native":
            raise EngineError(N_("{variable}=native: the game {game} has no native engine built here (pip install "
                                 "./native)"), variable=ENGINE_VARIABLE, game="duals")
        return None
    return NativeDualsGame


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
