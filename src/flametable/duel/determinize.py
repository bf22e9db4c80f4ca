"""A determiniser: from one seat's view to a full state that agrees with everything the view shows.

Search bots (ISMCTS) sample hidden information with it; it never reads the real state, only the view.
What is hidden from the seat is sampled uniformly among the possibilities consistent with the view:
the opponent's hand (beyond the cards publicly known to be in it), the draw-pile order below the cards
the seat looked at, the opponent's unflipped characters and their order (outside the draft), and the
opponent's secret tie-break pick. In own-decks mode the opponent's unseen deck cards are sampled among the
support cards not already seen as theirs (R2: no card twice within one deck).
"""

from __future__ import annotations

from flametable.core.rng import Rng
from flametable.duel.cards import CardSet
from flametable.duel.rules import Phase
from flametable.duel.state import DuelState
from flametable.duel.view import DuelView


def determinize(view: DuelView, cards: CardSet, rng: Rng) -> DuelState:
    """A full state consistent with ``view`` (a seat's view, not a spectator's)."""
    me = view.seat
    if me is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    o = 1 - me
    st = DuelState.__new__(DuelState)
    st.cards = cards
    st.phase = view.phase
    st.seat = view.to_act if view.to_act is not None else 0
    st.shared = view.shared_pile
    st.draft = view.draft
    st.first_picker = st.seat
    st.pile_of = (0, 0) if st.shared else (0, 1)
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
    st.wins = [view.seats[0].wins, view.seats[1].wins]
    st.plays = [view.seats[0].plays, view.seats[1].plays]
    st.ability_used = [view.seats[0].ability_used, view.seats[1].ability_used]
    st.items = [list(view.seats[0].items), list(view.seats[1].items)]
    st.mods = [view.seats[0].modifier, view.seats[1].modifier]
    st.cur = [view.seats[0].character, view.seats[1].character]
    st.discards = [list(view.seats[0].discard), list(view.seats[1].discard)]
    st.revealed = [list(view.seats[0].revealed), list(view.seats[1].revealed)]
    st.rng = Rng(rng.next32())
    st._outcome = view.outcome

    # ---- characters and line-ups (R3)
    mine = list(view.my_characters)
    theirs_known = list(view.seats[o].known_characters)
    n_chars = len(cards.characters)
    if view.phase is Phase.DRAFT:
        theirs = theirs_known
    else:
        banned = set(theirs_known) | (set(mine) if st.shared else set())
        pool = [c for c in range(1, n_chars + 1) if c not in banned]
        theirs = theirs_known + rng.sample(pool, 3 - len(theirs_known))
    st.chars = [[], []]
    st.chars[me] = mine
    st.chars[o] = sorted(theirs)
    st.lineups = [[], []]
    st.lineups[me] = list(view.lineup)
    flipped = list(view.seats[o].flipped)
    if view.phase is Phase.LINEUP:
        # Seat 0 lines up first: the opponent's line-up is complete when it went before us and we are
        # lining up now; while it is the opponent's turn its progress is unseen, so it starts afresh.
        if o < me and view.to_act == me:
            order = theirs[:]
            rng.shuffle(order)
            st.lineups[o] = order
    elif view.phase is not Phase.DRAFT:
        rest = [c for c in theirs if c not in flipped]
        rng.shuffle(rest)
        st.lineups[o] = flipped[:3] + rest
    st.champion = [0, 0]
    if view.phase is Phase.CHAMPION:
        st.champion[me] = view.champion
        charm = cards.charm
        best = max(charm[c] for c in st.lineups[o])
        options = [c for c in st.lineups[o] if charm[c] == best]
        if len(options) == 1 or (o < me and view.to_act == me):
            st.champion[o] = rng.choice(options)
    elif view.round_number == 4:
        st.champion = st.cur[:]

    # ---- support cards: hands and piles
    hand_o = view.seats[o].hand_size
    known_top = list(view.known_top)
    in_play_o = list(view.seats[o].items) + [s for p, s in view.events if p == o]
    st.hands = [[], []]
    st.hands[me] = list(view.hand)
    revealed_o = list(view.seats[o].revealed)
    if st.shared:
        seen = set(view.hand) | set(view.seats[0].discard) | set(view.seats[1].discard)
        seen |= set(view.seats[0].items) | set(view.seats[1].items) | {s for _, s in view.events}
        seen |= set(known_top) | set(revealed_o)
        if view.place:
            seen.add(view.place)
        unknown = [s for s in range(1, len(cards.supports) + 1) if s not in seen]
        rng.shuffle(unknown)
        k = hand_o - len(revealed_o)
        st.hands[o] = revealed_o + unknown[:k]
        pile = unknown[k:]
        pile.extend(reversed(known_top))  # the top is the end of the list
        st.piles = [pile]
    else:
        mine_pile = list(view.my_pile)
        below = [s for s in mine_pile if s not in known_top] if known_top else mine_pile
        rng.shuffle(below)
        below.extend(reversed(known_top))
        theirs_seen = set(view.seats[o].discard) | set(in_play_o) | set(revealed_o)
        if view.place and view.place_owner == o:
            theirs_seen.add(view.place)
        pool = [s for s in range(1, len(cards.supports) + 1) if s not in theirs_seen]
        n_unknown = hand_o - len(revealed_o) + view.seats[o].pile_size
        drawn = rng.sample(pool, n_unknown)
        k = hand_o - len(revealed_o)
        st.hands[o] = revealed_o + drawn[:k]
        piles: list[list[int]] = [[], []]
        piles[me] = below
        piles[o] = drawn[k:]
        st.piles = piles
    st.known_top = [0, 0]
    st.known_top[me] = len(known_top)
    return st
