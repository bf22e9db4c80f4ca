"""Flame Duel observations: one seat's view (``duel.view.DuelView``) as a flat float32 array.

Made from the view only, never from the state, so nothing the seat may not see can reach it (R15). The seat's
own perspective: every per-seat part comes mine first, then the opponent's. Cards are one-hot / multi-hot over
their numbers (cell ``i`` is card ``i + 1``), as many cells as the game's card set has characters and supports.
The layout (offsets, lengths, ranges, meanings) is :attr:`DuelObservation.layout`, listed in ``docs/rl.md``.

Not encoded, on purpose: the legal actions (the environments give them as the action mask), the order of the
round's events and discards (their sets are), the characters of past rounds by round (the flipped characters
and each round's stat, totals and winner are), the draft's first picker, the outcome's reason.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from flametable.games.duel.actions import Kind
from flametable.games.duel.cards import CardSet, EffectKind
from flametable.games.duel.game import most_in_hand
from flametable.games.duel.rules import MAX_PLAYS, ROUNDS, Phase
from flametable.games.duel.view import DRAW, DuelView
from flametable.rl.spec import Layout

CHARACTERS_PER_SEAT = 3  # R2, R3: three characters each, lined up
STAT_SCALE = 100.0  # printed stats, modifiers and totals are divided by it (then clipped to +-STAT_CLIP)
STAT_CLIP = 2.0
NUM_STATS = 3
ROUND_CELLS = 12  # per finished round, see the layout
LOG_SCALE = 16  # decisions logged in a round, for the log's length (a round logs fewer: see max_steps)


SEAT_PARTS = ("flipped", "known", "character", "printed", "hand_size", "revealed", "pile_size", "discard", "items",
              "events", "plays", "ability", "wins", "modifier", "total")
_CARD_PARTS = {"flipped", "known", "character", "revealed", "discard", "items", "events"}


def max_steps(cards: CardSet) -> int:
    """The most decisions a Flame Duel match with ``cards`` can ask for (docs/rl.md derives it):

    draft 6 picks (3 each, R2) + line-up 2 each (the third character takes the last place, R3) + the tie-break
    picks 2 (R14) + 4 rounds (3 and the tie-break, R14), each: the stat (R5), at most ``MAX_PLAYS`` plays per
    seat (R6), each followed by at most ``c`` choices (the most choosing effects, take back or swap a place, on
    one card or ability, R10), and the passes made by a player: at most one before each play (two in a row end
    the round's play) and two at the end, so at most plays + 2."""
    choosing = (EffectKind.RECOVER, EffectKind.SWAP_PLACE)
    c = max(sum(1 for e in effects if e.kind in choosing)
            for effects in (*(x.effects for x in cards.characters), *(x.effects for x in cards.supports)))
    plays = 2 * MAX_PLAYS
    per_round = 1 + plays * (1 + c) + plays + 2
    draft = 2 * CHARACTERS_PER_SEAT
    lineup = 2 * (CHARACTERS_PER_SEAT - 1)
    return draft + lineup + 2 + (ROUNDS + 1) * per_round


class DuelObservation:
    """Flame Duel's :class:`~flametable.rl.spec.ObservationSpec` for one card set (the registry's ``observation``
    piece)."""

    shape: tuple[int, ...]
    max_steps: int
    num_players: int = 2
    layout: Layout

    def __init__(self, game: Any) -> None:
        cards: CardSet = game.cards
        nc = self.nc = len(cards.characters)
        ns = self.ns = len(cards.supports)
        nk = len(EffectKind)
        self.max_steps = max_steps(cards)
        self.hand_scale = float(most_in_hand(cards))
        # printed (spark, heat, charm) / STAT_SCALE, clipped, indexed by character number
        self.printed = [tuple(min(v / STAT_SCALE, STAT_CLIP) for v in p) for p in cards.printed]
        lay = self.layout = Layout()
        self.o_phase = lay.add("phase", len(Phase), "the phase, one-hot: draft, line-up, tie-break pick, stat "
                                                    "choice, plays, effect choice, over")
        self.o_to_act = lay.add("to_act", 2, "who is to act: [0] me, [1] the opponent (none once over)")
        self.o_mode = lay.add("mode", 2, "[0] one shared support deck (else own decks), [1] characters drafted")
        self.o_round = lay.add("round", ROUNDS + 1, "the round, one-hot: 1, 2, 3, the tie-break round")
        self.o_chooser = lay.add("chooser", 2, "who chooses (chose) this round's stat: [0] me, [1] the opponent")
        self.o_stat = lay.add("stat", NUM_STATS, "this round's stat, one-hot (spark, heat, charm); none before it "
                                                 "is chosen")
        self.o_place = lay.add("place", ns, "the place card on the table, one-hot by support number")
        self.o_place_owner = lay.add("place_owner", 2, "the place's owner: [0] me, [1] the opponent")
        self.o_passes = lay.add("passes", 1, "passes in a row / 2 (two end the round's play)")
        self.o_pending = lay.add("pending", 2 * nk, f"table effects still to do: [seat * {nk} + effect] (seat 0 me, "
                                                    "1 the opponent; effects: draw, look, take back, swap a place, "
                                                    "clear the place, boost, sap)")
        self.o_pending_first = lay.add("pending_first", nk, "the effect to do first (a choice waits on it), one-hot")
        self.o_last = lay.add("last_play", 2 + len(Kind), "the round's last logged decision: [0] mine, [1] the "
                                                          "opponent's, [2] the engine's (a forced pass or single "
                                                          "option), then its kind one-hot: pass, play, ability, "
                                                          "stat, pick, line, champion, take, swap")
        self.o_log = lay.add("log_length", 1, f"decisions logged this round / {LOG_SCALE}, clipped to 1")
        self.o_results = lay.add("results", (ROUNDS + 1) * ROUND_CELLS,
                                 f"the finished rounds, {ROUND_CELLS} cells each (round 1, 2, 3, tie-break): "
                                 "[0] played, [1] I chose, [2] the opponent chose, [3:6] the stat one-hot, [6] I won, "
                                 "[7] the opponent won, [8] drawn, [9] by printed Charm, [10] my total, [11] the "
                                 "opponent's total (totals / 100, clipped to -2..2)", -STAT_CLIP, STAT_CLIP)
        self.o_outcome = lay.add("outcome", 3, "[0] the match is over, [1] I won, [2] the opponent won (neither: a "
                                               "tied match)")
        self.o_pool = lay.add("draft_pool", nc, "characters still free to pick (draft), multi-hot")
        self.o_seat = []
        for who in ("me", "opp"):
            whose = "my" if who == "me" else "the opponent's"
            off = {
                "flipped": lay.add(f"{who}.flipped", nc, f"{whose} flipped characters, multi-hot"),
                "known": lay.add(f"{who}.known", nc, "my characters, multi-hot" if who == "me" else
                                 "the opponent's characters I know (flipped, or all three when drafted), multi-hot"),
                "character": lay.add(f"{who}.character", nc, f"{whose} character this round, one-hot"),
                "printed": lay.add(f"{who}.printed", NUM_STATS, f"{whose} character's printed spark, heat, charm / "
                                                                "100 (clipped to 2)", 0.0, STAT_CLIP),
                "hand_size": lay.add(f"{who}.hand_size", 1, f"{whose} hand size / {int(self.hand_scale)} (the most a "
                                                            "hand holds when a round starts), clipped to 1"),
                "revealed": lay.add(f"{who}.revealed", ns, f"cards publicly known to be in {whose} hand (taken back "
                                                           "from a discard pile), multi-hot"),
                "pile_size": lay.add(f"{who}.pile_size", 1, f"{whose} draw pile size / {ns}"),
                "discard": lay.add(f"{who}.discard", ns, f"{whose} discard pile, multi-hot"),
                "items": lay.add(f"{who}.items", ns, f"items {whose} character has equipped this round, multi-hot"),
                "events": lay.add(f"{who}.events", ns, f"events {'I' if who == 'me' else 'the opponent'} played this "
                                                       "round, multi-hot"),
                "plays": lay.add(f"{who}.plays", 1, f"{whose} plays this round / {MAX_PLAYS}"),
                "ability": lay.add(f"{who}.ability_used", 1, f"{whose} ability was triggered this round"),
                "wins": lay.add(f"{who}.wins", 1, f"{whose} round wins / {ROUNDS}"),
                "modifier": lay.add(f"{who}.modifier", 1, f"effect modifiers on {whose} total (boost, sap) / 100, "
                                                          "clipped", -STAT_CLIP, STAT_CLIP),
                "total": lay.add(f"{who}.total", 1, f"{whose} running total this round / 100, clipped (0 before "
                                                    "the stat is chosen)", -STAT_CLIP, STAT_CLIP),
            }
            self.o_seat.append(off)
        self.o_hand = lay.add("hand", ns, "my hand, multi-hot")
        self.o_lineup = lay.add("lineup", CHARACTERS_PER_SEAT * nc, f"my line-up: position i (0..2) is one-hot at "
                                                                    f"[i * {nc} + character - 1]")
        self.o_champion = lay.add("champion", nc, "my tie-break pick, one-hot (while the picks go on)")
        self.o_top_first = lay.add("known_top.first", ns, "the top card of my draw pile, when I looked at it, one-hot")
        self.o_top = lay.add("known_top", ns, "the top cards of my draw pile I looked at, multi-hot")
        self.o_top_n = lay.add("known_top.count", 1, f"how many top cards of my pile I know / {ns}")
        self.o_my_pile = lay.add("my_pile", ns, "own decks: the cards of my deck still in my draw pile, multi-hot")
        self.shape = (lay.size,)
        self._kind_offset = self.o_last + 3
        self.nk = nk
        # per seat (mine, the opponent's), its segments' offsets in SEAT_PARTS order; card segments less one, so
        # that card n is at offset + n
        self.seat_offsets = [tuple(off[name] - (name in _CARD_PARTS) for name in SEAT_PARTS) for off in self.o_seat]

    def encode(self, view: DuelView, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` (a seat's view; a spectator's is refused) into ``out``."""
        me = view.seat
        if me is None:
            raise ValueError("an observation is made of a seat's view, not a spectator's")
        out.fill(0.0)
        # the cells set to 1, then the other values: written at the end, two numpy calls
        ones: list[int] = [self.o_phase + view.phase, self.o_round + view.round_number - 1]
        at: list[int] = [self.o_passes]
        values: list[float] = [view.passes / 2]
        to_act = view.to_act
        if to_act is not None:
            ones.append(self.o_to_act + (to_act != me))
        if view.shared_pile:
            ones.append(self.o_mode)
        if view.draft:
            ones.append(self.o_mode + 1)
        if view.chooser is not None:
            ones.append(self.o_chooser + (view.chooser != me))
        if view.stat >= 0:
            ones.append(self.o_stat + view.stat)
        if view.place:
            ones.append(self.o_place + view.place - 1)
            if view.place_owner is not None:
                ones.append(self.o_place_owner + (view.place_owner != me))
        if view.pending:
            nk = self.nk
            o = self.o_pending
            ones += [o + (p != me) * nk + k for p, k, _n in view.pending]
            ones.append(self.o_pending_first + view.pending[0][1])
        log = view.log
        if log:
            last = log[-1]
            ones.append(self.o_last + (2 if last.auto else last.seat != me))
            ones.append(self._kind_offset + last.action.kind)
            at.append(self.o_log)
            values.append(min(len(log) / LOG_SCALE, 1.0))
        base = self.o_results
        for r in view.results:
            a = base + (r.number - 1) * ROUND_CELLS
            ones += (a, a + 1 + (r.chooser != me), a + 3 + r.stat,
                     a + 8 if r.winner == DRAW else a + 6 + (r.winner != me))
            if r.by_charm:
                ones.append(a + 9)
            at += (a + 10, a + 11)
            values += (_clip(r.totals[me] / STAT_SCALE), _clip(r.totals[1 - me] / STAT_SCALE))
        outcome = view.outcome
        if outcome is not None:
            ones.append(self.o_outcome)
            if outcome.winner is not None:
                ones.append(self.o_outcome + 1 + (outcome.winner != me))
        if view.draft_pool:
            o = self.o_pool - 1
            ones += [o + c for c in view.draft_pool]
        seats = view.seats
        ns = self.ns
        for p, offsets in ((me, self.seat_offsets[0]), (1 - me, self.seat_offsets[1])):
            (flipped, known, character, printed, hand_size, revealed, pile_size, discard, items, _events, plays,
             ability, wins, modifier, total) = offsets
            info = seats[p]
            ones += [flipped + c for c in info.flipped]
            ones += [known + c for c in info.known_characters]
            c = info.character
            if c:
                ones.append(character + c)
                at += (printed, printed + 1, printed + 2)
                values += self.printed[c]
            if info.revealed:
                ones += [revealed + s for s in info.revealed]
            ones += [discard + s for s in info.discard]
            if info.items:
                ones += [items + s for s in info.items]
            if info.ability_used:
                ones.append(ability)
            at += (hand_size, pile_size, plays, wins, modifier, total)
            values += (min(info.hand_size / self.hand_scale, 1.0), info.pile_size / ns, info.plays / MAX_PLAYS,
                       info.wins / ROUNDS, _clip(info.modifier / STAT_SCALE), _clip(info.total / STAT_SCALE))
        if view.events:
            mine = self.seat_offsets[0][9]
            theirs = self.seat_offsets[1][9]
            ones += [(mine if p == me else theirs) + s for p, s in view.events]
        o = self.o_hand - 1
        ones += [o + s for s in view.hand]
        if view.lineup:
            o = self.o_lineup - 1
            nc = self.nc
            ones += [o + i * nc + c for i, c in enumerate(view.lineup)]
        if view.champion:
            ones.append(self.o_champion + view.champion - 1)
        top = view.known_top
        if top:
            ones.append(self.o_top_first + top[0] - 1)
            o = self.o_top - 1
            ones += [o + s for s in top]
            at.append(self.o_top_n)
            values.append(len(top) / ns)
        if view.my_pile:
            o = self.o_my_pile - 1
            ones += [o + s for s in view.my_pile]
        out.put(ones, 1.0)
        out.put(at, values)


def _clip(x: float) -> float:
    return STAT_CLIP if x > STAT_CLIP else -STAT_CLIP if x < -STAT_CLIP else x
