"""Flamecraft Duals at the terminal: a human seat's board and menu, what it may type, the narration of what others do.

A human seat sees only ``state.view(seat)`` (through :mod:`flametable.games.duals.render`); input is parsed into
one of ``view.legal``. The narrator describes each step from a view of its observer (a seat, or None for
everyone), comparing it with the view before the step: the actions, and what the engine did on its own (a new
turn's token, the reserve going into the bag, the end being triggered, the last chance). The prompt and the
hot-seat hand-over are the same for every game: :mod:`flametable.cli.table`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from flametable.cli import i18n
from flametable.cli.table import Table, TableNarrator, parse_number
from flametable.core.errors import IllegalAction
from flametable.core.outcome import Outcome
from flametable.games.duals import render as duals_render
from flametable.games.duals.actions import DualsAction, Kind
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import STACK_LIMIT, Step
from flametable.games.duals.texts import (
    DualsWords,
    duals_commands,
    first_player_text,
    outcome_for,
    outcome_text,
    step_story,
    turn_start_lines,
)
from flametable.games.duals.view import DualsView
from flametable.texts.commands import Commands, card_named, no_card_called
from flametable.texts.translator import Translator

# The action that spaces typed alone stand for, at each step that takes spaces (one space, or two).
SPACES_ALONE = {(Step.PLACE, 1): Kind.PLACE, (Step.PLANT, 1): Kind.USE, (Step.MEAT, 2): Kind.MOVE,
                (Step.IRON, 2): Kind.MOVE, (Step.POTION, 2): Kind.SWAP}


def parse_choice(text: str, legal: Sequence[DualsAction], game: DualsGame, view: DualsView | None = None,
                 commands: Commands | None = None) -> DualsAction | str:
    """The action the player typed, or what is wrong: a menu number, an action in the words of the player's
    language or in English (``colocar c3``, ``place c3``, ``activar carne``), or only its arguments when one
    legal action has them (``c3`` for ``place c3``, ``b2 c3`` for ``move b2 c3``, ``k12``, ``carne``).
    With the ``view`` the player sees, spaces typed alone that name no option say why (a full stack)."""
    picked = parse_number(text, legal)
    if picked is not None:
        return picked
    if commands is None:
        commands = duals_commands(DualsWords(i18n.translator(), game.data))
    if view is not None and commands.bare(text, legal) is None:
        words = text.lower().split()
        kind = SPACES_ALONE.get((view.phase, len(words)))
        if kind is not None and all(w in game.data.board.index for w in words):
            text = " ".join([commands.verbs[kind.word], *words])
    try:
        action = commands.read(text, legal, game.action_from_text)
    except IllegalAction as exc:
        return commands.tr.error(exc)
    return action if action in legal else why_not(action, view, commands)


def why_not(action: DualsAction, view: DualsView | None, commands: Commands) -> str:
    """Why an action the player typed is not one of their options: a full stack where a token would go, or
    simply not now."""
    tr = commands.tr
    target = action.a if action.kind is Kind.PLACE else action.b if action.kind is Kind.MOVE else -1
    if view is not None and target >= 0 and len(view.board[target]) >= STACK_LIMIT:
        return tr.gettext("That stack already holds {limit} tokens: {space} is full.").format(
            limit=STACK_LIMIT, space=view.data.board.names[target])
    if view is not None and action.kind is Kind.DONE and view.phase is Step.PLACE and view.turn == view.seat:
        # typed for a turn that is over (often one the engine ended by itself: nothing more to score, no coin)
        return tr.gettext("This turn has just begun: there is nothing to finish yet. Place the token on a space.")
    return tr.gettext("{action} is not one of your options now.").format(action=commands.spoken(action))


class DualsTable(Table[DualsView, DualsAction]):
    """One Flamecraft Duals match at one terminal: who is human, how seats are called, where the output goes."""

    view_type = DualsView
    action_type = DualsAction

    def __init__(self, console: Console, game: DualsGame, specs: Sequence[str], buddy: bool = False,
                 tr: Translator | None = None) -> None:
        super().__init__(console, specs)
        self.game = game
        self.buddy = buddy
        self.tr = tr or i18n.translator()  # the language of everyone at this terminal
        self.words = DualsWords(self.tr, game.data)
        self.commands = duals_commands(self.words)
        self.view: DualsView | None = None
        # the board each seat left after its last move (told by the narrator), to show it what changed since
        self.seen: list[tuple[tuple[int, ...], ...] | None] = [None, None]
        self.seen_turn = [0, 0]  # the turn of that move

    def saw(self, seat: int, before: DualsView, after: DualsView) -> None:
        """``seat`` made a move in the turn of ``before``, leaving the board of ``after``."""
        self.seen[seat] = after.board
        self.seen_turn[seat] = before.turn_number

    def board(self, view: DualsView) -> RenderableType:
        return duals_render.board(view, self.words, self.names, self.buddy, self.last_seen(view))

    def compact_board(self, view: DualsView) -> RenderableType:
        return duals_render.compact_board(view, self.words, self.names, self.buddy, self.last_seen(view))

    def last_seen(self, view: DualsView) -> tuple[tuple[int, ...], ...] | None:
        """The board the seat of ``view`` left after its last move, at the start of its next turn (``None``: still
        the same turn, or no move yet: nothing to tell)."""
        seen = self.seen[view.seat] if view.seat is not None else None
        if seen is not None and view.seat is not None and view.turn_number == self.seen_turn[view.seat]:
            return None
        return seen

    def menu(self, seat: int, view: DualsView) -> RenderableType:
        return duals_render.menu(view, self.words)

    def compact_menu(self, seat: int, view: DualsView) -> RenderableType:
        return duals_render.compact_menu(view, self.words)

    def ask(self, seat: int, view: DualsView) -> DualsAction:
        self.view = view  # what the player sees while typing: why a space typed alone is no option
        return super().ask(seat, view)

    def parse(self, text: str, legal: Sequence[DualsAction]) -> DualsAction | str:
        return parse_choice(text, legal, self.game, self.view, self.commands)

    def spoken(self, action: DualsAction) -> str:
        return self.commands.spoken(action)

    def lookup(self, query: str) -> RenderableType | str:
        """A shop card by its number (``K12``, ``12``) or its name: its pattern and points."""
        typed = " ".join(query.casefold().split())
        digits = typed[1:].strip() if typed.startswith("k") else typed
        cards = self.game.data.cards
        numbers = {c.number for c in cards}
        if digits.isdigit() and int(digits) in numbers:
            return duals_render.card_panel(int(digits), self.words, None)
        named = card_named(query, [(c.number, c.name) for c in cards if c.name])
        if named is not None:
            return duals_render.card_panel(named, self.words, None)
        return no_card_called(self.tr, query, self.card_example())

    def card_example(self) -> str:
        return "K1"


class DualsNarrator(TableNarrator[DualsTable, DualsView, DualsAction]):
    """Tells ``observer`` (a seat, or None for everyone) what happened after each step of the match."""

    def start(self) -> None:
        view = self.prev
        self.table.tell(first_player_text(view, self.table.words, self.table.names))
        self._turn_started(view)

    def narrate(self, prev: DualsView, view: DualsView, actor: int, action: DualsAction | None) -> None:
        table = self.table
        table.saw(actor, prev, view)
        for line in step_story(prev, view, actor, action, self.observer, table.words, table.names):
            table.tell(line)
        if view.outcome is not None:
            self.finish(view)

    def _turn_started(self, view: DualsView) -> None:
        for line in turn_start_lines(view, self.table.words, self.table.names):
            self.table.tell(line)

    def show_result(self, view: DualsView, outcome: Outcome) -> None:
        console = self.table.console
        words, names = self.table.words, self.table.names
        console.print(Rule(self.table.tr.gettext("End of the match")))
        console.print(duals_render.hex_board(view, words))
        console.print()
        hands = None if self.seat_view is None else [self.seat_view(seat).hand for seat in (0, 1)]
        console.print(duals_render.final_table(view, words, names, hands))
        console.print(Text(outcome_text(self.table.tr, outcome, view, names), style="bold"))

    def outcome_line(self, outcome: Outcome, seat: int) -> str:
        return outcome_for(self.table.tr, outcome, seat)
