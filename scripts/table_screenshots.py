"""Screenshots of every state of the browser table (issue 25), to look at: both games, 360×740 and 1280×800,
English and Spanish. Each game is played against ``bot:random`` by clicking the page's controls; the first time a
state shows (Flame Duel: draft, line-up, tie-break pick, stat, play, effect choice; Flamecraft Duals: each step),
the screen is taken as the player sees it (no scrolling), then the end of the match (its hidden cards shown), a
spectator's view, a player waiting for the other, the table while the connection is down, and the moments around
the moves (a card's details, the header's menu, the log, the question before resigning, the table once resigned).

    PYTHONPATH=src:. .venv/bin/python scripts/table_screenshots.py --out /tmp/table-shots   # or docs/screenshots/table

It starts its own server (SQLite in a temporary directory) and uses Debian's chromium (``--chromium PATH``)."""

from __future__ import annotations

import argparse
import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocket, sync_playwright
from tests.browser.conftest import FLAGS
from tests.browser.table_play import click_one, next_decision
from tests.web.live import LiveServer

SIZES = ((360, 740), (1280, 800))
LOCALES = {"en": "en-GB", "es": "es-ES"}


def track(page: Page) -> dict[str, Any]:
    """The latest event's view this page's socket received."""
    latest: dict[str, Any] = {}

    def watch(ws: WebSocket) -> None:
        def frame(payload: Any) -> None:
            message = json.loads(payload)
            if message.get("type") == "event":
                latest["view"] = message["event"]["view"]
        ws.on("framereceived", frame)

    page.on("websocket", watch)
    return latest


def seat(server: LiveServer, page: Page, room: dict[str, Any], token: str | None) -> None:
    page.goto(server.base + "/healthz")
    if token:
        page.evaluate("([r, t]) => localStorage.setItem(`flametable.seat.${r}`, t)", [room["room"], token])
    page.goto(server.base + room["link"])
    page.wait_for_selector(".table .status[data-state=connected]")


def state_of(game: str, view: dict[str, Any]) -> str:
    if game == "duel":
        return str(view["phase"])
    return str(view.get("phase", "step"))


def play(server: LiveServer, browser: Browser, out: Path, game: str, options: dict[str, Any] | None, lang: str,
         size: tuple[int, int], label: str) -> None:
    width, height = size
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height})
    page = context.new_page()
    latest = track(page)
    body: dict[str, Any] = {"game": game, "seats": ["me", "bot:random"]}
    if options:
        body["options"] = options
    room = server.post("/api/rooms", body, expect=201)
    seat(server, page, room, room["tokens"]["0"])
    seen: set[str] = set()
    rng = random.Random(7)
    for _ in range(400):
        if next_decision(page) == "over":
            break
        key = state_of(game, latest.get("view", {}))
        if key not in seen:
            seen.add(key)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(out / f"{label}-{key}-{lang}-{width}x{height}.png"))
        click_one(page, rng)
    page.wait_for_selector(".table .result:not([hidden])")
    page.wait_for_timeout(3000)  # the record's hidden cards (a screenshot script: the state is looked at, not tested)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out / f"{label}-end-{lang}-{width}x{height}.png"), full_page=True)
    context.close()


def waiting_and_watching(server: LiveServer, browser: Browser, out: Path, game: str, lang: str,
                         size: tuple[int, int]) -> None:
    """A room of two people after one move: the page of the one waiting, and a spectator's."""
    width, height = size
    room = server.post("/api/rooms", {"game": game, "seats": ["me", "open"]}, expect=201)
    other = server.post(f"/api/rooms/{room['room']}/join", {}, expect=200)["token"]
    pages = []
    for token in (room["tokens"]["0"], other, None):
        context = browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height})
        page = context.new_page()
        seat(server, page, room, token)
        pages.append(page)
    a, b, watcher = pages
    for page in (a, b):
        page.wait_for_selector(".table .board > *")
    acting = a if a.locator(".board [data-action]").count() else b
    click_one(acting, random.Random(3))  # one move: the other page tells it
    for page in (a, b, watcher):
        page.wait_for_selector(".table .board > *")
    actor = a if a.locator(".board [data-action]").count() else b
    idle = b if actor is a else a
    idle.screenshot(path=str(out / f"{game}-waiting-{lang}-{width}x{height}.png"))
    watcher.screenshot(path=str(out / f"{game}-spectator-{lang}-{width}x{height}.png"))
    for page in (a, b, watcher):
        page.context.close()


def offline(server: LiveServer, browser: Browser, out: Path, game: str, lang: str, size: tuple[int, int]) -> None:
    width, height = size
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height})
    page = context.new_page()
    cut = {"down": False, "routes": []}

    def route(ws: Any) -> None:
        cut["routes"].append(ws)  # type: ignore[attr-defined]
        if not cut["down"]:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws"), route)
    room = server.post("/api/rooms", {"game": game, "seats": ["me", "bot:random"]}, expect=201)
    seat(server, page, room, room["tokens"]["0"])
    next_decision(page)
    cut["down"] = True
    for ws in cut["routes"]:  # type: ignore[attr-defined]
        ws.close()
    page.wait_for_selector(".board .offline-why")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out / f"{game}-offline-{lang}-{width}x{height}.png"))
    context.close()


def around(server: LiveServer, browser: Browser, out: Path, game: str, lang: str, size: tuple[int, int]) -> None:
    """The table's moments around the moves: a card's details open (Flame Duel), the header's menu open, the log
    opened from it, the question before resigning, and the table once resigned (the header's words at the end)."""
    width, height = size
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": width, "height": height})
    page = context.new_page()
    room = server.post("/api/rooms", {"game": game, "seats": ["me", "bot:random"]}, expect=201)
    seat(server, page, room, room["tokens"]["0"])
    rng = random.Random(5)
    for _ in range(12):  # a few decisions: a hand dealt (Flame Duel), a log of some lines
        if next_decision(page) == "over":
            break
        if game == "duel" and page.locator(".dock .hand .mini").count():
            break
        click_one(page, rng)

    def shot(name: str) -> None:
        page.screenshot(path=str(out / f"{game}-{name}-{lang}-{width}x{height}.png"))

    page.evaluate("window.scrollTo(0, 0)")
    if game == "duel" and page.locator(".dock .hand .mini .peek").count():
        page.locator(".dock .hand .mini .peek").first.click()
        shot("details")
        page.keyboard.press("Escape")
    page.locator(".table-head .menu-toggle").click()
    shot("menu")
    page.locator(".table-menu-panel .menu-log").click()
    page.wait_for_selector(".log ol li")
    shot("log")
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(".table-head .menu-toggle").click()
    page.locator(".table-menu-panel .menu-resign").click()
    shot("resign")
    page.locator("dialog.confirm button.confirm-resign").click()
    page.wait_for_selector(".table .result:not([hidden])")
    page.evaluate("window.scrollTo(0, 0)")
    shot("resigned")
    context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "flametable-table-shots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(f"sqlite+aiosqlite:///{Path(data) / 'flametable.db'}", Path(data))
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=FLAGS)
                for lang in LOCALES:
                    for size in SIZES:
                        play(server, browser, out, "duel", {"pick": "draft"}, lang, size, "duel-draft")
                        play(server, browser, out, "duel", {"mode": "decks"}, lang, size, "duel")
                        play(server, browser, out, "duals", None, lang, size, "duals")
                        for game in ("duel", "duals"):
                            waiting_and_watching(server, browser, out, game, lang, size)
                            offline(server, browser, out, game, lang, size)
                            around(server, browser, out, game, lang, size)
                browser.close()
        finally:
            server.kill()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
