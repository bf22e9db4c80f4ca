"""The terminal's narration is made from the match service's events for its observer: a secret action of the
other player is told only as the kind of decision it was (R3, R14, D10), and the player's own is named."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from flametable.bots.base import RandomBot
from flametable.cli.i18n import set_language
from flametable.games.duals.game import DualsGame
from flametable.games.duals.tui import DualsNarrator, DualsTable
from flametable.games.duel.game import DuelGame
from flametable.games.duel.tui import DuelTable, Narrator
from flametable.service import Applied, MatchService, run


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def narrate(table: DuelTable | DualsTable, narrator_class: type, match: MatchService, observer: int | None,
            seed: int) -> str:
    narrator = narrator_class(table, observer, match.view(observer))
    narrator.start()

    def listen(applied: Applied) -> None:
        narrator.hear(applied.to(observer))

    run(match, [RandomBot(seed).choose, RandomBot(seed + 1).choose], listen=listen)
    text: str = table.console.file.getvalue()  # type: ignore[attr-defined]
    return text


def console() -> Console:
    return Console(file=io.StringIO(), width=200, color_system=None)


def test_a_duel_line_up_is_told_without_the_character_to_the_other_player() -> None:
    """R3: seat 1 hears that Player 1 lined up a character, never which one; its own picks it hears by name."""
    game = DuelGame()
    match = MatchService.new(game, {}, 12, ["bot:random", "human"])
    text = narrate(DuelTable(console(), game, ["bot:random", "human"]), Narrator, match, 1, 3)
    assert match.record is not None
    state, theirs = game.new_match({}, 12), 0
    for notation in match.record.actions:  # who lined up what
        theirs += state.to_act == 0 and notation.startswith("line ")
        state.apply(game.action_from_text(notation))
    assert theirs > 0
    assert text.count("Player 1 (bot:random) lines up a character.") == theirs
    assert not re.search(r"Player 1 \(bot:random\) lines up C\d", text)
    assert re.search(r"Player 2 \(you\) lines up C\d+ ", text)


def test_a_duals_card_put_back_is_told_without_the_card_to_everyone_else() -> None:
    """D10: the spectators hear that a card went under the deck, never which."""
    game = DualsGame()
    match = MatchService.new(game, {}, 4, ["bot:random", "bot:random"])
    text = narrate(DualsTable(console(), game, ["bot:random", "bot:random"]), DualsNarrator, match, None, 7)
    assert match.record is not None
    put_back = [a for a in match.record.actions if a.startswith("bottom ")]
    assert put_back, "the seed should make a bot spend a coin"
    assert text.count("puts a card at the bottom of the deck.") == len(put_back)
    assert "at the bottom of the deck." in text
    assert not re.search(r"puts K\d+ at the bottom", text)


def test_the_narrator_hears_only_its_observers_events() -> None:
    game = DuelGame()
    match = MatchService.new(game, {}, 1, ["bot:random", "bot:random"])
    narrator = Narrator(DuelTable(console(), game, ["bot:random", "bot:random"]), None, match.view(None))
    applied = match.submit(0, match.legal(0)[0])
    with pytest.raises(ValueError, match="Narrator tells observer None, got an event for 0"):
        narrator.hear(applied.to(0))
    narrator.hear(applied.to(None))
    narrator.hear(match.sync(None))  # a resync only moves the story on
    assert narrator.prev == match.view(None)
