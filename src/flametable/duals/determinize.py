"""A determiniser: from one seat's view to full states that agree with everything the view shows (D10).

Search bots sample hidden information with it; it never reads the real state. Sampled uniformly among the
possibilities consistent with the view: the bag's order (its contents are public, D10), the opponent's hand
and the deck's order among the cards not seen, with the cards this seat put at the bottom of the deck kept
at the places it knows. The chance still to come (future draws, tokens returned to the bag) gets a fresh
generator, so the real one's state is never needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flametable.core.rng import Rng
from flametable.duals.rules import Step
from flametable.duals.state import DualsState
from flametable.duals.view import DualsView

if TYPE_CHECKING:
    from flametable.duals.game import DualsGame


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
        st.stacks = list(view.board)
        st.bag = [k for k, n in enumerate(view.bag) for _ in range(n)]
        st.reserve = list(view.reserve)
        st.coins = [view.seats[0].coins, view.seats[1].coins]
        st.piles = [list(view.seats[0].pile), list(view.seats[1].pile)]
        st.hands[me] = list(view.hand)
        st.known_bottom[me] = [c for c, _ in view.bottom_known]
        st.first = view.first_player
        st.first_draws = view.first_draws
        st.turn = view.turn
        st.turn_no = view.turn_number
        st.step = int(view.step)
        st.src = view.src
        st.held = view.held
        st.drawn = list(view.drawn)
        st.fire_after = view.fire_after
        st.fire_optional = view.fire_optional
        st.fired = view.fired
        st.iron_dest = view.iron_dest
        st.coin_used = view.coin_used
        st.bottom_left = view.bottom_left
        st.ended = view.end_triggered
        st.last = view.last_chance
        st.index_board()
        st._outcome = view.outcome
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
