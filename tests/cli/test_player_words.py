"""What a player types at the table, in the player's language: each game's command words in Spanish and in
English (and the option numbers), the arguments that are words (stats, abilities, tokens), what the prompts show,
and the sentences for a command word typed alone, a full stack and a stat typed alone."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from flametable.games.duals.render import menu
from flametable.games.duals.rules import NUM_TYPES
from flametable.games.duals.texts import DualsWords, duals_commands, type_letters, type_name
from flametable.games.duals.tui import DualsTable
from flametable.games.duals.tui import parse_choice as duals_choice
from flametable.games.duel.actions import DuelAction
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import Phase
from flametable.games.duel.state import DuelState
from flametable.games.duel.texts import duel_commands
from flametable.games.duel.tui import DuelTable
from flametable.games.duel.tui import parse_choice as duel_choice
from flametable.texts.commands import Commands, fold
from flametable.texts.translator import Translator
from tests.games.duals.scripted import GAME as DUALS
from tests.games.duals.scripted import play, start

ES, EN = Translator.for_language("es"), Translator.for_language("en")
DUEL = DuelGame()


def _duel_at(phase: Phase, pick: str = "random") -> DuelState:
    """A seeded Flame Duel match played on (first option each time) until ``phase``."""
    state = DUEL.new_match({"pick": pick}, 3)
    while state.phase is not phase:
        state.apply(state.view(state.to_act).legal[0])
    return state


def _duel_choice(state: DuelState, text: str, tr: Translator) -> DuelAction | str:
    view = state.view(state.to_act)
    return duel_choice(text, view.legal, DUEL, duel_commands(tr))


# ---------------------------------------------------------------------------------------------- Flame Duel


@pytest.mark.parametrize("typed", ["elegir C29", "Elegir c29", "ELEGIR C29", "pick C29", "pick c29"])
def test_a_draft_pick_in_either_language(typed: str) -> None:
    """A Spanish player drafts with ``elegir C29`` (any case), or with the English ``pick C29``."""
    state = _duel_at(Phase.DRAFT, "draft")
    assert _duel_choice(state, typed, ES) == DuelAction.from_text("pick C29")


@pytest.mark.parametrize("typed", ["estadística calor", "estadistica CALOR", "stat calor", "stat heat", "calor",
                                   "Heat"])
def test_the_stat_in_either_language(typed: str) -> None:
    """The round's stat: the Spanish command and stat words, the English ones, a mix of both, or the stat alone
    (accents and capitals do not matter)."""
    state = _duel_at(Phase.STAT)
    assert _duel_choice(state, typed, ES) == DuelAction.from_text("stat heat")


def test_an_english_player_may_type_spanish_words_too() -> None:
    state = _duel_at(Phase.STAT)
    assert _duel_choice(state, "estadística chispa", EN) == DuelAction.from_text("stat spark")
    assert _duel_choice(state, "charm", EN) == DuelAction.from_text("stat charm")


def test_pass_in_either_language() -> None:
    state = _duel_at(Phase.PLAY)
    assert _duel_choice(state, "pasar", ES) == DuelAction.from_text("pass")
    assert _duel_choice(state, "pass", ES) == DuelAction.from_text("pass")


def test_a_bare_stat_when_no_stat_is_chosen_says_it_is_not_an_option() -> None:
    """``heat`` alone while playing cards is the stat command, not an unreadable action."""
    state = _duel_at(Phase.PLAY)
    assert _duel_choice(state, "heat", EN) == "stat heat is not one of your options now."
    assert _duel_choice(state, "calor", ES) == "estadística calor no es ninguna de tus opciones ahora."


def test_refusals_use_the_words_the_player_typed() -> None:
    state = _duel_at(Phase.DRAFT, "draft")
    assert _duel_choice(state, "elegir C99", ES) == "'elegir' necesita una carta de C1 a C33, no 'c99'."
    assert _duel_choice(state, "elegir", ES) == "A 'elegir' le falta la carta: por ejemplo, elegir C1."
    assert _duel_choice(state, "pick", EN) == "'pick' needs a card: for example pick C1."
    stat = _duel_at(Phase.STAT)
    assert _duel_choice(stat, "estadística frío", ES) == (
        "Estadística desconocida 'frío': escribe una de estas: chispa, calor, simpatía.")


def test_the_table_shows_actions_in_the_players_words() -> None:
    state = _duel_at(Phase.DRAFT, "draft")
    legal = state.view(state.to_act).legal
    table = DuelTable(Console(record=True, width=120), DUEL, ["human", "human"], ES)
    assert [table.spoken(a) for a in legal[:2]] == ["elegir C1", "elegir C2"]
    assert table.spoken(DuelAction.from_text("stat charm")) == "estadística simpatía"
    assert table.spoken(DuelAction.from_text("line C4")) == "fila C4"
    assert DuelTable(Console(), DUEL, ["human", "human"], EN).spoken(legal[0]) == "pick C1"


# ---------------------------------------------------------------------------------------------- Duals


def _duals_choice(state: Any, text: str, tr: Translator) -> Any:
    view = state.view(state.to_act)
    return duals_choice(text, view.legal, DUALS, view, duals_commands(DualsWords(tr, DUALS.data)))


def test_duals_actions_in_either_language() -> None:
    state = start({"c4": ["meat"]}, ["meat", "iron"])
    assert _duals_choice(state, "colocar c3", ES) == DUALS.action_from_text("place c3")
    assert _duals_choice(state, "place c3", ES) == DUALS.action_from_text("place c3")
    play(state, "place c3")
    for typed in ("activar asado", "Activar Asado", "fire meat", "fire asado", "asado"):
        assert _duals_choice(state, typed, ES) == DUALS.action_from_text("fire meat"), typed
    assert _duals_choice(state, "omitir", ES) == DUALS.action_from_text("skip")


def test_place_alone_says_what_it_needs() -> None:
    """``place`` alone is not "'place' takes 1 argument(s)": it asks for a space, with an example."""
    state = start({}, ["meat"])
    assert _duals_choice(state, "place", EN) == "'place' needs a space: for example place a1."
    assert _duals_choice(state, "colocar", ES) == "A 'colocar' le falta el espacio: por ejemplo, colocar a1."


@pytest.mark.parametrize("typed", ["c3", "place c3", "colocar c3"])
def test_a_full_stack_is_said_to_be_full(typed: str) -> None:
    """A space typed alone, or with its command, where the stack holds 3 already: the stack is full (not an
    unknown action)."""
    state = start({"c3": ["meat", "iron", "bread"]}, ["plant"])
    assert _duals_choice(state, typed, EN) == "That stack already holds 3 tokens: c3 is full."
    assert _duals_choice(state, typed, ES) == "Esa pila ya tiene 3 fichas: c3 está lleno."


def test_the_menu_shows_the_players_words() -> None:
    state = start({}, ["meat"], coins=(1, 0))
    console = Console(record=True, width=120)
    console.print(menu(state.view(0), DualsWords(ES, DUALS.data)))
    text = console.export_text()
    assert "moneda" in text
    assert " coin" not in text


# ---------------------------------------------------------------------------------------------- the catalogue


@pytest.mark.parametrize("tr", [EN, ES], ids=["en", "es"])
def test_every_word_means_one_thing(tr: Translator) -> None:
    """Each game's command words are distinct in each language, and none is another command's English word (the
    tables are built without a clash)."""
    duel, duals = duel_commands(tr), duals_commands(DualsWords(tr, DUALS.data))
    for commands in (duel, duals):
        words = [fold(w) for w in commands.verbs.values()]
        assert len(set(words)) == len(words)
        assert all(" " not in w and w == w.lower() for w in commands.verbs.values())
    with pytest.raises(ValueError, match="means both"):
        Commands(tr, {"pass": "play", "play": "jugar"}, {}, {}, {})


@pytest.mark.parametrize("tr", [EN, ES], ids=["en", "es"])
def test_token_letters_read_as_the_type_names(tr: Translator) -> None:
    """Each type has its own capital letter, in the type's name; in Spanish it is the name's initial (the board
    does not show M for asado)."""
    letters = type_letters(tr)
    names = [type_name(tr, t) for t in range(NUM_TYPES)]
    assert len(set(letters)) == NUM_TYPES
    assert all(letter.isupper() and len(letter) == 1 for letter in letters)
    assert all(letter.lower() in name.lower() for letter, name in zip(letters, names, strict=True))
    if tr is ES:
        assert all(fold(name)[0] == letter.lower() for letter, name in zip(letters, names, strict=True))


def test_the_table_reads_spaces_alone_where_the_step_takes_them() -> None:
    state = start({"c4": ["meat"], "c2": ["bread"]}, ["meat"])
    play(state, "place c3", "fire meat")
    table = DualsTable(Console(), DUALS, ["human", "human"], tr=ES)
    table.view = state.view(0)
    assert table.parse("c4 b2", table.view.legal) == DUALS.action_from_text("move c4 b2")
    assert table.parse("mover c4 b2", table.view.legal) == DUALS.action_from_text("move c4 b2")
