"""Flamecraft Duals' table in a browser: a whole match against ``bot:hard`` played by clicks only (highlighted
spaces, cards that fit, buttons), ending on the result explained; a click on a space that is not highlighted sends
nothing; screenshots of the table mid-match on a phone and on a desktop."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, WebSocket, expect

MATCH_BUDGET_S = 170.0  # bot:hard thinks up to 1.5 s a decision
TARGETS = ".duals-table .target"
READY = """() => {
  const result = document.querySelector('.result');
  if (result && !result.hidden) return 'over';
  const t = document.querySelector('.duals-table');
  const targets = document.querySelectorAll('.duals-table .target').length;
  return t && t.dataset.mine === 'true' && targets > 0 ? 'mine' : false;
}"""


def sent_actions(page: Page) -> list[str]:
    """Every action this page sends on its room socket, recorded as it goes."""
    acts: list[str] = []

    def watch(ws: WebSocket) -> None:
        def frame(payload: Any) -> None:
            message = json.loads(payload)
            if message.get("type") == "act":
                acts.append(message["action"])
        ws.on("framesent", frame)

    page.on("websocket", watch)
    return acts


def open_table(page: Page, base_url: str, opponent: str) -> None:
    page.goto(base_url + "/")
    page.select_option("#game", "duals")
    page.select_option("#opponent", opponent)
    page.get_by_role("button", name="Create the room").click()
    expect(page).to_have_url(re.compile(r"/rooms/[A-Za-z0-9_-]+$"))
    expect(page.locator(".hexboard")).to_be_visible()


def wait_for_my_turn(page: Page, timeout_s: float = 30.0) -> str:
    handle = page.wait_for_function(READY, timeout=timeout_s * 1000)
    state = handle.json_value()
    assert isinstance(state, str)
    return state


def click_target(page: Page, n: int) -> None:
    """Click one of the highlighted targets (the n-th, round the list) and wait for the table to change."""
    table = page.locator(".duals-table")
    before = table.get_attribute("data-state")
    targets = page.locator(TARGETS)
    targets.nth(n % targets.count()).click()
    page.wait_for_function("(before) => { const t = document.querySelector('.duals-table');"
                           " return !t || t.dataset.state !== before; }", arg=before)
    expect(page.locator(".table .error")).to_have_text("")


def test_a_whole_match_against_the_hard_bot_by_clicks_only(page: Page, base_url: str, artefacts: Path) -> None:
    acts = sent_actions(page)
    open_table(page, base_url, "bot:hard")
    start = time.monotonic()
    clicks = 0
    shots = False
    while wait_for_my_turn(page) == "mine":
        assert time.monotonic() - start < MATCH_BUDGET_S, "the match took too long"
        if not shots and clicks >= 12 and page.locator(".hexboard .space.target").count():
            # mid-match, spaces to click: on a phone (nothing wider than the screen) and on a desktop, in Spanish
            # and in English (the language switch redraws the table; the match goes on in English)
            for lang in ("es", "en"):
                page.select_option("#lang", lang)
                expect(page.locator("html")).to_have_attribute("lang", lang)
                expect(page.locator(".hexboard .space.target").first).to_be_visible()
                for width, height in ((360, 740), (1280, 800)):
                    page.set_viewport_size({"width": width, "height": height})
                    page.screenshot(path=str(artefacts / f"duals-{lang}-{width}x{height}.png"), full_page=True)
                    assert page.evaluate("document.documentElement.scrollWidth") <= width
            shots = True
        click_target(page, clicks * 7)  # a spread of choices: places, FIRE UP, moves, swaps, cards, coin, done
        clicks += 1
    result = page.locator(".result")
    expect(result).to_be_visible()
    expect(result.get_by_role("heading")).to_have_text(re.compile(r"^(You win!|You lose\.|The match is a tie\.)$"))
    # the log's result line says who won and why (VP, then the tie-breaks)
    expect(result.locator(".final")).to_contain_text(re.compile(r"wins with|Equal on|Shared victory"))
    final = page.locator(".final-count")
    expect(final).to_be_visible()
    expect(final).to_contain_text("Most VP wins")
    page.screenshot(path=str(artefacts / "duals-end-1280x800.png"), full_page=True)
    assert len(acts) >= 10
    assert shots
    print(f"match: {clicks} clicks, {len(acts)} actions, {time.monotonic() - start:.1f} s")


def test_spaces_are_keyboard_buttons_and_a_space_that_is_not_highlighted_sends_nothing(page: Page,
                                                                                       base_url: str) -> None:
    acts = sent_actions(page)
    open_table(page, base_url, "bot:easy")
    wait_for_my_turn(page)
    table = page.locator(".duals-table")
    version = table.get_attribute("data-version") or ""
    target = page.locator(".hexboard .space.target").first  # a turn starts by placing the token drawn: on a space
    expect(target).to_have_attribute("role", "button")
    expect(target).to_have_attribute("tabindex", "0")
    expect(target).to_have_attribute("aria-label", re.compile(r"^Space [a-e]\d: .*Click: place the token here$"))
    target.focus()
    page.keyboard.press("Enter")
    expect(table).not_to_have_attribute("data-version", version)
    assert len(acts) == 1
    assert acts[0].startswith("place ")

    wait_for_my_turn(page)  # now FIRE UP or SCORE: buttons and cards, no space to click
    version = table.get_attribute("data-version") or ""
    quiet = page.locator(".hexboard .space:not(.target)").first
    expect(quiet).to_have_attribute("role", "img")
    expect(quiet).not_to_have_attribute("tabindex", "0")
    quiet.click(force=True)
    quiet.dispatch_event("keydown", {"key": "Enter"})
    page.locator(".duals-table .target").first.hover()  # a round trip of the page's event loop after the clicks
    expect(table).to_have_attribute("data-version", version)
    expect(page.locator(".table .error")).to_have_text("")
    assert len(acts) == 1
