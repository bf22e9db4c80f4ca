"""Match records: one JSON document per match, replayable and verifiable for any game of the protocol."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flametable.core.data import read_text_file
from flametable.core.errors import FlametableError, IllegalAction, RecordError
from flametable.core.i18n import N_, N_plural
from flametable.core.jsonerr import json_problem
from flametable.core.limits import MAX_RECORD_BYTES, LimitError, loads_json
from flametable.core.outcome import Outcome
from flametable.core.protocol import Game, GameState
from flametable.core.rng import SEED_MAX, SEED_MIN
from flametable.core.schema import RECORD, Anything, Const, Int, List, Nullable, Obj, Str, located, validate

RECORD_FORMAT = "flametable-record/1"
SEATS = 2
"""A match of every game of the protocol has two seats (``to_act`` is 0 or 1): a record names a player for each."""
_NAME = Str(max_len=200)
SCHEMA = Obj(
    required={
        "format": Const(RECORD_FORMAT),
        "game": _NAME,
        "rules_version": _NAME,
        "content": Obj(optional={"id": Str(blank=True, max_len=200), "hash": Str(blank=True, max_len=200)},
                       description="the card set or board data played with: its id and content hash"),
        "options": Anything("object", "the game's options (checked by the game)"),
        "seed": Int(SEED_MIN, SEED_MAX, "the match's seed"),
        "players": List(Str(blank=True, max_len=200), max=16, description="the seats' players, as specs"),
        "actions": List(Str(max_len=200), max=1_000_000, description="every decision, in the game's notation"),
    },
    optional={
        "setup": Nullable(Anything("object", "an explicit setup instead of the seeded deal (checked by the game)")),
        "result": Nullable(Anything("object", "the stored result; null for a match left unfinished")),
        "clock": Nullable(Anything("object", "the time control of a timed match (the online table's, issue 24)")),
        "times": Nullable(List(Nullable(Int(0, 2**53, "milliseconds")), max=1_000_000,
                               description="each action's time by the server's clock, in milliseconds")),
    },
    title="flametable match record",
)
"""The shape of a match record (``docs/formats.md``); the game checks its options, setup and actions."""


def seat_value(value: Any, field: str) -> int:
    """A seat in a setup (who picks or plays first, a card's owner): the integer 0 or 1, never ``1.0`` or ``true``
    (it indexes per-seat lists); else a :class:`RecordError` naming ``field``."""
    if type(value) is not int or value not in (0, 1):
        raise RecordError(N_("{field} must be 0 or 1, got {value!r}"), field=field, value=value)
    return value


@dataclass
class MatchRecord:
    """Everything needed to replay a match exactly: the seeded (or explicit) setup and every decision."""

    game: str
    rules_version: str
    content: dict[str, str]  # {"id": ..., "hash": ...} of the card set / board data
    options: dict[str, Any]
    seed: int
    players: list[str]
    actions: list[str] = field(default_factory=list)
    setup: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None  # a timed match's time control (the online table's); None: untimed
    times: list[int | None] | None = None  # each action's time in ms, as ``actions`` (a timed match's)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "rules_version": self.rules_version,
            "content": self.content,
            "options": self.options,
            "seed": self.seed,
            "setup": self.setup,
            "players": self.players,
            "actions": self.actions,
            "result": self.result,
        }
        if self.clock is not None:  # only a timed match's record has them: the others' stay as they were
            out.update(clock=self.clock, times=self.times)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: Path | str) -> None:
        """Write atomically: a crash never leaves a half-written record in place of a good one."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(self.dumps() + "\n", encoding="utf-8")
        tmp.replace(target)

    @staticmethod
    def from_json(data: Any, source: str = "record") -> MatchRecord:
        validate(data, SCHEMA, source, RECORD, error=located(RecordError), json=True)
        content = data["content"]
        return MatchRecord(
            game=data["game"],
            rules_version=data["rules_version"],
            content={"id": content.get("id", ""), "hash": content.get("hash", "")},
            options=data["options"],
            seed=data["seed"],
            players=list(data["players"]),
            actions=list(data["actions"]),
            setup=data.get("setup"),
            result=data.get("result"),
            clock=data.get("clock"),
            times=list(data["times"]) if data.get("times") is not None else None,
        )

    @staticmethod
    def load(path: Path | str) -> MatchRecord:
        text = read_text_file(path, RecordError, MAX_RECORD_BYTES)
        try:
            data = loads_json(text)
        except LimitError as exc:
            raise RecordError(N_("{source}: {problem}"), source=str(path), problem=exc) from None
        except json.JSONDecodeError as exc:
            raise RecordError(N_("{file} is not valid JSON at line {line}, column {column}: {problem}"),
                              file=str(path), line=exc.lineno, column=exc.colno, problem=json_problem(exc)) from None
        return MatchRecord.from_json(data, str(path))


@dataclass(frozen=True)
class ReplayReport:
    """The result of replaying a record: ``ok`` or the first bad action (index, notation, reason); ``abandoned``
    when every action is legal but the match stops before its end and the record holds no result (a match left
    unfinished, which ``play --resume`` goes on with); ``no_result`` when the result was to be verified and the
    record, of a finished match, holds none to compare (nothing verified is never "ok")."""

    ok: bool
    outcome: Outcome | None
    steps: int
    bad_index: int | None = None
    bad_action: str | None = None
    reason: str | None = None
    error: IllegalAction | None = None  # the engine's own reason, translatable
    abandoned: bool = False
    no_result: bool = False
    resigned: int | None = None  # the seat that resigned, when the record says the match ended so
    forfeit: tuple[int, str] | None = None  # (the seat that lost, "time" or "left") when the record says so

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "steps": self.steps,
                               "result": self.outcome.to_json() if self.outcome else None}
        if not self.ok:
            out.update(index=self.bad_index, action=self.bad_action, reason=self.reason)
        if self.abandoned:
            out.update(abandoned=True)
        if self.no_result:
            out.update(no_result=True)
        if self.resigned is not None:
            out.update(resigned=self.resigned, result={"winner": 1 - self.resigned, "reason": RESIGNED,
                                                       "scores": [0, 0]})
        if self.forfeit is not None:
            loser, reason = self.forfeit
            out.update(result={"winner": 1 - loser, "reason": reason, "scores": [0, 0]})
        return out


def start(game: Game[Any, Any], record: MatchRecord) -> GameState[Any, Any]:
    """The record's initial state; raises :class:`RecordError` when it does not fit ``game`` (the one check of a
    record before it is replayed, verified or played on: ``replay``, ``play --resume``, the online table)."""
    if len(record.players) != SEATS:
        raise RecordError(N_plural("the record names {n} player; a match has {seats}",
                                   "the record names {n} players; a match has {seats}", "n"),
                          n=len(record.players), seats=SEATS)
    if record.game != game.name:
        raise RecordError(N_("the record is for the game {record!r}, not {game!r}"), record=record.game, game=game.name)
    if record.rules_version != game.rules_version:
        raise RecordError(N_("the record uses the rules {record!r}; this engine plays {engine!r}"),
                          record=record.rules_version, engine=game.rules_version)
    cid, chash = game.content_id()
    if record.content.get("hash") != chash:
        raise RecordError(
            N_("the record was played with the data {record!r} ({record_hash}); the data loaded is {loaded!r} "
               "({loaded_hash}): pass the same file"),
            record=record.content.get("id"), record_hash=record.content.get("hash"), loaded=cid, loaded_hash=chash)
    try:
        state: GameState[Any, Any] = game.new_match(record.options, record.seed, record.setup)
    except FlametableError as exc:
        raise RecordError(N_("the record cannot start a match: {error}"), error=exc) from None
    return state


RESIGNED = "resigned"
"""The ``reason`` of a result where a player gave up: ``{"winner": W, "reason": "resigned", "scores": [0, 0]}``
(the online table's records); every action is legal and the match stops before the rules end it."""


TIME = "time"
"""The ``reason`` of a result where a player's clock reached zero (the online table's, issue 24):
``{"winner": W, "reason": "time", "scores": [0, 0]}``; the match stops before the rules end it."""
LEFT = "left"
"""The ``reason`` of a result where a player left a real-time match and the other claimed the win (issue 24)."""
FORFEITS = (RESIGNED, TIME, LEFT)
"""The reasons of a match that stops, every action legal, before the rules end it: the loser is ``1 - winner``."""


def forfeiter(result: Any) -> int | None:
    """The seat that lost outside the rules (resigned, ran out of time, left), when ``result`` says so; else None."""
    if isinstance(result, dict) and result.get("reason") in FORFEITS and result.get("winner") in (0, 1) and \
            type(result.get("winner")) is int:
        return 1 - int(result["winner"])
    return None


def resigner(result: Any) -> int | None:
    """The seat that resigned, when ``result`` is a resignation's; else None."""
    if isinstance(result, dict) and result.get("reason") == RESIGNED and result.get("winner") in (0, 1) and \
            type(result.get("winner")) is int:
        return 1 - int(result["winner"])
    return None


def replay(game: Game[Any, Any], record: MatchRecord, verify_result: bool = True) -> ReplayReport:
    """Replay every action, checking each is legal and (optionally) that the stored result matches: a record
    with no result (null or missing) then fails, since there is nothing to compare."""
    state = start(game, record)
    for i, text in enumerate(record.actions):
        if state.to_act is None:
            return ReplayReport(False, state.outcome, i, i, text, "the match was already over")
        try:
            action = game.action_from_text(text)
            state.apply(action)
        except IllegalAction as exc:
            return ReplayReport(False, None, i, i, text, str(exc), exc)
    outcome = state.outcome
    n = len(record.actions)
    if outcome is None:
        resigned = resigner(record.result)
        if resigned is not None:
            return ReplayReport(True, None, n, resigned=resigned)
        lost = forfeiter(record.result)
        if lost is not None:  # on time, or left: the stored result is the match's end
            assert record.result is not None
            return ReplayReport(True, None, n, forfeit=(lost, str(record.result["reason"])))
        if record.result is None:
            return ReplayReport(False, None, n, n, None, f"the match was abandoned at action {n}", abandoned=True)
        return ReplayReport(False, None, n, n, None, "the record ends before the match does")
    if verify_result and record.result is None:
        return ReplayReport(False, outcome, n, None, None, "the record holds no result to compare with the replayed "
                            f"{json.dumps(outcome.to_json())}", no_result=True)
    if verify_result and record.result != outcome.to_json():
        return ReplayReport(False, outcome, n, None, None,
                            f"stored result {json.dumps(record.result)} differs from the replayed "
                            f"{json.dumps(outcome.to_json())}")
    return ReplayReport(True, outcome, n)
