"""The simulation lab: reproducible whatever the jobs, result files, intervals, Elo, report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from flametable.sim.report import build_report
from flametable.sim.results import (
    CSV_FIELDS,
    ResultsError,
    csv_entry,
    csv_header,
    encode_line,
    jsonl_entry,
    read_results,
    score_entry,
)
from flametable.sim.runner import SimSpec, derive, plan_chunks, run
from flametable.sim.stats import elo_diff, fit_elo, ladder_elo, score_interval, wilson


def strip(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in line.items() if k != "seconds"} for line in lines]


def test_same_seed_same_results_whatever_the_jobs() -> None:
    spec = SimSpec("duel", "bot:greedy", "bot:random", 24, seed=5)
    one = strip(list(run(spec, 1)))
    two = strip(list(run(spec, 2, chunk=3)))
    assert one == two
    assert [line["index"] for line in one] == list(range(24))


@pytest.mark.parametrize(("games", "jobs"), [(1, 2), (7, 2), (400, 2), (3000, 2), (50, 3)])
def test_guided_batches_cover_every_match_once_in_order_and_end_with_single_matches(games: int, jobs: int) -> None:
    chunks = plan_chunks(games, jobs)
    assert [i for c in chunks for i in c] == list(range(games))
    sizes = [len(c) for c in chunks]
    assert max(sizes) <= 16
    assert sizes == sorted(sizes, reverse=True)  # big while much remains, then shrinking
    assert sizes[-jobs:] == [1] * min(jobs, len(sizes))


def test_explicit_batch_size_is_kept() -> None:
    assert [len(c) for c in plan_chunks(10, 2, size=4)] == [4, 4, 2]


def test_default_batches_give_the_same_results_as_one_process() -> None:
    spec = SimSpec("duel", "bot:greedy", "bot:random", 150, seed=8)
    assert max(len(c) for c in plan_chunks(150, 2)) == 16  # batches of many matches, then single ones
    assert strip(list(run(spec, 2))) == strip(list(run(spec, 1)))


def test_seats_swap_every_other_match() -> None:
    lines = list(run(SimSpec("duel", "bot:greedy", "bot:random", 4, seed=1), 1))
    assert [line["p1_seat"] for line in lines] == [0, 1, 0, 1]
    assert lines[1]["seats"] == ["bot:random", "bot:greedy"]
    for line in lines:
        assert line["p1_points"] == (0.5 if line["winner"] is None else 1.0 if line["winner"] == "p1" else 0.0)


def test_match_seeds_differ_and_depend_on_the_run_seed() -> None:
    assert len({derive(1, i) for i in range(1000)}) == 1000
    assert derive(1, 0) != derive(2, 0)


def test_a_bad_seat_is_named() -> None:
    with pytest.raises(ValueError, match="bot:nobody"):
        list(run(SimSpec("duel", "bot:nobody", "bot:random", 2), 1))


@pytest.mark.parametrize("csv_format", [False, True])
def test_entries_made_in_the_workers_carry_the_writers_text_and_the_result(csv_format: bool) -> None:
    spec = SimSpec("duel", "bot:greedy", "bot:random", 8, seed=3)
    lines = list(run(spec, 1))
    entries = list(run(spec, 2, chunk=2, each=csv_entry if csv_format else jsonl_entry))
    # "seconds" is a timing: compare the text with it taken out, line by line
    assert [_no_seconds(e.text, csv_format) for e in entries] == [
        _no_seconds(encode_line(line, csv_format), csv_format) for line in lines]
    assert [(e.winner, e.p1_points) for e in entries] == [(x["winner"], x["p1_points"]) for x in lines]
    scores = list(run(spec, 2, chunk=2, each=score_entry))
    assert len(scores) == 8
    assert all(e.text == "" for e in scores)


_LINE = {"index": 3, "seed": 77, "game": "duel", "seats": ["bot:random", "bot:greedy"], "p1_seat": 1,
         "winner": "p2", "winner_seat": 0, "reason": "two_round_wins", "scores": [2, 0], "p1_points": 0.0,
         "actions": 21, "seconds": 0.5, "summary": {"note": "Marciano, «é»"}}


def test_a_result_line_is_written_as_compact_json_with_unicode_kept() -> None:
    assert encode_line(_LINE, False) == (
        '{"index":3,"seed":77,"game":"duel","seats":["bot:random","bot:greedy"],"p1_seat":1,"winner":"p2",'
        '"winner_seat":0,"reason":"two_round_wins","scores":[2,0],"p1_points":0.0,"actions":21,"seconds":0.5,'
        '"summary":{"note":"Marciano, «é»"}}\n')


def test_a_result_line_is_written_as_a_csv_row_with_crlf_and_the_players_in_order() -> None:
    assert csv_header() == ("index,seed,game,p1,p2,p1_seat,winner,winner_seat,reason,score1,score2,p1_points,"
                            "actions,seconds,summary\r\n")
    assert encode_line(_LINE, True) == (
        '3,77,duel,bot:greedy,bot:random,1,p2,0,two_round_wins,2,0,0.0,21,0.5,"{""note"":""Marciano, «é»""}"\r\n')


def test_a_negative_batch_size_is_refused() -> None:
    with pytest.raises(ValueError, match="chunk"):
        list(run(SimSpec("duel", "bot:random", "bot:random", 4), 2, chunk=-1))
    with pytest.raises(ValueError, match="batch"):
        plan_chunks(10, 2, -1)


def _no_seconds(text: str, csv_format: bool) -> object:
    if csv_format:
        row = next(csv.reader([text]))
        return row[:CSV_FIELDS.index("seconds")] + row[CSV_FIELDS.index("seconds") + 1:]
    return {k: v for k, v in json.loads(text).items() if k != "seconds"}


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_results_round_trip_through_files(tmp_path: Path, suffix: str) -> None:
    lines = list(run(SimSpec("duel", "bot:greedy", "bot:random", 6, seed=2), 1))
    path = tmp_path / f"r{suffix}"
    with path.open("w", encoding="utf-8", newline="") as f:
        if suffix == ".csv":
            f.write(csv_header())
        for line in lines:
            f.write(encode_line(line, suffix == ".csv"))
    back = read_results(path)
    for a, b in zip(back, lines, strict=True):
        for key in ("index", "seed", "seats", "p1_seat", "winner", "winner_seat", "reason", "scores", "p1_points",
                    "summary"):
            assert a[key] == b[key], key


def test_bad_result_files_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game": "duel"}\nnot json\n', encoding="utf-8")
    with pytest.raises(ResultsError, match=r"bad.jsonl: line 1: seats: missing"):
        read_results(path)
    with pytest.raises(ResultsError, match=r"^there is no file .*missing\.jsonl$"):
        read_results(tmp_path / "missing.jsonl")


def test_wilson_interval_with_continuity_correction_gives_newcombes_published_values() -> None:
    """Newcombe (1998), table I, method 4: 81/263, 15/148, 0/20 and 1/29."""
    for (x, n), (low, high) in {(81, 263): (0.2535, 0.3682), (15, 148): (0.0598, 0.1644), (0, 20): (0.0, 0.2005),
                                (1, 29): (0.0018, 0.1963)}.items():
        i = wilson(x, n)
        assert i.value == x / n
        assert (i.low, i.high) == (pytest.approx(low, abs=5e-5), pytest.approx(high, abs=5e-5))
    assert wilson(0, 10).low == 0.0
    assert wilson(10, 10).high == 1.0


def test_score_interval_shrinks_with_more_games() -> None:
    """A score's interval narrows as games add up, around the same mean."""
    small = score_interval([1.0, 0.0] * 10)
    large = score_interval([1.0, 0.0] * 1000)
    assert small.value == large.value == 0.5
    assert large.high - large.low < small.high - small.low


def test_elo_fit_recovers_the_score_of_a_pair() -> None:
    r = fit_elo(2, [(0, 1, 75.0, 100)])
    assert r[0] - r[1] == pytest.approx(elo_diff(0.75), abs=0.5)
    assert sum(r) / 2 == pytest.approx(1500)


def test_ladder_intervals_contain_the_ratings_and_part_a_clear_winner() -> None:
    """70 wins in 100 games: both ratings lie within their intervals, which do not overlap."""
    pts = [1.0] * 70 + [0.0] * 30
    ratings = ladder_elo(2, [(0, 1, pts)])
    for r in ratings:
        assert r.low <= r.value <= r.high
    assert ratings[0].low > ratings[1].high


def test_report_is_one_self_contained_page_with_plots() -> None:
    from flametable.games.duel.game import DuelGame

    lines = list(run(SimSpec("duel", "bot:greedy", "bot:greedy", 30, seed=4), 1))
    page, figures = build_report(lines, DuelGame())
    assert page.startswith("<!doctype html>")
    assert page.count("<svg") >= 4
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing to fetch
    assert figures["games"] == 30
    assert 0 <= figures["first_chooser_score"]["value"] <= 1
    assert set(figures["characters"]) <= {str(c) for c in range(1, 34)}
    json.dumps(figures)


def test_report_refuses_empty_or_mixed_results() -> None:
    with pytest.raises(ValueError, match="no results"):
        build_report([])
    duel = strip(list(run(SimSpec("duel", "bot:random", "bot:random", 1), 1)))
    duals = strip(list(run(SimSpec("duals", "bot:random", "bot:random", 1), 1)))
    with pytest.raises(ValueError, match="mix games: duals, duel"):
        build_report(duel + duals)
