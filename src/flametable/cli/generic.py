"""Terminal play for any game of the core protocol, in plain notation (``flametable play NAME`` for a game
whose registry entry brings no play command of its own).

The board is the seat's view printed as text, the menu the legal actions as numbered notations; a player types
a number or a notation. A game's own ``table`` and ``narrator`` pieces (:mod:`flametable.core.registry`), when
it has them, replace the plain ones here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from flametable.bots.registry import HUMAN, bot_names
from flametable.cli.console import fail
from flametable.cli.i18n import _, explain, translate, translator
from flametable.cli.options import json_options
from flametable.cli.playing import match_console, match_seed, only_resume, open_match, play_at_table
from flametable.cli.seats import seat_message
from flametable.cli.table import Table, TableNarrator, parse_notation, parse_number
from flametable.core.errors import DataError, FlametableError
from flametable.core.outcome import Outcome
from flametable.core.protocol import Action
from flametable.core.registry import GameEntry, NoDataFile
from flametable.service.driver import Decider
from flametable.service.events import Event
from flametable.texts.log import action_line, outcome_line, result_line
from flametable.texts.plain import view_text


@dataclass(frozen=True)
class Seen:
    """What a human seat is shown when it must decide: its view and its legal actions."""

    view: Any
    legal: Sequence[Action]
    outcome: Outcome | None = None


class PlainTable(Table[Seen, Action]):
    """Any game at one terminal: the view as text, the options as numbered notations."""

    view_type = Seen
    action_type = Action  # a runtime-checkable protocol: anything with an id and a notation

    def __init__(self, console: Console, game: Any, specs: Sequence[str]) -> None:
        super().__init__(console, specs)
        self.game = game

    def decider(self, seat: int) -> Decider:
        """A human seat's decider: it reads the legal actions it is given, whatever the game's view holds."""

        def decide(view: Any, legal: Sequence[Action]) -> Action:
            return self.ask(seat, Seen(view, list(legal)))

        return decide

    def board(self, view: Seen) -> RenderableType:
        return Text(view_text(view.view))

    def menu(self, seat: int, view: Seen) -> RenderableType:
        lines = [Text(_("Your options:"), style="bold")]
        lines += [Text(f"  {n}. {action.text()}") for n, action in enumerate(view.legal, 1)]
        return Text("\n").join(lines)

    def parse(self, text: str, legal: Sequence[Action]) -> Action | str:
        picked = parse_number(text, legal)
        if picked is not None:
            return picked
        try:
            return parse_notation(text, legal, self.game.action_from_text)
        except (ValueError, KeyError):  # a game that says so otherwise than with IllegalAction
            return _("Cannot read the action {text!r}.").format(text=text)


class PlainNarrator(TableNarrator[PlainTable, Any, Action]):
    """Tells what each seat played, in notation, and the result; a spectator also sees each view as text."""

    def start(self) -> None:
        if self.observer is None:
            self.table.tell(Text(view_text(self.prev), style="dim"))

    def narrate(self, prev: Any, view: Any, actor: int, action: Action | None) -> None:
        if action is None or actor != self.observer:  # None: the game does not say this action is public
            self.table.tell(Text(action_line(translator(), self.table.names[actor], action)))

    def hear(self, event: Event) -> None:
        super().hear(event)
        if event.result is not None:  # the outcome comes with the event: a plain view need not hold it
            self._show_end(event.view, event.result)

    def show_result(self, view: Any, outcome: Outcome) -> None:
        self._show_end(view, outcome.to_json(), final_line=False)

    def _show_end(self, view: Any, result: dict[str, Any], final_line: bool = True) -> None:
        """The last view and the result (``Outcome.to_json``'s form), and the observer's own line."""
        console = self.table.console
        console.print()
        console.print(Text(view_text(view)))
        winner = result["winner"]
        console.print(Text(result_line(translator(), winner, result["reason"], result["scores"], self.table.names),
                           style="bold"))
        if final_line and self.observer is not None:
            console.print(Text(outcome_line(translator(), winner, self.observer), style="bold"))

    def outcome_line(self, outcome: Outcome, seat: int) -> str:
        return outcome_line(translator(), outcome.winner, seat)


def known_seats(game: Any) -> str:
    return ", ".join([HUMAN, *(f"bot:{name}" for name in bot_names(game))])


def check_seat(spec: str, game: Any) -> str | None:
    """``None`` when ``spec`` can play ``game``, else a translated message naming the seats that can."""
    return seat_message(spec, game, _("Unknown seat {spec!r} (known: {known}).").format(
        spec=spec, known=known_seats(game)))


def make_game_or_fail(entry: GameEntry, data: Path | None) -> Any:
    """The game of ``entry`` with the data file ``data``; exit 1 (2 for a file a game without data refuses)
    saying what is wrong."""
    try:
        return entry.make(data)
    except NoDataFile as exc:
        fail(exc.translated(translate), 2)
    except DataError as exc:
        fail(_("Bad data file: {error}").format(error=explain(exc)))
    except FlametableError as exc:  # a plug-in's game that cannot be loaded: say which piece and why
        fail(explain(exc))


def run_plain(entry: GameEntry, seats: tuple[str, str], seed: int | None, options_text: str | None,
              data: Path | None, record_to: Path | None, as_json: bool, resume: Path | None = None) -> None:
    """Play a match of ``entry``'s game at the terminal with the plain (or the game's own) table; with
    ``resume``, go on with the unfinished match of that record."""
    game = make_game_or_fail(entry, data)
    if resume is not None:
        only_resume(seats, seed, {"--options": bool(options_text)})

    def start_new() -> tuple[Any, Any, int]:
        options = json_options(options_text)
        match = match_seed(seed)
        try:
            state = game.new_match(options, match)
        except (FlametableError, ValueError, TypeError) as exc:  # a bad option value: the game names it
            fail(_("Bad options: {error}").format(error=explain(exc)), 2)
        return state, options, match

    record, state, record_to, notes = open_match(game, resume=resume, seats=seats, save_to=record_to,
                                                 check=check_seat, start_new=start_new)
    seats, options, match = (record.players[0], record.players[1]), record.options, record.seed
    table_class = entry.piece("table") or PlainTable
    narrator_class = entry.piece("narrator") or PlainNarrator
    table = table_class(match_console(as_json), game, seats)
    title = _("{game}: {first} against {second}. Seed {seed} (play it again with --seed {seed}).").format(
        game=translate(entry.title), first=table.names[0], second=table.names[1], seed=match)
    play_at_table(table, narrator_class, game, state, record, title=title, notes=notes, save_to=record_to,
                  as_json=as_json, resumed=resume is not None, fields=lambda: {"seed": match, "options": options})
