"""Flame Duel on the native engine (issue 26): the C++ core of ``native/`` (the ``flametable-native``
distribution) behind the same protocol, where it is built; the Python engine (``duel.state``) stays the reference.

:class:`NativeDuelGame` is a :class:`DuelGame` whose matches are the extension's states: the card set is read by
Python as ever and handed to the core as integer tables (custom card sets play natively too), the actions are the
same :class:`DuelAction` values, the views the same :class:`DuelView` (the core writes the view's JSON form), the
outcomes the same :class:`Outcome`, and an illegal action raises the same :class:`IllegalAction` (its reason and
parameters made here, from the core's code). A match with an explicit setup is set up by the Python engine and
copied into the core. Reading any other attribute of a native state (``results``, ``lineups``...) gives the
reference engine's, from a copy of the state (:func:`to_python`): slower, and never written back.

The differential tests (``tests/games/duel/test_native.py``) hold the two engines to the same play.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from flametable.core.errors import IllegalAction
from flametable.core.i18n import N_
from flametable.core.outcome import Outcome
from flametable.core.registry import ENGINE_VARIABLE, native_wanted
from flametable.core.rng import Rng
from flametable.games.duel.actions import ACTIONS, Kind
from flametable.games.duel.cards import CardSet
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import DRAFT_PICK, PHASE_TEXT, SHARED_MODE, DuelOptions, Phase, Reason
from flametable.games.duel.state import CHOICE_TEXT, DuelState, RoundResult
from flametable.games.duel.view import DuelView

_MASK = (1 << 64) - 1
_REASONS = tuple(Reason)  # the core's reason index: TWO_WINS, MORE_WINS, TIEBREAK, TIED_MATCH
_DEFAULT = DuelOptions()


def extension() -> ModuleType | None:
    """The core's extension module, or None where it is not built (installed)."""
    try:
        return importlib.import_module("flametable_native._duel")
    except ImportError:
        return None


def factory() -> Callable[..., DuelGame] | None:
    """The registry's ``native`` piece: the native game's factory, or None without the extension or with
    ``FLAMETABLE_ENGINE=python`` (:func:`~flametable.core.registry.native_wanted`)."""
    wanted = native_wanted("duel", os.environ.get(ENGINE_VARIABLE, ""), lambda: extension() is not None)
    return NativeDuelGame if wanted else None


def _outcome(winner: int | None, reason: int, wins0: int, wins1: int) -> Outcome:
    return Outcome(winner, _REASONS[reason], (wins0, wins1))


# The core's refusal codes (duel.cpp, enum Illegal), in order: the reference engine's messages (state.py).
def _illegal(code: int, action_id: int, extra: int) -> IllegalAction:
    action = ACTIONS[action_id]
    card = f"S{action.arg}" if code in (4, 9) else f"C{action.arg}"
    if code == 0:
        return IllegalAction(N_("Your ability can be triggered only once per round."))  # R6
    if code == 1:
        return IllegalAction(N_("{card} is not one of your most charming characters."), card=card)  # R14
    if code == 2:
        return IllegalAction(N_("The match is over."))
    if code == 3:
        return IllegalAction(N_("{action} is not possible now: {expected}."), action=action.text(),
                             expected=PHASE_TEXT[Phase(extra)])
    if code == 4:
        return IllegalAction(N_("{card} is not in your hand."), card=card)
    if code == 5:
        return IllegalAction(N_("{card} has already been picked."), card=card)  # R2
    if code == 6:
        return IllegalAction(N_("{card} is not one of your characters."), card=card)
    if code == 7:
        return IllegalAction(N_("{card} is already in your line-up."), card=card)
    if code == 8:
        return IllegalAction(N_("{action} is not possible now: {expected}."), action=action.text(),
                             expected=CHOICE_TEXT[Kind(extra)])
    return IllegalAction(N_("{card} is not a card you can choose from your discard pile."), card=card)


def _view(text: str) -> DuelView:
    return DuelView.from_json(json.loads(text))


def tables(cards: CardSet) -> Any:
    """The core's tables of ``cards`` (and of the actions and the factories of what leaves the core)."""
    core = extension()
    if core is None:
        raise RuntimeError("the native engine is not built")
    sups = cards.supports
    return core.make_tables(
        list(cards.printed),
        [0, *(int(s.kind) for s in sups)],
        [0, *(int(s.stat) for s in sups)],
        [0, *(s.bonus for s in sups)],
        [[], *(sorted(s.equips_to) for s in sups)],
        [-1, *(-1 if s.printed_at_most is None else s.printed_at_most for s in sups)],
        [-1, *(-1 if s.printed_at_least is None else s.printed_at_least for s in sups)],
        list(cards.support_effects),
        list(cards.ability_effects),
        ACTIONS,
        [a.text() for a in ACTIONS],
        _outcome,
        _illegal,
        _view,
        lambda native, name: getattr(to_python(cards, native), name),
    )


class NativeDuelGame(DuelGame):
    """Flame Duel whose matches are played by the C++ core."""

    engine = "native"

    def __init__(self, cards: CardSet | None = None) -> None:
        super().__init__(cards)
        core = extension()
        if core is None:
            raise RuntimeError("the native engine is not built")
        self._core: ModuleType = core
        self._tables = tables(self.cards)

    def new_match(
        self,
        options: Mapping[str, Any] | DuelOptions | None = None,
        seed: int = 0,
        setup: Mapping[str, Any] | None = None,
    ) -> Any:
        if setup is not None:
            return to_native(self, super().new_match(options, seed, setup))
        opts = DuelOptions.from_json(options) if options else _DEFAULT
        if type(seed) is not int:
            Rng(seed)  # the reference's TypeError for what is no int
        shared = opts.mode is SHARED_MODE
        decks = () if shared else [None if d is None else (list(d.characters), list(d.supports))
                                     for d in opts.decks]
        return self._core.new_match(self._tables, shared, opts.pick is DRAFT_PICK, seed & _MASK, decks)

    def state_encoder(self, spec: Any) -> NativeEncoder | None:
        """The core's encoder of this game's states for ``spec`` when it is Flame Duel's own layout (the learning
        environments: ``rl.spec.state_encoder``), else None (they encode the views)."""
        from flametable.games.duel.observation import DuelObservation  # numpy: the learning extras'

        if type(spec) is not DuelObservation or spec.shape != DuelObservation(self).shape:
            return None
        return NativeEncoder(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its card set (a worker process makes its own core tables): as a DuelGame pickles."""
        return (NativeDuelGame, (self.cards,))

    def native_state(self, st: DuelState) -> Any:
        """A native copy of a reference state (of this game's cards)."""
        return to_native(self, st)


def to_native(game: NativeDuelGame, st: DuelState) -> Any:
    """The core's copy of the reference state ``st``."""
    out = st.outcome
    fields = {
        "shared": st.shared, "draft": st.draft, "pile_of": st.pile_of, "rng_state": st.rng.state,
        "phase": int(st.phase), "acting": st.acting, "first_picker": st.first_picker,
        "characters": st.characters, "lineups": st.lineups, "champion": st.champion, "hands": st.hands,
        "piles": st.piles, "discards": st.discards, "looked_at": st.looked_at, "place": st.place,
        "place_owner": st.place_owner, "round_no": st.round_no, "chooser": st.chooser, "stat": st.stat,
        "current": st.current, "plays": st.plays, "ability_used": st.ability_used, "passes": st.passes,
        "items": st.items, "events": st.events, "modifiers": st.modifiers, "pending": st.pending,
        "log": [(seat, action.id, auto) for seat, action, auto in st.log],
        "results": [(r.number, r.chooser, r.stat, r.characters, r.totals, r.winner, r.by_charm)
                    for r in st.results],
        "revealed": st.revealed, "wins": st.wins, "over": out is not None,
        "winner": -1 if out is None or out.winner is None else out.winner,
        "reason": 0 if out is None else _REASONS.index(out.reason),
    }
    return game._core.from_fields(game._tables, fields)


def to_python(cards: CardSet, native: Any) -> DuelState:
    """The reference engine's copy of a native state (``cards``: its game's card set)."""
    f = native.fields()
    rng = Rng(0)
    rng.state = f["rng_state"]
    st = DuelState.blank(cards, f["shared"], f["draft"], rng)
    for name in ("acting", "first_picker", "characters", "lineups", "champion", "hands", "piles", "discards",
                 "looked_at", "place", "place_owner", "round_no", "chooser", "stat", "current", "plays",
                 "ability_used", "passes", "items", "events", "modifiers", "pending", "revealed", "wins"):
        setattr(st, name, f[name])
    st.pile_of = f["pile_of"]
    st.phase = Phase(f["phase"])
    st.log = [(seat, ACTIONS[a], auto) for seat, a, auto in f["log"]]
    st.results = [RoundResult(n, c, s, ch, t, w, b) for n, c, s, ch, t, w, b in f["results"]]
    st._outcome = native.outcome
    return st


class NativeDuelBatch:
    """N Flame Duel matches on the native engine stepped in one call, for learning (issue 26, point 4): ``step``
    takes one action id per match (for its seat to act) and gives the legal-action masks ``mask[N, 187]``, the
    rewards ``rewards[N, 2]`` (+1 a win, -1 a loss, 0 a draw, at a match's end) and ``dones[N]``; a finished match
    starts its next one at once (slot ``i`` plays the seeds ``seed + i``, ``seed + i + N``, ...), and ``to_act[N]``
    says whose decision each mask is. The core runs without the GIL. The arrays are the batch's own, overwritten
    by every step. ``observe`` writes each match's observation for its seat to act (point 3). ``threads``: the
    matches are split among that many threads in each call (the same results)."""

    def __init__(self, game: NativeDuelGame, size: int, options: Mapping[str, Any] | None = None,
                 seed: int = 0, threads: int = 1) -> None:
        import numpy as np

        opts = DuelOptions.from_json(options) if options else _DEFAULT
        if any(opts.decks):
            raise ValueError("a batch deals own decks at random: no brought decks")
        self.size = size
        self._core = game._core.DuelBatch(game._tables, size, opts.mode is SHARED_MODE, opts.pick is DRAFT_PICK,
                                          seed & _MASK)
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
        ``DuelObservation.encode`` of that seat's view; ``obs``."""
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
    float32 array of the layout's length), equal to ``DuelObservation.encode`` of that seat's view, from the same
    fields of the state the view holds (issue 26, point 3)."""

    def __init__(self, game: NativeDuelGame) -> None:
        from flametable.games.duel.observation import DuelObservation  # numpy: the learning extras'

        spec = self.spec = DuelObservation(game)
        offsets = [spec.o_phase, spec.o_to_act, spec.o_mode, spec.o_round, spec.o_chooser, spec.o_stat,
                   spec.o_place, spec.o_place_owner, spec.o_passes, spec.o_pending, spec.o_pending_first, spec.o_last,
                   spec.o_log, spec.o_results, spec.o_outcome, spec.o_pool, spec.o_hand, spec.o_lineup,
                   spec.o_champion, spec.o_top_first, spec.o_top, spec.o_top_n, spec.o_my_pile, spec.shape[0]]
        self.core = game._core.make_encoder(offsets, [list(o) for o in spec.seat_offsets], spec.hand_scale,
                                            [list(p) for p in spec.printed])

    def __call__(self, state: Any, seat: int, out: Any) -> None:
        state.encode(seat, self.core, out)


def encoder(game: NativeDuelGame) -> NativeEncoder:
    """The core's observation encoder for ``game``'s card set (:class:`NativeEncoder`)."""
    return NativeEncoder(game)


# ---------------------------------------------------------------------- the ISMCTS bot's inner loop (issue 26, P3)

POLICY_CODES = {"random": 0, "sensible": 1}
"""The core's playout policies: uniformly random, and ``games.duel.bots.playout_action`` (the sensible player)."""


def playouts(states: list[Any], rounds: int, policy: str, rng_state: int) -> int:
    """Playouts of clones of the native ``states`` to the end with ``policy`` (a name of :data:`POLICY_CODES`),
    one of each state in turn, ``rounds`` rounds, the generator (``Rng.state``) carried from one to the next; the
    generator's state after them. The benchmark's like-for-like reference for one ISMCTS iteration."""
    core = extension()
    if core is None:
        raise RuntimeError("the native engine is not built")
    after: int = core.playouts(states, rounds, POLICY_CODES[policy], rng_state & _MASK)
    return after


def playout(state: Any, policy: str, rng: Rng) -> None:
    """Play the native ``state`` to its end with ``policy``, drawing from ``rng`` as ``ismcts.random_playout`` does
    with the same policy in Python."""
    core = extension()
    if core is None:
        raise RuntimeError("the native engine is not built")
    rng.state = core.playout(state, POLICY_CODES[policy], rng.state)


class NativeSearch:
    """``IsmctsBot``'s search at one decision in the core (``bots.ismcts.NativeSearch``): the determinisations from
    ``view`` (what the Python :class:`~flametable.games.duel.determinize.Sampler` reads of the view, read by the
    core from the view's own attributes, and nothing else; each sample drawn in the core), the tree, the playouts
    and the backups, drawing from the generator as the Python bot does, so the same seed makes the same choice."""

    def __init__(self, game: NativeDuelGame, view: DuelView, policy: str, exploration: float, rng_state: int) -> None:
        self.core = game._core.search_of_view(game._tables, view, _REASONS, POLICY_CODES[policy], exploration,
                                              rng_state & _MASK)

    @property
    def rng_state(self) -> int:
        state: int = self.core.rng_state
        return state

    def run(self, iterations: int) -> None:
        self.core.run(iterations)

    def best(self, legal_ids: list[int]) -> int | None:
        """The root's most visited action among ``legal_ids`` (the first tried of equals), None if none was."""
        best: int = self.core.best(legal_ids)
        return None if best < 0 else best

    def sample(self) -> Any:
        """One determinisation (a native state), as the search draws them: for the tests."""
        return self.core.sample()

    def root(self) -> list[tuple[int, int, int, float]]:
        """The root's children: (action id, visits, availability, reward), in the order they were tried."""
        children: list[tuple[int, int, int, float]] = self.core.root()
        return children


def has_search() -> bool:
    """Whether the core built here has the ISMCTS inner loop (a core built before it has not)."""
    core = extension()
    return core is not None and hasattr(core, "search_of_view")


def searcher(game: NativeDuelGame, sensible: Any) -> Callable[[Any, Any, float, int], NativeSearch | None] | None:
    """The registry's ISMCTS hook for ``game`` (``IsmctsBot(native=...)``): a :class:`NativeSearch` for a view, a
    playout policy (None: random; ``sensible``, ``bots.duel.playout_action``: the sensible player's) and the
    exploration constant, from the generator's state; None for a policy the core does not have (the Python search
    plays). None where the core has no search (built before it)."""
    if not hasattr(game._core, "search_of_view"):
        return None

    def make(view: Any, policy: Any, exploration: float, rng_state: int) -> NativeSearch | None:
        name = "random" if policy is None else "sensible" if policy is sensible else None
        if name is None or not isinstance(view, DuelView):
            return None
        return NativeSearch(game, view, name, exploration, rng_state)

    return make
