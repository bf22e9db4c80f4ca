"""No event tells an audience more than the engine's own view of it, over many random matches of both games.

Which actions are secret comes from the rules: in Flame Duel, where a character goes in the line-up (R3) and the
tie-break pick while it is made (R14); in Flamecraft Duals, which card is put under the deck after the coin
(D10). Every other decision is made in front of everyone (R15, D10). For every event of every step:

* the view is the engine's view of that audience at that version, and its JSON is that view's JSON;
* besides the view, the event holds only the version, the audience, the actor, whose turn it is, the result
  once over, and the action's notation, which is there for the player who chose it and, for everyone else,
  only when the rules make it public;
* a secret action's notation appears nowhere in another audience's event JSON unless that audience's own view
  JSON holds it too (its own options, say).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from flametable.bots.base import RandomBot
from flametable.core.match import new_record
from flametable.core.protocol import Action
from flametable.games.duals.actions import Kind as DualsKind
from flametable.games.duals.game import DualsGame
from flametable.games.duel.actions import Kind as DuelKind
from flametable.games.duel.game import DuelGame
from flametable.service import Applied, MatchService, play, run, view_json

DUEL = DuelGame()
DUALS = DualsGame()
DUEL_MODES: list[dict[str, Any]] = [{"mode": "shared", "pick": "random"}, {"mode": "shared", "pick": "draft"},
                                    {"mode": "decks"}]
ENVELOPE = {"format", "version", "audience", "actor", "action", "to_act", "result", "view"}


def duel_secret(action: Any) -> bool:
    return bool(action.kind in (DuelKind.LINE, DuelKind.CHAMPION))  # R3, R14


def duals_secret(action: Any) -> bool:
    return bool(action.kind == DualsKind.BOTTOM)  # D10


def check_match(game: Any, options: dict[str, Any], seed: int, secret: Any, seen: Counter[str]) -> None:
    match = MatchService.new(game, options, seed, ["bot:random", "bot:random"])
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    actions: list[Action] = []

    def listen(applied: Applied) -> None:
        action = actions[-1]
        text = action.text()
        hidden = secret(action)
        seen["secret" if hidden else "public"] += 1
        if hidden:
            seen[text.split()[0]] += 1
        state = match.state
        for audience in (0, 1, None):
            event = applied.to(audience)
            assert event.view == state.view(audience)
            data = json.loads(json.dumps(event.to_json()))
            own_view = json.loads(json.dumps(view_json(state.view(audience))))
            assert set(data) == ENVELOPE
            assert data["view"] == own_view
            assert (data["version"], data["audience"], data["actor"], data["to_act"]) == (
                match.version, audience, applied.actor, state.to_act)
            assert data["result"] == (state.outcome.to_json() if state.outcome else None)
            knows = audience == applied.actor or not hidden
            assert data["action"] == (text if knows else None), (text, audience)
            if not knows:
                assert f'"{text}"' not in json.dumps(data) or f'"{text}"' in json.dumps(own_view)

    def decide(seat: int) -> Any:
        def choose(view: Any, legal: Any) -> Action:
            action: Action = bots[seat].choose(view, legal)
            actions.append(action)
            return action
        return choose

    run(match, [decide(0), decide(1)], listen=listen)


def test_duel_events_hold_nothing_their_audience_may_not_see() -> None:
    seen: Counter[str] = Counter()
    for i, options in enumerate(DUEL_MODES):
        for seed in range(30):
            check_match(DUEL, options, 1000 * i + seed, duel_secret, seen)
    for seed in tiebreak_seeds(3):
        check_match(DUEL, {}, seed, duel_secret, seen)
    # every match starts with both line-ups (R3), so the secret actions were there to leak
    assert seen["line"] >= 2 * 93, seen
    assert seen["champion"] >= 3, seen
    assert seen["public"] > 1000, seen


def test_duals_events_hold_nothing_their_audience_may_not_see() -> None:
    seen: Counter[str] = Counter()
    for seed in range(8):
        check_match(DUALS, {"buddy": seed % 3 == 0}, seed, duals_secret, seen)
    assert seen["bottom"] > 20, seen
    assert seen["public"] > 500, seen


def tiebreak_seeds(wanted: int) -> list[int]:
    """Seeds of random matches (shared mode) that reach a tie-break pick (R14), found with the lean driver."""
    found: list[int] = []
    seed = 0
    while len(found) < wanted and seed < 20_000:
        bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
        record = new_record(DUEL, {}, seed, ["bot:random", "bot:random"])
        play(DUEL.new_match({}, seed), [b.choose for b in bots], record, game=DUEL)
        if any(text.startswith("champion ") for text in record.actions):
            found.append(seed)
        seed += 1
    return found
