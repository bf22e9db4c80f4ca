"""What the commands do with each kind of file, in process and without the terminal: read it as the command
reads it, and use what was accepted as the command uses it (a card set or board plays a match, a record is
replayed and its report written as JSON, results become a report). A clean refusal is a project error
(:class:`~flametable.core.errors.FlametableError`); any other exception is a bug the fuzz test reports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flametable.core import registry
from flametable.core.record import MatchRecord, replay
from flametable.core.rng import Rng
from flametable.games.duals.cards_page import check as check_duals
from flametable.games.duel.cards import load_deck
from flametable.games.duel.cards_page import check as check_duel
from flametable.sim.report import build_report
from flametable.sim.results import read_results

MAX_STEPS = 5000
"""A random match played with accepted data ends within this many actions (a match of the built-in data takes
about 100)."""


def play_one(game: Any, seed: int = 1) -> None:
    """One match of random legal actions: accepted data must make a game that can be played to its end."""
    state = game.new_match({}, seed)
    rng = Rng(seed)
    for _ in range(MAX_STEPS):
        if state.to_act is None:
            return
        legal = state.legal_actions()
        assert legal, "a seat to act with no legal action"
        state.apply(legal[rng.below(len(legal))])
    raise AssertionError(f"the match has not ended after {MAX_STEPS} actions")


def printable(data: Any) -> None:
    """What a command prints must be printable: JSON in UTF-8 (a lone surrogate is not)."""
    json.dumps(data, ensure_ascii=False).encode("utf-8")


def read_cards(path: Path) -> None:
    """``cards check`` on a card file (or a deck: the same command), then a match played with the set."""
    printable(check_duel(path))
    if path.name.startswith("deck"):
        return
    entry = registry.find("duel")
    assert entry is not None
    play_one(entry.make(path))


def read_duals(path: Path) -> None:
    """``cards check`` on a Duals data file, then a match played with the data."""
    printable(check_duals(path))
    entry = registry.find("duals")
    assert entry is not None
    play_one(entry.make(path))


def read_deck(path: Path) -> None:
    """``cards check`` on a deck, and the deck as ``play duel --mode decks --deck1`` reads it."""
    printable(check_duel(path))
    load_deck(path).to_json()


def read_record(path: Path) -> None:
    """``replay --verify --json``: the record read, replayed, its report as JSON."""
    record = MatchRecord.load(path)
    entry = registry.find(record.game)
    if entry is None:
        return  # the command refuses it: unknown game
    report = replay(entry.make(None), record, verify_result=True)
    printable({"game": record.game, "file": str(path), **report.to_json()})
    if report.ok:  # verified: the record holds a result and it is the replayed one
        stored = record.result
        replayed = report.outcome.to_json() if report.outcome is not None else None
        if stored is None or stored != replayed:
            raise FalselyVerified(f"--verify accepts a record whose result {stored!r} is not the replayed {replayed!r}")


class FalselyVerified(AssertionError):
    """``replay --verify`` says ok to a record it must refuse."""


class RefusedByReport(Exception):
    """``report`` refuses what :func:`build_report` raises as ValueError or KeyError (it says it cannot build
    the report from the file)."""


def read_results_file(path: Path) -> None:
    """``report``: the results read, their game found, the report built."""
    lines = read_results(path)
    if not lines:
        return
    entry = registry.find(lines[0]["game"])
    if entry is None:
        return
    try:
        build_report(lines, entry.make(None))
    except (ValueError, KeyError) as exc:
        raise RefusedByReport(str(exc)) from exc


READERS = {
    "cards": read_cards,
    "duals": read_duals,
    "deck": read_deck,
    "record-duel": read_record,
    "record-duals": read_record,
    "results-jsonl": read_results_file,
    "results-csv": read_results_file,
}
