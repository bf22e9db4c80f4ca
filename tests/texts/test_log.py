"""The match log: what one audience (a seat, or the spectators) is told of each step, as plain lines in the
language of a Translator, for any game (the generic log) and in each built-in game's words (the same words as
the terminal's narration); made only of that audience's views and the actions it may know, so it never names a
card that audience did not see, and it is the same whatever the hidden cards were."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from flametable.cli.i18n import set_language
from flametable.core.registry import get
from flametable.core.rng import Rng
from flametable.games.duals.game import DualsGame
from flametable.games.duals.texts import DualsLog
from flametable.games.duals.tui import DualsNarrator, DualsTable
from flametable.games.duals.view import DualsView
from flametable.games.duel.actions import Kind as DuelKind
from flametable.games.duel.game import DuelGame
from flametable.games.duel.texts import DuelLog
from flametable.games.duel.tui import DuelTable, Narrator
from flametable.games.duel.view import DuelView
from flametable.service import Audience, MatchService
from flametable.texts.log import GenericLog, LogStep, Reader, event_steps, log_of, match_log
from flametable.texts.translator import Translator
from tests.service.tiny import QuietGame, TinyGame

EN = Translator.for_language("en")
ES = Translator.for_language("es")
AUDIENCES: tuple[Audience, ...] = (0, 1, None)
PILE = list(range(1, 22))  # every support card, top first


class Played:
    """A match played through the match service, with each audience's first view and events."""

    def __init__(self, game: Any, service: MatchService) -> None:
        self.game = game
        self.service = service
        self.first = {a: service.view(a) for a in AUDIENCES}
        self.events: dict[Audience, list[Any]] = {a: [] for a in AUDIENCES}

    def play(self, seat: int, action: Any) -> None:
        applied = self.service.submit(seat, action)
        for a in AUDIENCES:
            self.events[a].append(applied.to(a))

    def steps(self, audience: Audience) -> list[LogStep]:
        return list(event_steps(self.game, self.first[audience], self.events[audience]))

    def log(self, tr: Translator, audience: Audience, **kwargs: Any) -> list[str]:
        return match_log(self.game, tr, audience, self.steps(audience), first=self.first[audience], **kwargs)

    def views(self, audience: Audience) -> list[Any]:
        return [self.first[audience], *(e.view for e in self.events[audience])]


def scripted(game: Any, service: MatchService, script: Sequence[tuple[int, str]]) -> Played:
    played = Played(game, service)
    for seat, notation in script:
        played.play(seat, notation)
    return played


def random_match(game: Any, service: MatchService, seed: int) -> Played:
    played, rng = Played(game, service), Rng(seed)
    while service.to_act is not None:
        seat = service.to_act
        legal = service.legal(seat)
        played.play(seat, legal[rng.below(len(legal))])
    return played


# ------------------------------------------------------------------ any game: the generic log


TINY = [(0, "bid 2"), (1, "bid 1"), (0, "take 2"), (1, "take 1"), (0, "take 2")]


def test_the_generic_log_tells_each_action_in_notation_and_hides_the_secret_ones() -> None:
    game = TinyGame()
    played = scripted(game, MatchService.new(game, {}, 1, ["a", "b"]), TINY)
    outcome = played.service.outcome
    assert played.log(EN, 0, outcome=outcome) == [
        "Player 1: bid 2", "Player 2 makes a move you may not see.", "Player 1: take 2", "Player 2: take 1",
        "Player 1: take 2", "Result: Player 1 (last_stone), score 2–1.", "You win!"]
    assert played.log(EN, 1, outcome=outcome)[:2] == ["Player 1 makes a move you may not see.", "Player 2: bid 1"]
    assert played.log(EN, 1, outcome=outcome)[-1] == "You lose."
    spectators = played.log(EN, None, outcome=outcome)
    assert spectators[:2] == ["Player 1 makes a move you may not see.", "Player 2 makes a move you may not see."]
    assert spectators[-1] == "Result: Player 1 (last_stone), score 2–1."  # no "you" line for the spectators


def test_the_generic_log_in_spanish() -> None:
    game = TinyGame()
    played = scripted(game, MatchService.new(game, {}, 1, ["a", "b"]), TINY)
    assert played.log(ES, 1, outcome=played.service.outcome) == [
        "Jugador 1 hace una jugada que no puedes ver.", "Jugador 2: bid 1", "Jugador 1: take 2", "Jugador 2: take 1",
        "Jugador 1: take 2", "Resultado: Jugador 1 (last_stone), marcador 2–1.", "Has perdido."]


def test_a_game_that_says_nothing_of_its_actions_keeps_them_all_from_the_others() -> None:
    game = QuietGame()
    played = scripted(game, MatchService.new(game, {}, 1, ["a", "b"]), TINY)
    assert played.log(EN, 1) == ["Player 1 makes a move you may not see.", "Player 2: bid 1",
                                 "Player 1 makes a move you may not see.", "Player 2: take 1",
                                 "Player 1 makes a move you may not see."]  # no end: the view has no outcome


def test_the_names_of_the_seats_are_the_callers() -> None:
    game = TinyGame()
    played = scripted(game, MatchService.new(game, {}, 1, ["a", "b"]), TINY[:3])
    assert played.log(EN, None, names=["Ada", "Bob"]) == ["Ada makes a move you may not see.",
                                                          "Bob makes a move you may not see.", "Ada: take 2"]
    with pytest.raises(ValueError, match="a log names two seats"):
        Reader.of(EN, None, ["Ada"])
    with pytest.raises(ValueError, match="an audience is seat 0, seat 1 or None"):
        Reader.of(EN, 2)


def test_each_game_has_its_log_and_a_game_without_one_the_generic_log() -> None:
    assert isinstance(log_of(DuelGame()), DuelLog)
    assert isinstance(log_of(get("duals")), DualsLog)
    assert isinstance(log_of(TinyGame()), GenericLog)  # no entry in the registry
    generic = GenericLog()
    assert log_of(generic) is generic


def test_a_match_not_started_yet_is_told_from_its_first_view() -> None:
    game = DualsGame()
    service = MatchService.new(game, {}, 7, ["a", "b"])
    lines = match_log(game, EN, None, [], first=service.view(None))
    assert lines[0].startswith("Player 1 draws ")
    assert lines[1] == "── Turn 1 · Player 1 ──"


# ------------------------------------------------------------------ Flame Duel


def duel_service(seed: int = 1, seat1: Sequence[int] = (4, 5, 6)) -> MatchService:
    """Flame Duel with set characters (each seat lines them up) and the support cards in order."""
    return MatchService.new(DuelGame(), {}, seed, ["a", "b"],
                            setup={"characters": [[1, 2, 3], list(seat1)], "piles": [PILE]})


DUEL_SCRIPT = [(0, "line C2"), (0, "line C1"), (1, "line C4"), (1, "line C5")]  # the last one goes by itself


def test_the_duel_log_keeps_the_line_up_secret_and_tells_the_flip() -> None:
    game = DuelGame()
    played = scripted(game, duel_service(), DUEL_SCRIPT)
    flip = "Round 1 of 3: Player 1 flips C2 Sparkle Pip, Player 2 flips C4 Toasty. Player 1 chooses the stat."
    assert played.log(EN, 0) == ["Player 1 lines up C2 Sparkle Pip.", "Player 1 lines up C1 Marciano.",
                                 *["Player 2 lines up a character."] * 2, flip]
    assert played.log(EN, 1) == [*["Player 1 lines up a character."] * 2, "Player 2 lines up C4 Toasty.",
                                 "Player 2 lines up C5 Sir Candlewick.", flip]
    assert played.log(EN, None) == [*["Player 1 lines up a character."] * 2,
                                    *["Player 2 lines up a character."] * 2, flip]


def test_the_duel_log_in_spanish_uses_the_narrations_translations() -> None:
    game = DuelGame()
    played = scripted(game, duel_service(), [*DUEL_SCRIPT, (0, "stat heat"), (0, "play S1")])
    assert played.log(ES, 1) == [
        *["Jugador 1 coloca un personaje en su fila."] * 2, "Jugador 2 coloca a C4 Tostadito en su fila.",
        "Jugador 2 coloca a C5 Don Pabilo en su fila.",
        "Ronda 1 de 3: Jugador 1 revela a C2 Chispita y Jugador 2 revela a C4 Tostadito. Jugador 1 elige la "
        "estadística.", "Jugador 1 elige Calor para esta ronda.",
        "Jugador 1 juega S1 Petardo de Bolsillo (Objeto · Chispa +10)."]


def test_the_duel_log_tells_the_end_to_each_audience() -> None:
    game = DuelGame()
    played = random_match(game, duel_service(3), 3)
    outcome = played.service.outcome
    assert outcome is not None
    assert outcome.winner is not None
    winner = f"Player {outcome.winner + 1}"
    for audience in AUDIENCES:
        lines = played.log(EN, audience)
        assert lines[-1 if audience is None else -2].startswith(f"{winner} wins the match (")
    assert played.log(EN, outcome.winner)[-1] == "You win!"
    assert played.log(EN, 1 - outcome.winner)[-1] == "You lose."


# ------------------------------------------------------------------ Flamecraft Duals


def test_the_duals_log_hides_the_cards_put_back_from_the_others() -> None:
    game = DualsGame()
    played = scripted(game, MatchService.new(game, {}, 7, ["a", "b"]),
                      [(0, "coin"), (0, "bottom K17"), (0, "bottom K19"), (0, "place a1"), (0, "skip")])
    start = ["Player 1 draws B bread, Player 2 draws M meat. Player 1 starts (higher on the FIRE UP order); the "
             "tokens go back into the bag.", "── Turn 1 · Player 1 ──", "Player 1 draws I iron from the bag.",
             "Player 1 spends a coin: draws 2 cards, then puts 2 at the bottom of the deck."]
    end = ["Player 1 places I iron on a1.", "Player 1 does not FIRE UP I iron.",
           "Player 1 has nothing more to score and has already spent a coin this turn: the turn ends.",
           "── Turn 2 · Player 2 ──",
           "Player 2 draws L plant from the bag."]
    assert played.log(EN, 0) == [*start, "Player 1 puts K17 at the bottom of the deck.",
                                 "Player 1 puts K19 at the bottom of the deck.", *end]
    hidden = [*start, *["Player 1 puts a card at the bottom of the deck."] * 2, *end]
    assert played.log(EN, 1) == hidden
    assert played.log(EN, None) == hidden
    assert played.log(ES, 1) == [
        "Jugador 1 roba P pan; Jugador 2 roba A asado. Empieza Jugador 1 (más alto en el orden de FIRE UP); las "
        "fichas vuelven a la bolsa.", "── Turno 1 · Jugador 1 ──", "Jugador 1 roba H hierro de la bolsa.",
        "Jugador 1 gasta una moneda: roba 2 cartas y después pone 2 al final del mazo.",
        *["Jugador 1 pone una carta al final del mazo."] * 2, "Jugador 1 coloca H hierro en a1.",
        "Jugador 1 no activa H hierro.",
        "Jugador 1 no tiene nada más que puntuar y ya ha gastado una moneda este turno: el turno termina.",
        "── Turno 2 · Jugador 2 ──", "Jugador 2 roba F flor de la bolsa."]


def test_the_duals_log_tells_the_end_to_each_audience() -> None:
    game = DualsGame()
    played = random_match(game, MatchService.new(game, {}, 5, ["a", "b"]), 5)
    outcome = played.service.outcome
    assert outcome is not None
    lines = played.log(EN, 0)
    if outcome.winner is None:
        assert lines[-2].startswith("Shared victory")
        assert lines[-1] == "You share the victory."
    else:
        assert f"Player {outcome.winner + 1} wins" in lines[-2]
        assert lines[-1] == ("You win!" if outcome.winner == 0 else "You lose.")


# ------------------------------------------------------------------ the terminal says the same


def told(console: Console) -> str:
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text


def in_order(lines: Sequence[str], text: str) -> bool:
    at = 0
    for line in lines:
        found = text.find(line, at)
        if found < 0:
            return False
        at = found + len(line)
    return True


@pytest.mark.parametrize("audience", AUDIENCES)
def test_the_terminal_narrators_tell_what_the_log_tells(audience: Audience) -> None:
    set_language("en")
    for game in (DuelGame(), DualsGame()):
        service = duel_service(4) if isinstance(game, DuelGame) else MatchService.new(game, {}, 4, ["a", "b"])
        played = random_match(game, service, 4)
        console = Console(file=io.StringIO(), width=400, color_system=None)
        table: Any
        narrator: Any
        if isinstance(game, DuelGame):
            table = DuelTable(console, game, ["bot:random", "bot:random"])
            narrator = Narrator(table, audience, played.first[audience])
        else:
            table = DualsTable(console, game, ["bot:random", "bot:random"])
            narrator = DualsNarrator(table, audience, played.first[audience])
        narrator.start()
        for event in played.events[audience]:
            narrator.hear(event)
        lines = played.log(EN, audience, names=table.names)
        narrated = [text.plain for text in table.log]  # what the narrator told, before the end
        assert len(narrated) > 20
        assert lines[:len(narrated)] == narrated, game.name
        assert 1 <= len(lines) - len(narrated) <= 2  # the result, and a seat's own line
        assert in_order(lines[len(narrated):], told(console)), game.name


# ------------------------------------------------------------------ no more than the views show


def duel_cards_seen(view: DuelView) -> set[str]:
    """The cards a Flame Duel view shows, as ``C3`` and ``S7``."""
    chars = {*view.lineup, *view.my_characters, view.champion, *view.draft_pool}
    supports = {*view.hand, *view.known_top, *view.my_pile, view.place, *(s for _, s in view.events)}
    for seat in view.seats:
        chars |= {*seat.flipped, *seat.known_characters, seat.character}
        supports |= {*seat.revealed, *seat.discard, *seat.items}
    for result in view.results:
        chars |= set(result.characters)
    for action in [*view.legal, *(p.action for p in view.log)]:
        is_char = action.kind in (DuelKind.PICK, DuelKind.LINE, DuelKind.CHAMPION)
        (chars if is_char else supports).add(action.arg)
    return {f"C{c}" for c in chars} | {f"S{s}" for s in supports}


def duals_cards_seen(view: DualsView) -> set[str]:
    """The shop cards a Flamecraft Duals view shows, as ``K12``."""
    cards = {*view.hand, *view.matching, *(c for c, _ in view.bottom_known), *(a.a for a in view.legal)}
    for seat in view.seats:
        cards |= set(seat.pile)
    return {f"K{c}" for c in cards}


CARD = re.compile(r"\b[CSK]\d+\b")


def named(lines: Sequence[str]) -> set[str]:
    return {card for line in lines for card in CARD.findall(line)}


def duel_match(seed: int) -> Played:
    return random_match(DuelGame(), MatchService.new(DuelGame(), {}, seed, ["a", "b"]), seed)


def duals_match(seed: int) -> Played:
    return random_match(DualsGame(), MatchService.new(DualsGame(), {}, seed, ["a", "b"]), seed)


@pytest.mark.parametrize(("make", "seen"), [(duel_match, duel_cards_seen), (duals_match, duals_cards_seen)])
def test_a_log_never_names_a_card_its_audience_did_not_see(make: Any, seen: Any) -> None:
    """Over seeded random matches, in both languages: every card a log names is in one of its audience's views.
    The check is not empty: the seats see cards the spectators never see (their hands), which a log naming them
    would fail."""
    secrets = 0
    for seed in range(6):
        played = make(seed)
        shown = {a: set().union(*(seen(v) for v in played.views(a))) for a in AUDIENCES}
        for audience in AUDIENCES:
            for tr in (EN, ES):
                assert named(played.log(tr, audience)) <= shown[audience], (seed, audience, tr)
        secrets += len((shown[0] | shown[1]) - shown[None])
    assert secrets


def test_the_duel_log_is_the_same_whatever_the_hidden_character_was() -> None:
    """Two matches that differ only in Player 2's third character, lined up last, played alike: while it is not
    flipped (a match won in two rounds), Player 1's and the spectators' logs are the same; once it is flipped
    they differ."""
    game = DuelGame()
    alike = flipped = 0
    for seed in range(12):
        matches = [Played(game, duel_service(seed, seat1)) for seat1 in ((4, 5, 6), (4, 5, 7))]
        rng = Rng(seed)
        while matches[0].service.to_act is not None:
            seat = matches[0].service.to_act
            legal = [m.service.legal(seat) for m in matches]
            assert len(legal[0]) == len(legal[1])
            # Player 2 lines up 4, then 5, then 6 or 7
            pick = 0 if legal[0][0].kind is DuelKind.LINE and seat == 1 else rng.below(len(legal[0]))
            for m, options in zip(matches, legal, strict=True):
                m.play(seat, options[pick])
            if len(matches[0].service.state.view(None).results) == 2 and matches[0].service.to_act is not None:
                break  # the third round begins: the hidden character is flipped
        logs = [{a: m.log(EN, a) for a in AUDIENCES} for m in matches]
        assert matches[0].service.view(1) != matches[1].service.view(1)  # the matches differ, for Player 2
        if matches[0].service.outcome is not None:  # won in two rounds: the third character was never shown
            alike += 1
            assert logs[0][0] == logs[1][0]
            assert logs[0][None] == logs[1][None]
        else:
            flipped += 1
            assert logs[0][0] != logs[1][0]
            assert logs[0][None] != logs[1][None]
    assert alike
    assert flipped
