"""Limits at the door (issue 10, docs/limits.md): a file past a limit is refused with an error naming the file and
what was wrong, in the reader's language, before the parser can end in a traceback (RecursionError about 500 deep,
ValueError past Python's 4,300-digit integers) or a printer can (a lone surrogate cannot be encoded)."""

from __future__ import annotations

import csv
import io
import json
import time
from importlib import resources
from pathlib import Path

import pytest

from flametable.core.data import load_toml
from flametable.core.errors import DataError, FlametableError, IllegalAction, RecordError
from flametable.core.limits import MAX_DEPTH, MAX_RECORD_BYTES, MAX_STRING_CHARS, LimitError, loads_json, scan_text
from flametable.core.record import MatchRecord
from flametable.core.rng import SeedError, check_seed
from flametable.games.duals.data import parse_duals_data
from flametable.games.duals.game import DualsGame
from flametable.games.duel.actions import DuelAction
from flametable.sim.results import CSV_FIELDS, ResultsError, csv_header, read_results
from flametable.texts.translator import Translator

ES = Translator.for_language("es")
HUGE = "7" * 5000  # past Python's 4,300-digit limit of int()
DEEP_TOML = "x = " + "[" * 600 + "]" * 600 + "\n"  # past tomllib's recursion
DEEP_JSON = "[" * 600 + "]" * 600


def refused(error: type[FlametableError], call: object) -> FlametableError:
    with pytest.raises(error) as info:
        call()  # type: ignore[operator]
    return info.value


def record_text(**changes: object) -> str:
    data = {"format": "flametable-record/1", "game": "duel", "rules_version": "1", "content": {}, "options": {},
            "seed": 1, "setup": None, "players": ["a", "b"], "actions": [], "result": None}
    data.update(changes)
    return json.dumps(data)


# ---------------------------------------------------------------------------------------------------- TOML


def test_a_toml_integer_of_5000_digits_is_refused_naming_file_and_line(tmp_path: Path) -> None:
    """tomllib would raise ValueError (Python's 4,300-digit limit): the scan refuses the number first."""
    path = tmp_path / "cards.toml"
    path.write_text(f"[set]\nid = \"x\"\nversion = {HUGE}\n", encoding="utf-8")
    exc = refused(DataError, lambda: load_toml(path))
    assert str(exc) == f"{path}: file: limits: line 3: a number of more than 100 digits"
    assert ES.error(exc) == f"{path}: archivo: límites: línea 3: un número de más de 100 cifras"


def test_a_toml_integer_with_underscores_is_measured_as_written(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text("n = " + "1_" * 3000 + "1\n", encoding="utf-8")
    assert "a number of more than" in str(refused(DataError, lambda: load_toml(path)))


def test_toml_integers_outside_64_bits_are_refused(tmp_path: Path) -> None:
    """The TOML spec's integers are 64-bit signed; tomllib reads any size. A hex literal is no decimal string,
    so Python reads it at any length: the value check refuses it."""
    path = tmp_path / "cards.toml"
    path.write_text("[set]\nversion = 0x" + "f" * 40 + "\n", encoding="utf-8")
    exc = refused(DataError, lambda: load_toml(path))
    assert str(exc) == f"{path}: file: limits: /set/version: the integer is outside {-(2**63)} to {2**63 - 1}"


def test_toml_arrays_nested_600_deep_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(DEEP_TOML, encoding="utf-8")
    exc = refused(DataError, lambda: load_toml(path))
    assert str(exc) == f"{path}: file: limits: lists and tables nested more than {MAX_DEPTH} deep"


def test_nesting_up_to_the_limit_and_brackets_in_strings_and_comments_are_fine() -> None:
    ok = "x = " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    assert load_toml("ok.toml", text=ok)["x"]
    quoted = 'a = "' + "[" * 600 + '"\nb = \'' + "{" * 600 + "'\n# " + "[" * 600 + "\nc = " + '"""' + "[" * 600 \
        + '\n"""\nd = ' + "1" * 18 + "\n"
    assert load_toml("ok.toml", text=quoted)["d"] == int("1" * 18)
    assert load_toml("ok.toml", text='s = "' + HUGE[:MAX_STRING_CHARS] + '"\n')["s"]


def test_a_toml_string_past_the_limit_is_refused() -> None:
    exc = refused(DataError, lambda: load_toml("long.toml", text='[set]\nid = "' + "a" * 1001 + '"\n'))
    assert str(exc) == "long.toml: file: limits: /set/id: a text of more than 1000 characters"


def test_a_toml_file_past_its_size_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"# " + b"x" * (1024 * 1024) + b"\n")
    assert str(refused(DataError, lambda: load_toml(path))) == (
        f"{path}: file: limits: the file is larger than 1048576 bytes")


# ---------------------------------------------------------------------------------------------------- JSON


@pytest.mark.parametrize(("text", "problem"), [
    (HUGE, "a number of more than 100 digits"),
    ("[\n1,\n" + HUGE + "]", "line 3: a number of more than 100 digits"),
    (DEEP_JSON, f"lists and tables nested more than {MAX_DEPTH} deep"),
    ('["play S3\\ud800"]', "/0: a text holds a lone surrogate (\\ud800), which is no character"),
    ('{"a": {"b\\udc80": 1}}', "/a: a text holds a lone surrogate (\\udc80), which is no character"),
    ('{"k": NaN}', "NaN is not a JSON number"),
    ('[1e999]', "/0: not a finite number"),
    (str(2**64), f"/: the integer is outside {1 - 2**64} to {2**64 - 1}"),
])
def test_json_past_a_limit_is_refused(text: str, problem: str) -> None:
    assert str(refused(LimitError, lambda: loads_json(text))) == problem


def test_json_within_the_limits_reads_as_json_does() -> None:
    text = json.dumps({"a": [[["[{"]]], "seed": 2**64 - 1, "n": -3, "x": 0.5, "t": "ñ 😀"})
    assert loads_json(text) == json.loads(text)
    scan_text('"\\"[[[["')  # an escaped quote does not end the string


def test_a_string_past_the_limit_is_found_among_escaped_quotes() -> None:
    """A string of JSON text inside JSON (its quotes escaped, as the server's processes send events to one another)
    is held to the string limit like any other: refused one character past it, read up to it."""
    inner = '\\"' * (MAX_STRING_CHARS // 2)  # each \" decodes to one character
    assert loads_json('{"text": "' + inner + '"}') == {"text": '"' * (MAX_STRING_CHARS // 2)}
    with pytest.raises(LimitError, match="more than 1000 characters"):
        loads_json('{"a": "' + "x" * 10 + '", "text": "' + inner * 2 + 'y"}')


def test_json_with_many_escaped_quotes_is_read_in_linear_time() -> None:
    """Event texts carried inside JSON strings (2,000 events, about 400,000 escaped quotes) are read in well under a
    second: the check for long strings does not try a thousand characters from each quote (it took about 3 ms for
    each 1.5 KB message of the cluster's bus, and over 2 s for this text)."""
    event = json.dumps({"type": "event", "view": {"hand": [{"name": f"card {i}", "spark": i} for i in range(12)]}})
    pieces = [json.dumps([event[k:k + 900] for k in range(0, len(event), 900)]) for _ in range(2000)]
    text = "[" + ",".join(pieces) + "]"
    assert text.count('\\"') > 100_000
    started = time.perf_counter()
    assert len(loads_json(text)) == 2000
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize(("text", "key"), [
    ('{"type": "act", "type": "sync"}', "type"),
    ('[{"a": 1}, {"a": 2, "b": {"c": 1, "d": 2, "c": 1}}]', "c"),  # the same value twice is still two ways to read
    ('{"\\u0061": 1, "a": 2}', "a"),  # written two ways, the same key
])
def test_a_json_object_with_a_key_twice_is_refused_naming_the_key(text: str, key: str) -> None:
    """Python keeps the last value of a key written twice, other parsers the first: one text, two readings."""
    exc = refused(LimitError, lambda: loads_json(text))
    assert str(exc) == f"the key {key!r} appears twice in one object"
    assert ES.error(exc) == f"la clave {key!r} aparece dos veces en un mismo objeto"


def test_the_same_key_in_different_objects_is_no_key_twice() -> None:
    text = '{"a": {"a": 1}, "rounds": [{"winner": 0}, {"winner": 1}]}'
    assert loads_json(text) == json.loads(text)


def test_a_record_with_a_key_twice_is_refused_naming_it(tmp_path: Path) -> None:
    """A record read two ways (the seed of one parser or of another) is no record: its file is refused."""
    path = tmp_path / "r.json"
    path.write_text(record_text()[:-1] + ', "seed": 2}', encoding="utf-8")
    exc = refused(RecordError, lambda: MatchRecord.load(path))
    assert str(exc) == f"{path}: the key 'seed' appears twice in one object"
    assert ES.error(exc) == f"{path}: la clave 'seed' aparece dos veces en un mismo objeto"


def test_a_record_with_a_lone_surrogate_in_an_action_is_refused(tmp_path: Path) -> None:
    """The action 'play S3\\ud800' was echoed back and crashed the text and the --json output."""
    path = tmp_path / "r.json"
    path.write_text(record_text(actions=["play S3\ud800"]), encoding="utf-8")  # json.dumps escapes it: \ud800
    exc = refused(RecordError, lambda: MatchRecord.load(path))
    assert str(exc) == f"{path}: /actions/0: a text holds a lone surrogate (\\ud800), which is no character"
    assert ES.error(exc).startswith(f"{path}: /actions/0: un texto contiene")
    ES.error(exc).encode("utf-8")


@pytest.mark.parametrize("body", [record_text()[:-1] + f', "x": {HUGE}}}', DEEP_JSON])
def test_records_with_huge_numbers_or_deep_nesting_are_refused(tmp_path: Path, body: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(body, encoding="utf-8")
    assert str(refused(RecordError, lambda: MatchRecord.load(path))).startswith(f"{path}: ")


def test_a_record_past_its_size_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(record_text(players=["a" * 1000] * (MAX_RECORD_BYTES // 1000)), encoding="utf-8")
    assert str(refused(RecordError, lambda: MatchRecord.load(path))) == (
        f"{path}: the file is larger than {MAX_RECORD_BYTES} bytes")


# ---------------------------------------------------------------------------------------------------- results


def csv_row(**changes: str) -> str:
    row = {"index": "0", "seed": "1", "game": "duel", "p1": "bot:random", "p2": "bot:easy", "p1_seat": "0",
           "winner": "p1", "winner_seat": "0", "reason": "points", "score1": "2", "score2": "1", "p1_points": "1.0",
           "actions": "30", "seconds": "0.01", "summary": "{}"}
    row.update(changes)
    return ",".join(row[f] for f in CSV_FIELDS) + "\n"


def test_a_good_csv_row_reads() -> None:
    """The rows the refusals below start from are good ones."""
    from flametable.sim.results import encode_line, parse_csv
    from flametable.sim.runner import SimSpec, run

    line = next(iter(run(SimSpec("duel", "bot:random", "bot:random", 1, seed=5))))
    summary = next(csv.DictReader(io.StringIO(csv_header() + encode_line(line, True))))["summary"]
    quoted = '"' + summary.replace('"', '""') + '"'  # a CSV cell holding the JSON summary
    assert parse_csv(csv_header() + csv_row(summary=quoted), "r.csv")[0]["seed"] == 1


@pytest.mark.parametrize(("row", "problem"), [
    ("0,1,duel\n", "line 2: 3 fields, the header has 15"),
    (csv_row().rstrip("\n") + ",extra\n", "line 2: 16 fields, the header has 15"),
    (csv_row(summary='"' + "x" * 140_000 + '"'), "line 2: a field of more than 131072 characters"),
    (csv_row(summary='"' + "[" * 600 + "]" * 600 + '"'), f"line 2: lists and tables nested more than {MAX_DEPTH} deep"),
    (csv_row(seed=HUGE), "line 2: seed: at most 1000 characters, got 5000"),
    (csv_row(seed="١٢"), "line 2: seed: must be a whole number, got '١٢'"),
    (csv_row(p1_points="inf"), "line 2: p1_points: must be a number, got 'inf'"),
])
def test_bad_csv_rows_are_refused_naming_the_line(tmp_path: Path, row: str, problem: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(csv_header() + row, encoding="utf-8")
    assert str(refused(ResultsError, lambda: read_results(path))) == f"{path}: {problem}"


@pytest.mark.parametrize(("line", "problem"), [
    (HUGE, "line 1: a number of more than 100 digits"),
    (DEEP_JSON, f"line 1: lists and tables nested more than {MAX_DEPTH} deep"),
    ('{"game": "duel\\udfff"}', "line 1: /game: a text holds a lone surrogate (\\udfff), which is no character"),
    ('{"game": "duel", "game": "duals"}', "line 1: the key 'game' appears twice in one object"),
])
def test_bad_json_result_lines_are_refused_naming_the_line(tmp_path: Path, line: str, problem: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    exc = refused(ResultsError, lambda: read_results(path))
    assert str(exc) == f"{path}: {problem}"
    ES.error(exc).encode("utf-8")


# ---------------------------------------------------------------------------------------------------- notation


@pytest.mark.parametrize("text", ["play S" + "1" * 5000, "pick C" + "2" * 5000, "play S²", "play S٣", "play S𝟐"])
def test_flame_duel_card_numbers_are_few_ascii_digits(text: str) -> None:
    """A 5,000-digit card number raised ValueError in int(); other digits than 0-9 are no card number."""
    with pytest.raises(IllegalAction, match="needs a card"):
        DuelAction.from_text(text)


@pytest.mark.parametrize("text", ["bottom K²", "score K𝟐𝟓", "score K٢", "score ٢٥", "bottom K" + "1" * 5000])
def test_duals_card_numbers_are_few_ascii_digits(text: str) -> None:
    """'bottom K²' passed isdigit() and failed in int(); 'K𝟐𝟓' and Arabic-Indic digits read as card numbers
    where Flame Duel refuses them."""
    space = DualsGame().actions
    with pytest.raises(IllegalAction, match="needs a card K1 to K43"):
        space.from_text(text)
    assert space.from_text("score K25").text() == "score K25"


# ---------------------------------------------------------------------------------------------------- seeds


@pytest.mark.parametrize("seed", [-1, 2**64, 2**64 + 5, 10**30, True, 1.0, "5"])
def test_seeds_outside_the_documented_range_are_refused_never_reduced(seed: object) -> None:
    with pytest.raises(SeedError, match="a seed is an integer from 0 to 18446744073709551615"):
        check_seed(seed)
    assert check_seed(0) == 0
    assert check_seed(2**64 - 1) == 2**64 - 1


def test_a_record_with_seed_s_plus_2_64_is_refused() -> None:
    data = json.loads(record_text(seed=5 + 2**64))
    with pytest.raises(RecordError, match=rf"^r.json: record: seed: must be at most {2**64 - 1}, got {5 + 2**64}$"):
        MatchRecord.from_json(data, "r.json")
    assert MatchRecord.from_json(json.loads(record_text(seed=5)), "r.json").seed == 5


# ---------------------------------------------------------------------------------------------------- Duals boards


def duals_toml(board: str, cards: str = "") -> str:
    """The built-in Duals data with another board (and cards added to the shop deck)."""
    text = resources.files("flametable.games.duals").joinpath("data", "duals.toml").read_text("utf-8")
    start, end = text.index("[board]"), text.index("[tokens]")
    return text[:start] + board + "\n" + text[end:] + cards


def hex_board(radius: int) -> str:
    spaces = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]
    names = {c: f"s{i}" for i, c in enumerate(spaces)}
    inner = ", ".join(f'"{names[c]}"' for c in [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])
    return f"[board]\ninner = [{inner}]\n" + "".join(
        f'[[board.spaces]]\nname = "{names[(q, r)]}"\nq = {q}\nr = {r}\n' for q, r in spaces)


def test_a_duals_board_of_radius_4_loads_and_one_of_radius_5_is_refused_quickly() -> None:
    """The format allowed q and r from -99 to 99: 10,981 spaces took 40 s to check. A hexagon of radius 4 (61
    spaces) is the largest board the format takes now."""
    assert parse_duals_data(load_toml("b4.toml", text=duals_toml(hex_board(4))), "b4.toml").board.size == 61
    exc = refused(DataError, lambda: parse_duals_data(load_toml("b5.toml", text=duals_toml(hex_board(5))), "b5.toml"))
    assert str(exc) == "b5.toml: board: spaces: a board has 1 to 61 spaces, got 91"
    assert ES.error(exc) == "b5.toml: board: spaces: un tablero tiene de 1 a 61 espacios, no 91"


def test_duals_coordinates_offsets_variables_and_cards_are_bounded() -> None:
    far = duals_toml('[board]\ninner = ["a1", "a2", "a3", "a4", "a5", "a6"]\n' + "".join(
        f'[[board.spaces]]\nname = "a{i}"\nq = {q}\nr = 0\n' for i, q in enumerate([0, 1, 2, 3, 4, 5, 9], 1)))
    assert str(refused(DataError, lambda: parse_duals_data(load_toml("f.toml", text=far), "f.toml"))) == (
        "f.toml: board: spaces[6]: q: must be at most 8, got 9")
    offset = duals_toml(hex_board(2), '[[card]]\nnumber = 44\nvp = 1\ncells = [{ at = [1000000000000, 0], '
                        'type = "bread" }]\n')
    assert str(refused(DataError, lambda: parse_duals_data(load_toml("o.toml", text=offset), "o.toml"))) == (
        "o.toml: card 44: cells[0]: at[0]: must be at most 16, got 1000000000000")
    cells = ", ".join(f'{{ at = [{q}, {r}], var = "V{i}" }}'
                      for i, (q, r) in enumerate([(0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, -1), (-1, 1)]))
    seven = duals_toml(hex_board(2), f"[[card]]\nnumber = 44\nvp = 1\ncells = [{cells}]\n")
    assert str(refused(DataError, lambda: parse_duals_data(load_toml("v.toml", text=seven), "v.toml"))) == (
        "v.toml: card 44: cells: at most 6 variables (one per type), got 7")
    many = duals_toml(hex_board(2), "".join(f'[[card]]\nnumber = {n}\nvp = 1\ncells = [{{ at = [0, 0], '
                                            f'type = "bread" }}]\n' for n in range(44, 101)))
    assert str(refused(DataError, lambda: parse_duals_data(load_toml("m.toml", text=many), "m.toml"))) == (
        "m.toml: file: card: the shop deck has 1 to 99 cards, got 100")


def test_docs_limits_states_the_limits_the_code_has() -> None:
    """docs/limits.md lists every limit per format: its figures are the code's."""
    from flametable.core import limits
    from flametable.games.duals import data

    text = (Path(__file__).parents[2] / "docs" / "limits.md").read_text(encoding="utf-8")
    assert f"at most {limits.MAX_DEPTH} inside each other" in text
    assert f"at most {limits.MAX_NUMBER_CHARS} digits" in text
    assert f"at most {limits.MAX_STRING_CHARS:,} characters" in text
    assert f"at most 1 MiB ({limits.MAX_DATA_BYTES:,} bytes)" in text
    assert f"record file size | at most {limits.MAX_RECORD_BYTES // limits.MIB} MiB" in text
    assert f"file size | at most {limits.MAX_RESULTS_BYTES // limits.MIB} MiB" in text
    assert f"at most {limits.MAX_CSV_FIELD_CHARS:,} characters" in text
    assert f"`q` and `r` from −{data.MAX_COORD} to {data.MAX_COORD} and at most {data.MAX_SPACES} spaces" in text
    assert f"from −{data.MAX_OFFSET} to {data.MAX_OFFSET}; at most {data.MAX_VARIABLES} variables" in text
    assert f"at most {data.MAX_CARDS} shop cards" in text
    assert "**0 to 2⁶⁴ − 1**" in text
    assert check_seed(2**64 - 1) == 2**64 - 1
