"""Hot-seat at a real terminal: the program runs in a pseudo-terminal, and everything the terminal holds when a
player has the keyboard (the main screen with all its scrollback, and the alternate screen) shows nothing the
other player keeps secret: its hand, its face-down characters."""

from __future__ import annotations

import os
import re

import pytest

from flametable.core.i18n import pick
from flametable.games.duel.game import DuelGame
from flametable.games.duel.state import DuelState
from tests.cli.terminal import Program, Terminal, UnknownSequence

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pseudo-terminal on this system")


def duel_secrets(state: DuelState, seat: int) -> list[str]:
    """The cards ``seat`` keeps from the other player now, as shown on screen (the id and the first word of the
    name: ``C23 Will-o'-Wisp``; an id alone is also in public texts, ``Equips to: C23``): its hand (but cards
    taken back from the discard pile, which everyone saw) and its characters not flipped yet."""
    other = state.view(1 - seat).seats[seat]
    cards = state.cards
    hand = [f"S{s} {pick(cards.support(s).name, 'en').split()[0]}" for s in state.hands[seat]
            if s not in other.revealed]
    face_down = [f"C{c} {pick(cards.character(c).name, 'en').split()[0]}" for c in state.characters[seat]
                 if c not in other.known_characters and c != other.character]
    return hand + face_down


def shown(card: str, text: str) -> bool:
    number, word = card.split(" ", 1)
    return re.search(rf"\b{number}\s+{re.escape(word)}", text) is not None


@pytest.mark.parametrize("seed", [5, 11])
def test_the_next_player_can_read_nothing_of_the_other_players_secrets(seed: int) -> None:
    """At every prompt of a whole hot-seat duel, whatever the player at the keyboard could read at this terminal
    (the main screen with its scrollback, the alternate screen) names none of the other player's secret cards;
    and those cards were on the terminal, on their owner's own screen."""
    program = Program(["play", "duel", "--p1", "human", "--p2", "human", "--seed", str(seed), "--lang", "en"])
    state = DuelGame().new_match({}, seed)
    everything = ""  # all the program printed, on either screen
    checked = [0, 0]
    ever_secret: set[str] = set()
    try:
        while state.to_act is not None:
            prompt = program.wait_for("press Enter when ready.", "your choice: ")
            everything += program.recent
            if prompt != "your choice: ":
                program.type("\r")
                continue
            seat = state.to_act
            assert f"Player {seat + 1}, your choice: " in program.recent
            readable = program.terminal.readable()
            for card in duel_secrets(state, 1 - seat):
                ever_secret.add(card)
                assert not shown(card, readable), f"Player {seat + 1} can read {card} of the other player"
            checked[seat] += 1
            legal = state.view(seat).legal
            choice = sum(checked) % len(legal)  # varied choices: cards get played, not only passes
            state.apply(legal[choice])
            program.type(f"{choice + 1}\r")
        code = program.finish()
        everything += program.recent
    finally:
        program.kill()
    assert code == 0, everything[-2000:]
    assert checked[0] > 5
    assert checked[1] > 5
    assert ever_secret
    assert all(shown(card, everything) for card in ever_secret)
    assert not program.terminal.in_alt  # the terminal is back on its main screen
    main = program.terminal.main
    assert "wins the match" in main or "The match is a tie" in main  # the end is on the main screen


def test_the_terminal_keeps_the_main_screen_and_forgets_the_alternate_one() -> None:
    """The test terminal itself: the main screen keeps even what was cleared; the alternate screen keeps nothing
    once left; an unknown sequence is refused."""
    terminal = Terminal()
    terminal.feed(b"public\x1b[2J\x1b[Hstill there\r\n\x1b[?1049h\x1b[Hsecret S7")
    assert terminal.in_alt
    assert "secret S7" in terminal.readable()
    terminal.feed(b"\x1b[1mbold\x1b[0m\x1b[?10")
    terminal.feed(b"49lback")
    assert "public" in terminal.main
    assert "still there" in terminal.main
    assert "S7" not in terminal.readable()
    assert terminal.readable().endswith("back")
    with pytest.raises(UnknownSequence):
        terminal.feed(b"\x1b[3J")
