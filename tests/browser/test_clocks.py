"""Clocks in the browser (issue 24): the lobby makes a room with a time control; at the table both clocks sit next
to the players' names, the running one counts down between the server's messages, and the page passes the
accessibility check with them. Screenshots in out/browser/."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.a11y import violations
from tests.browser.rooms import Room, Rooms

MOVES = ".table .board [data-action]"
CLOCK = re.compile(r"^\d+:\d\d\.\d$")


def test_the_lobby_makes_a_3_2_room_and_its_table_shows_both_clocks(page: Page, base_url: str, rooms: Rooms,
                                                                     artefacts: Path) -> None:
    page.goto(base_url + "/")
    page.select_option("#game", "duel")
    page.select_option("#clock", "fischer:3:2")
    page.get_by_role("button", name="Create the room").click()
    page.get_by_role("button", name="Go to the table").click()
    expect(page).to_have_url(re.compile(r"/rooms/[A-Za-z0-9_-]+$"))
    rooms.adopt(page, page.url)
    expect(page.get_by_role("status")).to_have_text("Connected")
    for seat in (0, 1):
        expect(page.locator(f".table .player.seat{seat} .clock")).to_have_text("3:00.0")
    page.screenshot(path=str(artefacts / "clocks-waiting.png"))


def test_both_seats_see_both_clocks_and_the_running_one_counts_down(browser: Browser, base_url: str, rooms: Rooms,
                                                                    artefacts: Path) -> None:
    made = rooms.server.post("/api/rooms", {"game": "duals", "seats": ["me", "open"],
                                            "clock": {"kind": "fischer", "minutes": 3, "increment": 2}}, expect=201)
    room = Room(made["room"], made["link"], {0: made["token"]})
    rooms.made.append(room)
    other = rooms.join(room)
    pages = [browser.new_context(base_url=base_url).new_page() for _ in range(2)]
    try:
        rooms.sit(pages[0], room, 0)
        rooms.sit(pages[1], room, token=other)
        moved: set[int] = set()
        deadline = time.monotonic() + 60
        # each seat plays its first decision (free: no clock runs before it), until the seat to act has a clock
        while len(moved) < 2 or not pages[0].locator(".clock.running").count():
            assert time.monotonic() < deadline, "the clocks never ran"
            for seat, page in enumerate(pages):
                move = page.locator(MOVES).first
                if page.locator(".table .player.to-act").count() and page.locator(
                        f".table .player.seat{seat}.to-act").count() and move.is_visible():
                    before = page.locator(".table").get_attribute("data-version") or ""
                    move.click()
                    expect(page.locator(".table")).not_to_have_attribute("data-version", before)
                    moved.add(seat)
                    break
        running = pages[0].locator(".clock.running")
        expect(running).to_have_count(1)
        for page in pages:
            for seat in (0, 1):
                expect(page.locator(f".table .player.seat{seat} .clock")).to_have_text(CLOCK)
        first = running.inner_text()
        time.sleep(1.3)
        later = running.inner_text()
        assert later < first, (first, later)  # "2:58.1" after "2:59.4": counting down between messages
        assert violations(pages[0]) == []
        pages[0].screenshot(path=str(artefacts / "clocks-running.png"))
        pages[1].screenshot(path=str(artefacts / "clocks-running-other-seat.png"))
    finally:
        for page in pages:
            page.context.close()
