"""A determiniser: from one seat's view to full states that agree with everything the view shows (D10).

Search bots sample hidden information with it; it never reads the real state. Sampled uniformly among the
possibilities consistent with the view: the bag's order (its contents are public, D10), the opponent's hand
and the deck's order among the cards not seen, with the cards this seat put at the bottom of the deck kept
at the places it knows. The chance still to come (future draws, tokens returned to the bag) gets a fresh
generator, so the real one's state is never needed.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING

from flametable.core.engine import Copy
from flametable.core.rng import Rng
from flametable.games.duals.rules import STACK_LIMIT, Step
from flametable.games.duals.state import FIELDS, DualsState
from flametable.games.duals.view import DualsView

if TYPE_CHECKING:
    from flametable.games.duals.game import DualsGame


def copy_public(st: DualsState, view: DualsView) -> None:
    """Set every state field declared with a view field (``slot(..., view=NAME)``) from that field of ``view``.

    The others are the game's tables (from ``blank``), the hidden ones (sampled), the seat's own knowledge and
    the board's summaries, which :class:`Sampler` fills itself."""
    for f in FIELDS:
        name = f.view
        if name:
            value = getattr(view, name)
            if f.copy is Copy.LIST:
                value = list(value)
            elif isinstance(value, IntEnum):
                value = int(value)
            setattr(st, f.name, value)


class Sampler:
    """Samples full states consistent with one seat's view; the view's bookkeeping is done once."""

    def __init__(self, view: DualsView, game: DualsGame) -> None:
        me = view.seat
        if me is None:
            raise ValueError("a determiniser needs a seat's view, not a spectator's")
        self.me = me
        o = self.o = 1 - me
        data = game.data
        st = self.base = game.blank(view.buddy, Rng(0))
        copy_public(st, view)
        st.bag = [k for k, n in enumerate(view.bag) for _ in range(n)]  # in some order: shuffled per sample
        st.coins = [view.seats[0].coins, view.seats[1].coins]
        st.piles = [list(view.seats[0].pile), list(view.seats[1].pile)]
        st.hands[me] = list(view.hand)
        st.known_bottom[me] = [c for c, _ in view.bottom_known]
        st.fired = sum(1 << (s * STACK_LIMIT + level) for s, level in view.fired)
        st.index_board()
        # Cards: the unseen ones are in the opponent's hand or the deck; mine at the bottom stay in place.
        seen = set(view.hand) | set(view.seats[0].pile) | set(view.seats[1].pile)
        self.unseen = [c for c in range(1, len(data.cards) + 1) if c not in seen and
                       c not in st.known_bottom[me]]
        self.hand_o = view.seats[o].hand_size
        self.deck_size = view.deck_size
        self.bottom = {pos: c for c, pos in view.bottom_known}
        self.legal = list(view.legal) if view.to_act == me else None

    def __call__(self, rng: Rng) -> DualsState:
        st = self.base.clone()
        st.rng = Rng(rng.next32())
        rng.shuffle(st.bag)
        unseen = self.unseen[:]
        rng.shuffle(unseen)
        k = self.hand_o
        st.hands[self.o] = unseen[:k]
        rest = iter(unseen[k:])
        bottom = self.bottom
        st.deck = [bottom[i] if i in bottom else next(rest) for i in range(self.deck_size)]
        if self.legal is not None:
            st._legal = self.legal[:]
        elif st.step != Step.OVER:
            st._legal = st._compute_legal()
        return st


def determinize(view: DualsView, game: DualsGame, rng: Rng) -> DualsState:
    """One full state consistent with ``view`` (a seat's view, not a spectator's)."""
    return Sampler(view, game)(rng)
