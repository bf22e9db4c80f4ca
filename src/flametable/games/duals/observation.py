"""Flamecraft Duals observations: one seat's view (``duals.view.DualsView``) as a flat float32 array.

Made from the view only, never from the state, so nothing the seat may not see can reach it (D10): the bag is
its contents (counts per token kind), never its order; the shop deck is its size and the cards this seat put at
the bottom, never its order; the opponent's hand is its size. The seat's own perspective: per-seat parts come
mine first, then the opponent's. Spaces, token kinds and shop cards are one-hot / multi-hot over the game's data
(its board, its token kinds: the six artisans, the duals, Buddy; its cards: cell ``i`` is card ``i + 1``). The
layout is :attr:`DualsObservation.layout`, listed in ``docs/rl.md``.

Not encoded, on purpose: the legal actions (the environments give them as the action mask) and the first-player
draws (D3: they decided who starts, which ``first`` says, and nothing after).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from flametable.games.duals.data import DualsData
from flametable.games.duals.rules import (
    COIN_BOTTOM,
    COIN_DRAW,
    CRYSTAL_DRAW,
    HAND_SIZE,
    NUM_TYPES,
    STACK_LIMIT,
    START_COINS,
    TYPE_KEYS,
    Step,
)
from flametable.games.duals.view import DualsView
from flametable.rl.spec import Layout


def max_turns(data: DualsData) -> int:
    """The most turns a match can have: every turn but the last chance (D8) takes a token from the bag (or the
    reserve once the bag is empty, D7) and places it, and tokens never leave the board; crystal returns to the bag
    only tokens it drew that turn (D6). So at most one turn per token of the data, one that finds nothing to draw
    (it ends the match, D8) and the last chance."""
    return sum(data.supply) + 2


def max_steps(data: DualsData) -> int:
    """The most decisions a Flamecraft Duals match with ``data`` can ask for (docs/rl.md derives it).

    Over the match: ``place`` at most once per token (P, the tokens of the data), ``score`` once per card (C),
    ``coin`` once per coin (2 x 3) with its 2 ``bottom`` each. Per turn (at most T, :func:`max_turns`), with p the
    turn's placements: a FIRE decision follows a placement or a plant's ``use``; a ``use`` takes a top token not
    yet fired in the chain (D6) and nothing leaves the board during the chain, so there are at most B + p of them
    (B spaces: their tops at the start, and one new top per placement); a crystal's ``take`` (1: its token is
    placed without FIRE UP, which ends the chain), a meat, potion or iron (at most 2: iron's second move or
    ``done``; each ends the chain) and the SCORE phase's ``done`` (1). That is 2p + 2(B + p) + 4 per turn, and
    5P + (2B + 4)T + C + 2 x 3 x (1 + 2) in all."""
    p = sum(data.supply)
    cards = len(data.cards)
    coins = 2 * START_COINS * (1 + COIN_BOTTOM)
    return 5 * p + (2 * data.board.size + 4) * max_turns(data) + cards + coins


FLAGS = ("fire_after", "fire_optional", "coin_used", "last_chance", "end_triggered", "buddy", "my_turn", "to_act",
         "first")


class DualsObservation:
    """Flamecraft Duals' :class:`~flametable.rl.spec.ObservationSpec` for one data set (the registry's
    ``observation`` piece)."""

    shape: tuple[int, ...]
    max_steps: int
    num_players: int = 2
    layout: Layout

    def __init__(self, game: Any) -> None:
        data: DualsData = game.data
        b = data.board.size
        k = data.num_kinds
        c = self.c = len(data.cards)
        t = NUM_TYPES
        self.max_steps = max_steps(data)
        self.turn_scale = float(max_turns(data))
        self.inv_supply = [1.0 / max(n, 1) for n in data.supply]
        self.tokens = float(max(sum(data.supply), 1))
        self.vp_scale = float(sum(data.vp) + START_COINS)
        self.hand_scale = float(HAND_SIZE + COIN_DRAW)
        self.types_of = [[x for x in range(t) if mask >> x & 1] for mask in data.kind_mask]
        kinds = ", ".join(data.kind_names)
        lay = self.layout = Layout()
        self.o_board = lay.add("board", b * STACK_LIMIT * k, f"the tokens on the board: [(space * {STACK_LIMIT} + "
                                                             f"level) * {k} + kind] (level 0 the bottom; spaces in "
                                                             f"the board's order; kinds: {kinds})")
        self.o_tops = lay.add("board.tops", b * t, f"the types each space's top token shows: [space * {t} + type] "
                                                   f"(types: {', '.join(TYPE_KEYS)})")
        self.o_filled = lay.add("board.filled", b * STACK_LIMIT, f"the levels holding a token: [space * {STACK_LIMIT} "
                                                                 "+ level]")
        self.o_bag = lay.add("bag", k, "the bag's contents: tokens of each kind / how many the data has")
        self.o_bag_size = lay.add("bag_size", 1, f"tokens in the bag / all tokens ({int(self.tokens)})")
        self.o_reserve = lay.add("reserve", k, "the reserve: tokens of each kind / how many the data has")
        self.o_held = lay.add("held", k, "the token to place, one-hot by kind")
        self.o_drawn = lay.add("drawn", k, f"crystal's drawn tokens not kept: per kind / {CRYSTAL_DRAW}")
        self.o_phase = lay.add("phase", len(Step), "the decision pending, one-hot: place, fire, take, meat, iron, "
                                                   "potion, plant, score, bottom, over")
        self.o_step = lay.add("step", len(Step), "the turn's decision (the one the coin's cards interrupt), one-hot")
        self.o_src = lay.add("src", b, "the space of the token firing, one-hot")
        self.o_iron = lay.add("iron_dest", b, "where the iron's first move went, one-hot")
        self.o_fired = lay.add("fired", b * STACK_LIMIT, f"the tokens fired in this chain: [space * {STACK_LIMIT} + "
                                                         "level]")
        self.o_flags = lay.add("flags", len(FLAGS), "[0] the token placed may FIRE UP, [1] skip is allowed, [2] the "
                                                    "coin was spent this turn, [3] this turn is the last chance, "
                                                    "[4] the end is triggered, [5] the Buddy variant, [6] it is my "
                                                    "turn, [7] I am to act, [8] I played first")
        self.o_bottom_left = lay.add("bottom_left", 1, f"the coin's cards still to put back / {COIN_BOTTOM}")
        self.o_turn = lay.add("turn_number", 1, f"the turn's number / {int(self.turn_scale)} (the most turns)")
        self.o_deck = lay.add("deck_size", 1, f"cards in the shop deck / {c}")
        self.o_seat = []
        for who in ("me", "opp"):
            whose = "my" if who == "me" else "the opponent's"
            self.o_seat.append({
                "coins": lay.add(f"{who}.coins", 1, f"{whose} coins / {START_COINS}"),
                "hand_size": lay.add(f"{who}.hand_size", 1, f"{whose} hand size / {int(self.hand_scale)}"),
                "points": lay.add(f"{who}.points", 1, f"{whose} points now / {int(self.vp_scale)} (every card's VP "
                                                      "and the coins)"),
                "pile": lay.add(f"{who}.pile", c, f"{whose} scored cards, multi-hot"),
                "pile_size": lay.add(f"{who}.pile_size", 1, f"{whose} scored cards / {c}"),
            })
        self.o_hand = lay.add("hand", c, "my hand, multi-hot")
        self.o_matching = lay.add("matching", c, "the cards of my hand that match the board now, multi-hot")
        self.o_bottom = lay.add("bottom_known", c, f"the cards I put at the bottom of the deck: (position from the "
                                                   f"bottom + 1) / {c}")
        self.o_outcome = lay.add("outcome", 3, "[0] the match is over, [1] I won, [2] the opponent won (both 0 and "
                                               "[0] 1: a shared victory)")
        self.shape = (lay.size,)
        # per seat (mine, the opponent's): coins, hand size, points, pile (card n at pile + n), pile size
        self.seat_offsets = [(o["coins"], o["hand_size"], o["points"], o["pile"] - 1, o["pile_size"])
                             for o in self.o_seat]
        # each space's stacks seen so far: the cells they set (at most B x (K + K^2 + K^3) of them)
        self.stacks: list[dict[tuple[int, ...], tuple[int, ...]]] = [{} for _ in range(b)]
        # per space and level, the first cell of its kinds
        self.cell = [[self.o_board + (s * STACK_LIMIT + level) * k for level in range(STACK_LIMIT)] for s in range(b)]

    def _stack_cells(self, s: int, stack: tuple[int, ...]) -> tuple[int, ...]:
        """The cells set to 1 by ``stack`` on space ``s``: its tokens, its top's types, its filled levels."""
        row = self.cell[s]
        cells = [row[level] + kind for level, kind in enumerate(stack)]
        cells += [self.o_tops + s * NUM_TYPES + x for x in self.types_of[stack[-1]]]
        cells += [self.o_filled + s * STACK_LIMIT + level for level in range(len(stack))]
        found = self.stacks[s][stack] = tuple(cells)
        return found

    def encode(self, view: DualsView, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` (a seat's view; a spectator's is refused) into ``out``."""
        me = view.seat
        if me is None:
            raise ValueError("an observation is made of a seat's view, not a spectator's")
        out.fill(0.0)
        # the cells set to 1, then the other values: written at the end, two numpy calls
        ones: list[int] = [self.o_phase + view.phase, self.o_step + view.step]
        c = self.c
        at: list[int] = [self.o_bag_size, self.o_bottom_left, self.o_turn, self.o_deck]
        values: list[float] = [view.bag_size / self.tokens, view.bottom_left / COIN_BOTTOM,
                               min(view.turn_number / self.turn_scale, 1.0), view.deck_size / c]
        stacks = self.stacks
        for s, stack in enumerate(view.board):
            if stack:
                cells = stacks[s].get(stack)
                ones += cells if cells is not None else self._stack_cells(s, stack)
        inv = self.inv_supply
        o = self.o_bag
        for kind, n in enumerate(view.bag):
            if n:
                at.append(o + kind)
                values.append(n * inv[kind])
        if view.reserve:
            o = self.o_reserve
            reserve = view.reserve
            for kind in set(reserve):
                at.append(o + kind)
                values.append(reserve.count(kind) * inv[kind])
        if view.held >= 0:
            ones.append(self.o_held + view.held)
        if view.drawn:
            o = self.o_drawn
            drawn = view.drawn
            for kind in set(drawn):
                at.append(o + kind)
                values.append(drawn.count(kind) / CRYSTAL_DRAW)
        if view.src >= 0:
            ones.append(self.o_src + view.src)
        if view.iron_dest >= 0:
            ones.append(self.o_iron + view.iron_dest)
        if view.fired:
            o = self.o_fired
            ones += [o + s * STACK_LIMIT + level for s, level in view.fired]
        o = self.o_flags
        for i, flag in enumerate((view.fire_after, view.fire_optional, view.coin_used, view.last_chance,
                                  view.end_triggered, view.buddy, view.turn == me, view.to_act == me,
                                  view.first_player == me)):
            if flag:
                ones.append(o + i)
        seats = view.seats
        for p, (coins, hand_size, points, pile, pile_size) in ((me, self.seat_offsets[0]),
                                                                (1 - me, self.seat_offsets[1])):
            info = seats[p]
            at += (coins, hand_size, points, pile_size)
            values += (info.coins / START_COINS, min(info.hand_size / self.hand_scale, 1.0),
                       min(info.points / self.vp_scale, 1.0), len(info.pile) / c)
            if info.pile:
                ones += [pile + card for card in info.pile]
        o = self.o_hand - 1
        ones += [o + card for card in view.hand]
        if view.matching:
            o = self.o_matching - 1
            ones += [o + card for card in view.matching]
        if view.bottom_known:
            o = self.o_bottom - 1
            for card, position in view.bottom_known:
                at.append(o + card)
                values.append((position + 1) / c)
        outcome = view.outcome
        if outcome is not None:
            ones.append(self.o_outcome)
            if outcome.winner is not None:
                ones.append(self.o_outcome + 1 + (outcome.winner != me))
        out.put(ones, 1.0)
        out.put(at, values)
