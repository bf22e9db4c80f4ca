"""A new match's record: the game, its rules version and data, the options, the seed, the players.

Playing a match is the match service's (:mod:`flametable.service`): it accepts each action from whichever seat
sends it, checks it, appends it to this record and tells each seat what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flametable.core.protocol import Game
from flametable.core.record import MatchRecord


def new_record(game: Game[Any, Any], options: dict[str, Any], seed: int, players: Sequence[str],
               setup: dict[str, Any] | None = None) -> MatchRecord:
    cid, chash = game.content_id()
    return MatchRecord(game=game.name, rules_version=game.rules_version, content={"id": cid, "hash": chash},
                       options=options, seed=seed, players=list(players), setup=setup)
