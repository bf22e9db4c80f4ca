"""The balance report: sim results turned into one self-contained HTML page with inline SVG plots.

The generic sections (results, how the matches ended, their length) fit every game; each game adds its own
sections through the game registry (the entry's ``report`` piece, :mod:`flametable.core.registry`).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

from flametable.core import registry
from flametable.core.errors import FlametableError, plurals_of
from flametable.core.i18n import N_, N_plural
from flametable.sim.charts import Bar, Translate, bar_chart, count_chart, english, is_read_once, legend, section
from flametable.sim.results import Tally

__all__ = ["Translate", "build_report", "english", "generic_sections", "overview"]


class ReportError(FlametableError, ValueError):
    """Results a report cannot be made of (a template and its parameters; a ValueError too)."""


class Common:
    """What the overview and the generic sections keep of the lines as they are read: counts, not lines."""

    def __init__(self) -> None:
        self.tally = Tally()
        self.players = ("?", "?")  # the first line's, by the order the command line named them
        self.reasons: Counter[str] = Counter()
        self.fewest = self.most = self.actions = 0

    def add(self, line: dict[str, Any]) -> None:
        if not self.tally.n:
            seats, p1 = line["seats"], line["p1_seat"]
            self.players = (seats[p1], seats[1 - p1])
        self.tally.add(line["winner"], float(line["p1_points"]))
        self.reasons[str(line.get("reason", "?"))] += 1
        length = int(line.get("actions", 0))
        self.fewest = length if self.tally.n == 1 else min(self.fewest, length)
        self.most = max(self.most, length)
        self.actions += length

    @classmethod
    def of(cls, lines: Iterable[dict[str, Any]]) -> Common:
        common = cls()
        for line in lines:
            common.add(line)
        return common


def overview(lines: Iterable[dict[str, Any]] | Common, tr: Translate = english) -> tuple[str, dict[str, Any]]:
    common = lines if isinstance(lines, Common) else Common.of(lines)
    n = common.tally.n
    p1, p2 = common.players
    shares = common.tally.intervals()
    bars = [
        Bar(tr(N_("{p1} wins")).format(p1=p1), shares["p1_wins"], n),
        Bar(tr(N_("draws")), shares["draws"], n),
        Bar(tr(N_("{p2} wins")).format(p2=p2), shares["p2_wins"], n),
        Bar(tr(N_("{p1} score (win 1, draw ½)")).format(p1=p1), shares["p1_score"], n),
    ]
    figures = {"p1": p1, "p2": p2, "games": n, **{k: v.to_json() for k, v in shares.items()}}
    body = bar_chart(tr(N_("win rates")), bars, band=None)
    title = N_plural("Results: {p1} against {p2}, {n} match", "Results: {p1} against {p2}, {n} matches", "n")
    return section(plurals_of(tr)(title, title.plural, n).format(p1=p1, p2=p2, n=n), body), figures


def generic_sections(lines: Iterable[dict[str, Any]] | Common,
                     tr: Translate = english) -> tuple[list[str], dict[str, Any]]:
    """What every game's results show: how the matches ended (the outcome reasons) and how long they were."""
    common = lines if isinstance(lines, Common) else Common.of(lines)
    n = common.tally.n
    reasons = common.reasons
    mean = common.actions / n if n else 0.0
    figures: dict[str, Any] = {
        "reasons": {k: v / n for k, v in sorted(reasons.items())},
        "actions": {"min": common.fewest, "mean": mean, "max": common.most},
    }
    ended = section(tr(N_("How the matches ended")),
                    count_chart(tr(N_("reasons")), [(k, v / n) for k, v in reasons.most_common()]),
                    tr(N_("Share of the matches that ended for each reason.")))
    length = section(tr(N_("Match length")), "", tr(N_(
        "Actions per match (both players' decisions): {fewest} at the fewest, {mean} on average, {most} at the most."
    )).format(fewest=figures["actions"]["min"], mean=f"{mean:.1f}", most=figures["actions"]["max"]))
    return [ended, length], figures


PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:900px;margin:2em auto;color:#222}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px;font-size:12px}}
section{{margin-bottom:2em}}</style></head>
<body><h1>{title}</h1>{body}</body></html>
"""


def build_report(
    lines: Iterable[dict[str, Any]], game: Any = None, title: str | None = None, tr: Translate = english,
    lang: str = "en",
) -> tuple[str, dict[str, Any]]:
    """The HTML page and the figures behind it (for docs and tests), in the language of ``tr`` and ``lang``.

    ``lines`` are read once, in order (a list, or :func:`~flametable.sim.results.iter_results` of a file): the
    report keeps counts as it reads, not the lines, when the game's own sections read them once too
    (:func:`~flametable.sim.charts.reads_once`). ``game`` is the game the results were played with (its data
    names cards in the game's own sections); None: the game of the results, with its built-in data. Raises
    ValueError for no results or mixed games, and :class:`~flametable.core.registry.UnknownGame` for results of
    a game not installed.
    """
    stream = iter(lines)
    first = next(stream, None)
    if first is None:
        raise ReportError(N_("no results to report"))
    name = first["game"]
    stream = chain(iter([first]), stream)  # an iterator of the list: chain keeps it, and it lets the list go
    del first  # held by nothing but the stream: each line is let go once it is counted
    entry = registry.get(name)
    common = Common()

    def counted() -> Iterator[dict[str, Any]]:
        for line in stream:
            if line["game"] != name:
                games = {name, line["game"], *(x["game"] for x in stream)}
                raise ReportError(N_("the results mix games: {games}"), games=", ".join(sorted(games)))
            common.add(line)
            yield line

    read = counted()
    own = entry.piece("report")
    mine: tuple[list[str], dict[str, Any]] = ([], {})
    if own is not None:
        given: Iterable[dict[str, Any]] = read if is_read_once(own) else list(read)
        mine = own(given, game if game is not None else entry.make(), tr, lang)
    for _ in read:  # what the game's sections left unread is counted and checked too
        pass
    first_section, figures = overview(common, tr)
    sections = [legend(tr), first_section]
    more, extra = generic_sections(common, tr)
    sections += more
    figures.update(extra)
    sections += mine[0]
    figures.update(mine[1])
    title = title or tr(N_("Balance report: {game}")).format(game=tr(entry.title))
    return PAGE.format(title=html.escape(title), body="\n".join(sections), lang=html.escape(lang)), figures
