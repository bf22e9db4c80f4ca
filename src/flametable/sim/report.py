"""The balance report: sim results turned into one self-contained HTML page with inline SVG plots.

The generic sections (results, how the matches ended, their length) fit every game; each game adds its own
sections through the game registry (the entry's ``report`` piece, :mod:`flametable.core.registry`).
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any

from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.sim.charts import Bar, Translate, bar_chart, count_chart, english, legend, section
from flametable.sim.results import Tally

__all__ = ["Translate", "build_report", "english", "generic_sections", "overview"]



class ReportError(FlametableError, ValueError):
    """Results a report cannot be made of (a template and its parameters; a ValueError too)."""

def overview(lines: list[dict[str, Any]], tr: Translate = english) -> tuple[str, dict[str, Any]]:
    tally = Tally.of(lines)
    n = tally.n
    p1 = lines[0]["seats"][lines[0]["p1_seat"]] if lines else "?"
    p2 = lines[0]["seats"][1 - lines[0]["p1_seat"]] if lines else "?"
    shares = tally.intervals()
    bars = [
        Bar(tr(N_("{p1} wins")).format(p1=p1), shares["p1_wins"], n),
        Bar(tr(N_("draws")), shares["draws"], n),
        Bar(tr(N_("{p2} wins")).format(p2=p2), shares["p2_wins"], n),
        Bar(tr(N_("{p1} score (win 1, draw ½)")).format(p1=p1), shares["p1_score"], n),
    ]
    figures = {"p1": p1, "p2": p2, "games": n, **{k: v.to_json() for k, v in shares.items()}}
    body = bar_chart(tr(N_("win rates")), bars, band=None)
    return section(tr(N_("Results: {p1} against {p2}, {n} matches")).format(p1=p1, p2=p2, n=n), body), figures


def generic_sections(lines: list[dict[str, Any]], tr: Translate = english) -> tuple[list[str], dict[str, Any]]:
    """What every game's results show: how the matches ended (the outcome reasons) and how long they were."""
    n = len(lines)
    reasons = Counter(str(x.get("reason", "?")) for x in lines)
    lengths = sorted(int(x.get("actions", 0)) for x in lines)
    mean = sum(lengths) / n if n else 0.0
    figures: dict[str, Any] = {
        "reasons": {k: v / n for k, v in sorted(reasons.items())},
        "actions": {"min": lengths[0] if lengths else 0, "mean": mean, "max": lengths[-1] if lengths else 0},
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
    lines: list[dict[str, Any]], game: Any = None, title: str | None = None, tr: Translate = english,
    lang: str = "en",
) -> tuple[str, dict[str, Any]]:
    """The HTML page and the figures behind it (for docs and tests), in the language of ``tr`` and ``lang``.

    ``game`` is the game the results were played with (its data names cards in the game's own sections);
    None: the game of the results, with its built-in data. Raises ValueError for no results or mixed games,
    and :class:`~flametable.core.registry.UnknownGame` for results of a game not installed.
    """
    if not lines:
        raise ReportError(N_("no results to report"))
    games = {x["game"] for x in lines}
    if len(games) != 1:
        raise ReportError(N_("the results mix games: {games}"), games=", ".join(sorted(games)))
    name = games.pop()
    entry = registry.get(name)
    first, figures = overview(lines, tr)
    sections = [legend(tr), first]
    more, extra = generic_sections(lines, tr)
    sections += more
    figures.update(extra)
    own = entry.piece("report")
    if own is not None:
        more, extra = own(lines, game if game is not None else entry.make(), tr, lang)
        sections += more
        figures.update(extra)
    title = title or tr(N_("Balance report: {game}")).format(game=tr(entry.title))
    return PAGE.format(title=html.escape(title), body="\n".join(sections), lang=html.escape(lang)), figures
