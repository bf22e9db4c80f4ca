"""Quick pairing in the browser (issue 24, point 2's done-when): two players (two browser contexts: two guests) press
"Quick pairing" for a 3+2 Flame Duel in the lobby, are paired into one room and play it to the end with both clocks
at the table; then a second match with a short custom clock (1+0), where one player makes a first decision and then
lets the clock run out, and loses on time (the table's header then says so, not whose turn it was). Two signed-in
accounts waiting in the rated 3+2 pool are paired into a rated match, which the table says. Screenshots in
out/browser/quick-pairing-*.png."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.rooms import Rooms
from tests.browser.table_play import STATE, TIMEOUT_MS, click_one

CLOCK = re.compile(r"^\d+:\d\d\.\d$")
ROOM = re.compile(r"/rooms/[A-Za-z0-9_-]+$")
MAX_DECISIONS = 600


def seek(page: Page, clock: str, minutes: int | None = None, increment: int | None = None, rated: bool = False) -> None:
    page.goto("/")
    page.select_option("#pair-game", "duel")
    page.select_option("#pair-clock", clock)
    if minutes is not None:
        page.fill("#pair-minutes", str(minutes))
        page.fill("#pair-increment", str(increment or 0))
    if rated:
        page.check("#pair-rated")
    page.get_by_role("button", name="Quick pairing", exact=True).click()
    expect(page.locator(".seek-status")).to_contain_text("Waiting for a player")


def paired(pages: list[Page], rooms: Rooms) -> str:
    """Both pages at the same table, connected: its room."""
    for page in pages:
        expect(page).to_have_url(ROOM, timeout=15_000)
        expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")
    assert pages[0].url == pages[1].url
    rooms.adopt(pages[0], pages[0].url)
    return pages[0].url.rsplit("/", 1)[1]


def state(page: Page) -> str:
    found = page.evaluate(STATE)
    assert isinstance(found, str)
    return found


def play_until(pages: list[Page], rng: random.Random, done: int | None = None, each: bool = False) -> int:
    """Each page clicks one of its controls when its decision comes, until the match is over, or ``done`` decisions
    were made, or (``each``) both pages made one at least: how many were made."""
    decisions = 0
    made = [0, 0]
    deadline = time.monotonic() + 300
    while decisions != done and not (each and min(made) > 0):
        states = [state(page) for page in pages]
        if "over" in states:
            break
        assert time.monotonic() < deadline, "the match did not end"
        assert decisions < MAX_DECISIONS, "the match did not end"
        mine = [i for i, s in enumerate(states) if s == "mine"]
        if not mine:
            pages[0].wait_for_timeout(50)  # the other page's event is on its way
            continue
        click_one(pages[mine[0]], rng)
        made[mine[0]] += 1
        decisions += 1
    return decisions


def test_two_players_are_paired_for_a_3_2_duel_play_it_out_then_one_loses_on_time(
        browser: Browser, base_url: str, rooms: Rooms, artefacts: Path) -> None:
    contexts = [browser.new_context(base_url=base_url, viewport={"width": 1100, "height": 900}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    try:
        pages[1].goto("/")
        seek(pages[0], "3:2")
        expect(pages[0].locator(".seek-elapsed")).to_contain_text("Waiting 0:0")
        expect(pages[0].get_by_role("button", name="Cancel")).to_be_visible()
        expect(pages[1].locator("table.pools tr[data-pool='duel 3+2 casual'] td.waiting")).to_have_text("1",
                                                                                                       timeout=10_000)
        pages[0].screenshot(path=str(artefacts / "quick-pairing-waiting.png"), full_page=True)
        seek(pages[1], "3:2")
        paired(pages, rooms)
        for page in pages:  # both clocks, at 3:00 before the first decisions
            for seat in (0, 1):
                expect(page.locator(f".table .player.seat{seat} .clock")).to_have_text(CLOCK)
            expect(page.locator(".table .player .clock").first).to_contain_text("3:00.0")
        rng = random.Random(24)
        play_until(pages, rng, done=6)
        pages[0].screenshot(path=str(artefacts / "quick-pairing-playing.png"))
        expect(pages[0].locator(".clock.running")).to_have_count(1)
        play_until(pages, rng)
        for page in pages:
            expect(page.locator(".table .result")).to_be_visible(timeout=TIMEOUT_MS)
        pages[1].screenshot(path=str(artefacts / "quick-pairing-over.png"))

        # a second match, 1+0: each makes a first decision, then the one to act lets the clock run out
        seek(pages[1], "custom", minutes=1, increment=0)
        seek(pages[0], "custom", minutes=1, increment=0)
        paired(pages, rooms)
        expect(pages[0].locator(".table .player .clock").first).to_contain_text("1:00.0")
        play_until(pages, rng, each=True)
        started = time.monotonic()
        for page in pages:  # nobody clicks: the clock of the seat to act runs out within its minute
            expect(page.locator(".table .result")).to_contain_text("ran out of time", timeout=75_000)
        assert time.monotonic() - started <= 70
        for page in pages:  # the header says how it ended, never a turn that will not come
            header = page.locator(".table .duel-head .turn-words")
            expect(header).to_contain_text("The match is over.")
            expect(header).to_contain_text("ran out of time")
            expect(header).not_to_contain_text("is playing")
        pages[0].screenshot(path=str(artefacts / "quick-pairing-timeout.png"))
    finally:
        for context in contexts:
            context.close()


def sign_up(page: Page, name: str) -> None:
    page.goto("/account")
    page.fill("#up-name", name)
    page.fill("#up-password", "a long quick-pairing password")
    page.locator("form.sign-up-form button[type=submit]").click()
    expect(page.locator("header .account .me")).to_have_text(name)


def test_two_signed_in_players_in_the_rated_3_2_pool_reach_a_table_that_says_rated(
        browser: Browser, base_url: str, rooms: Rooms, artefacts: Path) -> None:
    contexts = [browser.new_context(base_url=base_url, viewport={"width": 1100, "height": 900}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    try:
        for page, name in zip(pages, ("ana_quick", "bea_quick"), strict=True):
            sign_up(page, name)
        seek(pages[0], "3:2", rated=True)
        expect(pages[0].locator(".seek-status")).to_contain_text("rated")
        seek(pages[1], "3:2", rated=True)
        paired(pages, rooms)
        for page in pages:
            expect(page.locator(".table-head .badge.rated")).to_have_text("Rated")
        pages[0].screenshot(path=str(artefacts / "quick-pairing-rated.png"))
    finally:
        for context in contexts:
            context.close()
