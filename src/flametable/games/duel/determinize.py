"""A determiniser: from one seat's view to full states that agree with everything the view shows.

Search bots (ISMCTS) sample hidden information with it; it never reads the real state, only the view (the same
``DuelView`` every front end gets, or one read back with ``DuelView.from_json``): no field of the view exists for
the determiniser alone. What it reads, and why the seat may see it (R15):

* public facts, as every view has them: ``phase``, ``to_act``, ``shared_pile``, ``draft``, ``round_number``,
  ``chooser``, ``stat``, ``place``/``place_owner``, ``events``, ``log``, ``passes`` (passes in a row, R6: also the
  trailing passes of ``log``), ``pending`` (the rest of the last play's printed effects, R10), ``results``,
  ``outcome`` and each seat's ``wins``, ``plays``, ``ability_used``, ``items``, ``modifier``, ``character``,
  ``discard``, ``revealed``, ``hand_size``, ``pile_size``, ``flipped`` and ``known_characters``;
* the seat's own knowledge, private to it: ``hand``, ``lineup``, ``my_characters``, ``champion``, ``known_top``
  (the top cards of its pile it looked at) and, in own decks, ``my_pile`` (which cards of its deck are still in
  its pile).

What is hidden from the seat is sampled uniformly among the possibilities consistent with the view:
the opponent's hand (beyond the cards publicly known to be in it), the draw-pile order below the cards
the seat looked at, the opponent's unflipped characters and their order (outside the draft), and the
opponent's secret tie-break pick. In own-decks mode the opponent's unseen deck cards are sampled among the
support cards not already seen as theirs (R2: no card twice within one deck).

:class:`Sampler` does the view's bookkeeping once; each sample then only shuffles the unknown parts into
a clone of a prepared state (a ``DuelState.blank`` filled from the view: every field the view does not give
keeps its blank value), so a search can draw thousands of samples per decision cheaply.
"""

from __future__ import annotations

from flametable.core.rng import Rng
from flametable.games.duel.cards import CardSet
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from flametable.games.duel.view import DuelView


class Sampler:
    """Samples full states consistent with one seat's view."""

    def __init__(self, view: DuelView, cards: CardSet) -> None:
        me = view.seat
        if me is None:
            raise ValueError("a determiniser needs a seat's view, not a spectator's")
        self.me = me
        o = self.o = 1 - me
        st = self.base = DuelState.blank(cards, view.shared_pile, view.draft, Rng(0))
        st.phase = view.phase
        st.acting = view.to_act if view.to_act is not None else 0
        st.first_picker = st.acting
        st.round_no = view.round_number - 1
        st.chooser = view.chooser if view.chooser is not None else 0
        st.stat = view.stat
        st.place = view.place
        st.place_owner = view.place_owner if view.place_owner is not None else 0
        st.events = list(view.events)
        st.log = [(e.seat, e.action, e.auto) for e in view.log]
        st.passes = view.passes
        st.pending = list(view.pending)
        st.results = list(view.results)
        seats = view.seats
        st.wins = [seats[0].wins, seats[1].wins]
        st.plays = [seats[0].plays, seats[1].plays]
        st.ability_used = [seats[0].ability_used, seats[1].ability_used]
        st.items = [list(seats[0].items), list(seats[1].items)]
        st.modifiers = [seats[0].modifier, seats[1].modifier]
        st.current = [seats[0].character, seats[1].character]
        st.discards = [list(seats[0].discard), list(seats[1].discard)]
        st.revealed = [list(seats[0].revealed), list(seats[1].revealed)]
        st._outcome = view.outcome
        st.looked_at[me] = len(view.known_top)

        # ---- characters and line-ups (R3)
        mine = list(view.my_characters)
        self.theirs_known = list(seats[o].known_characters)
        self.phase = view.phase
        self.flipped = list(seats[o].flipped)
        banned = set(self.theirs_known) | (set(mine) if st.shared else set())
        self.char_pool = [c for c in range(1, len(cards.characters) + 1) if c not in banned]
        self.n_unknown_chars = 0 if view.phase is Phase.DRAFT else 3 - len(self.theirs_known)
        st.characters = [[], []]
        st.characters[me] = mine
        st.lineups = [[], []]
        st.lineups[me] = list(view.lineup)
        # Seat 0 lines up first: the opponent's line-up is complete when it went before us and we are lining
        # up now; while it is the opponent's turn its progress is unseen, so it starts afresh.
        self.their_lineup_done = view.phase is not Phase.LINEUP or (o < me and view.to_act == me)
        self.champion_phase = view.phase is Phase.CHAMPION
        if self.champion_phase:
            st.champion[me] = view.champion
        elif view.round_number == 4:
            st.champion = st.current[:]
        self.champion_chosen = o < me and view.to_act == me

        # ---- support cards
        self.hand_o = seats[o].hand_size
        self.revealed_o = list(seats[o].revealed)
        self.known_top = list(view.known_top)
        st.hands = [[], []]
        st.hands[me] = list(view.hand)
        if st.shared:
            seen = set(view.hand) | set(seats[0].discard) | set(seats[1].discard)
            seen |= set(seats[0].items) | set(seats[1].items) | {s for _, s in view.events}
            seen |= set(self.known_top) | set(self.revealed_o)
            if view.place:
                seen.add(view.place)
            self.unknown = [s for s in range(1, len(cards.supports) + 1) if s not in seen]
            self.n_unknown = len(self.unknown)
        else:
            self.my_below = [s for s in view.my_pile if s not in self.known_top]
            theirs_seen = set(seats[o].discard) | set(seats[o].items) | {s for p, s in view.events if p == o}
            theirs_seen |= set(self.revealed_o)
            if view.place and view.place_owner == o:
                theirs_seen.add(view.place)
            self.unknown = [s for s in range(1, len(cards.supports) + 1) if s not in theirs_seen]
            self.n_unknown = self.hand_o - len(self.revealed_o) + seats[o].pile_size
        st.piles = [[], []] if not st.shared else [[]]

    def __call__(self, rng: Rng) -> DuelState:
        st = self.base.clone()
        me, o = self.me, self.o
        st.rng = Rng(rng.next32())
        cards = st.cards
        # Characters and the opponent's line-up.
        theirs = self.theirs_known + rng.sample(self.char_pool, self.n_unknown_chars) if self.n_unknown_chars \
            else self.theirs_known[:]
        st.characters[o] = sorted(theirs)
        if self.phase is not Phase.DRAFT and self.their_lineup_done:
            rest = [c for c in theirs if c not in self.flipped]
            rng.shuffle(rest)
            st.lineups[o] = self.flipped[:3] + rest
        if self.champion_phase:
            charm = cards.charm
            best = max(charm[c] for c in st.lineups[o])
            options = [c for c in st.lineups[o] if charm[c] == best]
            if len(options) == 1 or self.champion_chosen:
                st.champion[o] = options[rng.below(len(options))]
        # Support cards: the opponent's hand and the piles.
        k = self.hand_o - len(self.revealed_o)
        if st.shared:
            unknown = self.unknown[:]
            rng.shuffle(unknown)
            st.hands[o] = self.revealed_o + unknown[:k]
            pile = unknown[k:]
            pile.extend(reversed(self.known_top))  # the top is the end of the list
            st.piles[0] = pile
        else:
            below = self.my_below[:]
            rng.shuffle(below)
            below.extend(reversed(self.known_top))
            drawn = rng.sample(self.unknown, self.n_unknown)
            st.hands[o] = self.revealed_o + drawn[:k]
            st.piles[me] = below
            st.piles[o] = drawn[k:]
        return st


def determinize(view: DuelView, cards: CardSet, rng: Rng) -> DuelState:
    """One full state consistent with ``view`` (a seat's view, not a spectator's)."""
    return Sampler(view, cards)(rng)
