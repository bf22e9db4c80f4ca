"""The join screen (issue 25, point 5; issue 24, point 6): a room's link opened by the one joining shows the game,
its options and time control, who is waiting (their account's name, else "Player 1"), and in a Flame Duel room of
own decks (R2) a choice of the joiner's saved decks (those the game refuses shown with why, not selectable) or a
random deck; the seat is then taken with the deck chosen, which the joiner's table shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.rooms import Room, Rooms
from tests.browser.test_ratings import Session, assert_accessible, sign_up
from tests.web.live import LiveServer

CREATOR = {"characters": [18, 26, 27], "supports": [1, 2, 3, 4, 8, 11, 12, 13, 14, 18]}
GOOD: dict[str, Any] = {"name": "Good one", "characters": [3, 7, 12], "supports": [5, 6, 7, 9, 10, 15, 16, 17, 19]}
BAD: dict[str, Any] = {"name": "Too few", "characters": [3, 7], "supports": [5, 6, 7, 9, 10, 15, 16, 17, 19]}


def keep(rooms: Rooms, made: dict[str, object]) -> Room:
    tokens = made["tokens"]
    assert isinstance(tokens, dict)
    room = Room(str(made["room"]), str(made["link"]), {int(p): str(t) for p, t in tokens.items()})
    rooms.made.append(room)  # resigned at the end of the test
    return room


def with_decks(page: Page, base_url: str, decks: list[dict[str, Any]]) -> None:
    page.goto(base_url + "/healthz")
    page.evaluate("(decks) => localStorage.setItem('flametable.decks', decks)", json.dumps(decks))


def test_the_joiner_sees_the_room_and_brings_their_own_deck(page: Page, rooms: Rooms, live_server: LiveServer,
                                                           base_url: str, artefacts: Path) -> None:
    room = keep(rooms, live_server.post("/api/rooms", {
        "game": "duel", "seats": ["me", "open"], "options": {"mode": "decks", "decks": [CREATOR, None]},
        "clock": {"kind": "fischer", "minutes": 5, "increment": 3}}, expect=201))
    with_decks(page, base_url, [BAD, GOOD])
    page.goto(base_url + room.link)
    join = page.locator("section.join")
    expect(join.locator(".join-game")).to_have_text("Flame Duel")
    expect(join.locator(".join-options")).to_contain_text("Own decks")
    expect(join.locator(".join-clock")).to_have_text("5+3")
    expect(join.locator(".join-waiting")).to_have_text("Player 1")  # a guest's room: the seat's name
    deck = join.locator("select[name=deck]")
    expect(deck.locator("option")).to_have_text(["A random deck", "Too few (cannot be used)", "Good one"])
    expect(deck.locator("option", has_text="Too few")).to_be_disabled()  # R2: exactly 3 characters
    expect(join.locator(".deck-problems")).to_have_text("Too few: a deck has exactly 3 characters, got 2")
    assert_accessible(page)
    page.screenshot(path=str(artefacts / "join-screen-own-decks-1280.png"), full_page=True)
    deck.select_option(label="Good one")
    join.get_by_role("button", name="Take the seat").click()
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")
    expect(page.locator(".table")).to_have_attribute("data-seat", "1")
    for n in GOOD["characters"]:  # the joiner's own characters, face up on their side
        expect(page.locator(f'.table [data-card="C{n}"]').first).to_be_visible()
    for n in CREATOR["characters"]:  # the creator's stay theirs
        expect(page.locator(f'.table [data-card="C{n}"]')).to_have_count(0)


def test_a_random_deck_is_chosen_by_saying_so(page: Page, rooms: Rooms, live_server: LiveServer,
                                              base_url: str) -> None:
    room = keep(rooms, live_server.post("/api/rooms", {
        "game": "duel", "seats": ["me", "open"], "options": {"mode": "decks", "decks": [CREATOR, None]}},
        expect=201))
    with_decks(page, base_url, [])
    page.goto(base_url + room.link)
    join = page.locator("section.join")
    expect(join.locator(".join-clock")).to_have_text("Untimed")
    expect(join.locator("select[name=deck] option")).to_have_text(["A random deck"])
    join.get_by_role("button", name="Take the seat").click()
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")
    expect(page.locator(".table .mini.unlined[data-card^=C]")).to_have_count(3)


def test_the_creator_waits_by_their_account_s_name(browser: Browser, page: Page, rooms: Rooms,
                                                   live_server: LiveServer, base_url: str) -> None:
    creator = browser.new_context(base_url=base_url)
    try:
        signed_in = creator.new_page()
        sign_up(signed_in, "joan_waits")
        made = Session(live_server, creator).call("POST", "/api/rooms", {"game": "duals", "seats": ["me", "open"]})
        room = keep(rooms, made)
        page.goto(base_url + room.link)
        join = page.locator("section.join")
        expect(join.locator(".join-game")).to_have_text("Flamecraft Duals")
        expect(join.locator(".join-waiting")).to_have_text("joan_waits")
        expect(join.locator("select[name=deck]")).to_have_count(0)  # nothing to bring to this game
        join.get_by_role("button", name="Just watch").click()
        expect(page.locator(".table")).not_to_have_attribute("data-seat", "1")
    finally:
        creator.close()
