"""The declared schemas (:mod:`flametable.core.schema`): one declaration checks a file and documents it.

The JSON Schema documents in ``docs/schemas/`` are what the declarations make (``python -m flametable.schemas``
rewrites them); valid built-in files and sample records and result lines pass both the readers' check and the
documents; a problem names the file, the entry and the field in the reader's language.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import tomllib
from functools import cache
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from flametable import schemas
from flametable.core.errors import DataError, FlametableError, RecordError
from flametable.core.i18n import Phrase
from flametable.core.record import SCHEMA as RECORD
from flametable.core.registry import builtins
from flametable.core.schema import Int, List, Obj, Str, Text, json_schema, label, located, validate
from flametable.games.duals.data import DUALS_DATA
from flametable.games.duel.cards import CARD_SET, DECK
from flametable.sim.results import CSV_ROW, ResultsError, csv_header, encode_line, line_schema, parse_csv
from flametable.sim.runner import SimSpec, run
from flametable.texts.translator import Translator

ES = Translator.for_language("es")
DUEL_TOML = tomllib.loads(resources.files("flametable.games.duel").joinpath("data", "cards.toml").read_text("utf-8"))
DUALS_TOML = tomllib.loads(resources.files("flametable.games.duals").joinpath("data", "duals.toml").read_text("utf-8"))
DECK_SAMPLE = {"characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}


@cache
def sample_lines() -> tuple[dict[str, Any], ...]:
    """Two matches of each built-in game, their records kept in the lines."""
    lines: list[dict[str, Any]] = []
    for entry in builtins():
        lines += run(SimSpec(entry.name, "bot:random", "bot:random", 2, seed=5, records=True))
    return tuple(lines)


def _document(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((schemas.DOCS / name).read_text(encoding="utf-8")))


def test_the_committed_documents_are_what_the_declarations_make() -> None:
    """Every generated document is in docs/schemas/, byte for byte (run python -m flametable.schemas)."""
    for name, doc in schemas.documents().items():
        path = schemas.DOCS / name
        assert path.exists(), name
        assert path.read_text(encoding="utf-8") == schemas.text(doc), f"{name} is stale: regenerate it"


def test_every_document_is_a_valid_draft_2020_12_schema() -> None:
    for doc in schemas.documents().values():
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(doc)


def test_the_builtin_card_set_and_a_deck_pass_the_declarations_and_the_documents() -> None:
    validate(DUEL_TOML, CARD_SET, "duel_cards.toml", Phrase("file"))
    validate(DECK_SAMPLE, DECK, "deck.toml", "deck")
    assert not list(_document("card-set.schema.json").iter_errors(DUEL_TOML))
    assert not list(_document("deck.schema.json").iter_errors(DECK_SAMPLE))


def test_the_builtin_duals_data_passes_its_declaration_and_its_document() -> None:
    """The Flamecraft Duals data file is declared like the card set: the built-in file passes both."""
    validate(DUALS_TOML, DUALS_DATA, "duals.toml", Phrase("file"))
    assert not list(_document("duals-data.schema.json").iter_errors(DUALS_TOML))


def test_the_duals_data_document_states_the_limits_of_the_board_and_the_shop_deck() -> None:
    """docs/limits.md's field ranges are in the document: q and r from -8 to 8, at most 61 spaces, at most 99
    cards numbered 1 to 99, offsets from -16 to 16; a file past them fails the document too."""
    doc = json.loads((schemas.DOCS / "duals-data.schema.json").read_text(encoding="utf-8"))
    board = doc["properties"]["board"]["properties"]
    space = board["spaces"]["items"]["properties"]
    assert (space["q"]["minimum"], space["q"]["maximum"], board["spaces"]["maxItems"]) == (-8, 8, 61)
    card = doc["properties"]["card"]
    assert (card["maxItems"], card["items"]["properties"]["number"]["maximum"]) == (99, 99)
    far = copy.deepcopy(DUALS_TOML)
    far["card"][0]["cells"][0]["at"] = [17, 0]
    assert list(_document("duals-data.schema.json").iter_errors(far))


def test_sample_result_lines_records_and_csv_rows_pass_the_declarations_and_the_documents() -> None:
    line_doc, record_doc, row_doc = (_document(f"{n}.schema.json") for n in ("result-line", "record", "result-csv-row"))
    schema = line_schema(builtins())
    for n, line in enumerate(sample_lines(), 1):
        plain = json.loads(json.dumps(line))
        validate(plain, schema, "r.jsonl", label("line {n}", n=n), json=True)
        validate(plain["record"], RECORD, "m.json", "record", json=True)
        assert not list(line_doc.iter_errors(plain))
        assert not list(record_doc.iter_errors(plain["record"]))
        row = next(csv.DictReader(io.StringIO(csv_header() + encode_line(line, True))))
        validate(row, CSV_ROW, "r.csv", "row")
        assert not list(row_doc.iter_errors(row))


@pytest.mark.parametrize(("path", "value", "field"), [
    (("p1_seat",), 1.5, "p1_seat"),
    (("p1_points",), 1e308, "p1_points"),
    (("winner_seat",), "0", "winner_seat"),
    (("seats",), ["a"], "seats"),
    (("summary",), [], "summary"),
])
def test_a_wrong_value_in_a_result_line_is_refused_by_the_reader_and_the_document(
        path: tuple[str, ...], value: Any, field: str) -> None:
    """The reader and the published document agree: both refuse the line (the reader naming the field)."""
    line = copy.deepcopy(json.loads(json.dumps(sample_lines()[0])))
    line[path[0]] = value
    with pytest.raises(ResultsError) as info:
        validate(line, line_schema(builtins()), "r.jsonl", label("line {n}", n=4), error=located(ResultsError),
                 json=True)
    assert str(info.value).startswith(f"r.jsonl: line 4: {field}: ")
    assert list(_document("result-line.schema.json").iter_errors(line))


def test_a_wrong_value_deep_in_a_summary_is_named_by_its_path_in_spanish() -> None:
    """A play of support 22 (there are 21) in a Flame Duel line: the path inside the line, the words in Spanish."""
    line = json.loads(json.dumps(next(x for x in sample_lines() if x["summary"].get("plays"))))
    line["summary"]["plays"][0][2] = 22
    with pytest.raises(ResultsError) as info:
        validate(line, line_schema(builtins()), "r.jsonl", label("line {n}", n=2), error=located(ResultsError),
                 json=True)
    assert str(info.value) == "r.jsonl: line 2: summary.plays[0][2]: must be at most 21, got 22"
    assert ES.error(info.value) == "r.jsonl: línea 2: summary.plays[0][2]: debe ser como máximo 21, no 22"


def test_a_short_csv_row_says_how_many_cells_it_has() -> None:
    text = csv_header() + "1,2,duel\r\n"
    with pytest.raises(ResultsError, match=r"^r.csv: line 2: 3 fields, the header has 15$"):
        parse_csv(text, "r.csv")


TOY = Obj(required={"set": Obj(required={"id": Str()}),
                    "item": List(Obj(required={"number": Int(1, 9), "name": Text()},
                                     optional={"tags": List(Str(choices=("a", "b")), unique=True)}), label="number")})


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("set"), "f.toml: file: set: missing section"),
    (lambda d: d["set"].update(id=" "), "f.toml: set: id: must be a non-empty string, got ' '"),
    (lambda d: d["item"][0].update(colour=1), "f.toml: item 1: colour: unknown field (allowed: name, number, tags)"),
    (lambda d: d["item"][0].update(number=0), "f.toml: item[0]: number: must be at least 1, got 0"),
    (lambda d: d["item"][0]["tags"].append("c"), "f.toml: item 1: tags[1]: must be one of a, b, got 'c'"),
    (lambda d: d["item"][0]["tags"].append("a"), "f.toml: item 1: tags: 'a' is there twice"),
    (lambda d: d["item"][0]["name"].pop("es"), "f.toml: item 1: name.es: missing or empty text"),
    (lambda d: d["item"].__setitem__(0, 3), "f.toml: item[0]: (entry): must be a table, got an integer"),
])
def test_problems_name_the_file_the_entry_and_the_field(change: Any, message: str) -> None:
    """Tables of the file and items of its lists are entries (an item by its label when valid); the rest fields."""
    data: dict[str, Any] = {"set": {"id": "x"}, "item": [{"number": 1, "name": {"en": "A", "es": "A"}, "tags": ["a"]}]}
    validate(copy.deepcopy(data), TOY, "f.toml", Phrase("file"))
    change(data)
    with pytest.raises(DataError) as info:
        validate(data, TOY, "f.toml", Phrase("file"))
    assert str(info.value) == message


def test_a_long_value_is_quoted_cut_short() -> None:
    with pytest.raises(DataError) as info:
        validate({"id": "x" * 5000}, Obj(required={"id": Int()}), "f.toml", "set")
    assert len(str(info.value)) < 120


def test_the_same_declaration_makes_the_json_schema() -> None:
    doc = json_schema(Obj(required={"n": Int(1, 3)}, optional={"s": List(Str(choices=("a",)), max=2)}), title="t")
    assert doc == {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "t", "type": "object",
                   "additionalProperties": False, "required": ["n"],
                   "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 3},
                                  "s": {"type": "array", "items": {"type": "string", "enum": ["a"], "maxLength": 1000},
                                        "maxItems": 2}}}


def test_a_record_error_is_a_record_error_naming_the_field() -> None:
    from flametable.core.record import MatchRecord

    good = json.loads(json.dumps(sample_lines()[0]["record"]))
    with pytest.raises(RecordError) as info:
        MatchRecord.from_json({**good, "seed": "one"}, "m.json")
    assert str(info.value) == "m.json: record: seed: must be an integer, got 'one'"
    assert ES.error(info.value) == "m.json: registro: seed: debe ser un número entero, no 'one'"
    assert isinstance(info.value, FlametableError)


def test_views_of_both_games_pass_their_declarations_and_the_generated_documents() -> None:
    """The views' documents are generated from declarations beside to_json: views of a few random matches, of each
    seat and a spectator, pass both the declaration (validate) and the document; a view with a seat 2 fails both."""
    from flametable.core.rng import Rng
    from flametable.games.duals.game import DualsGame
    from flametable.games.duals.view import VIEW_SCHEMA as DUALS_VIEW
    from flametable.games.duel.game import DuelGame
    from flametable.games.duel.view import VIEW_SCHEMA as DUEL_VIEW

    for game, declared, name in ((DuelGame(), DUEL_VIEW, "duel-view"), (DualsGame(), DUALS_VIEW, "duals-view")):
        doc = _document(f"{name}.schema.json")
        for seed in (1, 2):
            state: Any = game.new_match({}, seed)
            rng = Rng(seed)
            for step in range(10_000):
                if step % 7 == 0 or state.to_act is None:
                    for seat in (0, 1, None):
                        view = json.loads(json.dumps(state.view(seat).to_json()))
                        validate(view, declared, "view.json", "view", json=True)
                        assert not list(doc.iter_errors(view))
                if state.to_act is None:
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
        view["seat"] = 2
        with pytest.raises(DataError, match="seat: must be at most 1, got 2"):
            validate(view, declared, "view.json", "view", json=True)
        assert list(doc.iter_errors(view))


@pytest.mark.parametrize(("schema", "value", "english", "spanish"), [
    (List(Int(), min=1, max=1), [1, 2], "must hold exactly 1 item, got 2", "debe tener exactamente 1 elemento, no 2"),
    (List(Int(), min=3, max=3), [1], "must hold exactly 3 items, got 1", "debe tener exactamente 3 elementos, no 1"),
    (List(Int(), min=1), [], "must hold at least 1 item, got 0", "debe tener al menos 1 elemento, no 0"),
    (List(Int(), max=1), [1, 2], "must hold at most 1 item, got 2", "debe tener como máximo 1 elemento, no 2"),
    (Str(max_len=1), "ab", "at most 1 character, got 2", "como máximo 1 carácter, no 2"),
    (Str(max_len=2), "abc", "at most 2 characters, got 3", "como máximo 2 caracteres, no 3"),
])
def test_a_count_takes_its_nouns_plural_form_in_both_languages(schema: Any, value: Any, english: str,
                                                               spanish: str) -> None:
    """"must hold exactly 1 items" was the message of a one-item list: the count picks the form (ngettext), in
    English and in Spanish, and in a record's error as in a data file's."""
    for error in (DataError, RecordError):
        with pytest.raises(error) as info:
            validate({"f": value}, Obj(required={"f": schema}), "f.json", Phrase("file"),
                     error=DataError if error is DataError else located(RecordError))
        assert str(info.value).endswith(f": f: {english}")
        assert ES.error(info.value).endswith(f": f: {spanish}")
