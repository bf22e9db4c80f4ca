"""The Flame Duel rules engine: one match in progress (no I/O, no clock, no global randomness).

Cards are integer-coded by their numbers. Draw piles keep their top at the *end* of the list.
Every rule is cited by its ruling number (R1-R15 in ``shared/rules/RULINGS.md``).

What a seat may see is decided here, by :func:`observe`, and nowhere else; the view's types live in
``duel.view`` (data only). ``DRAW``, ``Played`` and ``RoundResult`` are defined there and stay importable from here.
"""

from __future__ import annotations

from bisect import insort
from typing import NoReturn

from flametable.core.engine import Copy, EngineState, blank_of, engine_state, fields_of, slot, step_table
from flametable.core.errors import IllegalAction
from flametable.core.i18n import N_, Phrase
from flametable.core.outcome import Outcome
from flametable.core.rng import Rng
from flametable.games.duel.actions import (
    ABILITY,
    ABILITY_KIND,
    CHAMPION,
    CHAMPION_KIND,
    LINE,
    LINE_KIND,
    PASS,
    PASS_KIND,
    PICK,
    PICK_KIND,
    PLAY,
    PLAY_KIND,
    STAT,
    STAT_KIND,
    SWAP,
    SWAP_KIND,
    TAKE,
    TAKE_KIND,
    DuelAction,
)
from flametable.games.duel.cards import (
    BOOST_EFFECT,
    CLEAR_PLACE_EFFECT,
    DRAW_EFFECT,
    ITEM_CARD,
    PEEK_EFFECT,
    PLACE_CARD,
    RECOVER_EFFECT,
    SAP_EFFECT,
    CardSet,
)
from flametable.games.duel.rules import (
    ABILITY_BONUS,
    CHAMPION_PHASE,
    CHOICE_PHASE,
    DRAFT_PHASE,
    HAND_SIZE,
    LINEUP_PHASE,
    MAX_PLAYS,
    OVER_PHASE,
    PHASE_TEXT,
    PLAY_PHASE,
    ROUNDS,
    STAT_PHASE,
    Phase,
    Reason,
)
from flametable.games.duel.view import DRAW as DRAW  # re-exported: DRAW, Played and RoundResult were defined here
from flametable.games.duel.view import DuelView, SeatInfo
from flametable.games.duel.view import Played as Played
from flametable.games.duel.view import RoundResult as RoundResult

NO_STAT = -1


@engine_state
class DuelState(EngineState):
    """A Flame Duel match. Mutates in place; :meth:`clone` is a cheap copy of its lists.

    Every field is declared once, below, with :func:`~flametable.core.engine.slot` (how a clone copies it, its
    value in :meth:`blank`; none: ``blank`` is given it): ``__slots__``, :meth:`blank`, :meth:`clone` and the
    determiniser's samples (clones of a blank state) follow from the declarations (:data:`FIELDS`)."""

    cards: CardSet = slot(Copy.SHARED)
    shared: bool = slot(Copy.SHARED)  # R2: one shared deck, else own decks
    draft: bool = slot(Copy.SHARED)
    pile_of: tuple[int, int] = slot(Copy.SHARED)  # which pile each seat draws from
    rng: Rng = slot(Copy.CLONE)
    phase: Phase = slot(Copy.SHARED, LINEUP_PHASE)
    acting: int = slot(Copy.SHARED, 0)  # the seat to act (meaningless once OVER)
    first_picker: int = slot(Copy.SHARED, 0)
    # each seat's characters (dealt, drafted or brought), sorted
    characters: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    # each seat's secret order (R3), complete after the line-up phase
    lineups: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    champion: list[int] = slot(Copy.LIST, [0, 0])  # tie-break picks (R14), 0 = not yet
    hands: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    piles: list[list[int]] = slot(Copy.LISTS, [])  # draw piles, top at the end; shared mode: one pile
    discards: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    # how many top cards of its pile each seat has looked at (R15)
    looked_at: list[int] = slot(Copy.LIST, [0, 0])
    place: int = slot(Copy.SHARED, 0)  # 0 = none
    place_owner: int = slot(Copy.SHARED, 0)
    round_no: int = slot(Copy.SHARED, 0)  # 0-based; 3 = the tie-break round
    chooser: int = slot(Copy.SHARED, 0)
    stat: int = slot(Copy.SHARED, NO_STAT)  # NO_STAT before it is chosen
    current: list[int] = slot(Copy.LIST, [0, 0])  # each seat's character this round
    plays: list[int] = slot(Copy.LIST, [0, 0])
    ability_used: list[bool] = slot(Copy.LIST, [False, False])
    passes: int = slot(Copy.SHARED, 0)  # passes in a row
    items: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    events: list[tuple[int, int]] = slot(Copy.LIST, [])  # (seat, support)
    # effect modifiers on each seat's total this round (boost, sap)
    modifiers: list[int] = slot(Copy.LIST, [0, 0])
    # queued table effects: (seat, effect kind, n)
    pending: list[tuple[int, int, int]] = slot(Copy.LIST, [])
    # this round's public plays: (seat, action, auto)
    log: list[tuple[int, DuelAction, bool]] = slot(Copy.LIST, [])
    results: list[RoundResult] = slot(Copy.LIST, [])
    # cards publicly known to be in each hand (taken back from a discard pile)
    revealed: list[list[int]] = slot(Copy.PER_SEAT, [[], []])
    wins: list[int] = slot(Copy.LIST, [0, 0])
    _outcome: Outcome | None = slot(Copy.SHARED, None)

    @classmethod
    def blank(cls, cards: CardSet, shared: bool, draft: bool, rng: Rng) -> DuelState:
        """A state before anything is dealt, every field at its empty value: ``DuelGame.new_match`` and the
        determiniser start from it and fill in what they know."""
        return _blank(cards=cards, shared=shared, draft=draft, pile_of=(0, 0) if shared else (0, 1), rng=rng)

    # ------------------------------------------------------------------ protocol

    @property
    def to_act(self) -> int | None:
        return None if self.phase is OVER_PHASE else self.acting

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def tiebreak(self) -> bool:
        return self.round_no == ROUNDS

    def clone(self) -> DuelState:
        """A copy that shares nothing mutable (written out from the declarations, as fast as one typed by hand)."""
        raise NotImplementedError  # pragma: no cover - replaced by engine_state

    def legal_actions(self) -> list[DuelAction]:
        phase = self.phase
        p = self.acting
        if phase is PLAY_PHASE:
            hand = self.hands[p]
            acts = [PASS]
            acts += [PLAY[s] for s in hand]
            if not self.ability_used[p]:
                acts += [ABILITY[s] for s in hand]
            return acts
        if phase is STAT_PHASE:
            return list(STAT)
        if phase is CHOICE_PHASE:
            return [(TAKE if self.pending[0][1] == RECOVER_EFFECT else SWAP)[s] for s in self._options()]
        if phase is LINEUP_PHASE:
            return [LINE[c] for c in self.characters[p] if c not in self.lineups[p]]
        if phase is DRAFT_PHASE:
            taken = self.characters[0] + self.characters[1]
            return [PICK[c] for c in range(1, len(self.cards.characters) + 1) if c not in taken]
        if phase is CHAMPION_PHASE:
            return [CHAMPION[c] for c in self._champion_options(p)]
        return []

    def apply(self, action: DuelAction) -> None:
        """Play ``action`` for the seat to act through the phase's handler (:data:`_ON_PHASE`); raises
        :class:`IllegalAction` if it is not legal."""
        _ON_PHASE[self.phase](self, action)

    # ------------------------------------------------------------------ one handler per phase

    def _on_play(self, action: DuelAction) -> None:
        """PLAY: ``pass``, play a support card, or trigger the ability with one (R6, R11)."""
        kind = action.kind
        p = self.acting
        if kind is PASS_KIND:
            self._pass(p, auto=False)
        elif kind is PLAY_KIND:
            self._check_in_hand(p, action.arg)
            self._play_support(p, action)
        elif kind is ABILITY_KIND:
            if self.ability_used[p]:
                raise IllegalAction(N_("Your ability can be triggered only once per round."))  # R6
            self._check_in_hand(p, action.arg)
            self._trigger_ability(p, action)
        else:
            self._not_now(action)

    def _on_stat(self, action: DuelAction) -> None:
        """STAT: the chooser picks the round's stat (R5), then plays start with the chooser (R6)."""
        if action.kind is not STAT_KIND:
            self._not_now(action)
        self.stat = action.arg
        self.phase = PLAY_PHASE
        self.acting = self.chooser  # R6: starting with the chooser
        self._advance()

    def _on_choice(self, action: DuelAction) -> None:
        """CHOICE: ``take`` or ``swap`` a card of the discard pile for the pending effect (R10)."""
        if action.kind is not TAKE_KIND and action.kind is not SWAP_KIND:
            self._not_now(action)
        self._choose(self.acting, action)

    def _on_lineup(self, action: DuelAction) -> None:
        """LINEUP: the next character of the secret line-up (R3)."""
        if action.kind is not LINE_KIND:
            self._not_now(action)
        self._line(self.acting, action.arg)

    def _on_draft(self, action: DuelAction) -> None:
        """DRAFT: pick a character (R2)."""
        if action.kind is not PICK_KIND:
            self._not_now(action)
        self._pick(self.acting, action.arg)

    def _on_champion(self, action: DuelAction) -> None:
        """CHAMPION: the tie-break character among the most charming ones (R14)."""
        if action.kind is not CHAMPION_KIND:
            self._not_now(action)
        p = self.acting
        if action.arg not in self._champion_options(p):
            raise IllegalAction(
                N_("{card} is not one of your most charming characters."), card=f"C{action.arg}"  # R14
            )
        self._set_champion(p, action.arg)

    def _on_over(self, action: DuelAction) -> None:
        raise IllegalAction(N_("The match is over."))

    def _not_now(self, action: DuelAction) -> NoReturn:
        raise IllegalAction(
            N_("{action} is not possible now: {expected}."), action=action.text(), expected=PHASE_TEXT[self.phase]
        )

    def view(self, seat: int | None) -> DuelView:
        return observe(self, seat)

    # ------------------------------------------------------------------ helpers

    def pile(self, seat: int) -> list[int]:
        return self.piles[self.pile_of[seat]]

    def _check_in_hand(self, p: int, s: int) -> None:
        if s not in self.hands[p]:
            raise IllegalAction(N_("{card} is not in your hand."), card=f"S{s}")

    def _draw(self, p: int) -> None:
        """Draw one card for ``p``; an empty pile draws nothing (R13)."""
        k = self.pile_of[p]
        pile = self.piles[k]
        if not pile:
            return
        self.hands[p].append(pile.pop())
        kt = self.looked_at
        for q in (0, 1):
            if kt[q] and self.pile_of[q] == k:
                kt[q] -= 1

    # ------------------------------------------------------------------ draft and line-up

    def _pick(self, p: int, c: int) -> None:
        if c in self.characters[0] or c in self.characters[1]:
            raise IllegalAction(N_("{card} has already been picked."), card=f"C{c}")  # R2
        insort(self.characters[p], c)  # kept sorted, like dealt characters
        if len(self.characters[0]) == 3 and len(self.characters[1]) == 3:
            self.phase = LINEUP_PHASE
            self.acting = 0
        else:
            self.acting = 1 - p

    def _line(self, p: int, c: int) -> None:
        lineup = self.lineups[p]
        if c not in self.characters[p]:
            raise IllegalAction(N_("{card} is not one of your characters."), card=f"C{c}")
        if c in lineup:
            raise IllegalAction(N_("{card} is already in your line-up."), card=f"C{c}")
        lineup.append(c)
        if len(lineup) == 2:  # the last one has only one place left
            lineup.extend(x for x in self.characters[p] if x not in lineup)
        if len(lineup) == 3:
            if len(self.lineups[1 - p]) < 3:
                self.acting = 1 - p
            else:
                self._lineups_done()

    def _lineups_done(self) -> None:
        """R4: each player draws 3 support cards, then round 1 starts (R5)."""
        for p in (0, 1):
            for _ in range(HAND_SIZE - len(self.hands[p])):
                self._draw(p)
        self._start_round()

    # ------------------------------------------------------------------ rounds

    def _start_round(self) -> None:
        r = self.round_no
        if r < ROUNDS:
            self.current = [self.lineups[0][r], self.lineups[1][r]]
        else:
            self.current = self.champion[:]
        if r == 0:
            a, b = self.current
            # R5: the lower card number chooses; the same number (own decks) by a coin flip.
            self.chooser = 0 if a < b else 1 if b < a else self.rng.coin()
        else:
            last = self.results[-1]
            # R5: after a won round the loser chooses, after a draw the one who did not choose.
            self.chooser = 1 - last.chooser if last.winner == DRAW else 1 - last.winner
        self.phase = STAT_PHASE
        self.acting = self.chooser

    def _advance(self) -> None:
        """Make the passes the engine makes for a player who can only pass (R6); end play after two."""
        while True:
            if self.passes >= 2:
                self._end_round()
                return
            p = self.acting
            if self.plays[p] < MAX_PLAYS and self.hands[p]:
                return
            self.log.append((p, PASS, True))
            self.passes += 1
            self.acting = 1 - p

    def _pass(self, p: int, auto: bool) -> None:
        self.log.append((p, PASS, auto))
        self.passes += 1
        self.acting = 1 - p
        self._advance()

    def _play_support(self, p: int, action: DuelAction) -> None:
        s = self._from_hand(p, action)
        cards = self.cards
        kind = cards.support_kind[s]
        if kind is ITEM_CARD:
            self.items[p].append(s)  # R7: equipped to the current character
        elif kind is PLACE_CARD:
            self._set_place(s, p)  # R8
        else:
            self.events.append((p, s))  # R9
        self._played(p, cards.support_effects[s])

    def _trigger_ability(self, p: int, action: DuelAction) -> None:
        # R11: discard a card of your choice, +15 (counted in the total), then the table effects.
        self.discards[p].append(self._from_hand(p, action))
        self.ability_used[p] = True
        self._played(p, self.cards.ability_effects[self.current[p]])

    def _from_hand(self, p: int, action: DuelAction) -> int:
        """Take the action's card out of ``p``'s hand and log the play (R15: plays are public)."""
        s = action.arg
        self.hands[p].remove(s)
        if self.revealed[p]:
            self._unreveal(p, s)
        self.log.append((p, action, False))
        return s

    def _played(self, p: int, effects: tuple[tuple[int, int], ...]) -> None:
        """One of ``p``'s 2 plays is made (R6): its table effects (R10), then the other player's turn."""
        self.plays[p] += 1
        self.passes = 0
        if effects:
            self.pending = [(p, k, n) for k, n in effects]
            self._resolve(p)
        else:
            self.acting = 1 - p
            self._advance()

    def _set_place(self, s: int, owner: int) -> None:
        # R8: the old place goes to the discard pile of the player who played it.
        if self.place:
            self.discards[self.place_owner].append(self.place)
        self.place = s
        self.place_owner = owner

    def _resolve(self, actor: int) -> None:
        """R10: do the queued effects in order; stop at one that needs its player's choice.

        The turn passes to the other player once the play is fully resolved.
        """
        pending = self.pending
        while pending:
            p, kind, n = pending[0]
            if kind == DRAW_EFFECT:
                for _ in range(n):
                    self._draw(p)
            elif kind == PEEK_EFFECT:
                self.looked_at[p] = max(self.looked_at[p], min(n, len(self.pile(p))))
            elif kind == BOOST_EFFECT:
                self.modifiers[p] += n
            elif kind == SAP_EFFECT:
                self.modifiers[1 - p] -= n
            elif kind == CLEAR_PLACE_EFFECT:
                if self.place:
                    self.discards[self.place_owner].append(self.place)
                    self.place = 0
            else:  # RECOVER, SWAP_PLACE: a choice among the discard pile
                options = self._options()
                if len(options) > 1:
                    self.phase = CHOICE_PHASE
                    self.acting = p
                    return
                if options:  # a single option needs no decision
                    self._do_choice(p, kind, options[0])
                    table = TAKE if kind == RECOVER_EFFECT else SWAP
                    self.log.append((p, table[options[0]], True))
            pending.pop(0)
        if self.phase is CHOICE_PHASE:
            self.phase = PLAY_PHASE
        self.acting = 1 - actor
        self._advance()

    def _options(self) -> list[int]:
        p, kind, _ = self.pending[0]
        if kind == RECOVER_EFFECT:
            return sorted(set(self.discards[p]))
        kinds = self.cards.support_kind
        return sorted({s for s in self.discards[p] if kinds[s] is PLACE_CARD})

    def _unreveal(self, p: int, s: int) -> None:
        if s in self.revealed[p]:
            self.revealed[p].remove(s)

    def _do_choice(self, p: int, kind: int, s: int) -> None:
        self.discards[p].remove(s)
        if kind == RECOVER_EFFECT:
            self.hands[p].append(s)
            self.revealed[p].append(s)  # it came from a public pile (R15)
        else:
            self._set_place(s, p)

    def _choose(self, p: int, action: DuelAction) -> None:
        kind = self.pending[0][1]
        wanted = TAKE_KIND if kind == RECOVER_EFFECT else SWAP_KIND
        if action.kind is not wanted:
            raise IllegalAction(N_("{action} is not possible now: {expected}."), action=action.text(),
                                expected=CHOICE_TEXT[wanted])
        if action.arg not in self._options():
            raise IllegalAction(N_("{card} is not a card you can choose from your discard pile."),
                                card=f"S{action.arg}")
        self._do_choice(p, kind, action.arg)
        self.log.append((p, action, False))
        self.pending.pop(0)
        self._resolve(p)

    def totals(self) -> tuple[int, int]:
        """R12: printed stat + items + owned place + events + ability + effect modifiers; (0, 0) before the round's
        stat is chosen."""
        stat = self.stat
        if stat == NO_STAT:
            return (0, 0)
        sups = self.cards.supports
        printed = self.cards.printed
        out = []
        for p in (0, 1):
            c = self.current[p]
            base = printed[c][stat]
            total = base + self.modifiers[p]
            if self.ability_used[p]:
                total += ABILITY_BONUS
            for s in self.items[p]:
                card = sups[s - 1]
                if card.stat == stat:
                    total += card.bonus * 2 if c in card.equips_to else card.bonus  # R7
            if self.place and self.place_owner == p:
                card = sups[self.place - 1]
                if card.stat == stat:
                    total += card.bonus  # R8
            for _, s in self.events:
                card = sups[s - 1]
                if card.stat != stat:
                    continue
                if card.printed_at_most is not None and base > card.printed_at_most:
                    continue
                if card.printed_at_least is not None and base < card.printed_at_least:
                    continue
                total += card.bonus  # R9: for both players
            out.append(total)
        return out[0], out[1]

    def _end_round(self) -> None:
        t0, t1 = self.totals()
        charm = self.cards.charm
        by_charm = False
        if t0 != t1:
            winner = 0 if t0 > t1 else 1
        else:  # R12: the higher printed Charm wins; equal again, a draw
            c0, c1 = charm[self.current[0]], charm[self.current[1]]
            winner = 0 if c0 > c1 else 1 if c1 > c0 else DRAW
            by_charm = winner != DRAW
        self.results.append(
            RoundResult(self.round_no + 1, self.chooser, self.stat, (self.current[0], self.current[1]), (t0, t1),
                        winner, by_charm)
        )
        if winner != DRAW:
            self.wins[winner] += 1
        # R13: items and events to the discard pile of whoever played them; the place stays.
        for p in (0, 1):
            self.discards[p].extend(self.items[p])
        for p, s in self.events:
            self.discards[p].append(s)
        self.items = [[], []]
        self.events = []
        w0, w1 = self.wins
        if self.round_no == ROUNDS:  # R14: the tie-break round decides, or the match is tied
            if winner == DRAW:
                self._finish(None, Reason.TIED_MATCH)
            else:
                self._finish(winner, Reason.TIEBREAK)
            return
        if w0 >= 2 or w1 >= 2:  # R14: 2 round wins win at once
            self._finish(0 if w0 >= 2 else 1, Reason.TWO_WINS)
            return
        if self.round_no == ROUNDS - 1 and w0 != w1:
            self._finish(0 if w0 > w1 else 1, Reason.MORE_WINS)
            return
        # R13: each player draws a card, the round's chooser first.
        self._draw(self.chooser)
        self._draw(1 - self.chooser)
        self.stat = NO_STAT
        self.plays = [0, 0]
        self.ability_used = [False, False]
        self.passes = 0
        self.modifiers = [0, 0]
        self.log = []
        self.round_no += 1
        if self.round_no == ROUNDS:
            self._start_tiebreak()
        else:
            self._start_round()

    def _finish(self, winner: int | None, reason: Reason) -> None:
        self.phase = OVER_PHASE
        self.pending = []
        self._outcome = Outcome(winner, reason, (self.wins[0], self.wins[1]))

    # ------------------------------------------------------------------ tie-break (R14)

    def _champion_options(self, p: int) -> list[int]:
        charm = self.cards.charm
        best = max(charm[c] for c in self.lineups[p])
        return sorted(c for c in self.lineups[p] if charm[c] == best)

    def _start_tiebreak(self) -> None:
        self.champion = [0, 0]
        for p in (0, 1):
            options = self._champion_options(p)
            if len(options) == 1:
                self.champion[p] = options[0]
        self._next_champion()

    def _set_champion(self, p: int, c: int) -> None:
        # No "already chosen" check: the pick is asked only of a seat without one (_next_champion).
        self.champion[p] = c
        self._next_champion()

    def _next_champion(self) -> None:
        for p in (0, 1):
            if not self.champion[p]:
                self.phase = CHAMPION_PHASE
                self.acting = p
                return
        self._start_round()



# ---------------------------------------------------------------------- views (R15)


def _flipped(st: DuelState, p: int) -> tuple[int, ...]:
    if st.phase in (DRAFT_PHASE, LINEUP_PHASE):
        return ()
    shown = min(st.round_no + 1, 3)
    return tuple(st.lineups[p][:shown])


def observe(st: DuelState, seat: int | None) -> DuelView:
    """What ``seat`` may see of ``st`` (``None``: a spectator); see ``duel.view`` for what is public and private."""
    if seat not in (None, 0, 1):
        raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
    over = st.phase is OVER_PHASE
    totals = st.totals() if not over else (0, 0)  # (0, 0) until the round's stat is chosen
    in_round = st.phase in (STAT_PHASE, PLAY_PHASE, CHOICE_PHASE) or (over and bool(st.results))
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
        champion = st.champion[seat] if st.phase is CHAMPION_PHASE else 0
        legal = tuple(st.legal_actions()) if st.to_act == seat else ()
    draft_pool: tuple[int, ...] = ()
    if st.phase is DRAFT_PHASE:
        taken = set(st.characters[0]) | set(st.characters[1])
        draft_pool = tuple(c for c in range(1, len(st.cards.characters) + 1) if c not in taken)
    return DuelView(
        seat=seat,
        phase=st.phase,
        to_act=st.to_act,
        shared_pile=st.shared,
        draft=st.draft,
        round_number=st.round_no + 1,
        chooser=st.chooser if st.phase in (STAT_PHASE, PLAY_PHASE, CHOICE_PHASE) else None,
        stat=st.stat if st.phase in (PLAY_PHASE, CHOICE_PHASE) else -1,
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


# The handler of each phase, indexed by the Phase's value.
_ON_PHASE = step_table(Phase, {
    DRAFT_PHASE: DuelState._on_draft,
    LINEUP_PHASE: DuelState._on_lineup,
    CHAMPION_PHASE: DuelState._on_champion,
    STAT_PHASE: DuelState._on_stat,
    PLAY_PHASE: DuelState._on_play,
    CHOICE_PHASE: DuelState._on_choice,
    OVER_PHASE: DuelState._on_over,
})

FIELDS = fields_of(DuelState)
"""The state's fields as declared (name, copy, empty value)."""
_blank = blank_of(DuelState)

CHOICE_TEXT = {
    TAKE_KIND: Phrase(N_("take a card from your discard pile")),
    SWAP_KIND: Phrase(N_("put a place from your discard pile on the table")),
}
