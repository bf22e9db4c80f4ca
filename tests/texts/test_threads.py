"""Texts per player: two players in one process, each reading their own language, at the same time.

Each thread narrates the same recorded match with its own translator (what everyone at the table is told, the
menu of the seat to act, the reason a typed notation is refused, the outcome); its output must be exactly what
a single-threaded narration in its language gives. The threads run once in lockstep (one step each in turn,
so the two narrations interleave at every step whatever the scheduler does) and once freely, started together
by a barrier with the interpreter switching threads as often as it can.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from flametable.core.errors import IllegalAction
from flametable.core.protocol import Game
from flametable.core.rng import Rng
from flametable.games.duals import texts as duals
from flametable.games.duals.game import DualsGame
from flametable.games.duel import texts as duel
from flametable.games.duel.game import DuelGame
from flametable.texts.translator import Translator
from flametable.texts.words import error_text

NAMES = ("Ana", "Bruno")
DUEL = DuelGame()
DUALS = DualsGame()
Narration = Callable[[Translator, list[str], int], Iterator[list[str]]]


def random_match(game: Game[Any, Any], options: dict[str, Any], seed: int) -> list[str]:
    """The notation of a whole match of random legal actions."""
    state = game.new_match(options, seed)
    rng = Rng(seed + 1000)
    played = []
    while state.to_act is not None:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        state.apply(action)
        played.append(action.text())
    return played


def refused(tr: Translator, game: Game[Any, Any]) -> str:
    try:
        game.action_from_text("frobnicate now")
    except IllegalAction as exc:
        return error_text(tr, exc)
    raise AssertionError("an unknown verb must be refused")  # pragma: no cover


def narrate_duel(tr: Translator, played: list[str], seed: int) -> Iterator[list[str]]:
    """Flame Duel, step by step: the lines of each step (the observer: everyone, or seat 0 on odd seeds)."""
    words = duel.CardWords(tr, DUEL.cards)
    observer = seed % 2 if seed % 2 else None
    state = DUEL.new_match({"mode": "shared", "pick": "draft" if seed % 3 == 0 else "random"}, seed)
    prev = state.view(observer)
    lines = [duel.round_start_text(prev, words, NAMES)] if duel.round_started(None, prev) else []
    yield lines
    for text in played:
        seat = state.to_act
        assert seat is not None
        mine = state.view(seat)
        lines = [duel.describe_option(a, words, mine.seats[seat].character, len(mine.lineup)) for a in mine.legal]
        lines.append(refused(tr, DUEL))
        action = DUEL.action_from_text(text)
        state.apply(action)
        view = state.view(observer)
        lines += duel.step_lines(prev, view, seat, action, observer, words, NAMES)
        if duel.round_started(prev, view):
            lines.append(duel.round_start_text(view, words, NAMES))
        prev = view
        yield lines
    assert prev.outcome is not None
    yield [duel.outcome_text(tr, prev.outcome, NAMES), duel.outcome_for(tr, prev.outcome, 0)]


def narrate_duals(tr: Translator, played: list[str], seed: int) -> Iterator[list[str]]:
    """Flamecraft Duals, step by step (the Buddy variant on odd seeds)."""
    words = duals.DualsWords(tr, DUALS.data)
    observer = 1 if seed % 2 else None
    state = DUALS.new_match({"buddy": bool(seed % 2)}, seed)
    prev = state.view(observer)
    yield [duals.first_player_text(prev, words, NAMES).plain,
           *(t.plain for t in duals.turn_start_lines(prev, words, NAMES))]
    for text in played:
        seat = state.to_act
        assert seat is not None
        mine = state.view(seat)
        lines = [duals.describe_option(a, mine, words).plain for a in mine.legal]
        lines.append(refused(tr, DUALS))
        action = DUALS.action_from_text(text)
        state.apply(action)
        view = state.view(observer)
        lines += [t.plain for t in duals.step_lines(prev, view, seat, action, observer, words, NAMES)]
        if view.outcome is None and view.turn_number != prev.turn_number:
            lines += [t.plain for t in duals.turn_start_lines(view, words, NAMES)]
        prev = view
        yield lines
    assert prev.outcome is not None
    yield [duals.outcome_text(tr, prev.outcome, prev, NAMES), duals.outcome_for(tr, prev.outcome, 0)]


GAMES: dict[str, tuple[Game[Any, Any], Narration]] = {"duel": (DUEL, narrate_duel), "duals": (DUALS, narrate_duals)}


def alone(narrate: Narration, lang: str, played: list[str], seed: int) -> list[list[str]]:
    return list(narrate(Translator.for_language(lang), played, seed))


def duel_matches() -> list[tuple[int, list[str]]]:
    return [(seed, random_match(DUEL, {"mode": "shared", "pick": "draft" if seed % 3 == 0 else "random"}, seed))
            for seed in range(6)]


def duals_matches() -> list[tuple[int, list[str]]]:
    return [(seed, random_match(DUALS, {"buddy": bool(seed % 2)}, seed)) for seed in range(2)]


def run_lockstep(narrate: Narration, played: list[str], seed: int) -> dict[str, list[list[str]]]:
    """Both languages in two threads taking one step each in turn (Spanish first)."""
    out: dict[str, list[list[str]]] = {"es": [], "en": []}
    order = ["es", "en"]
    turn = threading.Condition()
    state = {"next": 0, "done": set()}
    errors: list[BaseException] = []

    def worker(lang: str) -> None:
        me = order.index(lang)
        steps = narrate(Translator.for_language(lang), played, seed)
        try:
            while True:
                with turn:
                    turn.wait_for(lambda: state["next"] == me or errors)
                    if errors:
                        return
                    step = next(steps, None)
                    if step is None:
                        state["done"].add(lang)  # type: ignore[attr-defined]
                    else:
                        out[lang].append(step)
                    other = 1 - me
                    state["next"] = me if order[other] in state["done"] else other  # type: ignore[operator]
                    turn.notify_all()
                    if step is None:
                        return
        except BaseException as exc:
            with turn:
                errors.append(exc)
                turn.notify_all()

    threads = [threading.Thread(target=worker, args=(lang,)) for lang in order]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    return out


def run_free(narrate: Narration, played: list[str], seed: int) -> dict[str, list[list[str]]]:
    """Both languages in two threads started together by a barrier, switching as often as the interpreter can."""
    out: dict[str, list[list[str]]] = {}
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def worker(lang: str) -> None:
        try:
            tr = Translator.for_language(lang)
            barrier.wait(timeout=30)
            out[lang] = list(narrate(tr, played, seed))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(lang,)) for lang in ("es", "en")]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors
    return out


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_two_threads_narrate_the_same_match_each_in_its_own_language(game_name: str) -> None:
    game, narrate = GAMES[game_name]
    matches = duel_matches() if game_name == "duel" else duals_matches()
    steps = 0
    for seed, played in matches:
        want = {lang: alone(narrate, lang, played, seed) for lang in ("es", "en")}
        steps += len(played)
        # The two languages really differ, step by step (else the test could not tell them apart).
        assert want["es"][-1] != want["en"][-1]
        differ = sum(1 for es, en in zip(want["es"], want["en"], strict=True) if es != en)
        assert differ >= len(played) // 2, (game.name, seed)
        for lang in want:  # every parameter filled in: no literal {card} reaches a player
            assert not [line for step in want[lang] for line in step if re.search(r"\{\w*\}", line)]
        assert run_lockstep(narrate, played, seed) == want
        assert run_free(narrate, played, seed) == want
    assert steps >= 100  # many steps: the threads have every chance to meet


def test_the_narrations_read_in_their_language() -> None:
    """A glance at what each thread is compared with: Spanish words in one, English in the other."""
    seed, played = duel_matches()[1]
    es = "\n".join(line for step in alone(narrate_duel, "es", played, seed) for line in step)
    en = "\n".join(line for step in alone(narrate_duel, "en", played, seed) for line in step)
    assert "Ronda 1 de 3" in es
    assert "Round 1 of 3" not in es
    assert "Round 1 of 3" in en
    assert "Ronda" not in en
    assert "frobnicate" in es
    assert "frobnicate" in en
    assert refused(Translator.for_language("es"), DUEL) != refused(Translator.for_language("en"), DUEL)
