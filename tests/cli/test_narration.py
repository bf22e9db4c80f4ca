"""What the table tells, and what a board asks, in the moments that went untold: the engine's own moves (automatic
passes that end a round, a turn that ends by itself, a last chance with nothing to do), an ability clearing the
place, the player's own choices, the hands left at the end; and a Duals prompt that offers only what can be done."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

from flametable.cli.i18n import set_language
from flametable.cli.seats import bot_decider
from flametable.core.rng import Rng
from flametable.games.duals import render as duals_render
from flametable.games.duals.actions import Kind as DualsKind
from flametable.games.duals.game import DualsGame
from flametable.games.duals.rules import Step
from flametable.games.duals.state import DualsState
from flametable.games.duals.texts import DualsWords, step_lines
from flametable.games.duals.tui import DualsNarrator, DualsTable
from flametable.games.duals.view import DualsView
from flametable.games.duel.game import DuelGame
from flametable.games.duel.state import DuelState
from flametable.games.duel.tui import DuelTable, Narrator
from flametable.service import MatchService, run
from flametable.texts.translator import Translator
from tests.cli.conftest import BOTS, Cli

HUMAN_AND_BOT = ["human", "bot:random"]  # seat 0 is "you"


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def console() -> Console:
    return Console(file=io.StringIO(), width=250, color_system=None)


def told(table: DuelTable | DualsTable) -> str:
    text: str = table.console.file.getvalue()  # type: ignore[attr-defined]
    return text


def random_duel(seed: int, observer: int | None, specs: list[str]) -> tuple[DuelTable, list[Any]]:
    """A random Duel match narrated for ``observer``: the table and the actions played, as (seat, action)."""
    game = DuelGame()
    state = game.new_match({}, seed)
    table = DuelTable(console(), game, specs)
    narrator = Narrator(table, observer, state.view(observer))
    rng = Rng(seed)
    played = []
    while state.to_act is not None:
        seat = state.to_act
        legal = state.view(seat).legal
        action = legal[rng.below(len(legal))]
        state.apply(action)
        narrator.step(state, seat, action)
        played.append((seat, action))
    return table, played


def random_duals(seed: int) -> Iterator[tuple[DualsState, DualsView, DualsView, int, Any]]:
    """The steps of a random Duals match: (the state after, the spectators' views before and after, the actor,
    the action)."""
    state = DualsGame().new_match({}, seed)
    rng = Rng(seed)
    while state.to_act is not None:
        seat = state.to_act
        legal = state.view(seat).legal
        action = legal[rng.below(len(legal))]
        before = state.view(None)
        state.apply(action)
        yield state, before, state.view(None), seat, action


# ------------------------------------------------------------------ Flame Duel


def test_every_automatic_pass_is_told_also_those_that_end_a_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """R6: the engine passes for a player with no plays or no cards left; each of those passes is told, also
    when it ends the round (the round's log starts anew with the next round)."""
    finished_logs: list[list[Any]] = []
    end_round = DuelState._end_round

    def keep_log(state: DuelState) -> None:
        finished_logs.append(list(state.log))
        end_round(state)

    monkeypatch.setattr(DuelState, "_end_round", keep_log)
    for seed in range(4):
        finished_logs.clear()
        table, _ = random_duel(seed, None, ["bot:random", "bot:random"])
        automatic = sum(1 for log in finished_logs for _, action, auto in log if auto and action.text() == "pass")
        assert told(table).count("passes (no plays left or no cards).") == automatic, seed
    assert automatic


def test_the_place_leaving_the_table_is_told() -> None:
    """Will-o'-Wisp (and any ability that clears the place) sends the place to its owner's discard pile:
    everyone is told which card left the table."""
    game = DuelGame()
    cleared = 0
    for seed in range(60):
        state = game.new_match({}, seed)
        table = DuelTable(console(), game, ["bot:random", "bot:random"])
        narrator = Narrator(table, None, state.view(None))
        rng = Rng(seed)
        while state.to_act is not None:
            seat = state.to_act
            before = state.view(None)
            legal = state.view(seat).legal
            action = legal[rng.below(len(legal))]
            state.apply(action)
            start = len(told(table))
            narrator.step(state, seat, action)
            after = state.view(None)
            if before.place and not after.place:
                cleared += 1
                card = table.words.support(before.place)
                owner = table.names[before.place_owner or 0]
                assert f"The place {card} leaves the table for {owner}'s discard pile." in told(table)[start:]
        if cleared >= 2:
            break
    assert cleared >= 2


def test_a_duel_player_hears_its_own_choices() -> None:
    """The player's own plays are told back to it like anyone's, and its secret line-up picks by name (to it
    alone)."""
    table, played = random_duel(3, 0, HUMAN_AND_BOT)
    text = told(table)
    mine = [action for seat, action in played if seat == 0]
    lined = [action.arg for action in mine if action.text().startswith("line ")]
    plays = [action.arg for action in mine if action.text().startswith("play ")]
    assert lined
    assert plays
    for c in lined:
        assert f"Player 1 (you) lines up {table.words.character(c)}." in text
    for s in plays:
        assert f"Player 1 (you) plays {table.words.support(s)}" in text
    assert "Player 2 (bot:random) lines up a character." in text  # the other's stays secret


# ------------------------------------------------------------------ Flamecraft Duals


def test_a_duals_player_hears_its_own_choices() -> None:
    game = DualsGame()
    state = game.new_match({}, 4)
    table = DualsTable(console(), game, HUMAN_AND_BOT)
    narrator = DualsNarrator(table, 0, state.view(0))
    rng = Rng(4)
    placed = []
    while state.to_act is not None:
        seat = state.to_act
        legal = state.view(seat).legal
        action = legal[rng.below(len(legal))]
        if seat == 0 and action.kind is DualsKind.PLACE:
            placed.append(table.game.data.board.names[action.a])
        state.apply(action)
        narrator.step(state, seat, action)
    assert placed
    for space in placed:
        assert re.search(rf"Player 1 \(you\) places .* on {space}\.", told(table))


def test_a_turn_that_ends_by_itself_is_told() -> None:
    """When a player has nothing more to score and no coin to spend, the engine finishes the turn for them: the
    table says so (a ``done`` typed next would otherwise be a puzzle)."""
    game = DualsGame()
    table = DualsTable(console(), game, ["bot:random", "bot:random"])
    by_itself = 0
    for _, before, after, actor, action in random_duals(5):
        if after.turn_number == before.turn_number and after.outcome is None:
            continue
        lines = " ".join(line.plain for line in step_lines(before, after, actor, action, None, table.words,
                                                           table.names))
        ended_by_itself = not (action.kind is DualsKind.DONE and before.phase is Step.SCORE)
        by_itself += ended_by_itself
        assert ("has nothing more to score and" in lines and ": the turn ends." in lines) == ended_by_itself
    assert by_itself


def test_a_last_chance_with_nothing_to_do_is_told() -> None:
    """D8: when the other player's last chance has nothing to score and no coin, the engine skips it: the table
    says so before the end."""
    game = DualsGame()
    table = DualsTable(console(), game, ["bot:random", "bot:random"])
    skipped = 0
    for seed in range(40):
        for _, before, after, actor, action in random_duals(seed):
            if after.outcome is None:
                continue
            lines = " ".join(line.plain for line in step_lines(before, after, actor, action, None, table.words,
                                                               table.names))
            skip = "the last chance is skipped and the match ends." in lines
            assert skip == (not before.last_chance)
            skipped += skip
        if skipped:
            break
    assert skipped


def test_the_end_of_a_duals_match_shows_the_hands_left(cli: Cli) -> None:
    """Once the match is over, the final count shows the cards each player still held."""
    result = cli("play", "duals", *BOTS, "--seed", "6", "--lang", "en")
    assert result.exit_code == 0
    state = DualsGame().new_match({}, 6)
    match = MatchService(DualsGame(), state, None)
    run(match, [bot_decider("bot:random", DualsGame(), 6, seat) for seat in (0, 1)])
    words = DualsWords(Translator.for_language("en"), DualsGame().data)
    row = next(line for line in result.output.splitlines() if line.startswith("Cards left in hand"))
    for seat in (0, 1):
        for card in match.view(seat).hand:
            assert words.card(card) in row


def first_view(wanted: Any, seeds: range = range(30)) -> DualsView:
    """The first view (of the seat to act) met in random matches for which ``wanted(view)`` holds."""
    for seed in seeds:
        for state, _, _, _, _ in random_duals(seed):
            if state.to_act is not None:
                view = state.view(state.to_act)
                if wanted(view):
                    return view
    raise AssertionError("no such view in the random matches")


def asked(view: DualsView) -> str:
    words = DualsWords(Translator.for_language("en"), DualsGame().data)
    names = ("Player 1", "Player 2")
    out = Console(file=io.StringIO(), width=200, color_system=None)
    out.print(duals_render.header(view, words, names))
    out.print(duals_render.decision(view, words, names))
    text: str = out.file.getvalue()  # type: ignore[attr-defined]
    return " ".join(text.split())


def test_a_fire_up_that_cannot_be_skipped_is_not_offered_as_optional() -> None:
    """A token a plant uses must FIRE UP (no ``skip``): the prompt does not say "or not"."""
    view = first_view(lambda v: v.phase is Step.FIRE and not v.fire_optional)
    assert all(a.kind is not DualsKind.SKIP for a in view.legal)
    text = asked(view)
    assert "or not" not in text
    assert "the plant uses" in text
    optional = asked(first_view(lambda v: v.phase is Step.FIRE and v.fire_optional))
    assert "or not" in optional


def test_the_score_prompt_offers_a_coin_only_to_a_player_who_can_spend_one() -> None:
    view = first_view(lambda v: v.phase is Step.SCORE and v.seats[v.to_act].coins == 0 and not v.last_chance)
    assert all(a.kind is not DualsKind.COIN for a in view.legal)
    assert "coin" not in asked(view)
    with_coin = first_view(lambda v: v.phase is Step.SCORE and any(a.kind is DualsKind.COIN for a in v.legal))
    assert "spend a coin" in asked(with_coin)


@pytest.mark.parametrize(("lang", "done"), [("en", "done"), ("es", "terminar")])
def test_a_done_typed_at_the_start_of_a_turn_says_the_turn_has_just_begun(lang: str, done: str) -> None:
    """The player who types ``done`` at the start of a turn (often meant for a turn the engine already finished:
    nothing more to score, no coin) reads why it is not an option: this turn has just begun with a token to place.
    It claims nothing about the last turn (here there was none)."""
    from flametable.games.duals.texts import duals_commands
    from flametable.games.duals.tui import parse_choice

    game = DualsGame()
    tr = Translator.for_language(lang)
    commands = duals_commands(DualsWords(tr, game.data))
    view = game.new_match({}, 4).view(0)
    assert (view.phase, view.turn) == (Step.PLACE, 0)
    answer = parse_choice(done, view.legal, game, view, commands)
    assert isinstance(answer, str)
    expected = {"en": "This turn has just begun: there is nothing to finish yet.",
                "es": "Este turno acaba de empezar: todavía no hay nada que terminar."}
    assert answer.startswith(expected[lang])
