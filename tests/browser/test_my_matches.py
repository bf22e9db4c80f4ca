"""My matches in the browser (issue 24, point 3; issue 25, point 4): two players of a turn-based match (1 day a
decision), each in a browser of their own on the lobby. The one to act sees "Your turn" first in their list,
continues to the table and moves; the other's lobby, its tab hidden, then lists "Your turn" and the tab's title
says it. Resign from the list asks first. The waiting rooms show their game, options and how long they waited.
Screenshots in out/browser/."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.browser.a11y import violations
from tests.browser.rooms import Room, Rooms

MOVES = ".table .board [data-action]"
POLL = 20_000  # ms: the list is asked again every 12 s
HIDDEN = ("Object.defineProperty(document, 'hidden', { get: () => true });"
          "Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });")
"""The tab out of sight (a page of a headless browser is always in sight)."""


def holding(page: Page, base_url: str, room: Room, token: str) -> None:
    """The browser of ``page`` holds the seat ``token`` (as a room made or joined there keeps it)."""
    page.goto(base_url + "/healthz")
    page.evaluate("([room, token]) => localStorage.setItem(`flametable.seat.${room}`, token)", [room.id, token])


def play_until_the_other_s_turn(page: Page, other_seat: int) -> None:
    deadline = time.monotonic() + 30
    while not page.locator(f".table .player.seat{other_seat}.to-act").count():
        assert time.monotonic() < deadline, "the turn never passed"
        move = page.locator(MOVES).first
        if move.is_visible() and move.is_enabled():
            before = page.locator(".table").get_attribute("data-version") or ""
            move.click()
            expect(page.locator(".table")).not_to_have_attribute("data-version", before)


def test_a_move_shows_your_turn_in_the_other_s_lobby_and_its_hidden_tab_s_title(
        browser: Browser, base_url: str, rooms: Rooms, artefacts: Path) -> None:
    made = rooms.server.post("/api/rooms", {"game": "duel", "seats": ["me", "open"],
                                            "clock": {"kind": "turn", "days": 1}}, expect=201)
    room = Room(made["room"], made["link"], {0: made["token"]})
    rooms.made.append(room)
    bea_token = rooms.join(room)
    ana = browser.new_context(base_url=base_url).new_page()
    bea_context = browser.new_context(base_url=base_url)
    bea_context.add_init_script(HIDDEN)
    bea = bea_context.new_page()
    try:
        holding(ana, base_url, room, made["token"])
        holding(bea, base_url, room, bea_token)
        for page in (ana, bea):
            page.goto(base_url + "/")
        ana_row = ana.locator(f'.my-matches li[data-room="{room.id}"]')
        bea_row = bea.locator(f'.my-matches li[data-room="{room.id}"]')
        expect(ana_row).to_have_class(re.compile(r"\byour-turn\b"))
        expect(ana_row.locator(".badge.turn")).to_have_text("Your turn")
        expect(ana_row).to_contain_text("1 day per decision")
        expect(ana_row).to_contain_text(re.compile(r"your time: (1d 00:00|23:59:\d\d)"))  # a day, running
        expect(ana.locator(".my-matches li").first).to_have_attribute("data-room", room.id)  # your turn first
        expect(bea_row).to_contain_text("Their turn")
        expect(bea_row).not_to_have_class(re.compile(r"\byour-turn\b"))
        expect(bea).to_have_title("flametable")
        assert violations(ana) == []
        ana.screenshot(path=str(artefacts / "my-matches-your-turn.png"), full_page=True)

        ana_row.get_by_role("button", name="Continue").click()
        expect(ana).to_have_url(re.compile(rf"/rooms/{room.id}$"))
        expect(ana.locator(".table .status")).to_have_attribute("data-state", "connected")
        play_until_the_other_s_turn(ana, 1)

        expect(bea_row.locator(".badge.turn")).to_have_text("Your turn", timeout=POLL)
        expect(bea_row).to_have_class(re.compile(r"\byour-turn\b"))
        expect(bea_row.locator(".last-move")).to_contain_text("last move")
        expect(bea).to_have_title("● Your turn — flametable")
        expect(bea.locator("#live")).to_contain_text("Your turn in Flame Duel.")  # told to screen readers
        bea.screenshot(path=str(artefacts / "my-matches-their-move-came.png"), full_page=True)

        bea_row.get_by_role("button", name="Resign").click()  # asks first
        dialog = bea.locator("dialog.confirm[open]")
        expect(dialog).to_contain_text("Give up this match?")
        dialog.get_by_role("button", name="Keep playing").click()
        expect(bea_row).to_have_count(1)
        bea_row.get_by_role("button", name="Resign").click()
        bea.locator("dialog.confirm[open]").get_by_role("button", name="Yes, resign").click()
        expect(bea_row).to_have_count(0)
        status = rooms.server.get(f"/api/rooms/{room.id}")
        assert (status["status"], status["result"]["winner"]) == ("resigned", 0)
    finally:
        ana.context.close()
        bea_context.close()


def test_the_waiting_rooms_show_game_options_and_how_long_they_waited(page: Page, base_url: str,
                                                                        rooms: Rooms) -> None:
    room = rooms.make("duel", ["me", "open"], {"mode": "shared", "pick": "draft"})
    page.goto(base_url + "/")
    row = page.locator("section.waiting li").filter(has=page.locator(f'a[href="/rooms/{room.id}"]'))
    expect(row).to_contain_text("Flame Duel")
    expect(row.locator(".options-words")).to_contain_text("Draft")
    expect(row.locator(".waited")).to_have_text(re.compile(r"^waiting for \d+ (s|min)$"))


def test_one_s_own_profile_lists_one_s_matches_going_on(browser: Browser, base_url: str, rooms: Rooms,
                                                       artefacts: Path) -> None:
    """Signed in, the account's matches going on are on its own profile too."""
    name = f"turns{int(time.time() * 1000) % 10**8}"
    page = browser.new_context(base_url=base_url).new_page()
    try:
        page.goto(base_url + "/account")
        page.fill("#up-name", name)
        page.fill("#up-password", "a long turns password")
        page.locator("form.sign-up-form button[type=submit]").click()
        expect(page.locator("header .account .me")).to_have_text(name)
        page.goto(base_url + "/")
        page.select_option("#game", "duals")
        page.select_option("#clock", "turn:3")
        page.select_option("#opponent", "bot:easy")
        page.get_by_role("button", name="Create the room").click()
        expect(page).to_have_url(re.compile(r"/rooms/[A-Za-z0-9_-]+$"))
        room = rooms.adopt(page, page.url)
        page.goto(base_url + f"/players/{name}")
        row = page.locator(f'.profile .my-matches li[data-room="{room.id}"]')
        expect(row).to_contain_text("Flamecraft Duals")
        expect(row).to_contain_text("against An easy bot")
        expect(row).to_contain_text("3 days per decision")
        assert violations(page) == []
        page.screenshot(path=str(artefacts / "my-matches-profile.png"), full_page=True)
    finally:
        page.context.close()
