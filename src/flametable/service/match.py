"""The match service: one match that accepts an action when it arrives, from whichever seat sent it, and tells
each audience (seat 0, seat 1, the spectators) what it may see of what happened.

A :class:`MatchService` holds the game, the engine state, the record and a version number: 0 at the start
(or the number of actions of a resumed record), one more per accepted action. :meth:`MatchService.submit`
checks the submission (match over, wrong seat, stale version, unreadable or illegal action: see
:mod:`flametable.service.errors`) and, once the engine has applied it, returns the :class:`Applied` events.
A rejected submission changes nothing. The service is safe to call from several threads (one lock per match).

Which actions the other seat and the spectators may read is the game's to say, with an optional method
``Game.public_action(action) -> bool``; a game without it keeps every action hidden from everyone but the
player who chose it (the safe default for plug-in games): the views still show the consequences.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

from flametable.core.errors import IllegalAction, RecordError
from flametable.core.i18n import N_
from flametable.core.match import new_record
from flametable.core.outcome import Outcome
from flametable.core.protocol import Action, Game, GameState, complete
from flametable.core.record import MatchRecord, start
from flametable.service.errors import Illegal, MatchOver, NotYourTurn, StaleVersion, Unreadable
from flametable.service.events import AUDIENCES, Applied, Audience, Event, check_audience


@runtime_checkable
class PublicActions(Protocol):
    """The optional part of the game protocol the service uses: whether the other seat and the spectators may
    know ``action`` once it is played (its player always does)."""

    def public_action(self, action: Any) -> bool: ...


def is_public(game: Any, action: Action) -> bool:
    """Whether ``game`` declares ``action`` public; hidden when the game says nothing (or is unknown)."""
    return game is not None and complete(game).public_action(action)


class Turn(NamedTuple):
    """A decision pending: ``seat`` must choose one of ``legal`` from ``view``, at ``version``."""

    seat: int
    version: int
    view: Any
    legal: list[Any]


class MatchService:
    """One match behind the checks every front end needs (see the module)."""

    def __init__(self, game: Game[Any, Any] | None, state: GameState[Any, Any], record: MatchRecord | None = None,
                 *, keep: int | None = None) -> None:
        """``state`` is the match after the actions of ``record`` (none for a new match). ``game`` reads
        notation and ids and says which actions are public; without it (a bare state) only action objects are
        accepted and every action stays hidden from the other seat. ``keep``: how many past versions' events
        are kept for :meth:`events_since` (None: all)."""
        self.game = game
        self.record = record
        self._state = state
        self._version = len(record.actions) if record is not None else 0
        self._log: deque[Applied] = deque(maxlen=keep)
        self._lock = threading.Lock()
        self._own_types: set[type] = set()  # classes of the game's own actions, once one was seen
        self._public = complete(game).public_action if game is not None else None

    # ------------------------------------------------------------------ making one

    @classmethod
    def new(cls, game: Game[Any, Any], options: Mapping[str, Any], seed: int, players: Sequence[str],
            setup: Mapping[str, Any] | None = None, *, keep: int | None = None) -> MatchService:
        """A new match of ``game`` with its record (options, seed, players, setup)."""
        state = game.new_match(options, seed, setup)
        record = new_record(game, dict(options), seed, players, dict(setup) if setup is not None else None)
        return cls(game, state, record, keep=keep)

    @classmethod
    def from_record(cls, game: Game[Any, Any], record: MatchRecord, *, keep: int | None = None) -> MatchService:
        """The match of ``record`` resumed after its actions (version = their number); raises
        :class:`~flametable.core.errors.RecordError` when the record does not fit ``game``."""
        state = start(game, record)
        for i, text in enumerate(record.actions):
            try:
                state.apply(game.action_from_text(text))
            except IllegalAction as exc:
                raise RecordError(N_("record action {index} ({action!r}) cannot be played: {error}"), index=i,
                                  action=text, error=exc) from None
        return cls(game, state, record, keep=keep)

    # ------------------------------------------------------------------ what anyone may ask

    @property
    def version(self) -> int:
        return self._version

    @property
    def to_act(self) -> int | None:
        """The seat to act, ``None`` once the match is over."""
        with self._lock:
            return self._state.to_act

    @property
    def outcome(self) -> Outcome | None:
        with self._lock:
            return self._state.outcome

    @property
    def state(self) -> GameState[Any, Any]:
        """The engine state itself, for code in this process that may see everything (the lab's statistics,
        tests). Never send it to a player: send events and views."""
        return self._state

    def view(self, audience: Audience) -> Any:
        """The current view of ``audience`` (a seat, or ``None`` for the spectators)."""
        check_audience(audience)
        with self._lock:
            return self._state.view(audience)

    def legal(self, seat: int) -> list[Any]:
        """The legal actions of ``seat``: empty unless it is that seat's turn."""
        with self._lock:
            state = self._state
            return state.legal_actions() if state.to_act == seat and seat is not None else []

    def turn(self) -> Turn | None:
        """The decision pending: the seat to act, the version, that seat's view and legal actions (None once the
        match is over), read together."""
        asked = self._ask()
        return None if asked is None else Turn(*asked)

    def _ask(self) -> tuple[int, int, Any, list[Any]] | None:
        with self._lock:
            return self._pending()

    def _pending(self) -> tuple[int, int, Any, list[Any]] | None:
        """The decision pending as a plain tuple (the lock held by the caller)."""
        state = self._state
        seat = state.to_act
        if seat is None:
            return None
        return seat, self._version, state.view(seat), state.legal_actions()

    def sync(self, audience: Audience) -> Event:
        """A full resync of ``audience``: its view at the current version (no action)."""
        check_audience(audience)
        with self._lock:
            return self._sync(audience)

    def _sync(self, audience: Audience) -> Event:
        state = self._state
        return Event(self._version, audience, state.view(audience), state.to_act, result=self._result())

    def events_since(self, audience: Audience, version: int) -> list[Event]:
        """What ``audience`` missed after ``version``, in order: the events of every later version while the
        service still keeps them all, else one :meth:`sync` at the current version (also for a version this
        match never had). Empty when ``version`` is the current one."""
        check_audience(audience)
        with self._lock:
            current = self._version
            if version == current and isinstance(version, int):
                return []
            log = self._log
            if isinstance(version, int) and 0 <= version < current and log and log[0].version <= version + 1:
                return [applied.to(audience) for applied in log if applied.version > version]
            return [self._sync(audience)]

    # ------------------------------------------------------------------ submitting

    def submit(self, seat: int | None, action: Action | str | int, version: int | None = None) -> Applied:
        """Play ``action`` (an action, its notation or its id) for ``seat``, chosen at ``version`` (None: do not
        check). Returns the events of each audience; raises a :class:`~flametable.service.errors.Rejected`
        (changing nothing) when a check fails."""
        with self._lock:
            played = self._accept(seat, action, version)
            applied = self._publish(seat, played)
            self._log.append(applied)
            return applied

    def submit_quiet(self, seat: int | None, action: Action | str | int, version: int | None = None) -> Action:
        """:meth:`submit` for when nobody listens (the lab): the same checks, no events made; returns the action
        played. Versions it passes are not kept for :meth:`events_since` (a later resync is a full one)."""
        with self._lock:
            return self._quiet(seat, action, version)

    def _submit_quiet_then_ask(self, seat: int, action: Action, version: int) -> tuple[int, int, Any, list[Any]] | None:
        """:meth:`submit_quiet`, then :meth:`turn` as a plain tuple, in one hold of the lock (the lab's loop)."""
        with self._lock:
            self._quiet(seat, action, version)
            return self._pending()

    def _quiet(self, seat: int | None, action: Action | str | int, version: int | None) -> Action:
        """Accept ``action`` without events; the versions it passes leave the event log (the lock held)."""
        played = self._accept(seat, action, version)
        if self._log:
            self._log.clear()
        return played

    def _accept(self, seat: int | None, action: Action | str | int, version: int | None) -> Action:
        """Every check, then the engine applies the action and the record and the version follow; nothing
        changes when a check fails. Callers hold the lock."""
        state = self._state
        to_act = state.to_act
        if to_act is None:
            raise MatchOver(N_("The match is over."), version=self._version)
        if seat != to_act:
            if seat is not None and seat != 0 and seat != 1:
                raise ValueError(f"a seat is 0 or 1 (None: a spectator), got {seat!r}")
            raise NotYourTurn(N_("It is not your turn: player {player} is to act."), player=to_act + 1,
                              seat=seat, to_act=to_act)
        if version is not None and version != self._version:
            raise StaleVersion(N_("The match has moved on: your action was chosen at version {given}, the match "
                                  "is at version {current}."), given=version, current=self._version)
        # An object of the class of the game's own actions (a decider's pick from its legal ones) goes to the
        # engine as it is, which checks it is legal; anything else is read or looked up first.
        played: Any = action if type(action) in self._own_types else self._read(action)
        try:
            state.apply(played)
        except IllegalAction as exc:
            raise Illegal(exc.reason, **exc.params) from exc
        self._version += 1
        record = self.record
        if record is not None:
            record.actions.append(played.text())
            outcome = state.outcome
            if outcome is not None:
                record.result = outcome.to_json()
        return played  # type: ignore[no-any-return]

    def _read(self, action: Action | str | int) -> Action:
        """The game's own action for ``action``, or :class:`Unreadable` with the reason."""
        given: Any = action
        kind = type(given)
        game = self.game
        if kind is str or kind is int or (isinstance(given, (str, int)) and not isinstance(given, bool)):
            if game is None:
                raise TypeError("a match service without its game reads no notation or ids: submit an action")
            try:
                own: Action = game.action_from_text(given) if isinstance(given, str) else game.action_from_id(given)
            except IllegalAction as exc:
                raise Unreadable(exc.reason, **exc.params) from exc
            self._own_types.add(type(own))
            return own
        if game is None:
            return given  # type: ignore[no-any-return]
        try:
            own = game.action_from_id(given.id)
        except (AttributeError, IllegalAction):  # not an action at all
            raise Unreadable(N_("Cannot read the action {text!r}."), text=str(given)) from None
        if own is not given and own != given:  # another game's action
            raise Unreadable(N_("Cannot read the action {text!r}."), text=str(given))
        self._own_types.add(kind)
        return own

    def _publish(self, seat: Any, played: Action) -> Applied:
        state = self._state
        version = self._version
        to_act = state.to_act
        result = self._result()
        text = played.text()
        public = self._public is not None and bool(self._public(played))
        e0, e1, es = (
            Event(version, audience, state.view(audience), to_act, seat,
                  text if public or audience == seat else None, result)
            for audience in AUDIENCES
        )
        return Applied(version, seat, (e0, e1, es))

    def _result(self) -> dict[str, Any] | None:
        outcome = self._state.outcome
        return outcome.to_json() if outcome is not None else None
