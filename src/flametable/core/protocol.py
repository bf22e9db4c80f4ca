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


class GameBase:
    """The optional part of the game protocol, with what it means when a game says nothing: a game class derives
    from it and overrides what it knows (both built-in games do); :func:`complete` gives the same defaults to a
    plug-in that implements only :class:`Game`."""

    def public_action(self, action: Any) -> bool:
        """Whether the other seat and the spectators may know ``action`` once played (its player always does).
        By default every action stays hidden from them."""
        return False

    def public_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """What everyone may know of a match's options before it ends (a lobby's list). By default nothing."""
        return {}

    def swapped_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options of a rematch where the players swap seats (options by seat follow their players). By
        default the same options."""
        return dict(options or {})

    def brought_options(self, options: Mapping[str, Any] | None, seed: int, seat: int,
                        brought: Any) -> dict[str, Any] | None:
        """The options of a match not yet begun by the seat ``seat`` joining it, with what its player brings of
        their own (``brought``: the game's JSON form of it, such as an own deck; None: the game's random choice).
        What the other seat was dealt already stays as it was (its player may have seen it). Raises the game's
        :class:`~flametable.core.errors.FlametableError` naming what is wrong with ``brought``. None when the
        match's options take nothing of a joining player's: by default."""
        return None


OPTIONAL = ("public_action", "public_options", "swapped_options", "brought_options")
"""The methods of :class:`GameBase`, which a game may leave out."""


class CompleteGame(Game[S_co, A_co], Protocol):
    """A game with the optional methods too (:class:`GameBase`'s): what :func:`complete` gives."""

    def public_action(self, action: Any) -> bool: ...

    def public_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]: ...

    def swapped_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]: ...

    def brought_options(self, options: Mapping[str, Any] | None, seed: int, seat: int,
                        brought: Any) -> dict[str, Any] | None: ...


class _Completed(GameBase):
    """A protocol-only game with :class:`GameBase`'s defaults for the optional methods it does not have."""

    def __init__(self, game: Any) -> None:
        self.game = game
        for name in OPTIONAL:  # the one place where a game's optional methods are looked for
            own = getattr(game, name, None)
            if callable(own):
                setattr(self, name, own)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def complete(game: Game[S_co, A_co]) -> CompleteGame[S_co, A_co]:
    """``game`` with every optional method: itself when it derives from :class:`GameBase`, else the game wrapped
    with the defaults for what it leaves out (its own methods kept)."""
    if isinstance(game, GameBase | _Completed):
        return game
    return _Completed(game)


def legal_action_mask(state: GameState[Any, Any], num_actions: int) -> list[bool]:
    """A mask over the game's action ids, for learning agents."""
    mask = [False] * num_actions
    for action in state.legal_actions():
        mask[action.id] = True
    return mask

