"""A match at one terminal, whatever the game: who is human, the seats' names, a human seat's prompt, the
narration for everyone and the hot-seat hand-over; and the narrator's steps from one view to the next.

Each game gives its board, its menu and how typed text becomes one of its actions
(:mod:`flametable.games.duel.tui`, :mod:`flametable.games.duals.tui`); a human seat sees only its view, and the
narration is made from the match service's events for the table's observer (:mod:`flametable.service`).
"""

from __future__ import annotations

import shlex
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from flametable.bots.registry import HUMAN
from flametable.cli import guard
from flametable.cli.i18n import _, ngettext, translator
from flametable.cli.prompt import card_words, help_words, log_words, read_line
from flametable.core.errors import IllegalAction
from flametable.core.outcome import Outcome
from flametable.core.protocol import Action, GameState
from flametable.service import Decider, Event
from flametable.texts.commands import Commands
from flametable.texts.log import seat_name as texts_seat_name


def seat_name(seat: int) -> str:
    return texts_seat_name(translator(), seat)


def seat_names(specs: Sequence[str], me: int | None) -> tuple[str, str]:
    """``Player 1 (you)`` / ``Player 2 (bot:random)``; ``me`` None: no seat is "you" (hot-seat, spectator)."""
    names = []
    for seat, spec in enumerate(specs):
        if seat == me:
            names.append(_("{player} (you)").format(player=seat_name(seat)))
        elif spec.startswith("bot:"):
            names.append(f"{seat_name(seat)} ({spec})")
        else:
            names.append(seat_name(seat))
    return names[0], names[1]


A = TypeVar("A", bound=Action)
A_co = TypeVar("A_co", bound=Action, covariant=True)


class SeatView(Protocol[A_co]):
    """What the table needs of a game's view: the seat's legal actions and, once over, the outcome."""

    @property
    def legal(self) -> Sequence[A_co]: ...

    @property
    def outcome(self) -> Outcome | None: ...


V = TypeVar("V", bound=SeatView[Any])


def parse_number(text: str, legal: Sequence[A]) -> A | str | None:
    """The option a menu number names (or what is wrong with the number); ``None`` when ``text`` is no number."""
    if not text.isdigit():
        return None
    n = int(text)
    if 1 <= n <= len(legal):
        return legal[n - 1]
    return _("There is no option {n}: type a number from 1 to {last}.").format(n=n, last=len(legal))


def parse_notation(text: str, legal: Sequence[A], action_from_text: Callable[[str], A],
                   commands: Commands | None = None) -> A | str:
    """The action a notation like ``play S7`` names, or what is wrong (unreadable, or not an option now); with
    ``commands``, the words of the player's language (or English) are read and the answer is in that language."""
    tr = commands.tr if commands is not None else translator()
    try:
        action = commands.read(text, legal, action_from_text) if commands is not None else action_from_text(text)
    except IllegalAction as exc:
        return tr.error(exc)
    if action not in legal:
        spoken = commands.spoken(action) if commands is not None else action.text()
        return tr.gettext("{action} is not one of your options now.").format(action=spoken)
    return action


class Table(ABC, Generic[V, A]):
    """One match at one terminal: who is human, how seats are called, where the output goes."""

    view_type: type[V]
    """The game's view: what a human seat's decider is shown."""
    action_type: type[A]
    """The game's action: what the narrator is told was played."""
    game: Any
    """The game (set by each game's table): reads the notation of the actions the narrator is told."""

    def __init__(self, console: Console, specs: Sequence[str]) -> None:
        self.console = console
        humans = [seat for seat, spec in enumerate(specs) if spec == HUMAN]
        self.hot_seat = len(humans) == 2
        self.me: int | None = humans[0] if len(humans) == 1 else None
        self.names = seat_names(specs, self.me)
        self.holder: int | None = None  # hot-seat: the seat now at the keyboard
        self.missed: list[list[Text]] = [[], []]  # hot-seat: news a seat did not see (it was away)
        self.log: list[Text] = []  # everything told at the table, for the log command
        self.hinted: set[int] = set()  # the seats told of the log and card commands
        self.private = False  # hot-seat: the holder's screen is its own (the terminal's alternate screen)
        self.compact = False  # once the board is compact it stays so: one layout through the match

    # ------------------------------------------------------------------ what each game gives

    @abstractmethod
    def board(self, view: V) -> RenderableType:
        """What a human seat sees before choosing."""

    @abstractmethod
    def menu(self, seat: int, view: V) -> RenderableType:
        """The numbered options of ``seat`` (shown again on ``?``)."""

    def compact_board(self, view: V) -> RenderableType:
        """The board for a terminal too small for :meth:`board` (the full one is shown on ``?``)."""
        return self.board(view)

    def compact_menu(self, seat: int, view: V) -> RenderableType:
        """The options in fewer lines, to go with :meth:`compact_board`."""
        return self.menu(seat, view)

    def headroom(self, seat: int, view: V) -> int:
        """How many lines the board and options of ``seat`` may still grow by before the board is drawn anew (a
        round's plays to come): the whole board is shown only when it fits with them, so that it does not turn
        compact halfway."""
        return 0

    def keeps_layout(self, view: V) -> bool:
        """Whether the layout of the board of ``view`` (compact or whole) is kept for the rest of the match; a
        screen of its own (the draft's list of characters) says False."""
        return True

    @abstractmethod
    def parse(self, text: str, legal: Sequence[A]) -> A | str:
        """The action the player typed, or what is wrong (translated)."""

    def lookup(self, query: str) -> RenderableType | str | None:
        """The card ``query`` names (``C12``, a name), or what is wrong (translated); ``None``: this game has no
        cards to look up (the card command is then no command)."""
        return None

    def card_example(self) -> str:
        """A card to show in the hint of the card command (``C12``)."""
        return ""

    def spoken(self, action: A) -> str:
        """An action as the player types it (the notation, unless the game's words are in the player's language)."""
        return action.text()

    def shows_secrets(self, view: V) -> bool:
        """Whether the board of ``view`` shows what the other seat may not see (a hand, a line-up...): in
        hot-seat, such a board is shown only after a hand-over, on a screen of its own. A game whose decision is
        public (the draft's picks) says False: both players may watch it."""
        return True

    def read_action(self, notation: str) -> A:
        """The action an event names by its notation."""
        action: A = self.game.action_from_text(notation)
        return action

    # ------------------------------------------------------------------ everyone at the table

    def tell(self, text: Text) -> None:
        """Narration for everyone at the table; in hot-seat, kept for the player who is away."""
        self.console.print(text)
        self.log.append(text)
        if self.hot_seat and self.private:  # on the main screen, everyone at the table sees it
            for seat in (0, 1):
                if seat != self.holder:
                    self.missed[seat].append(text)

    # ------------------------------------------------------------------ a human seat

    def decider(self, seat: int) -> Decider:
        """The decider of a human seat: it is shown ``view`` and answers with one of ``view.legal``."""

        def decide(view: Any, legal: Sequence[Action]) -> Action:
            if not isinstance(view, self.view_type):
                raise TypeError(f"{type(self).__name__}: the decider of seat {seat} needs a "
                                f"{self.view_type.__name__}, got {type(view).__name__}")
            return self.ask(seat, view)

        return decide

    def ask(self, seat: int, view: V) -> A:
        news: list[Text] = []
        if self.hot_seat:
            if not self.shows_secrets(view):
                self.leave_private()
                self.holder = seat
            elif self.holder != seat or not self.private:
                self.hand_over(seat)
                news, self.missed[seat] = self.missed[seat], []
        legal = view.legal
        screen, compact = self.screen(seat, view, news)
        self.console.print()
        self.console.print(screen)
        prompt = _("{player}, your choice: ").format(player=self.names[seat])
        while True:
            text = read_line(self.console, prompt)
            if not text:
                continue
            if text.lower() in help_words():
                if compact:
                    self.console.print(self.board(view))
                self.console.print(self.menu(seat, view))
                self.console.print(Text(self.commands_hint(), style="dim"))
                continue
            if self.command(text):
                continue
            choice = self.parse(text, legal)
            if not isinstance(choice, str):  # the narration tells it (one's own choices too) and the log keeps it
                return choice
            self.console.print(Text(choice, style="red"))

    def commands_hint(self) -> str:
        """The prompt's other commands: the match log and, in a game with cards, a card looked up."""
        hint = _("Also: {log} shows the match so far.").format(log=_("log"))
        if self.card_example():
            hint += " " + _("{card} {example} shows a card.").format(card=_("card"), example=self.card_example())
        return hint

    def command(self, text: str) -> bool:
        """Answer a command of the prompt other than a choice (the match log, a card looked up); ``False`` when
        ``text`` is none (it is then read as a choice)."""
        word, _space, rest = text.partition(" ")
        if text.lower() in log_words():
            self.show_log()
            return True
        if word.lower() in card_words() and self.card_example():
            found = self.lookup(rest.strip()) if rest.strip() else _(
                "Type {card} and a card's number or name, like {card} {example}.").format(
                card=_("card"), example=self.card_example())
            if found is None:
                return False
            self.console.print(Text(found, style="red") if isinstance(found, str) else found)
            return True
        return False

    def show_log(self) -> None:
        """Everything told at this table so far."""
        self.console.print(Rule(_("The match so far")))
        if not self.log:
            self.console.print(Text(_("Nothing has happened yet.")))
        for line in self.log:
            self.console.print(line)
        self.console.print(Rule())

    def screen(self, seat: int, view: V, news: Sequence[Text] = ()) -> tuple[RenderableType, bool]:
        """What ``seat`` is shown before it chooses: its ``news`` (hot-seat: what happened since its last turn),
        the board, the options and a hint; compact (the second value) when the whole board would not fit on the
        terminal with them, at least the news' last event and the room it may grow by (:meth:`headroom`), and from
        then on (:meth:`keeps_layout`): one layout through the match, and one hint. The prompt's other commands
        (the log, a card looked up) are told on the first screen they fit on; ``?`` tells them again. The news is
        cut to its last events when the screen has no room for all of it (the log has it all)."""
        board, menu = self.board(view), self.menu(seat, view)
        example = self.spoken(view.legal[-1])
        least = [self.news(news, 0)] if news else []  # room for the news' title and its last event
        compact = self.compact or not self.fits(board, menu, *least, room=self.headroom(seat, view))
        if compact and self.keeps_layout(view):
            self.compact = True
        if not compact:
            hint = _("Type a number or an action (for example: {example}); {help} shows the options again; {quit} "
                     "leaves the match.").format(example=example, help="?", quit=_("quit"))
            parts: list[RenderableType] = [board, menu, Text(hint, style="dim")]
            commands = Text(self.commands_hint(), style="dim")
            if seat not in self.hinted and self.fits(board, menu, commands, *least):  # the other commands, told once
                self.hinted.add(seat)
                parts.append(commands)
        else:
            hint = _("A number or an action ({example}) · {help}: the whole board · {quit}: leave").format(
                example=example, help="?", quit=_("quit"))
            parts = [self.compact_board(view), self.compact_menu(seat, view), Text(hint, style="dim")]
        if news:  # the lines left over, but the blank line before and the prompt
            parts.insert(0, self.news(news, self.console.height - 2 - self.lines(*parts)))
        return Group(*parts), compact

    def news(self, news: Sequence[Text], room: int) -> RenderableType:
        """What happened since a player's last turn, in ``room`` lines if it can: its last events, under a title
        that says how many earlier ones the log keeps (at least the title and the last event)."""
        heights = [self.lines(text) for text in news]
        left = 0  # the earlier events left out
        while True:
            title = Text(_("Since your last turn:") if not left else ngettext(
                "Since your last turn ({n} earlier event: type {log} to read it):",
                "Since your last turn ({n} earlier events: type {log} to read them):", left).format(
                n=left, log=_("log")), style="bold")
            if left >= len(news) - 1 or self.lines(title) + sum(heights[left:]) <= room:
                return Group(title, *news[left:])
            left += 1

    def fits(self, *parts: RenderableType, room: int = 0) -> bool:
        """Whether ``parts`` fit on the terminal's screen with the blank line before, the hint and the prompt (and
        ``room`` lines more)."""
        return self.lines(*parts) + 4 + room <= self.console.height

    def lines(self, *parts: RenderableType) -> int:
        """How many lines ``parts`` take on the terminal."""
        console = self.console
        return sum(len(console.render_lines(part, console.options, pad=False)) for part in parts)

    def hand_over(self, seat: int) -> None:
        """Hot-seat: leave the other player's screen and wait until ``seat`` has the keyboard, then give it a screen
        of its own (its news comes with its board: :meth:`screen`).

        On a terminal, a player's own screen is the terminal's alternate screen: what is shown there goes
        when it is left, and never reaches the scrollback of the main screen, where the hand-over is shown; so
        the next player cannot scroll back to the other's hand. Elsewhere (a pipe) the screen is only cleared."""
        self.leave_private()
        self.console.print(Panel(Text(_("Pass the keyboard to {player}. The other player must not look at the "
                                        "screen.").format(player=self.names[seat]))))
        read_line(self.console, _("{player}, press Enter when ready.").format(player=self.names[seat]) + " ")
        self.enter_private()
        self.holder = seat

    def enter_private(self) -> None:
        """The holder's own screen: the alternate screen of a terminal (cleared), else a cleared screen."""
        if not self.console.set_alt_screen(True):
            self.console.clear()
        self.private = True

    def leave_private(self) -> None:
        """Back to the main screen, leaving nothing of the holder's own screen behind (safe to call twice)."""
        if not self.private:
            return
        self.private = False
        if not self.console.set_alt_screen(False):
            self.console.clear()

    def goodbye(self, resume: str | None = None) -> None:
        """The match is left; ``resume``: the command that goes on with it from its record."""
        self.leave_private()
        if resume is None:
            self.console.print(_("Match abandoned. Goodbye!"))
            return
        self.console.print(_("Match abandoned. To go on with it from its record, type:"))
        self.console.print(Text(resume), soft_wrap=True)


def resume_command(game: str, record: Path) -> str:
    """The command line that goes on with a match of ``game`` left with its record in ``record``: with the data
    file and the language of the command line it was played from (``--cards``, ``--lang``), and ``--resume``."""
    words = ["flametable", "play", game]
    for option in ("--cards", "--lang"):
        value = option_value(guard.command_line, option)
        if value is not None:
            words += [option, value]
    return shlex.join([*words, "--resume", str(record)])


def option_value(args: Sequence[str], option: str) -> str | None:
    """The value of ``option`` on the command line ``args`` (``--cards FILE`` or ``--cards=FILE``; the last one
    typed), or None."""
    value = None
    for i, arg in enumerate(args):
        if arg == option and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith(option + "="):
            value = arg.partition("=")[2]
    return value


T = TypeVar("T", bound=Table[Any, Any])


class TableNarrator(ABC, Generic[T, V, A]):
    """Tells ``observer`` (a seat, or None for everyone) what happened after each step of the match, from the
    events the match service gives that observer: its view after the step compared with the one before, and
    the action when the observer may know it."""

    def __init__(self, table: T, observer: int | None, first: V) -> None:
        self.table = table
        self.observer = observer
        self.prev = first
        self.seat_view: Callable[[int], V] | None = None
        """Each seat's own view, for what the end shows everyone (the hands left); None: not known here."""

    @abstractmethod
    def start(self) -> None:
        """Before the first step: what the match starts with."""

    @abstractmethod
    def narrate(self, prev: V, view: V, actor: int, action: A | None) -> None:
        """What changed from ``prev`` to ``view`` when ``actor`` played ``action`` (``None``: an action the
        observer may not know, such as the other player's secret choice)."""

    @abstractmethod
    def show_result(self, view: V, outcome: Outcome) -> None:
        """The end of the match for everyone: the final board or table and who won."""

    @abstractmethod
    def outcome_line(self, outcome: Outcome, seat: int) -> str:
        """The line for the player at ``seat``."""

    def hear(self, event: Event) -> None:
        """Narrate one event of the match service; it must be the observer's (``event.audience``)."""
        if event.audience != self.observer:
            raise ValueError(f"{type(self).__name__} tells observer {self.observer}, got an event for "
                             f"{event.audience}")
        view: V = event.view
        if event.actor is None:  # a sync: nothing to tell, the view is where the story goes on from
            self.prev = view
            return
        action = None if event.action is None else self.table.read_action(event.action)
        prev, self.prev = self.prev, view
        self.narrate(prev, view, event.actor, action)

    def step(self, state: GameState[Any, Any], actor: int, action: Action) -> None:
        """Narrate a step of a state driven by hand (tests), told the action whatever the observer may know:
        the narrator must keep it secret itself. Matches are narrated from events (:meth:`hear`)."""
        action_type = self.table.action_type
        if not isinstance(action, action_type):
            raise TypeError(f"{type(self).__name__} narrates a {action_type.__name__}, got {type(action).__name__}")
        view: V = state.view(self.observer)
        prev, self.prev = self.prev, view
        self.narrate(prev, view, actor, action)

    def finish(self, view: V) -> None:
        outcome = view.outcome
        if outcome is None:
            raise ValueError(f"{type(self).__name__}.finish needs the view of a match that is over")
        self.table.leave_private()  # the end is for everyone, on the main screen
        self.table.console.print()
        self.show_result(view, outcome)
        if self.observer is not None:
            self.table.console.print(Text(self.outcome_line(outcome, self.observer), style="bold"))
