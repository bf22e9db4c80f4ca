"""Every event of both games round-trips through JSON over 1,000 random matches each, and the view inside an
audience's event is exactly the engine's view of that audience (whose JSON the games' view tests check for leaks:
tests/games/duel/test_view_json.py, tests/games/duals/test_view_json.py).

Flame Duel: every event of every step of 1,000 matches (shared, draft, own decks). Flamecraft Duals, whose
matches are about five times longer: all 1,000 matches played through the service with events, every event of
one step in eight and of the last step round-tripped.
"""

from __future__ import annotations

import json
from typing import Any

from flametable.bots.base import RandomBot
from flametable.core.protocol import Game
from flametable.games.duals.game import DualsGame
from flametable.games.duals.view import DualsView
from flametable.games.duel.game import DuelGame
from flametable.games.duel.view import DuelView
from flametable.service import Applied, Event, MatchService, run

DUEL = DuelGame()
DUALS = DualsGame()
DUEL_MODES: list[dict[str, Any]] = [{"mode": "shared", "pick": "random"}, {"mode": "shared", "pick": "draft"},
                                    {"mode": "decks"}]


def round_trip_events(game: Game[Any, Any], options: dict[str, Any], seed: int, view_from_json: Any,
                      every: int) -> int:
    """Play one random match through the service; round-trip the events of every ``every``-th step (and the
    last). Returns how many events were checked."""
    match = MatchService.new(game, options, seed, ["bot:random", "bot:random"])
    bots = [RandomBot(seed * 2 + 1), RandomBot(seed * 2 + 2)]
    checked = 0

    def listen(applied: Applied) -> None:
        nonlocal checked
        if applied.version % every and match.outcome is None:
            return
        for audience in (0, 1, None):
            event = applied.to(audience)
            text = json.dumps(event.to_json())
            back = Event.from_json(json.loads(text), view_from_json)
            assert back == event, (seed, applied.version, audience)
            assert json.dumps(back.to_json()) == text
            assert event.view == match.view(audience)
            checked += 1

    run(match, [bots[0].choose, bots[1].choose], listen=listen)
    assert match.outcome is not None
    return checked


def test_every_duel_event_round_trips_over_1000_matches() -> None:
    checked = 0
    for seed in range(1000):
        checked += round_trip_events(DUEL, DUEL_MODES[seed % 3], 7_000 + seed, DuelView.from_json, every=1)
    assert checked > 1000 * 3 * 10  # a Duel match is at least ten decisions long


def test_duals_events_round_trip_over_1000_matches() -> None:
    checked = 0
    for seed in range(1000):
        checked += round_trip_events(DUALS, {"buddy": seed % 2 == 1}, 9_000 + seed,
                                     lambda obj: DualsView.from_json(obj, DUALS.data), every=8)
    assert checked > 1000 * 3 * 5
