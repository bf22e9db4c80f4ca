"""Flame Duel at the terminal: a human seat's prompt, the narration of what others do, hot-seat hand-over.

A human seat sees only ``state.view(seat)`` (through :mod:`flametable.cli.duel_render`); input is
parsed into one of ``view.legal``. The narrator describes each step from a view of its observer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from flametable.cli import duel_render
from flametable.cli.duel_text import (
    CardWords,
    describe_option,
    describe_public,
    outcome_for,
    outcome_text,
    round_result,
    round_title,
    seat_names,
)
from flametable.cli.i18n import _
from flametable.cli.prompt import help_words, read_line
from flametable.cli.words import illegal_text
from flametable.core.errors import IllegalAction
from flametable.core.match import Decider
from flametable.core.protocol import Action, GameState
from flametable.duel.actions import DuelAction, Kind
from flametable.duel.game import DuelGame
from flametable.duel.rules import Phase
from flametable.duel.view import DuelView

_ROUND_PHASES = (Phase.STAT, Phase.PLAY, Phase.CHOICE)


def parse_choice(text: str, legal: Sequence[DuelAction], game: DuelGame) -> DuelAction | str:
    """The action the player typed (a menu number or a notation like ``play S7``), or what is wrong."""
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return _("There is no option {n}: type a number from 1 to {last}.").format(n=n, last=len(legal))
    try:
        action = game.action_from_text(text)
    except IllegalAction as exc:
        return illegal_text(exc)
    if action not in legal:
        return _("{action} is not one of your options now.").format(action=action.text())
    return action


class DuelTable:
    """One match at one terminal: who is human, how seats are called, where the output goes."""

    def __init__(self, console: Console, game: DuelGame, specs: Sequence[str]) -> None:
        self.console = console
        self.game = game
        self.words = CardWords(game.cards)
        humans = [seat for seat, spec in enumerate(specs) if spec == "human"]
        self.hot_seat = len(humans) == 2
        self.me: int | None = humans[0] if len(humans) == 1 else None
        self.names = seat_names(specs, self.me)
        self.holder: int | None = None  # hot-seat: the seat now at the keyboard
        self.missed: list[list[Text]] = [[], []]  # hot-seat: news a seat did not see (it was away)

    def tell(self, text: Text) -> None:
        """Narration for everyone at the table; in hot-seat, kept for the player who is away."""
        self.console.print(text)
        if self.hot_seat:
            for seat in (0, 1):
                if seat != self.holder:
                    self.missed[seat].append(text)

    # ------------------------------------------------------------------ a human seat

    def decider(self, seat: int) -> Decider:
        """The decider of a human seat: it is shown ``view`` and answers with one of ``view.legal``."""

        def decide(view: Any, legal: Sequence[Action]) -> Action:
            assert isinstance(view, DuelView)
            return self.ask(seat, view)

        return decide

    def ask(self, seat: int, view: DuelView) -> DuelAction:
        if self.hot_seat and self.holder != seat:
            self.hand_over(seat)
        legal = view.legal
        current = view.seats[seat].character
        options = [describe_option(a, self.words, current, len(view.lineup)) for a in legal]
        self.console.print()
        self.console.print(duel_render.board(view, self.words, self.names))
        self.console.print(duel_render.menu(options))
        hint = _("Type a number or an action (for example: {example}); {help} shows the options again; {quit} "
                 "leaves the match.")
        self.console.print(Text(hint.format(example=legal[-1].text(), help="?", quit=_("quit")), style="dim"))
        prompt = _("{player}, your choice: ").format(player=self.names[seat])
        while True:
            text = read_line(self.console, prompt)
            if not text:
                continue
            if text.lower() in help_words():
                self.console.print(duel_render.menu(options))
                continue
            choice = parse_choice(text, legal, self.game)
            if isinstance(choice, DuelAction):
                return choice
            self.console.print(Text(choice, style="red"))

    def hand_over(self, seat: int) -> None:
        """Hot-seat: clear the screen and wait until the other player has the keyboard."""
        self.console.clear()
        self.console.print(Panel(Text(_("Pass the keyboard to {player}. The other player must not look at the "
                                        "screen.").format(player=self.names[seat]))))
        read_line(self.console, _("{player}, press Enter when ready.").format(player=self.names[seat]) + " ")
        self.console.clear()
        self.holder = seat
        if self.missed[seat]:
            self.console.print(Text(_("Since your last turn:"), style="bold"))
            for text in self.missed[seat]:
                self.console.print(text)
            self.missed[seat] = []

    def goodbye(self) -> None:
        self.console.print(_("Match abandoned. Goodbye!"))


class Narrator:
    """Tells ``observer`` (a seat, or None for everyone) what happened after each step of the match."""

    def __init__(self, table: DuelTable, observer: int | None, first: DuelView) -> None:
        self.table = table
        self.observer = observer
        self.prev = first

    def start(self) -> None:
        if self.prev.phase in _ROUND_PHASES:
            self._round_started(self.prev)

    def step(self, state: GameState[Any, Any], actor: int, action: Action) -> None:
        """Called by :func:`flametable.core.match.play` after each action."""
        assert isinstance(action, DuelAction)
        view: DuelView = state.view(self.observer)
        prev, self.prev = self.prev, view
        words, names = self.table.words, self.table.names
        lines: list[str] = []
        own = actor == self.observer
        ended = len(view.results) > len(prev.results)
        if action.kind in (Kind.STAT, Kind.PICK, Kind.LINE, Kind.CHAMPION):
            if not own:
                lines.append(describe_public(names[actor], action, words))
        elif ended and not own:
            lines.append(describe_public(names[actor], action, words, prev.seats[actor].character))
        if not ended and view.round_number == prev.round_number:
            for entry in view.log[len(prev.log):]:
                if entry.seat == self.observer and not entry.auto:
                    continue
                lines.append(describe_public(names[entry.seat], entry.action, words,
                                             view.seats[entry.seat].character, entry.auto))
        for result in view.results[len(prev.results):]:
            lines.append(round_result(result, names, words))
        for line in lines:
            self.table.tell(Text(line))
        if view.outcome is not None:
            self.finish(view)
        elif view.phase in _ROUND_PHASES and (view.round_number != prev.round_number
                                               or prev.phase not in _ROUND_PHASES):
            self._round_started(view)

    def _round_started(self, view: DuelView) -> None:
        words, names = self.table.words, self.table.names
        a, b = (s.character for s in view.seats)
        chooser = names[view.chooser] if view.chooser is not None else ""
        text = _("{round}: {first} flips {c1}, {second} flips {c2}. {chooser} chooses the stat.").format(
            round=round_title(view.round_number), first=names[0], c1=words.character(a), second=names[1],
            c2=words.character(b), chooser=chooser)
        self.table.tell(Text(text, style="bold"))

    def finish(self, view: DuelView) -> None:
        console = self.table.console
        outcome = view.outcome
        assert outcome is not None
        console.print()
        console.print(duel_render.results_table(view, self.table.words, self.table.names))
        console.print(Text(outcome_text(outcome, self.table.names), style="bold"))
        if self.observer is not None:
            console.print(Text(outcome_for(outcome, self.observer), style="bold"))
