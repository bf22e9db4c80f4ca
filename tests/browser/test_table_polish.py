"""Issue 25's leftovers, in English and Spanish, at 360×740 and 1280×800: a card's details close on a tap
elsewhere, on Escape and when the focus leaves the card, and never cover the player's controls; every way out
(resign, undo, the log, how to play, leave) in the header's menu, in sight however far the page is scrolled; the
last move's strip within two lines, its newest move whole; the log following its newest line; the header's words
once the match is over (never "Player 2 is playing…" then); axe-core's check passing with the menu open."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.a11y import describe, violations
from tests.browser.rooms import Rooms
from tests.browser.table_play import CONTROLS, click_one, next_decision
from tests.browser.test_one_screen import HAND, OUT_OF_SIGHT
from tests.browser.test_table_moments import until_a_hand

SIZES = {"phone": (360, 740), "desktop": (1280, 800)}
LOCALES = {"en": "en-GB", "es": "es-ES"}
TIMEOUT = 60_000
OVER = re.compile(r"^(The match is over\.|La partida ha terminado\.) ")
BUSY = re.compile(r"(is playing|está jugando|is choosing|está eligiendo|your turn|tu turno)", re.IGNORECASE)


@pytest.fixture(params=[(lang, size) for lang in LOCALES for size in SIZES], ids=lambda p: f"{p[0]}-{p[1]}")
def context(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    lang, size = request.param
    width, height = SIZES[size]
    made = browser.new_context(locale=LOCALES[lang], base_url=base_url, viewport={"width": width, "height": height})
    yield made
    made.close()


def in_sight(page: Page, selector: str) -> bool:
    """Whether the element is inside the screen and nothing covers its middle."""
    found = page.evaluate("""(selector) => {
        const el = document.querySelector(selector);
        if (!el) return false;
        const r = el.getBoundingClientRect();
        if (!(r.width > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5)) return false;
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return el === top || el.contains(top);
    }""", selector)
    return bool(found)


def tap_outside(page: Page, details: str, places: list[str]) -> None:
    """A click on the first of ``places`` whose middle is in sight and not under the open ``details`` (which may
    cover part of the table on a phone, by the deal)."""
    point = page.evaluate("""([details, places]) => {
        const open = document.querySelector(details);
        for (const selector of places) {
            const el = document.querySelector(selector);
            if (!el) continue;
            el.scrollIntoView({ block: "center" });
            const r = el.getBoundingClientRect();
            const [x, y] = [r.left + Math.min(r.width / 2, 40), r.top + r.height / 2];
            if (y < 0 || y > innerHeight) continue;
            const top = document.elementFromPoint(x, y);
            if (top && (el === top || el.contains(top)) && !(open && open.contains(top))) return [x, y];
        }
        return null;
    }""", [details, places])
    assert point is not None, f"each of {places} is out of sight or under the details"
    page.mouse.click(point[0], point[1])


def test_a_card_s_details_close_on_a_tap_elsewhere_escape_and_the_focus_leaving(context: BrowserContext,
                                                                               rooms: Rooms) -> None:
    page = context.new_page()
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"]))
    until_a_hand(page)
    card = page.locator(".dock .hand .mini").first
    details = card.locator(".details")
    peek = card.locator(".peek")
    peek.click()
    expect(details).to_be_visible(timeout=TIMEOUT)
    # open, the details cover none of the player's controls nor a card of the hand
    found = page.evaluate(OUT_OF_SIGHT, [CONTROLS, HAND])
    assert not found["out"], f"covered by the details: {found['out']}"
    tap_outside(page, ".dock .hand .mini .details", [".duel-table .side.theirs .side-name", ".duel-table .side.theirs",
                                                      ".table-head h1"])  # a tap elsewhere: over the opponent's side
    expect(details).to_be_hidden(timeout=TIMEOUT)
    expect(peek).to_have_attribute("aria-expanded", "false")
    peek.click()
    expect(details).to_be_visible(timeout=TIMEOUT)
    page.keyboard.press("Escape")
    expect(details).to_be_hidden(timeout=TIMEOUT)
    expect(peek).to_be_focused()
    peek.click()
    expect(details).to_be_visible(timeout=TIMEOUT)
    page.keyboard.press("Shift+Tab")  # the focus leaves the card (to the option before it)
    expect(details).to_be_hidden(timeout=TIMEOUT)
    # the opponent's flipped character: its details open over the table, and close on a tap on one's own side
    theirs = page.locator(".duel-table .side.theirs .lineup .mini.flipped").first
    theirs.locator(".peek").click()
    expect(theirs.locator(".details")).to_be_visible(timeout=TIMEOUT)
    tap_outside(page, ".duel-table .side.theirs .lineup .mini.flipped .details",
                [".duel-table .side.mine .side-name", ".duel-table .side.mine"])  # a tap on one's own side
    expect(theirs.locator(".details")).to_be_hidden(timeout=TIMEOUT)


def test_every_way_out_is_in_the_header_s_menu_and_the_end_is_told_there(context: BrowserContext,
                                                                         rooms: Rooms) -> None:
    page = context.new_page()
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"]))
    until_a_hand(page)
    toggle = page.locator(".table-head .menu-toggle")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # far down the page: the menu still in sight
    assert in_sight(page, ".table-head .menu-toggle")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    items = (".menu-resign", ".menu-undo", ".menu-log", ".help-link", ".leave")
    for item in items:
        assert in_sight(page, f".table-menu-panel {item}"), f"{item} in sight"
    found = violations(page)
    assert not found, describe(found)
    page.keyboard.press("Escape")
    expect(page.locator(".table-menu-panel")).to_be_hidden()
    expect(toggle).to_be_focused()
    toggle.click()
    page.locator(".duel-table .middle").click(position={"x": 5, "y": 5})  # a tap elsewhere closes it
    expect(page.locator(".table-menu-panel")).to_be_hidden()
    toggle.click()
    page.locator(".table-menu-panel .leave").focus()
    page.keyboard.press("Tab")  # the focus leaves the menu past its last item: closed
    expect(page.locator(".table-menu-panel")).to_be_hidden()
    # the log from the menu: open, in sight, its newest line shown
    toggle.click()
    page.locator(".table-menu-panel .menu-log").click()
    newest = page.locator(".log ol li").last
    expect(newest).to_be_visible(timeout=TIMEOUT)
    expect(newest).to_be_in_viewport(timeout=TIMEOUT)
    # resign from the menu: the header then says the match is over, and why
    toggle.click()
    page.locator(".table-menu-panel .menu-resign").click()
    page.locator("dialog.confirm button.confirm-resign").click()
    expect(page.locator(".result .headline")).to_be_visible(timeout=TIMEOUT)
    words = page.locator(".duel-head .turn-words")
    expect(words).to_have_text(re.compile(r"^(The match is over\. Player 1 \(you\) resigned\."
                                          r"|La partida ha terminado\. Jugador 1 \(tú\) abandonó\.)$"))
    expect(page.locator(".duel-table .side.to-act")).to_have_count(0)
    toggle.click()
    expect(page.locator(".table-menu-panel .menu-resign")).to_have_count(0)
    expect(page.locator(".table-menu-panel .menu-rematch")).to_be_visible()
    found = violations(page)
    assert not found, describe(found)


STRIP = """() => {
  const strip = document.querySelector('.table > .last-move');
  const newest = strip.querySelector('.move');
  const box = strip.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(strip).lineHeight);
  const range = document.createRange();
  range.selectNodeContents(newest);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0);
  return { lines: Math.round((strip.clientHeight - parseFloat(getComputedStyle(strip).paddingTop)
                               - parseFloat(getComputedStyle(strip).paddingBottom)) / line),
           sideways: strip.scrollWidth > strip.clientWidth + 1, right: box.right,
           moves: strip.querySelectorAll('.move').length,
           newestWhole: rects.length > 0 && rects.every((r) => r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
                                                        && r.left >= box.left - 0.5 && r.right <= box.right + 0.5),
           text: strip.textContent };
}"""

LOG = """() => {
  const list = document.querySelector('.log ol');
  const last = list.lastElementChild;
  if (!last) return null;
  const a = list.getBoundingClientRect(), b = last.getBoundingClientRect();
  return { scrolls: list.scrollHeight > list.clientHeight, shown: b.top >= a.top - 0.5 && b.bottom <= a.bottom + 0.5 };
}"""


def test_the_last_move_fits_the_log_follows_and_the_end_is_told_in_duals(context: BrowserContext,
                                                                         rooms: Rooms) -> None:
    page = context.new_page()
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    page.locator(".table .controls button.show-log").click()
    rng = random.Random(25)
    strip = page.locator(".table > .last-move")
    checked = 0
    for _ in range(60):
        if next_decision(page) != "mine":
            break
        if strip.is_visible():
            seen = page.evaluate(STRIP)
            assert seen["lines"] <= 2, seen
            assert not seen["sideways"], seen
            assert seen["newestWhole"], seen
            size = page.viewport_size
            assert size is not None
            assert seen["right"] <= size["width"] + 0.5, seen
            if seen["moves"] >= 2:
                checked += 1
        log = page.evaluate(LOG)
        if log is not None and log["scrolls"]:
            assert log["shown"], "the log's newest line in sight"
        if checked >= 3 and log is not None and log["scrolls"]:
            break
        click_one(page, rng)
    assert checked >= 1, "the other player's turn of several moves was shown"
    # the header says whose turn in words of the step (never just "is playing…"), then the end
    page.locator(".table .controls button.resign").click()
    page.locator("dialog.confirm button.confirm-resign").click()
    expect(page.locator(".result .headline")).to_be_visible(timeout=TIMEOUT)
    words = page.locator(".duals-table .turn-words")
    expect(words).to_have_text(OVER)
    expect(words).not_to_have_text(BUSY)
    expect(page.locator(".duals-table .seat-info.turn")).to_have_count(0)
