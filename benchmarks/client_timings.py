"""The client's timings (issue 25: "the client's timings stay as they are"), in Debian's chromium through
Playwright's sync API, against a real ``flametable serve`` on 127.0.0.1 on a fresh SQLite file:

* ``lobby``: page load to a usable lobby: from ``page.goto("/")`` (a new browser context each run, so an empty
  cache) until the lobby's game choice and its make-a-room button are visible and enabled; the time is the page's
  own ``performance.now()`` (milliseconds since the navigation started) when that is first true (checked every
  animation frame), and the wall time around the Playwright calls beside it.
* ``table``: click to updated table: a room of two "me" seats, each seat in a browser context of its own (so the
  opponent's thinking is never measured, there is none); the page whose turn it is clicks one of the legal
  controls it shows (chosen by a seeded random generator), and the time runs from the click (the page's
  capture-phase click event, ``performance.now()``) until the table shows the match's new version. The first
  click of a two-click move (a Duals space, then its action) changes only the page's own state: it is not a
  measurement, the click that sends the move is. A match that ends is replaced by a new room.

Both for Flame Duel and Flamecraft Duals, at 1280×800 and 360×740. One JSON line per measurement (its samples in
milliseconds, their median and 90th percentile). ``--tree PATH`` serves PATH's client and server (the server's
PYTHONPATH starts with PATH/src): the same script measures two checkouts.

    PYTHONPATH=src:. python -m benchmarks.client_timings [--runs 20] [--clicks 20] [--tree PATH]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from tests.browser.conftest import FLAGS
from tests.browser.table_play import CONTROLS, STATE
from tests.web.live import LiveServer

HERE = Path(__file__).resolve().parents[1]
VIEWPORTS = {"1280x800": (1280, 800), "360x740": (360, 740)}
GAMES = ("duel", "duals")
TIMEOUT_MS = 60_000

LOBBY_READY = """() => {
  const shown = (e) => e && !e.disabled && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden';
  const game = document.querySelector('#game');
  const make = document.querySelector('form.create button[type=submit]');
  return shown(game) && game.options.length > 0 && shown(make) ? performance.now() : false;
}"""
"""The page's clock when the lobby is usable: the game choice (with its games) and the make-a-room button."""

CLOCK = """() => { if (!window.__clicked) { window.__clicked = 0;
  document.addEventListener('click', () => { window.__clicked = performance.now(); }, true); } }"""
"""Keeps the page's clock of its last click (capture phase: before the table's own handler runs)."""

VERSION = "() => { const t = document.querySelector('.table'); return t ? (t.dataset.version || '') : ''; }"
LOCAL = """() => { const d = document.querySelector('.duals-table'); return d ? (d.dataset.state || '') : ''; }"""

MOVED = f"""([version, local]) => {{
  const now = ({VERSION})();
  if (now !== version) return {{moved: true, ms: performance.now() - window.__clicked}};
  if (({LOCAL})() !== local || ({STATE})() === 'over') return {{moved: false, ms: 0}};
  return false;
}}"""
"""After a click: the match's new version shown (and the time since the click), or only the page's own state
changed (the first click of a two-click move), or the match is over."""


def summary(samples: Sequence[float]) -> dict[str, Any]:
    """The samples' median and 90th percentile (nearest rank), in milliseconds."""
    ordered = sorted(samples)
    p90 = ordered[max(0, -(-len(ordered) * 9 // 10) - 1)] if ordered else None
    return {"n": len(ordered), "median_ms": round(statistics.median(ordered), 2) if ordered else None,
            "p90_ms": round(p90, 2) if p90 is not None else None}


def emit(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def lobby(browser: Browser, server: LiveServer, size: tuple[int, int], runs: int) -> tuple[list[float], list[float]]:
    """``runs`` page loads of the lobby, each in a new context: the page's and the wall times (ms)."""
    page_ms: list[float] = []
    wall_ms: list[float] = []
    for _run in range(runs):
        context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        try:
            page = context.new_page()
            start = time.perf_counter()
            page.goto(server.base + "/")
            ready = page.wait_for_function(LOBBY_READY, polling="raf", timeout=TIMEOUT_MS).json_value()
            wall_ms.append((time.perf_counter() - start) * 1000)
            page_ms.append(float(ready))
        finally:
            context.close()
    return page_ms, wall_ms


class Table:
    """A room of two "me" seats, each seated in a context of its own at ``size``."""

    def __init__(self, browser: Browser, server: LiveServer, game: str, size: tuple[int, int]) -> None:
        made = server.post("/api/rooms", {"game": game, "seats": ["me", "me"]}, expect=201)
        room, link = made["room"], made["link"]
        self.contexts: list[BrowserContext] = []
        self.pages: list[Page] = []
        for token in made["tokens"].values():
            context = browser.new_context(viewport={"width": size[0], "height": size[1]})
            self.contexts.append(context)
            page = context.new_page()
            page.goto(server.base + "/healthz")
            page.evaluate("([room, token]) => localStorage.setItem(`flametable.seat.${room}`, token)", [room, token])
            page.goto(server.base + link)
            page.wait_for_selector(".table .status[data-state=connected]", timeout=TIMEOUT_MS)
            page.evaluate(CLOCK)
            self.pages.append(page)

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def turn(self) -> Page | None:
        """The page with a decision (waiting while neither has one yet), or None once the match is over."""
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            states = [page.evaluate(STATE) for page in self.pages]
            if "over" in states:
                return None
            if "mine" in states:
                return self.pages[states.index("mine")]
            self.pages[0].wait_for_timeout(10)  # between measurements: the pages' own animations settle
        raise TimeoutError("neither page had a decision for a minute")


def table(browser: Browser, server: LiveServer, game: str, size: tuple[int, int], clicks: int,
          rng: random.Random) -> tuple[list[float], list[float]]:
    """``clicks`` moves clicked: the page's times from click to new version, and the wall times around the
    Playwright click and wait (ms)."""
    page_ms: list[float] = []
    wall_ms: list[float] = []
    current = Table(browser, server, game, size)
    try:
        while len(page_ms) < clicks:
            page = current.turn()
            if page is None:
                current.close()
                current = Table(browser, server, game, size)
                continue
            marks = [page.evaluate(VERSION), page.evaluate(LOCAL)]
            controls = page.locator(CONTROLS)
            count = controls.count()
            if not count:
                continue
            start = time.perf_counter()
            controls.nth(rng.randrange(count)).click(timeout=TIMEOUT_MS)
            moved = page.wait_for_function(MOVED, arg=marks, polling="raf", timeout=TIMEOUT_MS).json_value()
            if moved["moved"]:
                wall_ms.append((time.perf_counter() - start) * 1000)
                page_ms.append(float(moved["ms"]))
    finally:
        current.close()
    return page_ms, wall_ms


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.client_timings", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="page loads of the lobby per viewport (default 20)")
    parser.add_argument("--clicks", type=int, default=20, help="moves clicked per game and viewport (default 20)")
    parser.add_argument("--tree", type=Path, default=HERE,
                        help="the checkout whose server and client are served (its src first on the server's "
                             "PYTHONPATH; default: this one)")
    parser.add_argument("--only", choices=("lobby", "table"), help="only one of the two measurements")
    parser.add_argument("--game", choices=GAMES, action="append", help="the table's game (default: both)")
    parser.add_argument("--viewport", choices=tuple(VIEWPORTS), action="append", help="default: both")
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the browser (default /usr/bin/chromium)")
    parser.add_argument("--seed", type=int, default=25, help="the controls' random choice (default 25)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.clicks < 1:
        parser.error("--runs and --clicks must be at least 1")
    tree = args.tree.resolve()
    if not (tree / "src" / "flametable").is_dir():
        parser.error(f"--tree {tree}: no src/flametable there")
    viewports = args.viewport or list(VIEWPORTS)
    games = args.game or list(GAMES)
    rng = random.Random(args.seed)
    common = {"tree": str(tree)}
    with tempfile.TemporaryDirectory(prefix="client-timings-") as data:
        server = LiveServer(f"sqlite+aiosqlite:///{Path(data) / 'flametable.db'}", Path(data),
                            pythonpath=[tree / "src"])
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=FLAGS)
                try:
                    for name in viewports:
                        size = VIEWPORTS[name]
                        if args.only in (None, "lobby"):
                            page_ms, wall_ms = lobby(browser, server, size, args.runs)
                            emit({"measure": "lobby", "viewport": name, **summary(page_ms),
                                  "wall": summary(wall_ms), "samples_ms": [round(s, 2) for s in page_ms], **common})
                        if args.only in (None, "table"):
                            for game in games:
                                page_ms, wall_ms = table(browser, server, game, size, args.clicks, rng)
                                emit({"measure": "table", "game": game, "viewport": name, **summary(page_ms),
                                      "wall": summary(wall_ms), "samples_ms": [round(s, 2) for s in page_ms],
                                      **common})
                finally:
                    browser.close()
        finally:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
