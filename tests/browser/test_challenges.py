"""Direct challenges in the browser (issue 24, point 6): two signed-in players in two browsers; one challenges the
other from their profile (Flame Duel with own decks, 5+3, rated), the other sees it in the lobby, picks one of their
saved decks and accepts: both end up at the table of one room, each in their own seat, the accepter with the deck
they chose."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.browser.rooms import Rooms
from tests.browser.test_ratings import assert_accessible, sign_up

GOOD = {"name": "Good one", "characters": [3, 7, 12], "supports": [5, 6, 7, 9, 10, 15, 16, 17, 19]}
TABLE = re.compile(r"/rooms/[A-Za-z0-9_-]+$")


def test_a_challenge_from_a_profile_is_accepted_in_the_lobby_and_both_are_at_the_table(
        browser: Browser, rooms: Rooms, base_url: str, artefacts: Path) -> None:
    ana_context, bea_context = browser.new_context(base_url=base_url), browser.new_context(base_url=base_url)
    try:
        ana, bea = ana_context.new_page(), bea_context.new_page()
        sign_up(ana, "ana_challenges")
        sign_up(bea, "bea_challenged")
        bea.evaluate("(decks) => localStorage.setItem('flametable.decks', decks)", json.dumps([GOOD]))

        ana.goto("/players/ana_challenges")  # one's own profile: nobody to challenge there
        expect(ana.locator("h1")).to_have_text("ana_challenges")
        expect(ana.locator("form.challenge-form")).to_have_count(0)
        ana.goto("/players/bea_challenged")
        form = ana.locator("form.challenge-form")
        expect(form.locator("h2")).to_have_text("Challenge bea_challenged")
        expect(ana.locator(".profile")).not_to_contain_text("null")  # no turn-based match lost on time: no line
        form.locator("#challenge-game").select_option("duel")
        form.locator("select[name=mode]").select_option("decks")
        form.locator("#challenge-rated").check()  # rated: untimed is not offered (10+5 then), and why is said
        expect(form.locator("#clock")).to_have_value("fischer:10:5")
        expect(form.locator('#clock option[value=""]')).to_be_disabled()
        expect(form.locator(".rated-clock")).to_have_text("A rated match is played with a clock: untimed is not "
                                                          "offered.")
        form.locator("#clock").select_option("fischer:5:3")
        assert_accessible(ana)
        ana.screenshot(path=str(artefacts / "challenge-form-1280.png"), full_page=True)
        form.get_by_role("button", name="Send the challenge").click()
        expect(form.get_by_role("status")).to_have_text("Challenge sent: bea_challenged sees it in their lobby.")

        ana.goto("/")
        sent = ana.locator("section.challenges li.sent")
        expect(sent).to_contain_text("You challenged bea_challenged")
        expect(sent).to_contain_text("waiting for an answer")

        bea.goto("/")
        received = bea.locator("section.challenges li.received")
        expect(received).to_contain_text("ana_challenges challenges you")
        expect(received.locator(".challenge-facts")).to_have_text("Flame Duel · 5+3 · rated")
        assert_accessible(bea)
        bea.screenshot(path=str(artefacts / "challenge-received-1280.png"), full_page=True)
        received.locator("select[name=deck]").select_option(label="Good one")
        received.get_by_role("button", name="Accept").click()
        expect(bea).to_have_url(TABLE)
        expect(bea.locator(".table .status")).to_have_attribute("data-state", "connected")
        expect(bea.locator(".table")).to_have_attribute("data-seat", "1")
        for n in GOOD["characters"]:  # the deck Bea brought
            expect(bea.locator(f'.table [data-card="C{n}"]').first).to_be_visible()

        to_table = ana.locator("section.challenges li.sent button.to-table")  # the lobby polls: accepted
        expect(to_table).to_be_visible(timeout=15_000)
        to_table.click()
        expect(ana).to_have_url(bea.url)
        expect(ana.locator(".table .status")).to_have_attribute("data-state", "connected")
        expect(ana.locator(".table")).to_have_attribute("data-seat", "0")
        rooms.adopt(ana, ana.url)  # resigned at the end of the test
        expect(bea.locator(".table .player.seat0 .presence")).to_have_text("connected")  # both at the table
    finally:
        ana_context.close()
        bea_context.close()
