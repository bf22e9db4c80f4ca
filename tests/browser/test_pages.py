"""The pages the server gives a browser: the lobby makes a room, the table shows it and takes a move; the language
switch is remembered."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_the_lobby_makes_a_room_against_a_bot_and_the_table_takes_a_move(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.select_option("#game", "duals")
    page.select_option("#opponent", "bot:easy")
    page.get_by_role("button", name="Create the room").click()
    expect(page).to_have_url(__import__("re").compile(r"/rooms/[A-Za-z0-9_-]+$"))
    expect(page.get_by_role("status")).to_have_text("Connected")
    first = page.locator(".actions button").first
    expect(first).to_be_visible()
    first.click()
    expect(page.locator(".error")).to_have_text("")


def test_the_language_switch_is_remembered(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.select_option("#lang", "es")
    expect(page.get_by_role("heading", level=1)).not_to_have_text("New match")
    page.reload()
    expect(page.locator("#lang")).to_have_value("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")
