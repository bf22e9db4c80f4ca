"""Match records: JSON round trips, replay verification, and every way a record can be wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from flametable.bots.base import RandomBot
from flametable.core.data import load_toml
from flametable.core.errors import RecordError
from flametable.core.match import new_record
from flametable.core.record import RECORD_FORMAT, MatchRecord, ReplayReport, replay, start
from flametable.games.duel.actions import ACTIONS
from flametable.games.duel.cards import BUILTIN_SET, parse_card_set
from flametable.games.duel.game import DuelGame
from flametable.games.duel.rules import RULES_VERSION
from flametable.service import play
from flametable.texts.translator import Translator
from tests.builtin_data import DUEL_CARDS

GAME = DuelGame()
ES = Translator.for_language("es")
MODES: list[dict[str, Any]] = [
    {"mode": "shared", "pick": "random"},
    {"mode": "shared", "pick": "draft"},
    {"mode": "decks"},
]


def played_record(options: dict[str, Any], seed: int, setup: dict[str, Any] | None = None) -> MatchRecord:
    record = new_record(GAME, options, seed, ["bot:random", "human:ana"], setup=setup)
    state = GAME.new_match(options, seed, setup)
    bots = [RandomBot(seed + 11), RandomBot(seed + 12)]
    play(state, [bots[0].choose, bots[1].choose], record)
    return record


def copy_of(record: MatchRecord) -> MatchRecord:
    return MatchRecord.from_json(json.loads(record.dumps()))


def illegal_text_at(record: MatchRecord, index: int) -> str:
    """The notation of an action that is not legal at step ``index`` of the record."""
    state = start(GAME, record)
    for text in record.actions[:index]:
        state.apply(GAME.action_from_text(text))
    legal = set(state.legal_actions())
    original = GAME.action_from_text(record.actions[index])
    # prefer an action of the same kind (the subtlest change), else any illegal action
    same_kind = [a for a in ACTIONS if a.kind is original.kind and a not in legal]
    return (same_kind or [a for a in ACTIONS if a not in legal])[0].text()


@pytest.fixture(scope="module")
def records() -> list[MatchRecord]:
    return [played_record(options, seed) for options in MODES for seed in (1, 2, 3)]


# ---------------------------------------------------------------------------------------------- shape


def test_new_record_names_game_rules_and_card_set() -> None:
    record = new_record(GAME, MODES[0], 5, ["a", "b"])
    assert record.game == "duel"
    assert record.rules_version == RULES_VERSION
    assert record.content == {"id": GAME.cards.id, "hash": GAME.cards.hash}
    assert record.content["hash"].startswith("sha256:")
    assert (record.actions, record.result, record.setup) == ([], None, None)
    data = record.to_json()
    assert data["format"] == RECORD_FORMAT
    assert set(data) == {"format", "game", "rules_version", "content", "options", "seed", "setup", "players",
                         "actions", "result"}


def test_records_round_trip_through_json(records: list[MatchRecord]) -> None:
    for record in records:
        text = record.dumps()
        assert MatchRecord.from_json(json.loads(text)) == record
        assert json.loads(text)["result"] == record.result


def test_save_and_load(tmp_path: Path, records: list[MatchRecord]) -> None:
    for i, record in enumerate(records):
        path = tmp_path / f"match-{i}.json"
        record.save(path)
        assert MatchRecord.load(path) == record
        assert MatchRecord.load(str(path)) == record
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"match-{i}.json" for i in range(len(records)))


def test_save_replaces_an_existing_record(tmp_path: Path, records: list[MatchRecord]) -> None:
    path = tmp_path / "m.json"
    records[0].save(path)
    records[1].save(path)
    assert MatchRecord.load(path) == records[1]
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


# --------------------------------------------------------------------------------------------- replay


def test_played_records_replay(records: list[MatchRecord]) -> None:
    for record in records:
        report = replay(GAME, record)
        assert report.ok, report
        assert report.steps == len(record.actions)
        assert report.outcome is not None
        assert report.outcome.to_json() == record.result
        assert (report.bad_index, report.bad_action, report.reason) == (None, None, None)
        assert report.to_json() == {"ok": True, "steps": len(record.actions), "result": record.result}


def test_record_with_an_explicit_setup_replays() -> None:
    from flametable.games.duel.cards import SupportKind

    place = next(s.number for s in GAME.cards.supports if s.kind is SupportKind.PLACE)
    rest = [n for n in range(1, 22) if n != place]
    setup = {
        "lineups": [[3, 7, 12], [5, 9, 20]],
        "hands": [rest[0:3], rest[3:6]],
        "piles": [rest[6:15]],
        "discards": [[rest[15]], [rest[16]]],
        "place": {"card": place, "owner": 1},
    }
    for seed in range(5):
        record = played_record(MODES[0], seed, setup)
        assert record.setup == setup
        loaded = copy_of(record)
        report = replay(GAME, loaded)
        assert report.ok, report
        assert report.outcome is not None
        assert report.outcome.to_json() == record.result


def test_players_do_not_matter_for_replay(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.players = ["someone", "else"]
    assert replay(GAME, record).ok


@pytest.mark.parametrize(("players", "english", "spanish"), [
    ([], "the record names 0 players; a match has 2", "el registro nombra a 0 jugadores; una partida tiene 2"),
    (["a"], "the record names 1 player; a match has 2", "el registro nombra a 1 jugador; una partida tiene 2"),
    (["a", "b", "c"], "the record names 3 players; a match has 2",
     "el registro nombra a 3 jugadores; una partida tiene 2"),
])
def test_a_record_names_a_player_for_each_of_the_two_seats(records: list[MatchRecord], players: list[str],
                                                           english: str, spanish: str) -> None:
    """The one check of a record's players, for replaying (``replay --verify``) and playing on (``--resume``):
    a match has two seats; the count picks the noun's form in each language."""
    record = copy_of(records[0])
    record.players = players
    for begin in (lambda: start(GAME, record), lambda: replay(GAME, record)):
        with pytest.raises(RecordError) as info:
            begin()
        assert str(info.value) == english
        assert ES.error(info.value) == spanish


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_an_illegal_action_is_reported_with_its_index(records: list[MatchRecord], where: str) -> None:
    for original in records:
        n = len(original.actions)
        index = {"first": 0, "middle": n // 2, "last": n - 1}[where]
        record = copy_of(original)
        bad = illegal_text_at(record, index)
        record.actions[index] = bad
        report = replay(GAME, record)
        assert not report.ok
        assert report.bad_index == index
        assert report.bad_action == bad
        assert report.reason
        assert report.steps == index
        assert report.outcome is None
        out = report.to_json()
        assert (out["ok"], out["index"], out["action"], out["reason"]) == (False, index, bad, report.reason)


@pytest.mark.parametrize("text", ["fly S3", "play S99", "", "stat fire", "pick", "play S²"])
def test_unreadable_notation_is_reported_with_its_index(records: list[MatchRecord], text: str) -> None:
    record = copy_of(records[0])
    index = len(record.actions) // 3
    record.actions[index] = text
    report = replay(GAME, record)
    assert (report.ok, report.bad_index, report.bad_action) == (False, index, text)
    assert report.reason


def test_a_changed_result_is_reported(records: list[MatchRecord]) -> None:
    for original in records:
        assert original.result is not None
        for change in ({"scores": [9, 9]}, {"winner": None if original.result["winner"] is not None else 0},
                       {"reason": "tied_match" if original.result["reason"] != "tied_match" else "tiebreak_round"}):
            record = copy_of(original)
            assert record.result is not None
            record.result = {**record.result, **change}
            report = replay(GAME, record)
            assert not report.ok
            assert report.bad_index is None
            assert report.reason
            assert "differs" in report.reason
            assert report.outcome is not None
            assert report.outcome.to_json() == original.result
            # Without verification the same record replays fine.
            assert replay(GAME, record, verify_result=False).ok


def test_a_record_without_a_result_replays_but_does_not_verify(records: list[MatchRecord]) -> None:
    """A finished match whose record holds no result replays (every action legal), but verifying it fails with
    its reason: there is nothing to compare the replayed result with, so it is never reported as verified."""
    for original in records:
        record = copy_of(original)
        record.result = None
        assert replay(GAME, record, verify_result=False).ok
        report = replay(GAME, record)
        assert not report.ok
        assert report.no_result
        assert report.reason is not None
        assert "no result" in report.reason
        assert report.outcome is not None
        assert report.outcome.to_json() == original.result
        assert report.to_json()["no_result"] is True


@pytest.mark.parametrize("cut", [1, 2, 5])
def test_a_truncated_record_is_reported(records: list[MatchRecord], cut: int) -> None:
    for original in records:
        record = copy_of(original)
        record.actions = record.actions[:-cut]
        n = len(record.actions)
        report = replay(GAME, record)
        assert not report.ok
        assert report.bad_index == n
        assert report.steps == n
        assert report.bad_action is None
        assert report.reason


def test_actions_after_the_end_are_reported(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    n = len(record.actions)
    record.actions.append("pass")
    report = replay(GAME, record)
    assert (report.ok, report.bad_index, report.bad_action) == (False, n, "pass")
    assert report.reason


def test_an_empty_record_is_reported(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.actions = []
    report = replay(GAME, record)
    assert (report.ok, report.bad_index, report.steps) == (False, 0, 0)


def test_a_different_seed_breaks_the_replay(records: list[MatchRecord]) -> None:
    """The seed decides the deal: the same actions with another seed are not a valid match."""
    broken = 0
    for original in records:
        record = copy_of(original)
        record.seed += 1000
        report = replay(GAME, record)
        broken += not report.ok
    assert broken >= len(records) // 2


# ------------------------------------------------------------------------------ records that do not fit


def test_wrong_game_is_a_record_error(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.game = "duals"
    with pytest.raises(RecordError, match="duals"):
        replay(GAME, record)


def test_wrong_rules_version_is_a_record_error(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.rules_version = "flame-duel/0"
    with pytest.raises(RecordError, match="flame-duel/0"):
        replay(GAME, record)


def test_wrong_card_set_hash_is_a_record_error(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.content = {"id": record.content["id"], "hash": "sha256:" + "0" * 64}
    with pytest.raises(RecordError, match="sha256:0000"):
        replay(GAME, record)


def test_a_record_of_another_card_set_does_not_replay_with_the_builtin_one(records: list[MatchRecord]) -> None:

    text = DUEL_CARDS.read_text(encoding="utf-8")
    data = load_toml(BUILTIN_SET, text=text)
    data["set"]["version"] = int(data["set"]["version"]) + 1
    other = DuelGame(parse_card_set(data, "edited.toml"))
    assert other.content_id()[1] != GAME.content_id()[1]
    with pytest.raises(RecordError):
        replay(other, records[0])
    own = played_record(MODES[0], 4)
    own_other = new_record(other, MODES[0], 4, ["a", "b"])
    own_other.actions, own_other.result = own.actions, own.result
    assert replay(other, own_other).ok
    with pytest.raises(RecordError):
        replay(GAME, own_other)


@pytest.mark.parametrize("options", [{"mode": "chess"}, {"mode": "shared", "pick": "auction"}, {"colour": "red"},
                                     {"mode": "decks", "pick": "draft"}])
def test_bad_options_are_a_record_error(records: list[MatchRecord], options: dict[str, Any]) -> None:
    record = copy_of(records[0])
    record.options = options
    with pytest.raises(RecordError):
        replay(GAME, record)


def test_a_record_whose_decks_disagree_with_its_setup_is_refused() -> None:
    """A record of own decks (R2) played from an explicit setup replays and verifies; the same record claiming
    other decks in its options is refused with the disagreement named, never verified against the setup's."""
    lineups = [[3, 7, 12], [5, 9, 20]]
    sups = [list(range(1, 9)), list(range(9, 21))]
    decks = [{"characters": lineups[p], "supports": sups[p]} for p in (0, 1)]
    setup = {"lineups": lineups, "hands": [sups[0][:3], sups[1][:3]], "piles": [sups[0][3:], sups[1][3:]]}
    record = played_record({"mode": "decks", "decks": decks}, 4, setup)
    assert replay(GAME, copy_of(record)).ok
    claimed = copy_of(record)
    claimed.options = {"mode": "decks", "decks": [decks[0], {**decks[1], "supports": list(range(1, 11))}]}
    with pytest.raises(RecordError, match=r"support cards .* options\.decks\[1\]"):
        replay(GAME, claimed)


def test_bad_setup_is_a_record_error(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.setup = {"lineups": [[1, 2, 3], [1, 5, 6]], "piles": [[7, 8]]}  # character 1 twice in shared mode
    with pytest.raises(RecordError):
        replay(GAME, record)


# ------------------------------------------------------------------------------------- malformed files


def test_malformed_json_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "flametable-record/1", "game": ', encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken\.json"):
        MatchRecord.load(path)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"nowhere\.json"):
        MatchRecord.load(tmp_path / "nowhere.json")


def test_non_utf8_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"game": "caf\xe9"}')
    with pytest.raises(RecordError, match=r"latin1\.json"):
        MatchRecord.load(path)


def _valid_json(records: list[MatchRecord]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(records[0].dumps())
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="flametable-record/0"), "format"),
        (lambda d: d.pop("format"), "format"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.pop("game"), "game"),
        (lambda d: d.pop("actions"), "actions"),
        (lambda d: d.update(seed="7"), "seed"),
        (lambda d: d.update(seed=True), "seed"),
        (lambda d: d.update(seed=1.5), "seed"),
        (lambda d: d.update(actions="pass"), "actions"),
        (lambda d: d.update(actions=["pass", 3]), r"actions\[1\]"),
        (lambda d: d.update(options=[]), "options"),
        (lambda d: d.update(content="x"), "content"),
        (lambda d: d.update(setup=[1]), "setup"),
        (lambda d: d.update(result="won"), "result"),
        (lambda d: d.update(players="ab"), "players"),
    ],
)
def test_malformed_record_fields_are_record_errors(tmp_path: Path, records: list[MatchRecord], change: Any,
                                                   message: str) -> None:
    data = _valid_json(records)
    change(data)
    with pytest.raises(RecordError, match=message):
        MatchRecord.from_json(data, "mine.json")
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match=r"mine\.json"):
        MatchRecord.load(path)


@pytest.mark.parametrize("data", [[], "record", 3, None])
def test_a_record_must_be_an_object(data: Any) -> None:
    with pytest.raises(RecordError, match="object"):
        MatchRecord.from_json(data, "x.json")


def test_report_json_of_a_failed_replay() -> None:
    report = ReplayReport(False, None, 3, 3, "play S4", "S4 is not in your hand.")
    assert report.to_json() == {"ok": False, "steps": 3, "result": None, "index": 3, "action": "play S4",
                                "reason": "S4 is not in your hand."}


@pytest.mark.parametrize("winner", [0, 1])
def test_a_resigned_match_replays_as_a_resignation(records: list[MatchRecord], winner: int) -> None:
    """A match stopped by a resignation (the online table's records): every action legal, the match not over by
    the rules, the result naming the resignation; the seat that gave up is the loser."""
    record = copy_of(records[0])
    record.actions = record.actions[:3]
    record.result = {"winner": winner, "reason": "resigned", "scores": [0, 0]}
    report = replay(GAME, record)
    assert report.ok
    assert report.resigned == 1 - winner
    assert report.steps == 3
    assert report.to_json()["result"] == record.result


@pytest.mark.parametrize("result", [
    {"winner": None, "reason": "resigned", "scores": [0, 0]},
    {"winner": True, "reason": "resigned", "scores": [0, 0]},
    {"winner": 2, "reason": "resigned", "scores": [0, 0]},
    {"winner": 0, "reason": "two_round_wins", "scores": [2, 0]},
])
def test_a_stopped_match_with_any_other_result_is_not_a_resignation(records: list[MatchRecord],
                                                                    result: dict[str, Any]) -> None:
    record = copy_of(records[0])
    record.actions = record.actions[:3]
    record.result = result
    report = replay(GAME, record)
    assert not report.ok
    assert report.resigned is None


def test_a_finished_match_is_never_taken_for_a_resignation(records: list[MatchRecord]) -> None:
    record = copy_of(records[0])
    record.result = {"winner": 0, "reason": "resigned", "scores": [0, 0]}
    report = replay(GAME, record)
    assert report.resigned is None
    assert not report.ok  # the replayed result differs from the stored one
