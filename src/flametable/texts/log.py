"""The match log: what happened at each step, told to one audience in its language, as plain lines of text.

Every front end tells a match the same way: the terminal's narrators (with colours) and the game server's log
(plain lines) are made from the same functions of :mod:`flametable.texts`. A log is made only from what its
audience may know, as the match service gives it (:mod:`flametable.service`): that audience's views, and the
actions it may know (``None`` for the others: ``Game.public_action``). So a log can never tell more than the
views show.

- :class:`Reader`: who reads a log (the audience: a seat or ``None`` for the spectators), in which language
  (a :class:`~flametable.texts.translator.Translator`), and how the seats are called;
- :class:`MatchLog`: a game's log, its ``log`` piece in the game registry (made from the game: ``log(game)``);
  :class:`GenericLog` is the log of a game without one (a plug-in): each action's notation, a move the audience
  may not know, the result;
- :func:`log_of`: the log of a game (its piece, or the generic one); :func:`match_log`: a whole match's lines;
  :class:`LogWriter`: the same lines written step by step as a match goes; :func:`event_steps`: one audience's
  service events as the steps of its log.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from flametable.core.i18n import N_
from flametable.core.outcome import Outcome
from flametable.core.registry import GameEntry, find
from flametable.service.events import Audience, Event, check_audience
from flametable.texts.translator import Translator
from flametable.texts.words import reason_text


def seat_name(tr: Translator, seat: int) -> str:
    """``Player 1`` / ``Player 2``."""
    return tr.gettext("Player {n}").format(n=seat + 1)


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a log: ``audience`` (seat 0 or 1, or ``None`` for the spectators), in the language of ``tr``,
    calling the seats ``names`` (by default ``Player 1`` and ``Player 2`` in that language)."""

    tr: Translator
    audience: Audience
    names: tuple[str, str]

    @staticmethod
    def of(tr: Translator, audience: Audience, names: Sequence[str] | None = None) -> Reader:
        check_audience(audience)
        if names is None:
            return Reader(tr, audience, (seat_name(tr, 0), seat_name(tr, 1)))
        if len(names) != 2:
            raise ValueError(f"a log names two seats, got {list(names)!r}")
        return Reader(tr, audience, (names[0], names[1]))


class LogStep(NamedTuple):
    """One step as an audience knows it: its views before and after, who acted and the action (``None`` when
    the audience may not know it)."""

    before: Any
    after: Any
    actor: int
    action: Any


class MatchLog(Protocol):
    """A game's match log (made from the game). Each method gives the lines ``reader`` is told, made only of
    that audience's views and the actions it may know; a log keeps no state between calls (one serves every
    match and reader of its game)."""

    def start(self, reader: Reader, view: Any) -> list[str]:
        """What the match starts with, from the audience's first view."""
        ...

    def step(self, reader: Reader, before: Any, after: Any, actor: int, action: Any) -> list[str]:
        """What changed from ``before`` to ``after`` when ``actor`` played ``action`` (``None``: an action the
        audience may not know); what the engine did on its own after it (a round or turn that begins) too."""
        ...

    def end(self, reader: Reader, view: Any, outcome: Outcome) -> list[str]:
        """The result, from the last view, and for a seat its own line (``You win!``)."""
        ...


# ------------------------------------------------------------------ any game


def action_line(tr: Translator, player: str, action: Any | None) -> str:
    """A step of a game without words of its own: ``Player 1: take 2``, or a move the audience may not know."""
    if action is None:
        return tr.gettext("{player} makes a move you may not see.").format(player=player)
    return f"{player}: {action.text()}"


def result_line(tr: Translator, winner: int | None, reason: object, scores: Sequence[int],
                names: Sequence[str]) -> str:
    """``Result: Player 1 (reason), score 1–0.`` for a game without words of its own."""
    who = tr.gettext("a tie") if winner is None else names[winner]
    return tr.gettext("Result: {winner} ({reason}), score {score}.").format(
        winner=who, reason=reason_text(tr, reason), score="–".join(str(s) for s in scores))


def outcome_line(tr: Translator, winner: int | None, seat: int) -> str:
    """The result for the player at ``seat``."""
    if winner is None:
        return tr.gettext("Nobody wins this time.")
    return tr.gettext("You win!") if winner == seat else tr.gettext("You lose.")


class GenericLog:
    """The log of a game with no ``log`` piece: each action in notation, a move the audience may not know, and
    the result (the views are not told: they are the game's own data)."""

    def __init__(self, game: Any = None) -> None:
        self.game = game

    def start(self, reader: Reader, view: Any) -> list[str]:
        return []

    def step(self, reader: Reader, before: Any, after: Any, actor: int, action: Any) -> list[str]:
        return [action_line(reader.tr, reader.names[actor], action)]

    def end(self, reader: Reader, view: Any, outcome: Outcome) -> list[str]:
        lines = [result_line(reader.tr, outcome.winner, outcome.reason, outcome.scores, reader.names)]
        if reader.audience is not None:
            lines.append(outcome_line(reader.tr, outcome.winner, reader.audience))
        return lines


# ------------------------------------------------------------------ a whole match


def log_of(entry_or_game: Any) -> MatchLog:
    """The log of a game: the ``log`` piece of its registry entry made from the game, or the generic log.

    ``entry_or_game`` is a game (its entry is found by its name; a game of no entry gets the generic log), a
    :class:`~flametable.core.registry.GameEntry` (its game with the built-in data) or a :class:`MatchLog`."""
    entry: GameEntry | None
    if isinstance(entry_or_game, GameEntry):
        entry, game = entry_or_game, None
    elif all(hasattr(entry_or_game, name) for name in ("start", "step", "end")):
        log: MatchLog = entry_or_game
        return log
    else:
        entry, game = find(getattr(entry_or_game, "name", "")), entry_or_game
    if entry is None or not entry.has("log"):
        return GenericLog(game)
    made: MatchLog = entry.required("log")(game if game is not None else entry.make())
    return made


def resigned_line(reader: Reader, seat: int) -> str:
    """The log's last line when ``seat`` resigned (the engine's match never ended: nobody's outcome to tell)."""
    return reader.tr.translate(N_("{player} resigned.")).format(player=reader.names[seat])


class LogWriter:
    """One reader's log of a match written step by step as the match goes: the lines :func:`match_log` gives for
    the steps so far, without replaying them (the game server keeps one per audience and language). It keeps the
    lines and the audience's last view only (``last``: the ``before`` of the next step).

    ``first`` is the audience's first view (the start is told from it; None: from the first step's view before
    it); :meth:`step` adds one step as the audience knows it; :attr:`lines` and :meth:`end` (the result, or the
    resignation, as things stand) make the whole log."""

    __slots__ = ("_log", "_started", "last", "lines", "reader", "steps")

    def __init__(self, entry_or_game: Any, tr: Translator, audience: Audience, *, first: Any = None,
                 names: Sequence[str] | None = None) -> None:
        self._log = log_of(entry_or_game)
        self.reader = Reader.of(tr, audience, names)
        self.lines: list[str] = []  # the start and each step so far (never the end)
        self.last = first  # the audience's view after the last step (before any: the first view)
        self.steps = 0  # how many steps were told
        self._started = first is not None
        if first is not None:
            self.lines += self._log.start(self.reader, first)

    def step(self, before: Any, after: Any, actor: int, action: Any) -> None:
        """One more step: the views before and after, who acted, the action (``None``: one the audience may not
        know)."""
        if not self._started:
            self.lines += self._log.start(self.reader, before)
            self._started = True
        self.lines += self._log.step(self.reader, before, after, actor, action)
        self.last = after
        self.steps += 1

    def end(self, *, outcome: Outcome | None = None, resigned: int | None = None) -> list[str]:
        """The lines that end the log now: the result with ``outcome`` (by default the last view's ``outcome``,
        when the view has one), or, with no outcome, the resignation of the seat ``resigned``; none while the
        match goes on."""
        if outcome is None:
            outcome = getattr(self.last, "outcome", None)
        if outcome is not None:
            return self._log.end(self.reader, self.last, outcome)
        if resigned is not None:
            return [resigned_line(self.reader, resigned)]
        return []


def match_log(entry_or_game: Any, tr: Translator, audience: Audience, steps: Iterable[LogStep | tuple[Any, ...]],
              *, first: Any = None, outcome: Outcome | None = None, names: Sequence[str] | None = None,
              resigned: int | None = None) -> list[str]:
    """The whole log of a match for ``audience`` in the language of ``tr``: the start (told from ``first``, or
    the first step's view before it), each step, and the end with ``outcome`` (by default the last view's
    ``outcome``, when the view has one; none: the match goes on, no end is told), or, with no outcome, the
    resignation of the seat ``resigned``. ``steps`` are (before, after, actor, action or None) as that audience
    knows them (:func:`event_steps`). The same lines as a :class:`LogWriter` fed the steps one by one."""
    writer = LogWriter(entry_or_game, tr, audience, first=first, names=names)
    for before, after, actor, action in steps:
        writer.step(before, after, actor, action)
    return writer.lines + writer.end(outcome=outcome, resigned=resigned)


def event_steps(game: Any, first: Any, events: Iterable[Event]) -> Iterator[LogStep]:
    """The steps of one audience's events from the match service (:meth:`~flametable.service.Applied.to`),
    after its view ``first``: the action read from its notation when the event has it (``game``:
    ``action_from_text``); a sync event (no actor) only moves the view on."""
    before = first
    for event in events:
        if event.actor is not None:
            action = None if event.action is None else game.action_from_text(event.action)
            yield LogStep(before, event.view, event.actor, action)
        before = event.view
