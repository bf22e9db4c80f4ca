"""An automated accessibility check (axe-core, vendored for the tests) of every page, in English and in Spanish:
no serious or critical violation on the lobby, a Flame Duel table, a Flamecraft Duals table, a spectator's view,
the deck builder, the replay viewer and the result screen after a resignation."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.a11y import describe, violations
from tests.browser.rooms import Rooms

LOCALES = {"en": "en-GB", "es": "es-ES"}


@pytest.fixture(params=sorted(LOCALES))
def lang_page(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    """A page of a fresh browser whose language is English, then Spanish."""
    context = browser.new_context(locale=LOCALES[request.param], base_url=base_url)
    page = context.new_page()
    yield page
    context.close()


def assert_accessible(page: Page) -> None:
    expect(page.locator("html")).to_have_attribute("lang", page.evaluate("navigator.language.slice(0, 2)"))
    found = violations(page)
    assert not found, describe(found)


def board_drawn(page: Page) -> None:
    expect(page.locator(".table .board > *").first).to_be_attached()
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")


def test_the_lobby(lang_page: Page) -> None:
    lang_page.goto("/")
    expect(lang_page.locator("form.create h1")).to_be_visible()
    expect(lang_page.locator("ul.rooms li").first).to_be_visible()
    assert_accessible(lang_page)


@pytest.mark.parametrize("game", ["duel", "duals"])
def test_a_table_against_a_bot(lang_page: Page, rooms: Rooms, game: str) -> None:
    rooms.sit(lang_page, rooms.make(game, ["me", "bot:easy"]))
    board_drawn(lang_page)
    assert_accessible(lang_page)
    lang_page.locator(".controls button.show-log").click()
    expect(lang_page.locator("#match-log")).to_be_visible()
    assert_accessible(lang_page)  # with the log open


def test_the_lobby_with_a_room_s_link_and_the_free_seat_s_question(lang_page: Page, rooms: Rooms) -> None:
    lang_page.goto("/")
    lang_page.select_option("#game", "duals")
    lang_page.locator("form.create button[type=submit]").click()
    expect(lang_page.locator("input.room-link")).to_be_visible()
    rooms.adopt(lang_page, lang_page.locator("input.room-link").input_value())
    assert_accessible(lang_page)
    room = rooms.make("duals", ["me", "open"])
    lang_page.goto(room.link)  # no token in this browser for that room: take the seat, or watch
    expect(lang_page.locator("section.join h1")).to_be_visible()
    assert_accessible(lang_page)


def test_a_spectator_s_view(lang_page: Page, rooms: Rooms) -> None:
    rooms.sit(lang_page, rooms.make("duel", ["me", "bot:easy"]), player=None)
    board_drawn(lang_page)
    expect(lang_page.locator(".watching")).to_be_visible()
    assert_accessible(lang_page)


@pytest.mark.parametrize("path", ["/games/duel/decks", "/replay"])
def test_the_deck_builder_and_the_replay_viewer(lang_page: Page, path: str) -> None:
    lang_page.goto(path)
    expect(lang_page.locator(f"#app[data-page='{path.rsplit('/', 1)[1]}']")).not_to_have_attribute("aria-busy", "true")
    assert_accessible(lang_page)


def test_the_result_screen_after_a_resignation(lang_page: Page, rooms: Rooms) -> None:
    rooms.sit(lang_page, rooms.make("duals", ["me", "bot:easy"]))
    board_drawn(lang_page)
    lang_page.locator(".controls button.resign").click()
    expect(lang_page.locator("dialog.confirm")).to_be_visible()
    assert_accessible(lang_page)  # the question before resigning
    lang_page.locator("dialog.confirm button.confirm-resign").click()
    expect(lang_page.locator(".result .headline")).to_be_focused()
    expect(lang_page.locator(".controls button.rematch")).to_be_visible()
    assert_accessible(lang_page)


def test_the_check_finds_what_it_looks_for(page: Page, base_url: str) -> None:
    """axe-core really runs: a button without a name and a field without a label are found."""
    page.goto(base_url + "/")
    expect(page.locator("#app[data-page='lobby']")).to_be_attached()
    page.evaluate("""() => document.getElementById("app").insertAdjacentHTML("beforeend",
        '<button class="nameless"></button><input class="unlabelled" type="text">')""")
    found = {v["id"]: v for v in violations(page)}
    assert {"button-name", "label"} <= set(found), describe(list(found.values()))
    assert any(".nameless" in node["target"] for node in found["button-name"]["nodes"])
