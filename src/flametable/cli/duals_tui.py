"""Flamecraft Duals at the terminal: a human seat's prompt, the narration of what others do, hot-seat hand-over.

A human seat sees only ``state.view(seat)`` (through :mod:`flametable.cli.duals_render`); input is parsed into
one of ``view.legal``. The narrator describes each step from a view of its observer (a seat, or None for
everyone), comparing it with the view before the step: the actions, and what the engine did on its own (a new
turn's token, the reserve going into the bag, the end being triggered, the last chance).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from flametable.cli import duals_render
from flametable.cli.duals_text import (
    DualsWords,
    describe_public,
    first_player_text,
    fmt,
    outcome_for,
    outcome_text,
)
from flametable.cli.duel_text import seat_names
from flametable.cli.i18n import _
from flametable.cli.prompt import help_words, read_line
from flametable.cli.words import illegal_text
from flametable.core.errors import IllegalAction
from flametable.core.match import Decider
from flametable.core.protocol import Action, GameState
from flametable.duals.actions import DualsAction
from flametable.duals.game import DualsGame
from flametable.duals.view import DualsView


def parse_choice(text: str, legal: Sequence[DualsAction], game: DualsGame) -> DualsAction | str:
    """The action the player typed, or what is wrong: a menu number, a notation like ``place c3``, or only its
    arguments when one legal action has them (``c3`` for ``place c3``, ``b2 c3`` for ``move b2 c3``, ``k12``)."""
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(legal):
            return legal[n - 1]
        return _("There is no option {n}: type a number from 1 to {last}.").format(n=n, last=len(legal))
    typed = " ".join(text.lower().split())
    short = [a for a in legal if a.text().lower().partition(" ")[2] == typed]
    if len(short) == 1:
        return short[0]
    try:
        action = game.action_from_text(text)
    except IllegalAction as exc:
        return illegal_text(exc)
    if action not in legal:
        return _("{action} is not one of your options now.").format(action=action.text())
    return action


class DualsTable:
    """One match at one terminal: who is human, how seats are called, where the output goes."""

    def __init__(self, console: Console, game: DualsGame, specs: Sequence[str], buddy: bool = False) -> None:
        self.console = console
        self.game = game
        self.buddy = buddy
        self.words = DualsWords(game.data)
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
            assert isinstance(view, DualsView)
            return self.ask(seat, view)

        return decide

    def ask(self, seat: int, view: DualsView) -> DualsAction:
        if self.hot_seat and self.holder != seat:
            self.hand_over(seat)
        legal = view.legal
        self.console.print()
        self.console.print(duals_render.board(view, self.words, self.names, self.buddy))
        self.console.print(duals_render.menu(view, self.words))
        hint = _("Type a number or an action (for example: {example}); {help} shows the options again; {quit} "
                 "leaves the match.")
        self.console.print(Text(hint.format(example=legal[-1].text(), help="?", quit=_("quit")), style="dim"))
        prompt = _("{player}, your choice: ").format(player=self.names[seat])
        while True:
            text = read_line(self.console, prompt)
            if not text:
                continue
            if text.lower() in help_words():
                self.console.print(duals_render.menu(view, self.words))
                continue
            choice = parse_choice(text, legal, self.game)
            if isinstance(choice, DualsAction):
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


class DualsNarrator:
    """Tells ``observer`` (a seat, or None for everyone) what happened after each step of the match."""

    def __init__(self, table: DualsTable, observer: int | None, first: DualsView) -> None:
        self.table = table
        self.observer = observer
        self.prev = first

    def start(self) -> None:
        view = self.prev
        self.table.tell(first_player_text(view, self.table.words, self.table.names))
        self._turn_started(view)

    def step(self, state: GameState[Any, Any], actor: int, action: Action) -> None:
        """Called by :func:`flametable.core.match.play` after each action."""
        assert isinstance(action, DualsAction)
        view: DualsView = state.view(self.observer)
        prev, self.prev = self.prev, view
        table = self.table
        words, names = table.words, table.names
        lines: list[Text] = []
        own = actor == self.observer
        if not own:
            lines.append(describe_public(names[actor], action, prev, words))
        if prev.reserve and not view.reserve:
            lines.append(Text(_("The bag was empty: the reserve tokens went into the bag, shuffled (D7)."),
                              style="bold"))
        if view.end_triggered and not prev.end_triggered:
            lines.append(self._end_text(view))
        for line in lines:
            table.tell(line)
        if view.outcome is not None:
            self.finish(view)
        elif view.turn_number != prev.turn_number:
            self._turn_started(view)

    def _end_text(self, view: DualsView) -> Text:
        names = self.table.names
        if view.deck_size == 0:
            text = _("The shop deck is empty: the end is triggered (D8). {player} finishes this turn, then {other} "
                     "gets a last chance.")
        else:
            text = _("The bag is empty: the end is triggered (D8). {player} finishes this turn, then {other} gets a "
                     "last chance.")
        return Text(text.format(player=names[view.turn], other=names[1 - view.turn]), style="bold yellow")

    def _turn_started(self, view: DualsView) -> None:
        table = self.table
        words, names = table.words, table.names
        player = names[view.turn]
        if view.last_chance:
            title = _("Turn {n} · {player}: last chance").format(n=view.turn_number, player=player)
        else:
            title = _("Turn {n} · {player}").format(n=view.turn_number, player=player)
        table.tell(Text(f"── {title} ──", style="bold"))
        if view.last_chance:
            table.tell(Text(_("{player} may only score cards and spend a coin; then the match ends.").format(
                player=player)))
        elif view.held >= 0:
            table.tell(fmt(_("{player} draws {token} from the bag."), player=player, token=words.token(view.held)))
        else:
            table.tell(Text(_("{player} has nothing left to draw: no token to place.").format(player=player)))

    def finish(self, view: DualsView) -> None:
        console = self.table.console
        outcome = view.outcome
        assert outcome is not None
        words, names = self.table.words, self.table.names
        console.print()
        console.print(Rule(_("End of the match")))
        console.print(duals_render.hex_board(view, words))
        console.print()
        console.print(duals_render.final_table(view, words, names))
        console.print(Text(outcome_text(outcome, view, names), style="bold"))
        if self.observer is not None:
            console.print(Text(outcome_for(outcome, self.observer), style="bold"))
