"""What both games' golden-record tests check: a stored record replays, action by action, to its stored result."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from flametable.core.protocol import Game, GameState
from flametable.core.record import MatchRecord, replay, start


def replay_golden(game: Game[Any, Any], path: Path, content_hash: str, regen: str) -> GameState[Any, Any]:
    """Replay the golden record at ``path`` with ``game`` (whose data hash is ``content_hash``), checking every
    action is legal and the stored result is the replayed one; the final state, for the game's own checks."""
    record = MatchRecord.load(path)
    assert record.result is not None, "a golden record stores its result"
    assert record.content["hash"] == content_hash, (
        f"{path.name} was recorded with other data ({record.content['hash']}); if the data change was "
        f"deliberate, run {regen}"
    )
    report = replay(game, record)
    assert report.ok, f"{path.name}: {report.to_json()}"
    assert report.steps == len(record.actions)
    assert report.outcome is not None
    assert report.outcome.to_json() == record.result
    # and the stored result is exactly what the replayed final state says
    state = start(game, record)
    for text in record.actions:
        assert state.to_act is not None
        state.apply(game.action_from_text(text))
    assert state.to_act is None
    assert state.outcome is not None
    assert state.outcome.to_json() == record.result
    return state


def check_played_today(fresh: MatchRecord, path: Path, render: Callable[[MatchRecord], str], regen: str) -> None:
    """The golden record at ``path`` is ``fresh`` (the same seeds played again by the same bots): the same
    decisions, the same record, the same bytes as ``render`` writes them."""
    stored = MatchRecord.load(path)
    assert fresh.actions == stored.actions, f"{path.name}: the match now plays differently; if deliberate, run {regen}"
    assert fresh == stored
    assert render(fresh) == path.read_text(encoding="utf-8")
