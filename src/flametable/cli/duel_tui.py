"""Flame Duel at the terminal: a human seat's board and menu, what it may type, the narration of what others do.

A human seat sees only ``state.view(seat)`` (through :mod:`flametable.cli.duel_render`); input is
parsed into one of ``view.legal``. The narrator describes each step from a view of its observer. The prompt
and the hot-seat hand-over are the same for every game: :mod:`flametable.cli.table`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, RenderableType
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
)
from flametable.cli.i18n import _
from flametable.cli.table import Table, TableNarrator, parse_notation, parse_number
from flametable.core.outcome import Outcome
from flametable.duel.actions import DuelAction, Kind
from flametable.duel.game import DuelGame
from flametable.duel.rules import Phase
from flametable.duel.view import DuelView

_ROUND_PHASES = (Phase.STAT, Phase.PLAY, Phase.CHOICE)


def parse_choice(text: str, legal: Sequence[DuelAction], game: DuelGame) -> DuelAction | str:
    """The action the player typed (a menu number or a notation like ``play S7``), or what is wrong."""
    picked = parse_number(text, legal)
    if picked is not None:
        return picked
    return parse_notation(text, legal, game.action_from_text)


class DuelTable(Table[DuelView, DuelAction]):
    """One Flame Duel match at one terminal: who is human, how seats are called, where the output goes."""

    view_type = DuelView
    action_type = DuelAction

    def __init__(self, console: Console, game: DuelGame, specs: Sequence[str]) -> None:
        super().__init__(console, specs)
        self.game = game
        self.words = CardWords(game.cards)

    def board(self, view: DuelView) -> RenderableType:
        return duel_render.board(view, self.words, self.names)

    def menu(self, seat: int, view: DuelView) -> RenderableType:
        current = view.seats[seat].character
        return duel_render.menu([describe_option(a, self.words, current, len(view.lineup)) for a in view.legal])

    def parse(self, text: str, legal: Sequence[DuelAction]) -> DuelAction | str:
        return parse_choice(text, legal, self.game)


class Narrator(TableNarrator[DuelTable, DuelView, DuelAction]):
    """Tells ``observer`` (a seat, or None for everyone) what happened after each step of the match."""

    def start(self) -> None:
        if self.prev.phase in _ROUND_PHASES:
            self._round_started(self.prev)

    def narrate(self, prev: DuelView, view: DuelView, actor: int, action: DuelAction | None) -> None:
        words, names = self.table.words, self.table.names
        lines: list[str] = []
        own = actor == self.observer
        ended = len(view.results) > len(prev.results)
        if action is None:  # kept from the observer (R3, R14): only which decision it was
            if prev.phase is Phase.CHAMPION:
                lines.append(_("{player} chooses a character for the tie-break round.").format(player=names[actor]))
            else:
                lines.append(_("{player} lines up a character.").format(player=names[actor]))
        elif action.kind in (Kind.STAT, Kind.PICK, Kind.LINE, Kind.CHAMPION):
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

    def show_result(self, view: DuelView, outcome: Outcome) -> None:
        console = self.table.console
        console.print(duel_render.results_table(view, self.table.words, self.table.names))
        console.print(Text(outcome_text(outcome, self.table.names), style="bold"))

    def outcome_line(self, outcome: Outcome, seat: int) -> str:
        return outcome_for(outcome, seat)
