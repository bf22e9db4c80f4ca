"""The balance report: sim results turned into one self-contained HTML page with inline SVG plots."""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flametable.core.i18n import N_, pick
from flametable.sim.results import Tally
from flametable.sim.stats import Interval, mean_interval

Translate = Callable[[str], str]
"""Turns a report message (English source, marked with ``N_``) into the reader's language."""


def english(message: str) -> str:
    return message


@dataclass(frozen=True)
class Bar:
    label: str
    interval: Interval
    n: int


def bar_chart(title: str, bars: Sequence[Bar], band: tuple[float, float] | None = (0.4, 0.6)) -> str:
    """Horizontal bars (0-100%) with 95% whiskers, a 50% line and an optional target band."""
    row, left, width = 18, 230, 420
    height = row * len(bars) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 140}" height="{height}" '
           f'role="img" aria-label="{html.escape(title)}" font-family="sans-serif" font-size="11">']
    if band is not None:
        x0, x1 = left + band[0] * width, left + band[1] * width
        out.append(f'<rect x="{x0:.1f}" y="10" width="{x1 - x0:.1f}" height="{height - 30}" fill="#e8f4e8"/>')
    for i, b in enumerate(bars):
        y = 14 + i * row
        v = b.interval
        out.append(f'<text x="{left - 6}" y="{y + 11}" text-anchor="end">{html.escape(b.label)}</text>')
        colour = "#c0392b" if band and not band[0] <= v.value <= band[1] else "#2e86c1"
        out.append(f'<rect x="{left}" y="{y + 2}" width="{v.value * width:.1f}" height="{row - 6}" '
                   f'fill="{colour}"/>')
        lo, hi = left + v.low * width, left + v.high * width
        out.append(f'<line x1="{lo:.1f}" y1="{y + 7}" x2="{hi:.1f}" y2="{y + 7}" stroke="#333"/>')
        out.append(f'<text x="{left + width + 6}" y="{y + 11}">{100 * v.value:.1f}% '
                   f'[{100 * v.low:.0f}–{100 * v.high:.0f}] n={b.n}</text>')
    mid = left + width / 2
    out.append(f'<line x1="{mid}" y1="8" x2="{mid}" y2="{height - 20}" stroke="#999" stroke-dasharray="3,3"/>')
    for frac in (0, 0.25, 0.5, 0.75, 1):
        x = left + frac * width
        out.append(f'<text x="{x}" y="{height - 6}" text-anchor="middle">{int(frac * 100)}%</text>')
    out.append("</svg>")
    return "\n".join(out)


def count_chart(title: str, counts: Sequence[tuple[str, float]]) -> str:
    """Horizontal bars for counts or rates (scaled to the largest)."""
    row, left, width = 18, 230, 420
    top = max((c for _, c in counts), default=1) or 1
    height = row * len(counts) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 120}" height="{height}" '
           f'role="img" aria-label="{html.escape(title)}" font-family="sans-serif" font-size="11">']
    for i, (label, c) in enumerate(counts):
        y = 6 + i * row
        out.append(f'<text x="{left - 6}" y="{y + 11}" text-anchor="end">{html.escape(label)}</text>')
        out.append(f'<rect x="{left}" y="{y + 2}" width="{c / top * width:.1f}" height="{row - 6}" fill="#7d3c98"/>')
        shown = f"{c:.2f}" if isinstance(c, float) and not c.is_integer() else f"{int(c)}"
        out.append(f'<text x="{left + c / top * width + 6}" y="{y + 11}">{shown}</text>')
    out.append("</svg>")
    return "\n".join(out)


def section(title: str, body: str, note: str = "") -> str:
    extra = f"<p>{html.escape(note)}</p>" if note else ""
    return f"<section><h2>{html.escape(title)}</h2>{extra}{body}</section>"


def score_of(winner: int | None, seat: int) -> float:
    """What ``seat`` scored (win 1, draw ½, loss 0) when ``winner`` won; None or a negative seat is a draw."""
    return 0.5 if winner is None or winner < 0 else float(winner == seat)


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


def duel_sections(lines: list[dict[str, Any]], cards: Any, tr: Translate = english,
                  lang: str = "en") -> tuple[list[str], dict[str, Any]]:
    sections: list[str] = []
    figures: dict[str, Any] = {}
    # First chooser's advantage (R5).
    pts = []
    for x in lines:
        fc = x["summary"].get("first_chooser")
        if fc is None:
            continue
        pts.append(score_of(x["winner_seat"], fc))
    adv = mean_interval(pts)
    figures["first_chooser_score"] = adv.to_json()
    sections.append(section(
        tr(N_("First chooser's advantage")),
        bar_chart(tr(N_("first chooser")), [Bar(tr(N_("first chooser's score")), adv, len(pts))], band=(0.45, 0.55)),
        tr(N_("Score of the player who chose the stat in round 1 (target: 45–55%).")),
    ))
    # Characters: match score of the player who had them, and round win rate when flipped.
    match_pts: dict[int, list[float]] = defaultdict(list)
    round_pts: dict[int, list[float]] = defaultdict(list)
    for x in lines:
        s = x["summary"]
        for seat in (0, 1):
            score = score_of(x["winner_seat"], seat)
            for c in s["lineups"][seat]:
                match_pts[c].append(score)
        for r in s["rounds"]:
            for seat in (0, 1):
                c = r["characters"][seat]
                round_pts[c].append(score_of(r["winner"], seat))
    def name(c: int) -> str:
        return f"C{c} {pick(cards.character(c).name, lang)}" if cards is not None else f"C{c}"

    chars = sorted(match_pts, key=lambda c: -sum(match_pts[c]) / len(match_pts[c]))
    bars = [Bar(name(c), mean_interval(match_pts[c]), len(match_pts[c])) for c in chars]
    figures["characters"] = {str(c): mean_interval(match_pts[c]).to_json() | {"n": len(match_pts[c])}
                             for c in sorted(match_pts)}
    sections.append(section(tr(N_("Each character's win rate")), bar_chart(tr(N_("characters")), bars),
                            tr(N_("Match score of the player who had the character in their line-up "
                                  "(target: 40–60%)."))))
    rbars = [Bar(name(c), mean_interval(round_pts[c]), len(round_pts[c]))
             for c in sorted(round_pts, key=lambda c: -sum(round_pts[c]) / len(round_pts[c]))]
    sections.append(section(tr(N_("Rounds won by each character")), bar_chart(tr(N_("character rounds")), rbars),
                            tr(N_("Share of the rounds a character played that it won (draws ½)."))))
    # Support cards: how often played, and the round score of whoever played them.
    played: dict[int, list[float]] = defaultdict(list)
    for x in lines:
        rounds = x["summary"]["rounds"]
        for seat, kind, card, r in x["summary"]["plays"]:
            if kind != "play" or not 0 <= r < len(rounds):
                continue
            played[card].append(score_of(rounds[r]["winner"], seat))
    def sname(s: int) -> str:
        return f"S{s} {pick(cards.support(s).name, lang)}" if cards is not None else f"S{s}"

    sbars = [Bar(sname(card), mean_interval(v), len(v))
             for card, v in sorted(played.items(), key=lambda kv: -sum(kv[1]) / len(kv[1]))]
    figures["supports"] = {str(card): mean_interval(v).to_json() | {"n": len(v)} for card, v in played.items()}
    sections.append(section(tr(N_("Support cards when played")), bar_chart(tr(N_("supports")), sbars, band=None),
                            tr(N_("Round score of the player who played the card in that round."))))
    return sections, figures


PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:900px;margin:2em auto;color:#222}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 6px;font-size:12px}}
section{{margin-bottom:2em}}</style></head>
<body><h1>{title}</h1>{body}</body></html>
"""


def build_report(
    lines: list[dict[str, Any]], cards: Any = None, title: str | None = None, tr: Translate = english,
    lang: str = "en",
) -> tuple[str, dict[str, Any]]:
    """The HTML page and the figures behind it (for docs and tests), in the language of ``tr`` and ``lang``."""
    if not lines:
        raise ValueError("no results to report")
    games = {x["game"] for x in lines}
    if len(games) != 1:
        raise ValueError(f"results mix games: {', '.join(sorted(games))}")
    game = games.pop()
    first, figures = overview(lines, tr)
    sections = [first]
    if game == "duel":
        more, extra = duel_sections(lines, cards, tr, lang)
    else:
        from flametable.sim import duals_summary

        more, extra = duals_summary.report_sections(lines, tr)
    sections += more
    figures.update(extra)
    title = title or tr(N_("flametable balance report: {game}")).format(game=game)
    return PAGE.format(title=html.escape(title), body="\n".join(sections), lang=html.escape(lang)), figures
