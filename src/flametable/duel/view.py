"""What one seat may see of a Flame Duel match (R15), decided here and nowhere else.

Public: flipped characters, the round's stat, every support card played and by whom, the place and
its owner, both discard piles, hand and draw-pile sizes, ability triggers, round results and the
running totals (everything in them is public once the stat is chosen). Private to a seat: its hand,
its line-up, its tie-break pick and the top cards of its pile it looked at. Hidden from everyone:
the draw-pile order. Outside the draft, an unflipped character's identity is hidden too (R3).
"""

from __future__ import annotations

from dataclasses import dataclass

from flametable.core.outcome import Outcome
from flametable.duel.actions import DuelAction
from flametable.duel.rules import Phase
from flametable.duel.state import DuelState, Played, RoundResult


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts about one seat."""

    flipped: tuple[int, ...]  # characters flipped so far, in line-up order (R3)
    known_characters: tuple[int, ...]  # identities known to the viewer (all of them in the draft)
    character: int  # this round's character, 0 before the flip
    hand_size: int
    revealed: tuple[int, ...]  # cards publicly known to be in this hand (taken back from the discard pile)
    pile_size: int
    discard: tuple[int, ...]
    items: tuple[int, ...]  # items equipped this round
    plays: int
    ability_used: bool
    wins: int
    modifier: int  # effect modifiers on this seat's total this round (boost, sap)
    total: int  # running total this round (0 before the stat is chosen)


@dataclass(frozen=True, slots=True)
class DuelView:
    """One seat's view (``seat`` None: a spectator)."""

    seat: int | None
    phase: Phase
    to_act: int | None
    shared_pile: bool
    draft: bool
    round_number: int  # 1..3, 4 = tie-break
    chooser: int | None
    stat: int  # -1 before it is chosen
    place: int
    place_owner: int | None
    events: tuple[tuple[int, int], ...]  # (seat, support) this round
    log: tuple[Played, ...]  # this round's plays and passes
    passes: int  # passes in a row (two end the round's play, R6)
    pending: tuple[tuple[int, int, int], ...]  # table effects still to do: (seat, EffectKind, n) (R10)
    results: tuple[RoundResult, ...]
    seats: tuple[SeatInfo, SeatInfo]
    # private to ``seat``
    hand: tuple[int, ...]
    lineup: tuple[int, ...]
    my_characters: tuple[int, ...]
    known_top: tuple[int, ...]  # the top cards of my pile I looked at, top first
    my_pile: tuple[int, ...]  # own decks: the cards of my deck still in my draw pile, sorted (never the order)
    champion: int  # my tie-break pick, 0 if none yet
    legal: tuple[DuelAction, ...]  # my legal actions when I am to act, else empty
    draft_pool: tuple[int, ...]  # characters still free to pick
    outcome: Outcome | None


def _flipped(st: DuelState, p: int) -> tuple[int, ...]:
    if st.phase in (Phase.DRAFT, Phase.LINEUP):
        return ()
    shown = min(st.round_no + 1, 3)
    return tuple(st.lineups[p][:shown])


def observe(st: DuelState, seat: int | None) -> DuelView:
    if seat not in (None, 0, 1):
        raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
    over = st.phase is Phase.OVER
    totals = st.totals() if st.stat >= 0 and not over else (0, 0)  # a stat is chosen in PLAY and CHOICE
    in_round = st.phase in (Phase.STAT, Phase.PLAY, Phase.CHOICE) or (over and bool(st.results))
    infos = []
    for p in (0, 1):
        flipped = _flipped(st, p)
        known = tuple(sorted(st.characters[p])) if p == seat or st.draft else tuple(sorted(flipped))
        character = st.current[p] if in_round else 0
        if st.tiebreak and character:
            flipped = (*flipped, character) if character not in flipped else flipped
        infos.append(
            SeatInfo(
                flipped=flipped,
                known_characters=known,
                character=character,
                hand_size=len(st.hands[p]),
                revealed=tuple(st.revealed[p]),
                pile_size=len(st.pile(p)),
                discard=tuple(st.discards[p]),
                items=tuple(st.items[p]),
                plays=st.plays[p],
                ability_used=st.ability_used[p],
                wins=st.wins[p],
                modifier=st.modifiers[p],
                total=totals[p],
            )
        )
    hand: tuple[int, ...] = ()
    lineup: tuple[int, ...] = ()
    my_chars: tuple[int, ...] = ()
    known_top: tuple[int, ...] = ()
    my_pile: tuple[int, ...] = ()
    champion = 0
    legal: tuple[DuelAction, ...] = ()
    if seat is not None:
        hand = tuple(st.hands[seat])
        lineup = tuple(st.lineups[seat])
        my_chars = tuple(sorted(st.characters[seat]))
        pile = st.pile(seat)
        k = st.looked_at[seat]
        known_top = tuple(reversed(pile[len(pile) - k :])) if k else ()
        if not st.shared:
            my_pile = tuple(sorted(pile))
        champion = st.champion[seat] if st.phase is Phase.CHAMPION else 0
        legal = tuple(st.legal_actions()) if st.to_act == seat else ()
    draft_pool: tuple[int, ...] = ()
    if st.phase is Phase.DRAFT:
        taken = set(st.characters[0]) | set(st.characters[1])
        draft_pool = tuple(c for c in range(1, len(st.cards.characters) + 1) if c not in taken)
    to_act = st.to_act
    return DuelView(
        seat=seat,
        phase=st.phase,
        to_act=to_act,
        shared_pile=st.shared,
        draft=st.draft,
        round_number=st.round_no + 1,
        chooser=st.chooser if st.phase in (Phase.STAT, Phase.PLAY, Phase.CHOICE) else None,
        stat=st.stat if st.phase in (Phase.PLAY, Phase.CHOICE) else -1,
        place=st.place,
        place_owner=st.place_owner if st.place else None,
        events=tuple(st.events),
        log=tuple(Played(*e) for e in st.log),
        passes=st.passes,
        pending=tuple(st.pending),
        results=tuple(st.results),
        seats=(infos[0], infos[1]),
        hand=hand,
        lineup=lineup,
        my_characters=my_chars,
        known_top=known_top,
        my_pile=my_pile,
        champion=champion,
        legal=legal,
        draft_pool=draft_pool,
        outcome=st.outcome,
    )
