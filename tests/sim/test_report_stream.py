"""Issue 19: ``report`` reads its results file one line at a time, each line checked as it is read, and keeps
counts rather than lines; its page and its errors are those of the report that read the whole file first."""

from __future__ import annotations

import copy
import hashlib
import json
import math
import random
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.limits import LimitError, loads_json
from flametable.core.schema import conforms, located, validate
from flametable.sim import results
from flametable.sim.charts import english
from flametable.sim.report import build_report
from flametable.sim.results import ResultsError, iter_results, line_schema, parse_csv, parse_jsonl
from flametable.sim.stats import Score, score_interval
from flametable.texts.translator import Translator

DATA = Path(__file__).parent / "data"

# sha256 of the page that the report made of these files before it streamed (commit 74c697c, English, built-in
# card names): the same page, byte for byte.
PAGES = {
    "duel-40.jsonl": "1ff911bead713318773665989acebeddc14b183a42f1e36f1ea670522fb5cf36",
    "duel-40.csv": "1ff911bead713318773665989acebeddc14b183a42f1e36f1ea670522fb5cf36",
    "duals-40.jsonl": "d35e989d09c22c58e77a6c58baa19d7ec1527f2c276cf030f2c985ba1e7583a8",
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_streamed_report_is_the_page_the_whole_file_made(name: str) -> None:
    page, _ = build_report(iter_results(DATA / name))
    assert hashlib.sha256(page.encode("utf-8")).hexdigest() == PAGES[name]


class Line(dict[str, Any]):
    """A result line that a weak reference can watch (a plain dict cannot be)."""


def watched(lines: list[dict[str, Any]], alive: list[weakref.ref[Line]], copies: int) -> Iterator[Line]:
    for _ in range(copies):
        for line in lines:
            made = Line(copy.deepcopy(line))
            alive.append(weakref.ref(made))
            yield made
            del made


@pytest.mark.parametrize("name", ["duel-40.jsonl", "duals-40.jsonl"])
def test_the_report_keeps_no_line_it_has_read(name: str) -> None:
    """The lines may be a generator: each is read once and let go (counts are kept, not lines), and the figures
    are those of the same lines given as a list."""
    lines = list(iter_results(DATA / name))
    alive: list[weakref.ref[Line]] = []
    most = 0

    def counted() -> Iterator[Line]:
        nonlocal most
        for line in watched(lines, alive, copies=3):
            # no gc.collect(): a line let go dies at once (its last reference); one kept in a cycle counts as kept
            most = max(most, sum(ref() is not None for ref in alive))
            yield line

    _, figures = build_report(counted())
    assert len(alive) == 3 * len(lines)
    assert most <= 2  # the line just made and, at most, the one before it
    _, from_list = build_report(lines * 3)
    assert figures == from_list


def test_results_are_read_lazily_and_a_bad_line_is_named_when_reached(tmp_path: Path) -> None:
    good = (DATA / "duel-40.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    bad = json.loads(good[0]) | {"p1_points": 2}
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*good, json.dumps(bad), good[1]]) + "\n", encoding="utf-8")
    lines = iter_results(path)
    assert [next(lines)["index"] for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ResultsError, match=r"r\.jsonl: line 4: p1_points: must be at most 1, got 2"):
        next(lines)


def test_a_bad_line_anywhere_is_refused_before_any_report(tmp_path: Path) -> None:
    text = (DATA / "duals-40.jsonl").read_text(encoding="utf-8")
    last = json.loads(text.splitlines()[-1])
    last["summary"]["fired"]["lava"] = 1
    path = tmp_path / "r.jsonl"
    path.write_text(text + json.dumps(last) + "\n", encoding="utf-8")
    with pytest.raises(ResultsError, match=r"line 41: summary\.fired\.lava: must be one of"):
        build_report(iter_results(path))


def test_a_file_that_is_not_utf8_names_the_byte_counted_from_the_start(tmp_path: Path) -> None:
    text = (DATA / "duel-40.jsonl").read_bytes()
    path = tmp_path / "r.jsonl"
    path.write_bytes(text + b'{"game": "\xff"}\n')
    with pytest.raises(ResultsError, match=rf"not UTF-8 text \(byte {len(text) + 11}\)"):
        list(iter_results(path))


def mutations(value: Any) -> Iterator[Any]:
    """``value`` with one thing wrong or odd at a time: each leaf replaced, each key dropped, one key added."""
    yield from [None, True, -1, 2**40, 0.5, math.nan, math.inf, "", " ", "x" * 1001, "play", [], {}, [0, 1]]
    if isinstance(value, dict):
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for wrong in mutations(value[key]):
                yield value | {key: wrong}
        yield value | {"extra": 1}
    elif isinstance(value, list):
        yield [*value, value[-1]] if value else [0]
        yield value[:-1]
        for i, item in enumerate(value):
            for wrong in mutations(item):
                yield [*value[:i], wrong, *value[i + 1:]]


@pytest.mark.parametrize("name", ["duel-40.jsonl", "duals-40.jsonl"])
def test_the_quick_check_says_yes_exactly_when_validate_does(name: str) -> None:
    schema = line_schema(registry.entries())
    quick = conforms(schema)
    line = next(iter_results(DATA / name))
    seen = 0
    for value in mutations(line):
        seen += 1
        try:
            validate(value, schema, "r", "line 1", error=located(ResultsError), json=True)
        except FlametableError:
            assert not quick(value), value
        else:
            assert quick(value), value
    assert seen > 500


@pytest.mark.parametrize("text", [
    '{"a": "\\ud800"}', '{"a": 18446744073709551616}', '{"a": -18446744073709551616}', '{"a": 1e999}',
    '{"a": "' + 'x\\"' * 600 + '"}', '{"' + "k" * 1001 + '": 1}', '["' + "x" * 1001 + '"]',
])
def test_json_past_a_limit_is_still_refused(text: str) -> None:
    """loads_json walks the values only of a text that could pass a limit: these all could, and do."""
    with pytest.raises(LimitError):
        loads_json(text)


def test_a_running_score_gives_the_interval_of_every_point() -> None:
    rng = random.Random(19)
    for _ in range(200):
        points = [rng.choice([0.0, 0.5, 1.0, 1, 0, -0.0, rng.random(), 1e-17, 0.1]) for _ in range(rng.randint(0, 60))]
        score = Score()
        for p in points:
            score.add(p)
        assert score.n == len(points)
        assert score.interval() == score_interval(points)


@pytest.mark.parametrize("name", ["duel-40.jsonl", "duel-40.csv"])
def test_lines_read_in_small_blocks_are_the_lines_of_the_whole_text(name: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 7 bytes: lines end across blocks, a line is longer than a block, CRLF and blank lines stay."""
    text = (DATA / name).read_text(encoding="utf-8")
    path = tmp_path / name
    path.write_text(text.replace("\n", "\r\n", 3) + ("\n\n  \n" if name.endswith("jsonl") else ""), encoding="utf-8",
                    newline="")
    whole = parse_csv(path.read_text(encoding="utf-8"), str(path)) if name.endswith("csv") else \
        parse_jsonl(path.read_text(encoding="utf-8"), str(path))
    monkeypatch.setattr(results, "_BLOCK", 7)
    assert list(iter_results(path)) == whole
    path.write_bytes(path.read_bytes() + "é".encode()[:1] + b"\n")
    with pytest.raises(ResultsError, match=rf"not UTF-8 text \(byte {path.stat().st_size - 1}\)"):
        list(iter_results(path))


@pytest.mark.parametrize(("lang", "one", "many"), [("en", "1 match", "3 matches"), ("es", "1 partida", "3 partidas")])
def test_the_results_title_counts_the_matches_in_the_readers_plural_forms(lang: str, one: str, many: str) -> None:
    """Issue 19: a count takes its noun's plural form ("1 match", not "1 matches"), in each language."""
    lines = [json.loads(line) for line in (DATA / "duel-40.jsonl").read_text(encoding="utf-8").splitlines()[:3]]
    tr = Translator.for_language(lang)
    assert f", {one}<" in build_report(lines[:1], tr=tr.translate, lang=lang)[0]
    assert f", {many}<" in build_report(lines, tr=tr.translate, lang=lang)[0]


def test_a_csv_row_of_one_field_is_counted_in_the_singular(tmp_path: Path) -> None:
    rows = (DATA / "duel-40.csv").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "results.csv"
    path.write_text(f"{rows[0]}\n{rows[1]}\nonly\n", encoding="utf-8")
    with pytest.raises(ResultsError) as caught:
        list(iter_results(path))
    assert ": 1 field, the header has " in caught.value.translated(english)
    assert ": 1 campo, la cabecera tiene " in Translator.for_language("es").error(caught.value)
