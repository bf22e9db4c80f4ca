"""The board of a seat is built from its view: it renders in every phase and shows no hidden card."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from flametable.cli.i18n import set_language
from flametable.cli.table import seat_names
from flametable.core.i18n import pick
from flametable.core.rng import Rng
from flametable.games.duel import render as duel_render
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase
from flametable.games.duel.texts import CardWords, describe_option
from flametable.games.duel.tui import DuelTable, Narrator
from flametable.texts.translator import Translator


def _render(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


@pytest.mark.parametrize(
    ("lang", "options"),
    [("en", {"mode": "shared"}), ("es", {"mode": "shared", "pick": "draft"}), ("en", {"mode": "decks"})],
)
def test_every_board_renders_and_hides_what_it_must(lang: str, options: dict[str, str]) -> None:
    set_language(lang)
    game = DuelGame()
    tr = Translator.for_language(lang)
    words = CardWords(tr, game.cards)
    names = seat_names(["human", "bot:random"], 0)
    table = DuelTable(Console(file=io.StringIO(), width=100), game, ["bot:random", "bot:random"], tr)
    phases = set()
    try:
        for seed in range(2):
            state = game.new_match(options, seed)
            narrator = Narrator(table, None, state.view(None))
            rng = Rng(seed)
            while state.to_act is not None:
                seat = state.to_act
                view = state.view(seat)
                phases.add(view.phase)
                text = _render(duel_render.board(view, words, names))
                for a in view.legal:
                    assert describe_option(a, words, view.seats[seat].character, len(view.lineup))
                other = 1 - seat
                if options["mode"] == "shared":  # in own decks both players may hold the same card number
                    for s in state.hands[other]:
                        if s not in view.seats[other].revealed:
                            assert pick(game.cards.support(s).name, lang) not in text
                if not view.draft:
                    hidden = set(state.characters[other]) - set(view.seats[other].flipped) - set(view.my_characters)
                    for c in hidden:
                        assert words.character(c) not in text
                action = view.legal[rng.below(len(view.legal))]
                state.apply(action)
                narrator.step(state, seat, action)
            _render(duel_render.board(state.view(0), words, names))
    finally:
        set_language("en")
    assert {Phase.LINEUP, Phase.STAT, Phase.PLAY} <= phases


def test_after_a_draft_the_line_up_board_names_the_other_players_characters() -> None:
    """While line-ups are chosen after a draft, the board shows the seat's line-up so far and the characters the
    other player drafted: by name on the full board, by number on the compact one."""
    game = DuelGame()
    tr = Translator.for_language("en")
    words = CardWords(tr, game.cards)
    names = seat_names(["human", "human"], None)
    state = game.new_match({"mode": "shared", "pick": "draft"}, 3)
    rng = Rng(3)
    while state.to_act is not None and not (state.view(state.to_act).phase is Phase.LINEUP
                                            and state.view(state.to_act).lineup):
        view = state.view(state.to_act)
        state.apply(view.legal[rng.below(len(view.legal))])
    view = state.view(state.to_act)
    assert view.seat is not None
    other = view.seats[1 - view.seat].known_characters
    assert other
    full = _render(duel_render.board(view, words, names))
    compact = _render(duel_render.compact_board(view, words, names))
    mine = ", ".join(words.character(c) for c in view.lineup)
    assert f"Your line-up so far: {mine}" in full
    assert f"Your line-up so far: {mine}" in compact
    assert f"{names[1 - view.seat]} has: " + ", ".join(words.character(c) for c in other) in full
    assert f"{names[1 - view.seat]} has: " + ", ".join(f"C{c}" for c in other) in compact
