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
    # the player's own decision: the bot's moves before it wait for its worker process to start (seconds on a
    # loaded machine), and a button read while the bot still plays may be gone by the click
    mine = page.locator(".duals-table[data-mine='true']")
    expect(mine).to_be_visible(timeout=30_000)
    first = mine.locator(".actions button.action").first
    expect(first).to_be_visible()
    before = page.locator(".table").get_attribute("data-version")
    first.click()
    expect(page.locator(".table")).not_to_have_attribute("data-version", before or "",
                                                         timeout=15_000)  # the move was taken
    expect(page.locator(".error")).to_have_text("")


def test_the_language_switch_is_remembered(page: Page, base_url: str) -> None:
    page.goto(base_url + "/")
    page.select_option("#lang", "es")
    expect(page.get_by_role("heading", level=1)).not_to_have_text("New match")
    page.reload()
    expect(page.locator("#lang")).to_have_value("es")
    expect(page.locator("html")).to_have_attribute("lang", "es")


def test_a_count_takes_its_plural_form_in_the_reader_s_language(page: Page, base_url: str) -> None:
    """ngettext in the client: the catalogue's forms, picked by the language's plural rule (Spanish has three:
    one, many, other), the English singular or plural where nothing is translated."""
    page.goto(base_url + "/")
    said = page.evaluate("""async () => {
        const i18n = await import("/static/js/i18n.js");
        const bag = (n) => i18n.ngettext("Bag: {n} token", "Bag: {n} tokens", n);
        await i18n.useLanguage("es");
        const es = [1, 2, 0, 1000000].map(bag);
        await i18n.useLanguage("en");
        return { es, en: [1, 2, 0].map(bag) };
    }""")
    assert said == {"es": ["Bolsa: 1 ficha", "Bolsa: 2 fichas", "Bolsa: 0 fichas", "Bolsa: 1000000 fichas"],
                    "en": ["Bag: 1 token", "Bag: 2 tokens", "Bag: 0 tokens"]}
