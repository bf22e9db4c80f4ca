"""What the terminal shows fits and reads in order: both games at 80×24 (hot-seat news included, the whole board
one ``?`` away), the draft's characters once with numbers that stay, a public draft without hand-overs, whole card
frames, a placement menu numbered in reading order, and in Duals what changed on the board since the player's last
turn."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from flametable.cli.i18n import set_language
from flametable.cli.playing import MakeNarrator
from flametable.cli.table import Table
from flametable.core.rng import Rng
from flametable.games.duals.actions import Kind as DualsKind
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import Step
from flametable.games.duals.tui import DualsNarrator, DualsTable
from flametable.games.duel.game import DuelGame
from flametable.service import Applied, Decider
from tests.cli.conftest import Cli


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def rendered(renderable: object, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text


def test_a_public_draft_needs_no_hand_over_in_hot_seat(cli: Cli) -> None:
    """R2: draft picks are public, so both players may watch them: the keyboard is handed over only once the
    line-up (secret) begins."""
    picks = "1\n2\n3\n4\n5\n6\n"  # by card number, in turn
    result = cli("play", "duel", "--p1", "human", "--p2", "human", "--pick", "draft", "--seed", "4", "--lang", "en",
                 input=picks + "\n1\n" * 200)
    assert result.exit_code == 0
    draft, _, rest = result.output.partition("Pass the keyboard to Player 1")
    assert len(re.findall(r"Player \d picks C\d+", draft)) == 6  # the whole draft, and no hand-over
    assert "Flame Duel · Line-up" not in draft
    assert "Flame Duel · Line-up" in rest


def test_every_card_frame_shows_its_whole_vp(cli: Cli) -> None:
    """``cards duals``: each card's frame is wide enough for its title and its VP (the triangles K7-K9 too)."""
    result = cli("cards", "duals", "--lang", "en", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    bottoms = [line for line in result.output.splitlines() if "╰" in line]
    frames = [frame for line in bottoms for frame in re.findall(r"╰[^╯]*╯", line)]
    assert len(frames) >= 40
    for frame in frames:
        assert re.fullmatch(r"╰─+ \d+ VP ─╯", frame), frame
    for card in ("K7", "K8", "K9"):
        assert f"╭─ {card} ─" in result.output


def test_the_placement_menu_reads_in_order() -> None:
    """Many places to put a token go in columns, numbered left to right and row after row."""
    game = DualsGame()
    table = DualsTable(Console(), game, ["human", "bot:random"])
    view = game.new_match({}, 3).view(0)
    places = [a for a in view.legal if a.kind is DualsKind.PLACE]
    assert len(places) > 8
    text = rendered(table.menu(0, view))
    grid = text[text.index("Place "):]
    numbers = [int(n) for n in re.findall(r"(\d+)\. [a-e]\d", grid)]
    assert numbers == sorted(numbers)
    assert len(numbers) == len(places)
    assert all(len(line) <= 80 for line in text.splitlines())


def test_a_duals_player_sees_what_changed_on_the_board_since_its_last_turn() -> None:
    """At the start of each of its turns, a player sees which spaces changed since the end of its last move (the
    other player's turn), marked on the board and named under it."""
    game = DualsGame()
    state = game.new_match({}, 3)
    table = DualsTable(Console(), game, ["human", "bot:random"])
    narrator = DualsNarrator(table, 0, state.view(0))
    rng = Rng(2)
    left: tuple[tuple[int, ...], ...] | None = None  # the board after my last move
    my_turn = -1
    checked = 0
    while state.to_act is not None:
        seat = state.to_act
        view = state.view(seat)
        if seat == 0 and left is not None:
            text = rendered(table.board(view))
            if view.turn_number != my_turn:
                changed = [game.data.board.names[s] for s, stack in enumerate(view.board) if stack != left[s]]
                if changed:
                    assert f"Changed since your last turn (marked +): {', '.join(changed)}" in text
                    for space in changed:
                        assert re.search(rf"\+{space} ", text), space
                    checked += 1
                else:
                    assert "The board has not changed since your last turn." in text
            else:  # the same turn goes on: nothing to tell
                assert "since your last turn" not in text
        action = view.legal[rng.below(len(view.legal))]
        before = state.view(None)
        state.apply(action)
        narrator.step(state, seat, action)
        if seat == 0:
            left, my_turn = state.view(None).board, before.turn_number
    assert checked >= 3


def screens_of(monkeypatch: pytest.MonkeyPatch, table: Table[Any, Any], state: Any, specs: Sequence[str], seed: int,
               pick: Callable[[int], int], narrator: MakeNarrator | None = None) -> list[tuple[Any, str]]:
    """Each view a human seat of ``table`` chooses from, and what it is shown then (on the table's console),
    from the blank line before the board (after a hot-seat hand-over: from the top of the player's own screen) to
    the prompt; a human takes option ``pick(number of options)`` (typed in its notation), the others are bots.
    With a ``narrator``, the match is told as at the terminal: in hot-seat, a player back at the keyboard has
    news."""
    from flametable.cli import table as table_module
    from flametable.cli.seats import bot_decider
    from flametable.service import MatchService, run

    console = table.console
    game = table.game
    screens: list[tuple[Any, str]] = []
    answer = [""]
    seen: list[Any] = [None]

    def human(seat: int) -> Decider:
        ask = table.decider(seat)

        def decide(view: Any, legal: Sequence[Any]) -> Any:
            answer[0], seen[0] = legal[pick(len(legal))].text(), view
            return ask(view, legal)

        return decide

    def forget() -> None:
        console.file.seek(0)
        console.file.truncate()

    def read(console: Console, prompt: str, tr: object = None) -> str:
        if prompt.endswith(". "):  # the hot-seat hand-over ("press Enter when ready."): the player's screen begins
            forget()
            return ""
        assert answer[0], f"the answer was not taken: {console.file.getvalue()}"  # type: ignore[attr-defined]
        screens.append((seen[0], console.file.getvalue() + prompt))  # type: ignore[attr-defined]
        forget()
        typed, answer[0] = answer[0], ""
        return typed

    monkeypatch.setattr(table_module, "read_line", read)
    deciders = [human(seat) if spec == "human" else bot_decider(spec, game, seed, seat) for seat, spec in
                enumerate(specs)]
    match = MatchService(game, state, None)
    teller = narrator(table, table.me, match.view(table.me)) if narrator is not None else None

    def listen(applied: Applied) -> None:  # what is told before the next screen is not part of it
        if teller is not None:
            teller.hear(applied.to(table.me))
        forget()

    run(match, deciders, listen=listen)
    return screens


def screens_of_a_duel(monkeypatch: pytest.MonkeyPatch, options: dict[str, str], seed: int, lang: str = "en",
                      height: int = 24) -> list[str]:
    """What Player 1 (human, against a bot) is shown before each of its choices on an 80-column terminal of
    ``height`` lines, from the blank line before the board to the prompt; it always takes its first option."""
    from flametable.games.duel.tui import DuelTable

    set_language(lang)
    game = DuelGame()
    console = Console(file=io.StringIO(), width=80, height=height, color_system=None)
    specs = ["human", "bot:random"]
    return [screen for _view, screen in screens_of(monkeypatch, DuelTable(console, game, specs),
                                                   game.new_match(options, seed), specs, seed, lambda n: 0)]


@pytest.mark.parametrize(("options", "lang"), [({}, "en"), ({"pick": "draft"}, "es"), ({"mode": "decks"}, "en")])
def test_the_duel_fits_an_80_by_24_terminal(monkeypatch: pytest.MonkeyPatch, options: dict[str, str],
                                            lang: str) -> None:
    """At 80×24 every screen a player chooses from (the board, the options, the hint and the prompt) fits: in a
    round, both players' characters stay in view; the whole board is one ``?`` away."""
    for seed in range(3):
        screens = screens_of_a_duel(monkeypatch, options, seed, lang)
        assert screens
        for screen in screens:
            lines = screen.splitlines()
            assert len(lines) <= 24, screen
            assert all(len(line) <= 80 for line in lines)
        names = ("Player 2 (bot:random)", "Jugador 2 (bot:random)")
        in_round = [s for s in screens if "Round wins" in s or "Rondas ganadas" in s]
        assert in_round
        for screen in in_round:  # both players side by side
            assert any(name in screen for name in names)


def test_a_big_terminal_shows_the_whole_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room enough, the board keeps the cards' texts and the characters' abilities."""
    screens = screens_of_a_duel(monkeypatch, {}, 1, height=80)
    assert any("Abilities in play:" in s for s in screens)
    assert any("Your hand" in s and "Equips to" in s for s in screens)


def test_the_draft_lists_each_character_once_picked_by_its_own_number(cli: Cli, tmp_path: Path) -> None:
    """The draft shows the free characters once (not again as a menu), and a character is picked by its card
    number, which stays the same from one pick to the next."""
    record = tmp_path / "draft.json"
    result = cli("play", "duel", "--pick", "draft", "--seed", "4", "--lang", "en", "--record", str(record),
                 input="30\n31\n32\n")
    first_screen = result.output[:result.output.index("your choice:")]
    assert first_screen.count("Smudge the Sweep") == 1
    game = DuelGame()
    state = game.new_match({"pick": "draft"}, 4)
    mine = []
    for notation in json.loads(record.read_text(encoding="utf-8"))["actions"]:
        if state.to_act == 0:
            mine.append(notation)
        state.apply(game.action_from_text(notation))
    assert mine == ["pick C30", "pick C31", "pick C32"]


def screens_of_duals(monkeypatch: pytest.MonkeyPatch, seed: int, lang: str, buddy: bool = False,
                     specs: Sequence[str] = ("human", "bot:random"), height: int = 24) -> list[tuple[Any, str]]:
    """Each view a human seat chooses from in a Duals match on an 80-column terminal of ``height`` lines, told as
    at the terminal, and the screen it is shown then; a human takes options at random."""
    set_language(lang)
    game = DualsGame()
    console = Console(file=io.StringIO(), width=80, height=height, color_system=None)
    table = DualsTable(console, game, specs, buddy)
    return screens_of(monkeypatch, table, game.new_match({"buddy": buddy}, seed), specs, seed, Rng(seed).below,
                      DualsNarrator)


def fits_80_by_24(screen: str) -> bool:
    lines = screen.splitlines()
    return len(lines) <= 24 and all(len(line) <= 80 for line in lines)


def test_duals_fits_an_80_by_24_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80×24 every screen a Duals player chooses from (the board, the options, the hint and the prompt) fits,
    whatever the decision (a place among 19 spaces, FIRE UP, moves, swaps, the plant, the crystal's take, SCORE,
    the coin's cards, the last chance), in English and Spanish, with Buddy too; it keeps the board's stacks, both
    seats' VP, the bag and the hand."""
    decisions: set[object] = set()
    for seed, lang, buddy in ((0, "en", False), (1, "es", True), (2, "en", False), (3, "es", False)):
        for view, screen in screens_of_duals(monkeypatch, seed, lang, buddy):
            assert fits_80_by_24(screen), screen
            decisions.add("last chance" if view.last_chance else view.phase)
            assert sum(f"{name} " in screen for name in view.data.board.names) == 19  # every space of the board
            assert screen.count(" VP" if lang == "en" else " PV") >= 2 + len(view.hand)  # both seats, each card
            assert ("Bag: " if lang == "en" else "Bolsa: ") in screen
    assert decisions >= {*Step, "last chance"} - {Step.OVER}, decisions


def test_the_whole_duals_board_is_one_question_mark_away(cli: Cli) -> None:
    """At 80×24 the Duals board is compact (no legend, the bag's count alone); ``?`` shows the whole board (the
    legend, the bag's contents, the hand's cards framed) and every option numbered."""
    result = cli("play", "duals", "--seed", "4", "--lang", "en", input="?\nquit\n",
                 env={"COLUMNS": "80", "LINES": "24"})
    first, _, after = result.output.partition("your choice: ?")
    assert "?: the whole board" in first
    assert "Tokens:" not in first
    assert "Bag: 29 tokens ·" in first
    assert "Tokens:" in after
    assert "Bag: 29 tokens (B4 C4" in after
    assert "Your hand (cards are turned as you like, never flipped):" in after
    assert re.search(r" 2\. a1 +3\. a2", after)


def test_a_hot_seat_players_news_is_cut_to_fit_the_screen() -> None:
    """After a hot-seat hand-over, the news since the player's last turn comes with its board: when all of it
    does not fit on the 80×24 screen, its last events are shown, under a title that says how many earlier ones
    the log keeps; a short news is shown whole."""
    game = DualsGame()
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    table = DualsTable(console, game, ["human", "human"])
    view = game.new_match({}, 3).view(0)
    for told in (30, 2):
        news = [Text(f"Event {n} of the other player's turn.") for n in range(1, told + 1)]
        screen, compact = table.screen(0, view, news)
        assert compact
        text = rendered(screen)
        assert fits_80_by_24("\n" + text + "Player 1, your choice: "), text  # the blank line before, the prompt
        shown = [int(n) for n in re.findall(r"Event (\d+) ", text)]
        earlier = re.search(r"Since your last turn \((\d+) earlier events: type log to read them\):", text)
        if told == 2:
            assert earlier is None
            assert "Since your last turn:" in text
            assert shown == [1, 2]
        else:
            assert earlier is not None
            assert shown == list(range(int(earlier[1]) + 1, told + 1))
            assert shown


def test_hot_seat_duals_fits_an_80_by_24_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """In hot-seat, every screen a player chooses from fits at 80×24, the news since its last turn included."""
    screens = screens_of_duals(monkeypatch, 5, "en", specs=("human", "human"))
    for _view, screen in screens:
        assert fits_80_by_24(screen), screen
    assert sum("Since your last turn" in screen for _view, screen in screens) > 5
    assert any("earlier events: type log" in screen for _view, screen in screens)
