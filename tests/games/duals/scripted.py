"""Scripted Flamecraft Duals matches for the rules tests: explicit setups, moves in notation.

Cards are looked up by their pattern in the built-in data (so the tests survive a renumbering of the deck)
and spaces by their names on the built-in board (rows a-e top to bottom, ``c3`` the centre)::

      a1 a2 a3
     b1 b2 b3 b4
    c1 c2 c3 c4 c5
     d1 d2 d3 d4
      e1 e2 e3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flametable.games.duals.actions import DualsAction
from flametable.games.duals.board import DIRECTIONS
from flametable.games.duals.data import builtin_duals_data
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import TYPE_KEYS, Step
from flametable.games.duals.state import DualsState

DATA = builtin_duals_data()
GAME = DualsGame(DATA)
BOARD = DATA.board


def start(
    board: Mapping[str, Sequence[str]] | None = None,
    bag: Sequence[str] = (),
    *,
    reserve: Sequence[str] = (),
    deck: Sequence[int] | None = None,
    hands: Sequence[Sequence[int]] = ((), ()),
    coins: Sequence[int] = (0, 0),
    first: int = 0,
    scores: Sequence[Sequence[int]] = ((), ()),
    buddy: bool = False,
    seed: int = 0,
) -> DualsState:
    """A match from an explicit setup. Without ``deck``, the deck holds every card not given elsewhere
    (in number order, top first), so no refresh empties it by accident. Coins default to 0 so that the
    coin does not turn forced decisions into choices."""
    used = {c for row in (*hands, *scores) for c in row}
    if deck is None:
        deck = [c for c in range(1, len(DATA.cards) + 1) if c not in used]
    setup: dict[str, Any] = {
        "board": {k: list(v) for k, v in (board or {}).items()},
        "bag": list(bag),
        "reserve": list(reserve),
        "deck": list(deck),
        "hands": [list(h) for h in hands],
        "coins": list(coins),
        "first": first,
        "scores": [list(s) for s in scores],
    }
    return GAME.new_match({"buddy": buddy}, seed, setup=setup)


def act(text: str) -> DualsAction:
    return GAME.action_from_text(text)


def play(state: DualsState, *moves: str) -> None:
    """Apply notation strings in order, each for the seat to act."""
    for move in moves:
        state.apply(act(move))


def legal(state: DualsState) -> list[str]:
    return [a.text() for a in state.legal_actions()]


def space(name: str) -> int:
    return BOARD.index[name]


def stack(state: DualsState, name: str) -> list[str]:
    """The token names on a space, bottom first."""
    return [DATA.kind_names[k] for k in state.stacks[space(name)]]


def tokens(state: DualsState, where: str) -> list[str]:
    """The token names in the bag or the reserve, sorted."""
    kinds = state.bag if where == "bag" else state.reserve
    return sorted(DATA.kind_names[k] for k in kinds)


def phase(state: DualsState) -> Step:
    return state.phase


# ---------------------------------------------------------------- cards by pattern


def _points(number: int) -> list[tuple[int, int]]:
    return [(c.dq, c.dr) for c in DATA.card(number).cells]


def _types(number: int) -> list[str]:
    return [TYPE_KEYS[c.type] if not c.var else "?" for c in DATA.card(number).cells]


def _is_line(pts: list[tuple[int, int]]) -> bool:
    if len(pts) != 3:
        return False
    (q0, r0), (q1, r1), (q2, r2) = pts
    d = (q1 - q0, r1 - r0)
    return d in DIRECTIONS and (q2 - q1, r2 - r1) == d


def _is_triangle(pts: list[tuple[int, int]]) -> bool:
    if len(pts) != 3:
        return False
    return all(
        (b[0] - a[0], b[1] - a[1]) in DIRECTIONS for i, a in enumerate(pts) for b in pts[i + 1 :]
    )


def _find(pred: Any, what: str) -> int:
    for card in DATA.cards:
        if pred(card.number):
            return card.number
    raise LookupError(f"no card {what} in the built-in data")


def line(t: str) -> int:
    """The card "three t in a straight line" (D4)."""
    return _find(lambda n: _is_line(_points(n)) and _types(n) == [t, t, t], f"line of {t}")


def triangle(t: str) -> int:
    """The card "three t in a triangle" (D4)."""
    return _find(lambda n: _is_triangle(_points(n)) and _types(n) == [t, t, t], f"triangle of {t}")


def pair_end(a: str, b: str) -> int:
    """The card "two a and one b in a straight line, b at one end" (D4)."""
    return _find(lambda n: _is_line(_points(n)) and _types(n) == [a, a, b], f"{a} {a} {b}")


STARBURST = min(DATA.starburst)
