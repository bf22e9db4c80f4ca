"""Scripted Flame Duel matches for the rules tests: explicit line-ups, hands and piles, no random play.

Cards are looked up by property in the built-in card set (so the tests survive a rebalance of the data)
and expected totals are computed from the printed values and bonuses of the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from flametable.games.duel.actions import DuelAction
from flametable.games.duel.cards import Character, EffectKind, Stat, Support, SupportKind, builtin_card_set
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DRAW, DuelState

CARDS = builtin_card_set()
GAME = DuelGame(CARDS)
SPARK, HEAT, CHARM = Stat.SPARK, Stat.HEAT, Stat.CHARM
STATS = (SPARK, HEAT, CHARM)
ALL_SUPPORTS = range(1, len(CARDS.supports) + 1)  # every support card's number
ITEM, PLACE, EVENT = SupportKind.ITEM, SupportKind.PLACE, SupportKind.EVENT


# ---------------------------------------------------------------- starting and playing matches


def start(
    lineups: Sequence[Sequence[int]],
    hands: Sequence[Sequence[int]] | None = None,
    piles: Sequence[Sequence[int]] | None = None,
    *,
    discards: Sequence[Sequence[int]] | None = None,
    place: tuple[int, int] | None = None,
    mode: str = "shared",
    seed: int = 0,
) -> DuelState:
    """A match from explicit line-ups (first flipped first), hands, piles (top card first), discards and
    a place ``(card, owner)``. Without piles, the draw piles are empty."""
    n_piles = 1 if mode == "shared" else 2
    setup: dict[str, Any] = {
        "lineups": [list(row) for row in lineups],
        "piles": [list(row) for row in piles] if piles is not None else [[] for _ in range(n_piles)],
    }
    if hands is not None:
        setup["hands"] = [list(row) for row in hands]
    if discards is not None:
        setup["discards"] = [list(row) for row in discards]
    if place is not None:
        setup["place"] = {"card": place[0], "owner": place[1]}
    return GAME.new_match({"mode": mode}, seed, setup=setup)


def act(text: str) -> DuelAction:
    return DuelAction.from_text(text)


def play(state: DuelState, *moves: str) -> None:
    """Apply notation strings in order, each for the seat to act."""
    for move in moves:
        state.apply(DuelAction.from_text(move))


def texts(actions: Iterable[DuelAction]) -> list[str]:
    return [a.text() for a in actions]


def pick_champions(state: DuelState) -> None:
    """Settle the tie-break picks (R14) with the first legal choice, when a pick is asked for."""
    while state.phase is Phase.CHAMPION:
        state.apply(state.legal_actions()[0])


# ---------------------------------------------------------------- card look-ups


def char(number: int) -> Character:
    return CARDS.character(number)


def sup(number: int) -> Support:
    return CARDS.support(number)


def printed(character: int, stat: Stat) -> int:
    return CARDS.character(character).stat(stat)


def charm(character: int) -> int:
    return CARDS.character(character).charm


def plain(c: Character) -> bool:
    """A character whose ability has no table effect (only the +15)."""
    return not c.effects


def effect_kinds(card: Character | Support) -> tuple[EffectKind, ...]:
    return tuple(e.kind for e in card.effects)


def characters(pred: Callable[..., bool] = lambda c: True, exclude: Iterable[int] = ()) -> list[int]:
    ex = set(exclude)
    return [c.number for c in CARDS.characters if c.number not in ex and pred(c)]


def supports(pred: Callable[..., bool] = lambda s: True, exclude: Iterable[int] = ()) -> list[int]:
    ex = set(exclude)
    return [s.number for s in CARDS.supports if s.number not in ex and pred(s)]


def first_support(pred: Callable[[Support], bool], exclude: Iterable[int] = (), what: str = "") -> int:
    found = supports(pred, exclude)
    if not found:
        raise LookupError(f"the card set has no support card {what or 'with the wanted property'}")
    return found[0]


def inert(stat: Stat | None, n: int, exclude: Iterable[int] = ()) -> list[int]:
    """``n`` items without table effects whose stat is not ``stat``: they change nothing in a round of ``stat``."""
    found = supports(lambda s: s.kind is ITEM and not s.effects and s.stat != stat, exclude)
    if len(found) < n:
        raise LookupError(f"need {n} inert items for a round of {stat}, found {found}")
    return found[:n]


def quiet(n: int, exclude: Iterable[int] = (), avoid: Stat | None = None) -> list[int]:
    """``n`` support cards without table effects that do not touch the place (items, then events), those whose
    stat is not ``avoid`` first: for tests about turns, where totals do not matter."""
    found = supports(lambda s: s.kind is not PLACE and not s.effects, exclude)
    found.sort(key=lambda s: (sup(s).kind is not ITEM, sup(s).stat == avoid, s))
    if len(found) < n:
        raise LookupError(f"need {n} support cards without effects, found {found}")
    return found[:n]


PLAIN_PLACES = supports(lambda s: s.kind is PLACE and not s.effects)
"""The places with a bonus and no table effect."""


def with_effect(kind: EffectKind) -> Callable[[Character | Support], bool]:
    return lambda card: kind in effect_kinds(card)


# ---------------------------------------------------------------- round results from the card data


def outcome_of(a: int, b: int, stat: Stat) -> int:
    """The winner (0, 1 or DRAW) of a round both players pass, seat 0 on ``a`` and seat 1 on ``b`` (R12)."""
    ta, tb = printed(a, stat), printed(b, stat)
    if ta != tb:
        return 0 if ta > tb else 1
    if charm(a) != charm(b):
        return 0 if charm(a) > charm(b) else 1
    return DRAW


def stat_for(a: int, b: int, want: int) -> Stat | None:
    """A stat for which a passed round of ``a`` (seat 0) against ``b`` (seat 1) ends with ``want``,
    preferring a win on the stat itself over a win on Charm."""
    for stat in STATS:
        if want != DRAW and printed(a, stat) == printed(b, stat):
            continue
        if outcome_of(a, b, stat) == want:
            return stat
    return None


WANT = {"0": 0, "1": 1, "D": DRAW}  # a round's outcome by its letter in ``lineups_for``


def lineups_for(
    outcomes: str,
    fixed: dict[tuple[int, int], int] | None = None,
    pool: Callable[[int, int], Iterable[int]] | None = None,
) -> tuple[list[list[int]], list[Stat]]:
    """Line-ups of plain characters (no character twice) and the stats that make passed rounds end with
    ``outcomes`` ("0": seat 0 wins, "1": seat 1 wins, "D": draw), e.g. "01D". ``fixed`` pins
    ``(seat, position)`` to a character; ``pool(seat, position)`` lists the candidates of a free slot."""
    fixed = dict(fixed or {})
    plains = characters(plain)

    def candidates(seat: int, pos: int) -> Iterable[int]:
        if (seat, pos) in fixed:
            return [fixed[(seat, pos)]]
        base = pool(seat, pos) if pool is not None else plains
        return [c for c in base if c not in used]

    used = set(fixed.values())
    lin = [[0, 0, 0], [0, 0, 0]]
    stats: list[Stat] = []

    def rec(i: int) -> bool:
        if i == 3:
            return True
        for a in candidates(0, i):
            for b in candidates(1, i):
                if a == b:
                    continue
                stat: Stat | None = SPARK
                if i < len(outcomes):
                    stat = stat_for(a, b, WANT[outcomes[i]])
                    if stat is None:
                        continue
                lin[0][i], lin[1][i] = a, b
                added = {c for c in (a, b) if c not in used}
                used.update(added)
                if stat is not None and i < len(outcomes):
                    stats.append(stat)
                if rec(i + 1):
                    return True
                used.difference_update(added)
                if i < len(outcomes):
                    stats.pop()
        return False

    if not rec(0):
        raise LookupError(f"no line-ups of plain characters give the rounds {outcomes!r} with {fixed}")
    return lin, stats


def log_of(state: DuelState) -> list[tuple[int, str, bool]]:
    """The round's log as everybody sees it: (seat, action text, automatic)."""
    return [(p.seat, p.action.text(), p.auto) for p in state.view(None).log]


def stat_word(stat: Stat) -> str:
    return f"stat {stat.key}"


def line_up(state: DuelState, orders: Sequence[Sequence[int]] | None = None) -> None:
    """Run the line-up phase (R3): each seat lines up ``orders[seat]`` (or its characters in number order)."""
    while state.phase is Phase.LINEUP:
        seat = state.to_act
        assert seat is not None
        wanted = list(orders[seat]) if orders is not None else sorted(state.characters[seat])
        nxt = next(c for c in wanted if c not in state.lineups[seat])
        play(state, f"line C{nxt}")


def top_first(state: DuelState, pile: int = 0) -> list[int]:
    """A draw pile in the order of the setup (top card first). Test-only: reads the engine's state."""
    return list(reversed(state.piles[pile]))


def by(state: DuelState, seat: int, *moves: str) -> None:
    """Apply ``moves`` for ``seat``, checking that it is that seat's turn each time."""
    for move in moves:
        assert state.to_act == seat, f"{move!r}: seat {state.to_act} is to act, not seat {seat}"
        play(state, move)


def fillers(n: int, exclude: Iterable[int]) -> list[int]:
    """``n`` plain characters (no ability effects) outside ``exclude``, to complete line-ups."""
    found = characters(plain, exclude)
    if len(found) < n:
        raise LookupError(f"need {n} more plain characters, found {found}")
    return found[:n]


def first_round(
    c0: int,
    c1: int,
    hands: Sequence[Sequence[int]],
    stat: Stat | None,
    *,
    pile: Sequence[int] = (),
    discards: Sequence[Sequence[int]] | None = None,
    place: tuple[int, int] | None = None,
    later: Sequence[Sequence[int]] | None = None,
) -> DuelState:
    """A shared match whose round 1 flips ``c0`` (seat 0) against ``c1`` (seat 1), with the stat chosen when
    ``stat`` is given. ``later`` gives the rest of each line-up (plain fillers otherwise)."""
    used = {c0, c1}
    rest: list[list[int]] = []
    for p in (0, 1):
        if later is not None:
            rest.append(list(later[p]))
            used.update(later[p])
    if later is None:
        extra = fillers(4, used)
        rest = [extra[:2], extra[2:]]
    st = start([[c0, *rest[0]], [c1, *rest[1]]], hands=hands, piles=[list(pile)], discards=discards, place=place)
    if stat is not None:
        play(st, stat_word(stat))
    return st


def run(state: DuelState, moves0: Sequence[str], moves1: Sequence[str]) -> None:
    """Play each seat's moves in order, whoever is asked (the engine passes for a seat with nothing to do).
    Every move must be used; the seat asked must have a move left."""
    queues = [list(moves0), list(moves1)]
    while queues[0] or queues[1]:
        seat = state.to_act
        assert seat is not None, f"the match is over with moves left: {queues}"
        assert queues[seat], f"seat {seat} is asked but has no scripted move left (others: {queues})"
        play(state, queues[seat].pop(0))
