"""``flametable sim``, ``report`` and ``ladder`` at the terminal."""

from __future__ import annotations

import json
import math
import re
from html import escape
from pathlib import Path
from typing import Any

import pytest
from rich.progress import Progress, ProgressColumn, TimeRemainingColumn
from typer.testing import CliRunner

from flametable.cli import lab
from flametable.cli.lab import TimeLeftColumn
from flametable.cli.main import app
from flametable.sim import runner as runner_module

runner = CliRunner()


def test_sim_prints_rates_with_intervals_and_writes_results(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    res = runner.invoke(app, ["sim", "duel", "--p1", "bot:greedy", "--p2", "bot:random", "--games", "10",
                              "--seed", "3", "--out", str(out), "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "bot:greedy wins" in res.output
    assert len(out.read_text(encoding="utf-8").splitlines()) == 10
    html = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(out), "--html", str(html), "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "<svg" in html.read_text(encoding="utf-8")


def test_sim_json_is_the_same_whatever_the_jobs() -> None:
    results = []
    for jobs in ("1", "2"):
        res = runner.invoke(app, ["sim", "duel", "--games", "8", "--jobs", jobs, "--seed", "9", "--json"])
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout)
        results.append({k: v for k, v in data.items() if k not in ("seconds", "matches_per_second", "jobs")})
    assert results[0] == results[1]


def test_sim_rejects_bad_input_clearly(tmp_path: Path) -> None:
    res = runner.invoke(app, ["sim", "chess", "--lang", "en"])
    assert res.exit_code == 2
    assert "chess" in res.output
    res = runner.invoke(app, ["sim", "duel", "--p1", "bot:nobody", "--games", "2", "--lang", "en"])
    assert res.exit_code == 2
    assert "bot:nobody" in res.output
    res = runner.invoke(app, ["sim", "duel", "--options", "[1]", "--lang", "en"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["report", str(tmp_path / "none.jsonl"), "--html", str(tmp_path / "x.html")])
    assert res.exit_code == 1
    assert "none.jsonl" in res.output


def test_sim_speaks_spanish() -> None:
    res = runner.invoke(app, ["sim", "duel", "--games", "2", "--lang", "es"])
    assert res.exit_code == 0, res.output
    assert "partidas" in res.output


def test_ladder_prints_elo_with_intervals() -> None:
    res = runner.invoke(app, ["ladder", "duel", "--bots", "bot:random,bot:greedy", "--games", "6", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ratings"][0]["bot"] == "bot:greedy"
    for r in data["ratings"]:
        assert r["low"] is None or r["low"] <= r["elo"]
        assert r["high"] is None or r["elo"] <= r["high"]


def test_sim_names_a_bad_seat_in_the_players_language() -> None:
    res = runner.invoke(app, ["sim", "duel", "--p1", "bot:nobody", "--games", "2", "--lang", "es"])
    assert res.exit_code == 2
    assert "bot:nobody" in res.output
    assert "desconocido" in res.output.lower()
    res = runner.invoke(app, ["sim", "duel", "--p1", "human", "--games", "2", "--lang", "es"])
    assert res.exit_code == 2
    assert "solo tiene bots" in res.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize(("games", "jobs"), [("3", "1"), ("80", "2")])  # fails at the close; fails mid-run
def test_sim_says_when_its_results_file_cannot_be_written_to_the_end(games: str, jobs: str) -> None:
    res = runner.invoke(app, ["sim", "duel", "--p1", "bot:greedy", "--p2", "bot:random", "--games", games,
                              "--jobs", jobs, "--out", "/dev/full", "--lang", "en"])
    assert res.exit_code == 1
    assert "Cannot write /dev/full: No space left on device. It holds only the results" in res.output
    assert "Traceback" not in res.output


def test_sim_says_when_its_worker_processes_cannot_start(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object, **kwargs: object) -> None:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(runner_module, "ProcessPoolExecutor", no_pool)
    res = runner.invoke(app, ["sim", "duel", "--games", "4", "--jobs", "2", "--lang", "en"])
    assert res.exit_code == 1
    assert "The simulation could not run: [Errno 38] Function not implemented" in res.output
    assert "Cannot write" not in res.output


def test_report_speaks_the_readers_language_card_names_included(tmp_path: Path) -> None:
    from flametable.games.duel.cards import builtin_card_set

    cards = builtin_card_set()
    out = tmp_path / "r.jsonl"
    assert runner.invoke(app, ["sim", "duel", "--games", "40", "--seed", "2", "--out", str(out)]).exit_code == 0
    pages = {}
    for lang in ("en", "es"):
        html = tmp_path / f"{lang}.html"
        res = runner.invoke(app, ["report", str(out), "--html", str(html), "--lang", lang])
        assert res.exit_code == 0, res.output
        pages[lang] = html.read_text(encoding="utf-8")
    seen = {int(c) for c in re.findall(r">C(\d+) ", pages["en"])}
    assert seen  # the characters' section names them
    for c in seen:
        assert f"C{c} {escape(cards.character(c).name['es'])}<" in pages["es"]
        assert f"C{c} {escape(cards.character(c).name['en'])}<" in pages["en"]
    assert '<html lang="es">' in pages["es"]
    assert "Ventaja de quien elige primero" in pages["es"]
    assert "First chooser's advantage" not in pages["es"]
    assert '<html lang="en">' in pages["en"]
    assert "First chooser&#x27;s advantage" in pages["en"]


def test_duals_report_speaks_spanish(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert runner.invoke(app, ["sim", "duals", "--p1", "bot:random", "--p2", "bot:random", "--games", "4",
                               "--out", str(out)]).exit_code == 0
    html = tmp_path / "es.html"
    assert runner.invoke(app, ["report", str(out), "--html", str(html), "--lang", "es"]).exit_code == 0
    page = html.read_text(encoding="utf-8")
    assert "Ventaja del jugador inicial" in page
    assert "<title>Informe de equilibrio: Flamecraft Duals</title>" in page  # the game's name, in Spanish too
    assert 'text-anchor="end">asado</text>' in page  # token kinds too
    assert 'text-anchor="end">meat</text>' not in page


def test_sim_writes_numbers_as_the_reader_does() -> None:
    args = ["sim", "duel", "--p1", "bot:greedy", "--p2", "bot:random", "--games", "20", "--seed", "1"]
    es = runner.invoke(app, [*args, "--lang", "es"])
    en = runner.invoke(app, [*args, "--lang", "en"])
    assert es.exit_code == en.exit_code == 0
    assert re.search(r"\d+,\d % \[\d+,\d; \d+,\d\]", es.output), es.output
    assert re.search(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", en.output), en.output
    assert re.search(r"en \d+,\d s\.", " ".join(es.output.split())), es.output


def test_report_names_an_unreadable_results_file_in_the_readers_language(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    res = runner.invoke(app, ["report", str(bad), "--html", str(tmp_path / "r.html"), "--lang", "es"])
    assert res.exit_code == 1
    assert "No se pueden leer los resultados" in res.output
    assert "línea 1: no es JSON válido: falta un valor (columna 1)" in res.output  # the details in Spanish too


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_report_refuses_a_bad_last_line_in_the_readers_language_and_writes_nothing(tmp_path: Path,
                                                                                   suffix: str) -> None:
    """The report reads the file a line at a time: a bad line after many good ones is still named (file, line,
    field) before any page is written (issue 19)."""
    good = tmp_path / f"r{suffix}"
    assert runner.invoke(app, ["sim", "duel", "--games", "6", "--seed", "4", "--out", str(good)]).exit_code == 0
    text = good.read_text(encoding="utf-8")
    last = text.splitlines()[-1]
    bad = last.replace(',"p1_points":1.0,', ',"p1_points":1.5,') if suffix == ".jsonl" else \
        re.sub(r",1\.0,(\d+),", r",1.5,\1,", last)
    assert bad != last
    path = tmp_path / f"bad{suffix}"
    path.write_text(text + bad + "\n", encoding="utf-8")
    page = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(path), "--html", str(page), "--lang", "es"])
    assert res.exit_code == 1
    n = len(text.splitlines()) + 1
    assert f"No se pueden leer los resultados: {path}: línea {n}: p1_points: " in " ".join(res.output.split())
    assert not page.exists()


def _shares(data: dict[str, Any]) -> dict[str, dict[str, float]]:
    """The figures of a ``--json`` summary that are intervals."""
    return {k: v for k, v in data.items() if isinstance(v, dict) and "low" in v}


def test_sim_intervals_are_never_of_zero_width() -> None:
    """Six matches won out of six (the issue's ``sim duals --games 6``): the score's interval is not
    [100.0, 100.0] but reaches down to about half; every share keeps an interval around it."""
    res = runner.invoke(app, ["sim", "duals", "--games", "6", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    shares = _shares(data)
    assert set(shares) == {"p1_wins", "draws", "p2_wins", "p1_score"}
    assert {name: s["high"] - s["low"] > 0.3 for name, s in shares.items()} == dict.fromkeys(shares, True), shares
    for name, s in shares.items():  # six matches tell little, and the interval holds what they showed
        assert s["low"] <= s["value"] <= s["high"], name
    text = runner.invoke(app, ["sim", "duals", "--games", "6", "--lang", "en"]).stdout
    assert not re.search(r"(\d+\.\d)% \[\1, \1\]", text), text


def test_ladder_with_two_games_a_pair_gives_honest_intervals() -> None:
    """Two games a pair (the issue's ``ladder duals --games 2`` gave 1747 [1747, 1747]): a pair's score and
    each rating have an interval of real width, unbounded (null, ∞) on the side that every game won or lost
    leaves open."""
    args = ["ladder", "duel", "--bots", "bot:random,bot:greedy", "--games", "2"]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    for pair in data["pairs"]:
        assert pair["high"] - pair["low"] > 0.5, pair
    for r in data["ratings"]:
        low = -math.inf if r["low"] is None else r["low"]
        high = math.inf if r["high"] is None else r["high"]
        assert low <= r["elo"] <= high
        assert high - low > 200, r
    text = runner.invoke(app, [*args, "--lang", "en"]).stdout
    assert not re.search(r"\[(\d+), \1\]", text), text
    assert not re.search(r"(\d+\.\d)% \[\1, \1\]", text), text
    if any(r["high"] is None for r in data["ratings"]):
        assert ", ∞)" in text


class _FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _after_a_burst(column: ProgressColumn) -> str:
    """The issue's run: nothing for 100 s, then 50 of 1000 matches within 50 ms (a batch from each worker)."""
    clock = _FakeClock()
    progress = Progress(column, get_time=clock)
    task = progress.add_task("Simulating", total=1000)
    clock.now = 100.0
    for _ in range(50):
        clock.now += 0.001
        progress.advance(task)
    return str(column.render(progress.tasks[0]))


def test_the_bar_shows_the_time_left_at_the_overall_rate_after_a_burst() -> None:
    """After the burst the bar says about half an hour is left, where rich's own estimate said 0:00:01."""
    assert _after_a_burst(TimeLeftColumn()) == "0:31:41"
    assert _after_a_burst(TimeRemainingColumn()) == "0:00:01"  # what the bar showed before


@pytest.mark.parametrize(("lang", "line"), [
    ("en", "Simulating: {done} of 4 ({percent}%), 0:00:0"),
    ("es", "Simulando: {done} de 4 ({percent} %), 0:00:0"),
])
def test_sim_in_a_pipe_prints_plain_progress_lines_on_stderr(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                             line: str) -> None:
    """Not on a terminal, progress is a plain line on stderr every few seconds (here: every match), never on
    stdout, whose JSON stays whole."""
    monkeypatch.setattr(lab, "PLAIN_EVERY", 0.0, raising=False)  # raising=False: without the setting no line comes
    res = runner.invoke(app, ["sim", "duel", "--games", "4", "--json", "--lang", lang])
    assert res.exit_code == 0, res.output
    json.loads(res.stdout)
    lines = res.stderr.splitlines()
    assert len(lines) == 4, res.stderr
    for done, text in enumerate(lines, 1):
        assert text.startswith(line.format(done=done, percent=25 * done)), text
    assert lines[-1].endswith((" 0:00:00 left.", " quedan unos 0:00:00.")), lines[-1]


def test_sim_in_a_pipe_is_quiet_for_a_short_run() -> None:
    """A run shorter than the few seconds between lines prints no progress at all."""
    res = runner.invoke(app, ["sim", "duel", "--games", "4", "--json"])
    assert res.exit_code == 0, res.output
    assert res.stderr == ""


def test_report_explains_every_colour_of_its_charts(tmp_path: Path) -> None:
    """The page opens with a legend, in the reader's language, that shows every colour the charts use."""
    out = tmp_path / "r.jsonl"
    assert runner.invoke(app, ["sim", "duel", "--games", "30", "--seed", "2", "--out", str(out)]).exit_code == 0
    for lang, heading in (("en", "How to read the charts"), ("es", "Cómo leer los gráficos")):
        html = tmp_path / f"{lang}.html"
        assert runner.invoke(app, ["report", str(out), "--html", str(html), "--lang", lang]).exit_code == 0
        page = html.read_text(encoding="utf-8")
        legend, charts = page.split("</section>", 1)
        assert heading in legend
        used = set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]+)"', charts))
        assert used  # the charts have colours
        assert used <= set(re.findall(r'(?:fill|stroke)="(#[0-9a-f]+)"', legend)), used
