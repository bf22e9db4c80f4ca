"""The report's building blocks, whatever the game: inline SVG bar charts, sections, a seat's score."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from flametable.core.i18n import N_
from flametable.sim.stats import Interval

Translate = Callable[[str], str]
"""Turns a report message (English source, marked with ``N_``) into the reader's language."""


def english(message: str) -> str:
    return message


Piece = TypeVar("Piece", bound=Callable[..., Any])
_READ_ONCE: set[Callable[..., Any]] = set()


def reads_once(report: Piece) -> Piece:
    """Mark a game's ``report`` piece (``(lines, game, tr, lang)``) that reads ``lines`` once, in order, keeping
    counts rather than lines: the report then hands it the lines as the file is read, one at a time (any
    iterable), so that memory stays the same however many matches the file holds. A piece not marked is given the
    list of every line, as it always was."""
    _READ_ONCE.add(report)
    return report


def is_read_once(report: Callable[..., Any]) -> bool:
    return report in _READ_ONCE


BAR = "#2e86c1"  # a share or a score
OFF_TARGET = "#c0392b"  # a share or a score outside its chart's target band
BAND = "#e8f4e8"  # the target band
WHISKER = "#333"  # the 95% interval
EVEN = "#999"  # the 50% line, dashed
COUNT = "#7d3c98"  # a count or a share scaled to the largest


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
        out.append(f'<rect x="{x0:.1f}" y="10" width="{x1 - x0:.1f}" height="{height - 30}" fill="{BAND}"/>')
    for i, b in enumerate(bars):
        y = 14 + i * row
        v = b.interval
        out.append(f'<text x="{left - 6}" y="{y + 11}" text-anchor="end">{html.escape(b.label)}</text>')
        colour = OFF_TARGET if band and not band[0] <= v.value <= band[1] else BAR
        out.append(f'<rect x="{left}" y="{y + 2}" width="{v.value * width:.1f}" height="{row - 6}" '
                   f'fill="{colour}"/>')
        lo, hi = left + v.low * width, left + v.high * width
        out.append(f'<line x1="{lo:.1f}" y1="{y + 7}" x2="{hi:.1f}" y2="{y + 7}" stroke="{WHISKER}"/>')
        out.append(f'<text x="{left + width + 6}" y="{y + 11}">{100 * v.value:.1f}% '
                   f'[{100 * v.low:.0f}–{100 * v.high:.0f}] n={b.n}</text>')
    mid = left + width / 2
    out.append(f'<line x1="{mid}" y1="8" x2="{mid}" y2="{height - 20}" stroke="{EVEN}" stroke-dasharray="3,3"/>')
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
        out.append(f'<rect x="{left}" y="{y + 2}" width="{c / top * width:.1f}" height="{row - 6}" fill="{COUNT}"/>')
        shown = f"{c:.2f}" if isinstance(c, float) and not c.is_integer() else f"{int(c)}"
        out.append(f'<text x="{left + c / top * width + 6}" y="{y + 11}">{shown}</text>')
    out.append("</svg>")
    return "\n".join(out)


def legend(tr: Translate = english) -> str:
    """What the charts' colours and figures mean, for the top of the report."""
    box = ('<svg xmlns="http://www.w3.org/2000/svg" width="22" height="12" role="img" aria-hidden="true" '
           'style="vertical-align:middle">{}</svg>')
    keys = [
        (f'<rect x="1" y="1" width="20" height="10" fill="{BAR}"/>', tr(N_("a share or a score"))),
        (f'<rect x="1" y="1" width="20" height="10" fill="{OFF_TARGET}"/>', tr(N_("outside the target band"))),
        (f'<rect x="1" y="1" width="20" height="10" fill="{BAND}" stroke="#ccc"/>',
         tr(N_("the target band"))),
        (f'<line x1="1" y1="6" x2="21" y2="6" stroke="{WHISKER}"/>', tr(N_("its 95% interval"))),
        (f'<line x1="11" y1="0" x2="11" y2="12" stroke="{EVEN}" stroke-dasharray="3,3"/>',
         tr(N_("50%, an even score"))),
        (f'<rect x="1" y="1" width="20" height="10" fill="{COUNT}"/>',
         tr(N_("a count or a share, scaled to the largest"))),
    ]
    items = "".join(f"<li>{box.format(svg)} {html.escape(text)}</li>" for svg, text in keys)
    note = tr(N_("Beside each bar: the value, its 95% interval and n, the number of matches, rounds or cards it "
                 "counts. The true value lies within the interval 19 times out of 20; it is wide when n is small."))
    heading = tr(N_("How to read the charts"))
    return (f'<section class="legend"><h2>{html.escape(heading)}</h2>'
            f'<ul style="list-style:none;padding:0">{items}</ul><p>{html.escape(note)}</p></section>')


def section(title: str, body: str, note: str = "") -> str:
    extra = f"<p>{html.escape(note)}</p>" if note else ""
    return f"<section><h2>{html.escape(title)}</h2>{extra}{body}</section>"


def score_of(winner: int | None, seat: int) -> float:
    """What ``seat`` scored (win 1, draw ½, loss 0) when ``winner`` won; None or a negative seat is a draw."""
    return 0.5 if winner is None or winner < 0 else float(winner == seat)
