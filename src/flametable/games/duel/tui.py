"""Flame Duel at the terminal: a human seat's board and menu, what it may type, the narration of what others do.

A human seat sees only ``state.view(seat)`` (through :mod:`flametable.games.duel.render`); input is
parsed into one of ``view.legal``. The narrator describes each step from a view of its observer. The prompt
and the hot-seat hand-over are the same for every game: :mod:`flametable.cli.table`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.text import Text

from flametable.cli import i18n
from flametable.cli.table import Table, TableNarrator, parse_notation, parse_number
from flametable.core.outcome import Outcome
from flametable.games.duel import render as duel_render
from flametable.games.duel.actions import DuelAction, Kind
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import MAX_PLAYS, Phase
from flametable.games.duel.texts import (
    CardWords,
    describe_option,
    duel_commands,
    outcome_for,
    outcome_text,
    round_start_text,
    round_started,
    step_lines,
)
from flametable.games.duel.view import DuelView
from flametable.texts.commands import Commands
from flametable.texts.translator import Translator


def parse_choice(text: str, legal: Sequence[DuelAction], game: DuelGame, commands: Commands | None = None
                 ) -> DuelAction | str:
    """The action the player typed, or what is wrong: a menu number, an action in the words of the player's
    language or in English (``elegir C12``, ``play S7``, ``stat heat``), or a stat alone when choosing it
    (``calor``)."""
    picked = parse_number(text, legal)
    if picked is not None:
        return picked
    return parse_notation(text, legal, game.action_from_text, commands or duel_commands(i18n.translator()))


class DuelTable(Table[DuelView, DuelAction]):
    """One Flame Duel match at one terminal: who is human, how seats are called, where the output goes."""

    view_type = DuelView
    action_type = DuelAction

    def __init__(self, console: Console, game: DuelGame, specs: Sequence[str], tr: Translator | None = None) -> None:
        super().__init__(console, specs)
        self.game = game
        self.tr = tr or i18n.translator()  # the language of everyone at this terminal
        self.words = CardWords(self.tr, game.cards)
        self.commands = duel_commands(self.tr)

    def board(self, view: DuelView) -> RenderableType:
        return duel_render.board(view, self.words, self.names)

    def compact_board(self, view: DuelView) -> RenderableType:
        return duel_render.compact_board(view, self.words, self.names)

    def menu(self, seat: int, view: DuelView) -> RenderableType:
        if view.phase is Phase.DRAFT:
            return self.draft_menu(view)
        current = view.seats[seat].character
        options = [describe_option(a, self.words, current, len(view.lineup)) for a in view.legal]
        return duel_render.menu(self.tr, options)

    def compact_menu(self, seat: int, view: DuelView) -> RenderableType:
        if view.phase is Phase.DRAFT:
            return self.draft_menu(view)
        current = view.seats[seat].character
        options = [duel_render.compact_option(a, self.words, current, len(view.lineup)) for a in view.legal]
        return duel_render.compact_menu(self.tr, options)

    def draft_menu(self, view: DuelView) -> RenderableType:
        """The draft's characters are listed once, on the board: they are picked by their card number."""
        example = view.draft_pool[0] if view.draft_pool else 1
        return Text(self.tr.gettext("Type the number of a character to pick it (for example {n} for C{n}).").format(
            n=example), style="bold")

    def parse(self, text: str, legal: Sequence[DuelAction]) -> DuelAction | str:
        if text.isdigit() and legal and all(a.kind is Kind.PICK for a in legal):  # the draft: a card number
            picked = [a for a in legal if a.arg == int(text)]
            if picked:
                return picked[0]
            return self.tr.gettext("C{n} is not free to pick: type the number of a character still free.").format(
                n=int(text))
        return parse_choice(text, legal, self.game, self.commands)

    def spoken(self, action: DuelAction) -> str:
        return self.commands.spoken(action)

    def lookup(self, query: str) -> RenderableType | str:
        from flametable.games.duel.cards_page import duel_card

        return duel_card(self.words, query, self.card_example())

    def card_example(self) -> str:
        return "C1"

    def headroom(self, seat: int, view: DuelView) -> int:
        """In the rounds, the board grows by the plays to come (R6: up to MAX_PLAYS each, in the round's log), the
        rows of the round's total, modifiers, items and cards known in hand, the rounds' results, a card drawn
        into the hand, and the options by a play and an ability per card in hand."""
        if view.phase in (Phase.DRAFT, Phase.LINEUP, Phase.OVER):
            return 0
        plays = 2 * MAX_PLAYS - len(view.log) + (0 if view.log else 3)  # the log's title, header and rule
        rows = 4 - (view.stat >= 0) - any(s.modifier for s in view.seats) - any(s.items for s in view.seats) - any(
            s.revealed for s in view.seats)
        results = 3 - len(view.results) + (0 if view.results else 3)
        card = -(-self.lines(duel_render.hand_table(view, self.words)) // max(1, len(view.hand)))  # a card drawn
        options = 1 + 2 * (len(view.hand) + 1) - len(view.legal)
        return max(0, plays) + rows + max(0, results) + card + max(0, options)

    def keeps_layout(self, view: DuelView) -> bool:
        """The draft's list of characters is a screen of its own: the layout of the match is that of its
        rounds."""
        return view.phase is not Phase.DRAFT

    def shows_secrets(self, view: DuelView) -> bool:
        """The draft is public (R2): both players may watch every pick, so hot-seat needs no hand-over for it."""
        return view.phase is not Phase.DRAFT


class Narrator(TableNarrator[DuelTable, DuelView, DuelAction]):
    """Tells ``observer`` (a seat, or None for everyone) what happened after each step of the match."""

    def start(self) -> None:
        if round_started(None, self.prev):
            self._round_started(self.prev)

    def narrate(self, prev: DuelView, view: DuelView, actor: int, action: DuelAction | None) -> None:
        for line in step_lines(prev, view, actor, action, self.observer, self.table.words, self.table.names):
            self.table.tell(Text(line))
        if view.outcome is not None:
            self.finish(view)
        elif round_started(prev, view):
            self._round_started(view)

    def _round_started(self, view: DuelView) -> None:
        self.table.tell(Text(round_start_text(view, self.table.words, self.table.names), style="bold"))

    def show_result(self, view: DuelView, outcome: Outcome) -> None:
        console = self.table.console
        console.print(duel_render.results_table(view, self.table.words, self.table.names))
        console.print(Text(outcome_text(self.table.tr, outcome, self.table.names), style="bold"))

    def outcome_line(self, outcome: Outcome, seat: int) -> str:
        return outcome_for(self.table.tr, outcome, seat)
