"""D8 in the Flamecraft Duals log (the terminal's narration and the browser's log say the same: test_log.py): the
sentence that tells the end being triggered names the player who finishes the turn and the one who gets the last
chance, as the engine then really plays them; told from the step that triggered the end, whichever draw it was (a
token during a turn, the token that begins the next turn, a card of the coin or of the REFRESH)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from flametable.games.duals.game import DualsGame
from flametable.service import MatchService
from flametable.texts.log import LogStep, Reader, log_of
from flametable.texts.translator import Translator
from tests.texts.test_log import random_match

EN = Translator.for_language("en")
END = re.compile(r"The (?P<why>bag|shop deck) is empty: the end is triggered\. (?P<player>Player \d)"
                 r"(?P<left> finishes this turn, then |'s turn is over; )(?P<other>Player \d) gets a last chance\.")
SKIPPED = re.compile(r"(?P<player>Player \d) has nothing to score and no coin to spend: the last chance is skipped "
                     r"and the match ends\.")


def seat_of(name: str) -> int:
    return int(name.removeprefix("Player ")) - 1


def small_deck(game: DualsGame, seed: int) -> dict[str, Any]:
    """Every token in the bag, empty hands and a deck of 2 to 5 cards: the deck runs out first, drawn by a coin
    during a turn or by the REFRESH at its end."""
    bag = game.new_match({}, 0).view(None).bag
    return {"bag": [name for name, n in zip(game.data.kind_names, bag, strict=True) for _ in range(n)],
            "hands": [[], []], "deck": list(range(5, 7 + seed % 4))}


def check_the_end(steps: list[LogStep]) -> tuple[str, str, bool]:
    """Checks the end sentence of one match's spectator log against the steps played after it; gives how the end
    came, for the count: bag or shop deck, the sentence's words on the turn that triggered it (still going or
    over), and whether the step that triggered it began a new turn."""
    log, reader = log_of(DualsGame()), Reader.of(EN, None)
    told = [log.step(reader, *step) for step in steps]
    found = [(i, m) for i, lines in enumerate(told) for line in lines if (m := END.fullmatch(line))]
    assert len(found) == 1, found  # the end is triggered once, and every match ends (D8)
    at, said = found[0]
    player, other = seat_of(said["player"]), seat_of(said["other"])
    assert other == 1 - player
    # D8: the rest of the turn that triggered the end (if any), then one last chance, then the end
    after = steps[at + 1:]
    turns = sorted({step.before.turn_number for step in after})
    assert len(turns) <= 2
    assert steps[-1].after.outcome is not None
    trigger_turn = steps[at].after.turn_number  # the turn the match is in once the end is triggered
    new_turn = trigger_turn != steps[at].before.turn_number
    if new_turn and said["left"] == " finishes this turn, then ":
        # "this turn" is the turn just begun: told after its title and its draw
        title = told[at].index(f"── Turn {trigger_turn} · {said['player']} ──")
        assert told[at].index(said[0]) > title + 1, told[at]
    if said["left"] == " finishes this turn, then ":
        # the named player plays on in the same turn, and only the other plays after it
        rest = [step.actor for step in after if step.before.turn_number == trigger_turn]
        assert rest, said[0]
        assert set(rest) == {player}, (rest, said[0])
        last = [step.actor for step in after if step.before.turn_number > trigger_turn]
    else:
        # nobody plays on in the turn that triggered the end: its last step was the one telling it
        last = [step.actor for step in after]
    assert set(last) <= {other}, (last, said[0])
    skipped = [m["player"] for lines in told for line in lines if (m := SKIPPED.fullmatch(line))]
    assert skipped == ([] if last else [said["other"]])  # a last chance with nothing to do goes by itself
    return said["why"], said["left"], new_turn


def test_the_end_names_who_finishes_the_turn_and_who_gets_the_last_chance() -> None:
    """200 seeded matches of random players, and 40 with a deck of a few cards: the bag emptied by a draw during
    a turn and by the token that begins the next turn, the deck emptied by a coin and by the REFRESH."""
    game = DualsGame()
    seen: Counter[tuple[str, str, bool]] = Counter()
    for seed in range(200):
        played = random_match(game, MatchService.new(game, {}, seed, ["a", "b"]), seed)
        seen[check_the_end(played.steps(None))] += 1
    for seed in range(40):
        played = random_match(game, MatchService.new(game, {}, seed, ["a", "b"], setup=small_deck(game, seed)),
                              seed)
        seen[check_the_end(played.steps(None))] += 1
    finishes, over = " finishes this turn, then ", "'s turn is over; "
    for how in (("bag", finishes, False), ("bag", finishes, True), ("shop deck", finishes, False),
                ("shop deck", over, True)):
        assert seen[how], (how, seen)
