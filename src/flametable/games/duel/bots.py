"""Flame Duel knowledge for the bots: the evaluation greedy uses, the determiniser binding and the playout policy
ISMCTS uses."""

from __future__ import annotations

import math
from typing import Any

from flametable.bots.registry import Knowledge
from flametable.core.protocol import GameState
from flametable.core.rng import Rng
from flametable.games.duel.actions import ABILITY, PASS, PLAY, STAT, DuelAction, Kind
from flametable.games.duel.cards import CardSet, EffectKind, SupportKind
from flametable.games.duel.determinize import Sampler
from flametable.games.duel.rules import ABILITY_BONUS, Phase
from flametable.games.duel.state import DuelState
from flametable.games.duel.view import DuelView


def character_quality(cards: CardSet, c: int) -> float:
    spark, heat, charm = cards.printed[c]
    return max(spark, heat, charm) + (spark + heat + charm) / 6


def evaluate(state: GameState[Any, Any], me: int) -> float:
    """How good ``state`` looks for seat ``me``, from what is public plus ``me``'s own cards."""
    st: DuelState = state  # type: ignore[assignment]
    o = 1 - me
    out = st.outcome
    if out is not None:
        return 1000.0 * (out.points(me) - 0.5)
    cards = st.cards
    score = 100.0 * (st.wins[me] - st.wins[o])
    if st.phase is Phase.DRAFT or st.phase is Phase.LINEUP:
        score += sum(character_quality(cards, c) for c in st.characters[me])
    if st.stat >= 0:
        t = st.totals()
        margin: float = t[me] - t[o]
        if margin == 0:
            c_me, c_o = cards.charm[st.current[me]], cards.charm[st.current[o]]
            margin = 0.5 if c_me > c_o else -0.5 if c_me < c_o else 0.0
        score += 45.0 * math.tanh(margin / 8.0)
    sups = cards.supports
    score += sum(5.0 + 0.3 * abs(sups[s - 1].bonus) for s in st.hands[me])
    score -= 2.0 * len(st.hands[o])
    return score


def duel_determinizer(cards: CardSet) -> Any:
    def prepare(view: DuelView) -> Sampler:
        return Sampler(view, cards)

    return prepare


# ---------------------------------------------------------------------- playouts

EXPLORE = 16
"""One playout move in EXPLORE is uniformly random, so that playouts still try what the policy never would."""

_BOOST, _SAP, _CLEAR_PLACE = int(EffectKind.BOOST), int(EffectKind.SAP), int(EffectKind.CLEAR_PLACE)


def place_edge(st: DuelState, p: int, stat: int) -> int:
    """What the place on the table adds to ``p``'s lead in a round of ``stat``: its bonus for its owner (R8)."""
    place = st.place
    if not place:
        return 0
    card = st.cards.supports[place - 1]
    if card.stat != stat:
        return 0
    return card.bonus if st.place_owner == p else -card.bonus


def gain(st: DuelState, p: int, action: DuelAction) -> int:
    """How much playing ``action`` (a support card or the ability) now changes ``p``'s lead in the round: its own
    total minus the other's, read from the cards (R7-R12). Table effects that need a choice or a draw count 0."""
    cards = st.cards
    stat = st.stat
    g = 0
    if action.kind is Kind.ABILITY:
        g = ABILITY_BONUS
        effects = cards.ability_effects[st.current[p]]
    else:
        s = action.arg
        card = cards.supports[s - 1]
        kind = cards.support_kind[s]
        if kind is SupportKind.ITEM:
            if card.stat == stat:
                g = card.bonus * 2 if st.current[p] in card.equips_to else card.bonus  # R7
        elif kind is SupportKind.PLACE:
            g = (card.bonus if card.stat == stat else 0) - place_edge(st, p, stat)  # R8: it replaces the old one
        elif card.stat == stat:  # R9: an event counts for both, where its condition holds
            for q, sign in ((p, 1), (1 - p, -1)):
                base = cards.printed[st.current[q]][stat]
                if card.printed_at_most is not None and base > card.printed_at_most:
                    continue
                if card.printed_at_least is not None and base < card.printed_at_least:
                    continue
                g += sign * card.bonus
        effects = cards.support_effects[s]
    for kind_n, n in effects:
        if kind_n in (_BOOST, _SAP):
            g += n
        elif kind_n == _CLEAR_PLACE:
            g -= place_edge(st, p, stat)
    return g


def margin(st: DuelState, p: int) -> tuple[int, int]:
    """``p``'s lead in the round as it stands (its total minus the other's) and which way a tie goes on the printed
    Charm (R12): 1 for ``p``, -1 for the other, 0 for a draw."""
    t = st.totals()
    charm = st.cards.charm
    c_me, c_o = charm[st.current[p]], charm[st.current[1 - p]]
    return t[p] - t[1 - p], (c_me > c_o) - (c_me < c_o)


def best_stat(st: DuelState, p: int) -> int:
    """The stat in which ``p``'s character leads the other's most, counting the place on the table."""
    printed = st.cards.printed
    mine, theirs = printed[st.current[p]], printed[st.current[1 - p]]
    return max(range(3), key=lambda s: mine[s] - theirs[s] + place_edge(st, p, s))


def playout_action(state: GameState[Any, Any], rng: Rng) -> DuelAction:
    """A playout move that spends cards the way a sensible player does (ISMCTS's playout policy).

    Uniformly random playouts play a kept card at random and pick the stat at random: a line that keeps a card for
    a later round was valued as if the card would be wasted, while spending it now (a place put on the table, even
    over one's own) got its worth without a decision, so the search backed spending (issue 9). Here the player to
    act passes while it wins the round as it stands; otherwise it plays a card (or its ability, discarding its
    least useful card) that makes it win the round, else one that helps most, else it passes. The chooser picks the
    stat its character is best in, counting the place on the table. One move in EXPLORE, and every other
    decision, is uniformly random.
    """
    st: DuelState = state  # type: ignore[assignment]
    phase = st.phase
    if rng.below(EXPLORE):
        if phase is Phase.PLAY:
            return play_or_pass(st, rng)
        if phase is Phase.STAT:
            return STAT[best_stat(st, st.acting)]
    legal = st.legal_actions()
    return legal[rng.below(len(legal))]


def play_or_pass(st: DuelState, rng: Rng) -> DuelAction:
    """The sensible move in the play phase (a player asked to move has a play left and a card, R6)."""
    p = st.acting
    m, tie = margin(st, p)
    if m > 0 or (m == 0 and tie > 0):
        return PASS
    hand = st.hands[p]
    moves = [PLAY[s] for s in hand]
    gains = [gain(st, p, a) for a in moves]
    if not st.ability_used[p]:
        least = min(gains)
        spare = [s for s, g in zip(hand, gains, strict=True) if g == least]
        moves.append(ABILITY[spare[rng.below(len(spare))]])
        gains.append(gain(st, p, moves[-1]))
    winning = [a for a, g in zip(moves, gains, strict=True) if m + g > 0 or (m + g == 0 and tie > 0)]
    if winning:
        return winning[rng.below(len(winning))]
    top = max(gains)
    if top <= 0:
        return PASS
    best = [a for a, g in zip(moves, gains, strict=True) if g == top]
    return best[rng.below(len(best))]


HARD_ITERATIONS = 4000
"""bot:hard's iterations a decision where it must be reproducible (the lab's ``sim``, ``deterministic``), on
either engine: the same choices at the same seed."""
HARD_SECONDS = 1.5
"""bot:hard's thinking time a decision in play on the Python engine (its 4,000 iterations take 0.3 to 1.5 s)."""
NATIVE_HARD_SECONDS = 0.5
NATIVE_HARD_TIMED_ITERATIONS = 16_000
"""bot:hard in play with the native search: up to 16,000 iterations a decision (about 0.02 s of a core), cut at
0.5 s when the machine is busy, where 4,000 took 0.015 s and left the time budget unused. Not more: head to head
against the 4,000-iteration bot, 16,000 scored 49.1% [44.1, 54.1] (400 matches), 50,000 42.3% [35.4, 49.4] and
200,000 45.3% [39.6, 51.2] (issue 26, P3; docs/benchmarks.md): more iterations buy this search no strength."""


def knowledge(game: Any) -> Knowledge:
    """Flame Duel (the registry's ``bots`` piece): playouts are short (about 18 decisions), so playouts to the end
    are cheap; they follow a sensible player's policy rather than random moves (:func:`playout_action`). On the
    native engine, ISMCTS's inner loop runs in the core (``native.searcher``), making the same choices; there
    bot:hard in play spends its (shorter) time budget on up to :data:`NATIVE_HARD_TIMED_ITERATIONS` iterations,
    and keeps its :data:`HARD_ITERATIONS` where it must be reproducible."""
    tuning: dict[str, Any] = {"iterations": 1000, "policy": playout_action}
    hard: dict[str, Any] = {"iterations": HARD_ITERATIONS, "seconds": HARD_SECONDS}
    if getattr(game, "engine", "python") == "native":
        from flametable.games.duel.native import searcher

        native = searcher(game, playout_action)
        if native is not None:  # (None: a core built before its search)
            tuning["native"] = native
            hard = {"iterations": HARD_ITERATIONS, "seconds": NATIVE_HARD_SECONDS,
                    "timed_iterations": NATIVE_HARD_TIMED_ITERATIONS}
    return Knowledge(duel_determinizer(game.cards), evaluate, tuning, ("ismcts", hard))
