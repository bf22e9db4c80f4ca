"""What one seat may see of a Flamecraft Duals match (D10), decided here and nowhere else.

Public: the board, the reserve, coins, score piles and points, deck and hand sizes, the bag's contents as
a multiset (never its order), the tokens in play (the held token, crystal's drawn tokens), the decision
pending and the first-player draws (D3). Private to a seat: its hand, the cards of it that match now, the
cards it put at the bottom of the deck with their places there (positions count from the bottom, 0 = the
very bottom; cards put back by the opponent since then are counted, as the seat saw them go), and its
legal actions when it is to act. Hidden from everyone: the deck order and the bag's draw order.
"""

from __future__ import annotations

from dataclasses import dataclass

from flametable.core.outcome import Outcome
from flametable.duals.actions import DualsAction
from flametable.duals.rules import Step


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts about one seat."""

    coins: int
    hand_size: int
    pile: tuple[int, ...]  # scored cards, in the order scored
    points: int  # VP now: scored cards plus coins (0 per coin with STARBURST, D9)


@dataclass(frozen=True, slots=True)
class DualsView:
    """One seat's view (``seat`` None: a spectator)."""

    seat: int | None
    to_act: int | None
    turn: int  # whose turn it is
    turn_number: int
    phase: Step  # the decision pending
    last_chance: bool  # the turn is the opponent's last chance (D8)
    end_triggered: bool  # D8
    board: tuple[tuple[int, ...], ...]  # token kinds per space, bottom first
    bag: tuple[int, ...]  # how many tokens of each kind are in the bag (D10: a multiset)
    bag_size: int
    reserve: tuple[int, ...]  # token kinds, sorted
    held: int  # the token to place, -1 if none
    drawn: tuple[int, ...]  # crystal: the drawn tokens not kept, sorted
    src: int  # the space of the token firing, -1 if none
    fired: int  # bits (space * 3 + height) of the tokens fired in this chain
    iron_dest: int  # where the iron's first move went, -1 if none
    coin_used: bool  # this turn
    bottom_left: int  # cards still to put back after the coin
    deck_size: int
    first_player: int
    first_draws: tuple[tuple[int, int], ...]  # D3: (seat 0's token, seat 1's token) per draw
    seats: tuple[SeatInfo, SeatInfo]
    # private to ``seat``
    hand: tuple[int, ...]
    matching: tuple[int, ...]  # the hand cards that match the board now (D5)
    bottom_known: tuple[tuple[int, int], ...]  # (card, position from the bottom of the deck)
    legal: tuple[DualsAction, ...]  # my legal actions when I am to act, else empty
    outcome: Outcome | None
    # public facts about the decision pending, so that a view determines the rest of the turn
    step: Step = Step.PLACE  # the turn's decision (the one the coin's cards interrupt, when putting back)
    fire_after: bool = True  # the token placed may FIRE UP (not crystal's, D6)
    fire_optional: bool = True  # ``skip`` is allowed (not when a plant uses the token, D6)
    buddy: bool = False  # the Buddy variant (D11)
