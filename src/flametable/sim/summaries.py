"""What the lab keeps of each match beyond its result, per game, for the balance report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flametable.core.protocol import Action, GameState

Collector = Callable[[GameState[Any, Any], int, Action], Any]


def _duel_collect(state: GameState[Any, Any], seat: int, action: Action) -> Any:
    """Rounds finished after the step: the next step belongs to round number this value (0-based)."""
    st: Any = state
    return len(st.results)


def collector(game: str) -> Collector | None:
    if game == "duel":
        return _duel_collect
    if game == "duals":
        from flametable.sim import duals_summary

        return duals_summary.collect
    return None


def _duel_summary(state: GameState[Any, Any], trace: list[tuple[int, Action, Any]]) -> dict[str, Any]:
    from flametable.duel.actions import Kind

    st: Any = state
    rounds = [
        {"chooser": r.chooser, "stat": r.stat, "characters": list(r.characters), "totals": list(r.totals),
         "winner": r.winner}
        for r in st.results
    ]
    plays = []
    round_index = 0  # a step belongs to the round after those finished before it (one may end inside apply)
    for seat, action, finished_after in trace:
        kind = getattr(action, "kind", None)
        if kind is Kind.PLAY or kind is Kind.ABILITY:
            plays.append([seat, kind.word, action.arg, round_index])  # type: ignore[attr-defined]
        round_index = finished_after
    return {
        "lineups": [list(st.lineups[0]), list(st.lineups[1])],
        "first_chooser": st.results[0].chooser if st.results else None,
        "rounds": rounds,
        "plays": plays,
    }


def summarize(game: str, state: GameState[Any, Any], trace: list[tuple[int, Action, Any]]) -> dict[str, Any]:
    if game == "duel":
        return _duel_summary(state, trace)
    if game == "duals":
        from flametable.sim import duals_summary

        return duals_summary.summarize(state, trace)
    return {}
