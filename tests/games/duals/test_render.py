"""Flamecraft Duals on screen: built from a seat's view; the hex board, stacks, patterns, menus and words."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console

from flametable.cli.i18n import set_language
from flametable.cli.table import seat_names
from flametable.core.rng import Rng
from flametable.games.duals import render as duals_render
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import Reason, Step
from flametable.games.duals.state import DualsState
from flametable.games.duals.texts import DualsWords, describe_option, describe_public, outcome_text, short_option
from flametable.games.duals.tui import DualsNarrator, DualsTable, parse_choice
from flametable.texts.translator import Translator

GAME = DualsGame()
EN = Translator.for_language("en")
WORDS = DualsWords(EN, GAME.data)
NAMES = ("Player 1", "Player 2")


@pytest.fixture(autouse=True)
def english() -> Any:
    set_language("en")
    yield
    set_language("en")


def _render(renderable: object, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def _setup(**setup: Any) -> DualsState:
    base: dict[str, Any] = {"deck": list(range(20, 40)), "hands": [[1, 7], [2, 8]], "coins": [0, 0]}
    base.update(setup)
    return GAME.new_match({}, 0, setup=base)


def _cards(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\bK(\d+)\b", text)}


@pytest.mark.parametrize(("lang", "seed"), [("en", 0), ("es", 1)])
def test_every_board_renders_and_hides_what_it_must(lang: str, seed: int) -> None:
    """A random match (Buddy variant in Spanish): boards and menus render in every phase, every legal action
    has words, and the other seat's hand never reaches the screen (only cards this seat may know appear).
    Rendering is slow, so a board is drawn at every new phase and every third decision."""
    set_language(lang)
    tr = Translator.for_language(lang)
    words = DualsWords(tr, GAME.data)
    names = seat_names(["human", "bot:random"], 0)
    table = DualsTable(Console(file=io.StringIO(), width=100), GAME, ["bot:random", "bot:random"], tr=tr)
    phases = set()
    state = GAME.new_match({"buddy": seed == 1}, seed)
    narrator = DualsNarrator(table, None, state.view(None))
    narrator.start()
    rng = Rng(seed)
    step = 0
    while state.to_act is not None:
        seat = state.to_act
        view = state.view(seat)
        for a in view.legal:
            assert describe_option(a, view, words).plain
            assert short_option(a, view, words).plain
        if view.phase not in phases or step % 3 == 0:
            phases.add(view.phase)
            text = _render(duals_render.board(view, words, names)) + _render(duals_render.menu(view, words))
            known = {*view.hand, *(c for s in view.seats for c in s.pile), *(c for c, _ in view.bottom_known)}
            assert _cards(text) <= known
        action = view.legal[rng.below(len(view.legal))]
        state.apply(action)
        narrator.step(state, seat, action)
        step += 1
    final = _render(duals_render.board(state.view(0), words, names))
    assert "Flamecraft Duals" in final
    assert {Step.PLACE, Step.FIRE, Step.SCORE, Step.BOTTOM} <= phases
    log = table.console.file.getvalue()  # type: ignore[attr-defined]
    assert ("Final count" if lang == "en" else "Recuento final") in log


def test_hex_board_layout_and_stacks() -> None:
    """Rows a-e top to bottom, offset by half a space; stacks bottom first, the top token in capitals."""
    state = _setup(board={"c3": ["bread", "meat", "iron+potion"], "a1": ["plant"], "e3": ["crystal"]}, bag=["potion"])
    view = state.view(0)
    lines = [line for line in _render(duals_render.hex_board(view, WORDS)).splitlines() if line.strip()]
    assert len(lines) == 5
    assert [re.findall(r"\b([a-e]\d)\b", line) for line in lines] == [
        ["a1", "a2", "a3"], ["b1", "b2", "b3", "b4"], ["c1", "c2", "c3", "c4", "c5"], ["d1", "d2", "d3", "d4"],
        ["e1", "e2", "e3"]]
    assert "c3 b·m·IP" in lines[2]
    assert "a1 L" in lines[0]
    assert "c4 ·" in lines[2]
    col = {name: line.index(name) for line in lines for name in re.findall(r"\b([a-e]\d)\b", line)}
    step = col["c4"] - col["c3"]
    assert col["b3"] - col["b2"] == step
    assert col["b2"] - col["c2"] == col["c3"] - col["b2"] == step // 2  # a hex grid: neighbours half a space apart
    assert col["c3"] == col["a2"] == col["e2"]  # the centre column


def test_firing_token_is_marked() -> None:
    state = _setup(board={"c2": ["bread"]}, bag=["potion"])
    state.apply(GAME.action_from_text("place c3"))
    view = state.view(0)
    assert view.phase is Step.FIRE
    assert "»c3 P" in _render(duals_render.hex_board(view, WORDS))
    decision = duals_render.decision(view, WORDS, NAMES).plain
    assert decision == "Player 1: FIRE UP P potion on c3, or not."


def test_pattern_sketches() -> None:
    line = duals_render.pattern_sketch(GAME.data.card(1).cells, WORDS).plain
    triangle = duals_render.pattern_sketch(GAME.data.card(9).cells, WORDS).plain
    starburst = duals_render.pattern_sketch(GAME.data.card(43).cells, WORDS).plain
    assert line == "B B B"
    assert triangle.splitlines() == ["M M", " M"]
    assert starburst.splitlines() == ["1 2", " 3"]
    panel = _render(duals_render.card_panel(43, WORDS, True, "c2 c3 d2"))
    assert "K43 STARBURST" in panel
    assert "5 VP" in panel
    assert "three different types" in panel
    assert "coins are worth 0" in panel
    assert "matches now" in panel


def test_hand_shows_matching_cards_and_where() -> None:
    state = _setup(board={"c1": ["bread"], "c2": ["bread"], "c3": ["meat+bread"]}, bag=["potion"])
    view = state.view(0)
    assert view.matching == (1,)
    text = _render(duals_render.hand(view, WORDS))
    assert "K1 " in text
    assert "K7 " in text
    assert text.count("matches now") == 1
    assert "on c1 c2 c3" in text
    assert "does not match now" in text


def test_supply_seats_and_notices() -> None:
    state = _setup(board={"c3": ["bread"]}, bag=["potion", "meat", "meat+bread"], reserve=["iron"],
                   scores=[[43], [12]], coins=[2, 1])
    view = state.view(0)
    supply = duals_render.supply(view, WORDS).plain
    assert supply.startswith("Bag: 2 tokens (M1 MB1)")  # the turn drew the potion
    assert "Reserve: I" in supply
    assert "Shop deck: 20 cards" in supply
    seats = _render(duals_render.seats_table(view, WORDS, NAMES))
    assert "K43 STARBURST (5 VP)" in seats
    assert "K12 (3 VP)" in seats
    points = next(line for line in seats.splitlines() if line.startswith("VP now"))
    assert points.split()[-2:] == ["5", "4"]  # STARBURST: coins worth 0 (D9)


def test_last_chance_and_end_notices() -> None:
    state = _setup(bag=["potion"], deck=[], hands=[[1], [2]], coins=[0, 1])
    assert "The end is triggered" in _render(duals_render.board(state.view(0), WORDS, NAMES))  # the bag is empty
    state.apply(GAME.action_from_text("place c3"))  # potion has nothing to swap: the turn goes on to SCORE
    view = state.view(1)
    assert view.last_chance
    assert "LAST CHANCE for Player 2" in _render(duals_render.board(view, WORDS, NAMES))
    assert describe_option(view.legal[0], view, WORDS).plain == "Finish: the match ends"


def test_menu_numbers_follow_the_legal_order() -> None:
    state = _setup(board={"c3": ["meat"], "b2": ["bread"], "b3": ["crystal"], "c4": ["iron"]}, bag=["potion"])
    state.apply(GAME.action_from_text("place c2"))
    state.apply(GAME.action_from_text("fire potion"))
    view = state.view(0)
    assert view.phase is Step.POTION
    text = _render(duals_render.menu(view, WORDS))
    numbers = [int(n) for n in re.findall(r"(\d+)\. ", text)]
    assert sorted(numbers) == list(range(1, len(view.legal) + 1))
    for n, action in enumerate(view.legal, 1):
        a, b = (GAME.data.board.names[x] for x in (action.a, action.b))
        assert re.search(rf"\b{n}\. \S+ {a}⇄{b} ", text), (n, action)


def test_parse_choice() -> None:
    state = _setup(bag=["potion"])
    legal = state.view(0).legal
    assert parse_choice("1", legal, GAME) == legal[0]
    assert parse_choice("PLACE C3", legal, GAME) == GAME.action_from_text("place c3")
    assert parse_choice("c3", legal, GAME) == GAME.action_from_text("place c3")
    assert "There is no option 99" in str(parse_choice("99", legal, GAME))
    assert parse_choice("score K1", legal, GAME) == "score K1 is not one of your options now."
    assert parse_choice("place z9", legal, GAME) == "There is no space 'z9' on the board."
    set_language("es")
    assert parse_choice("0", legal, GAME) == f"No hay opción 0: escribe un número del 1 al {len(legal)}."


def test_narration_hides_the_card_put_back() -> None:
    state = _setup(bag=["potion"], coins=[1, 0])
    before = state.view(None)
    state.apply(GAME.action_from_text("coin"))
    after = state.view(None)
    action = state.view(0).legal[0]
    assert after.phase is Step.BOTTOM
    state.apply(action)
    public = describe_public("Player 1", action, after, WORDS).plain
    assert public == "Player 1 puts a card at the bottom of the deck."
    own = describe_public("Player 1", action, after, WORDS, own=True).plain
    assert own == f"Player 1 puts K{action.a} at the bottom of the deck."
    assert describe_public("Player 1", GAME.action_from_text("place c3"), before, WORDS).plain == \
        "Player 1 places P potion on c3."


def _finish(state: DualsState) -> DualsState:
    while state.to_act is not None:
        state.apply(GAME.action_from_text("done"))
    return state


@pytest.mark.parametrize(
    ("scores", "coins", "reason", "text"),
    [
        ([[1], [13]], [0, 0], Reason.MOST_VP, "Player 1 wins with 3 VP against 2."),
        ([[1], [13, 14]], [0, 0], Reason.MOST_VP, "Player 2 wins with 4 VP against 3."),
        ([[13, 14], [43]], [1, 3], Reason.MORE_CARDS, "Equal on 5 VP: Player 1 wins with more scored cards (2 "
                                                     "against 1)."),
        ([[1], [2]], [1, 1], Reason.SHARED, "Shared victory: 4 VP and 1 scored card each."),
    ],
)
def test_outcome_words(scores: list[list[int]], coins: list[int], reason: Reason, text: str) -> None:
    """D9: most VP; equal, more scored cards; equal again, a shared victory."""
    state = _finish(_setup(scores=scores, coins=coins, hands=[[], []], deck=[]))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason == reason
    view = state.view(None)
    assert outcome_text(EN, outcome, view, NAMES) == text
    final = _render(duals_render.final_table(view, WORDS, NAMES))
    assert "Victory points" in final
    if reason is Reason.MORE_CARDS:
        assert "3 × 0 (STARBURST)" in final  # at most 3 coins (setup step 2), worth 0 with STARBURST (D9)
