"""The one protocol both games implement.

A *game* (the facts: card set or board data, action space, notation) makes *states* (one match in
progress). A state says whose decision it is, lists the legal actions, applies one (raising
:class:`~flametable.core.errors.IllegalAction` with the reason), gives the *view* of one seat (the
only way hidden information leaves the engine) and, once over, the :class:`Outcome`.

Chance is resolved inside the engine from the match seed, so the same seed and the same actions
always give the same state. States mutate in place for speed; ``clone`` is cheap (no deepcopy).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

from flametable.core.outcome import Outcome


@runtime_checkable
class Action(Protocol):
    """A small immutable value with a stable integer id and a text notation that round-trips."""

    @property
    def id(self) -> int: ...

    def text(self) -> str: ...


A = TypeVar("A", bound=Action)
A_co = TypeVar("A_co", bound=Action, covariant=True)
V_co = TypeVar("V_co", covariant=True)


class GameState(Protocol[A, V_co]):
    """One match in progress."""

    @property
    def to_act(self) -> int | None:
        """The seat (0 or 1) whose decision it is, or ``None`` once the match is over."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """The result, or ``None`` while the match goes on."""
        ...

    def legal_actions(self) -> list[A]: ...

    def apply(self, action: A) -> None:
        """Play ``action`` for the seat to act; raises ``IllegalAction`` saying why it is not allowed."""
        ...

    def view(self, seat: int | None) -> V_co:
        """What ``seat`` may see (``None``: a spectator, public information only)."""
        ...

    def clone(self) -> Self: ...


S_co = TypeVar("S_co", covariant=True)


class Game(Protocol[S_co, A_co]):
    """The facts of one game and the factory of its matches."""

    name: str
    rules_version: str
    num_actions: int

    def new_match(self, options: Mapping[str, Any], seed: int, setup: Mapping[str, Any] | None = None) -> S_co:
        """A new match from options and a seed, or from an explicit setup (which replaces the seeded deal)."""
        ...

    def action_from_text(self, text: str) -> A_co: ...

    def action_from_id(self, action_id: int) -> A_co: ...

    def content_id(self) -> tuple[str, str]:
        """The id and content hash of the data the game plays with (card set, board data)."""
        ...


def legal_action_mask(state: GameState[Any, Any], num_actions: int) -> list[bool]:
    """A mask over the game's action ids, for learning agents."""
    mask = [False] * num_actions
    for action in state.legal_actions():
        mask[action.id] = True
    return mask

