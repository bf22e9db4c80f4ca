"""Flame Duel's table in the browser: two players (one in Spanish) play a whole match through a room link, clicking
only the controls the page shows; the controls are exactly the view's legal actions; a spectator sees no hand and
no unflipped character; a stale action gets the error in the page's language; screenshots of a mid-match table at
360×740 and 1280×800."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from flametable.texts.translator import Translator

STALE = "The match has moved on: your action was chosen at version {given}, the match is at version {current}."
"""The server's message for an action chosen at a version the match has left (web/rooms.py)."""

MAX_STEPS = 200
WIDER = """width => [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + "." + e.className + ": " + (e.textContent || "").slice(0, 40))"""
"""The elements that stick out of a viewport ``width`` wide (a page that scrolls sideways)."""


@dataclass
class Seat:
    """One browser page at the table, with the views its socket received (from the frames, not from the page) and
    a switch that makes its next action stale (one version behind)."""

    page: Page
    views: list[dict[str, Any]] = field(default_factory=list)
    stale_next: bool = False

    @property
    def view(self) -> dict[str, Any]:
        return self.views[-1]

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "act" and self.stale_next:
                self.stale_next = False
                data["version"] -= 1
            server.send(json.dumps(data))

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "event":
                self.views.append(data["event"]["view"] | {"version": data["event"]["version"]})
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)


def seat_at(browser: Browser, locale: str) -> Seat:
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 800})
    seat = Seat(context.new_page())
    seat.page.route_web_socket(re.compile(r"/ws"), seat.route)
    return seat


def version(seat: Seat) -> str:
    value = seat.page.locator(".duel-table").get_attribute("data-version")
    assert value is not None
    return value


def offered(seat: Seat) -> list[str]:
    found = seat.page.locator(".duel-table .act").evaluate_all("els => els.map(e => e.dataset.action)")
    return [str(action) for action in found]


def test_two_players_play_a_whole_match_through_the_link_one_in_spanish(browser: Browser, base_url: str,
                                                                         artefacts: Path) -> None:
    a, b = seat_at(browser, "en-GB"), seat_at(browser, "es-ES")
    a.page.goto(base_url + "/")
    a.page.select_option("#game", "duel")
    a.page.select_option("#opponent", "open")
    a.page.get_by_role("button", name="Create the room").click()
    link = a.page.locator(".room-link").input_value()
    a.page.get_by_role("button", name="Go to the table").click()
    watcher = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800}).new_page()
    watcher.goto(link)  # while the seat is free, a visitor chooses to take it or to watch
    watcher.get_by_role("button", name="Just watch").click()
    b.page.goto(link)
    b.page.get_by_role("button", name="Ocupar el asiento").click()
    for seat in (a, b):
        expect(seat.page.locator(".duel-table")).to_be_visible()
    expect(b.page.locator(".duel-table")).to_have_attribute("data-version", version(a))
    expect(b.page.locator(".duel-head")).to_contain_text(re.compile(r"Tu turno|Jugador \d"))  # in Spanish

    rng = random.Random(12)
    steps = 0
    shot = stale = watched = False
    while True:
        assert steps < MAX_STEPS, "the match did not end"
        seat = a if offered(a) else b
        other = b if seat is a else a
        actions = offered(seat)
        if not actions:  # nobody has a control to click: the match is over
            assert seat.view["outcome"] is not None
            break
        assert sorted(actions) == sorted(seat.view["legal"]), "the controls are exactly the legal actions"
        assert not offered(other), "only the seat to act has controls"
        # from round 2 on (its characters flipped): the stat choice, the plays, an effect's choice
        in_round = seat.view["phase"] in ("stat", "play", "choice") and seat.view["round_number"] >= 2
        if not watched and in_round:
            spectator_sees_no_secret(watcher, a, b)
            watched = True
        if not shot and in_round and seat is a:  # the English page with its options showing, the Spanish one waiting
            screenshots(a, artefacts, "en")
            screenshots(b, artefacts, "es")
            shot = True
        if not stale and seat is b and watched:
            a_stale_action_gets_the_error_in_spanish(b)
            stale = True
        control = seat.page.locator(f'.duel-table .act[data-action="{rng.choice(actions)}"]')
        expect(control).to_have_accessible_name(re.compile(r"\w{3}"))
        before = version(seat)
        control.focus()
        seat.page.keyboard.press("Enter")  # by keyboard: a real button
        expect(seat.page.locator(".duel-table")).not_to_have_attribute("data-version", before)
        expect(other.page.locator(".duel-table")).to_have_attribute("data-version", version(seat))
        steps += 1
    assert (watched, shot, stale) == (True, True, True), f"the match ended before the checks {watched, shot, stale}"
    expect(a.page.locator(".result")).to_be_visible()
    expect(a.page.locator(".result h2")).to_have_text(re.compile(r"^(You win!|You lose\.|The match is a tie\.)$"))
    expect(b.page.locator(".result h2")).to_have_text(re.compile(r"^(¡Has ganado!|Has perdido\.|La partida acaba "
                                                                 r"en empate\.)$"))
    for seat in (a, b):
        expect(seat.page.locator(".duel-table .act")).to_have_count(0)
    expect(b.page.locator(".results tbody tr")).to_have_count(len(a.view["results"]))


def spectator_sees_no_secret(page: Page, a: Seat, b: Seat) -> None:
    """A third browser that chose to watch: no hand, no control, and each line-up shows only the flipped
    characters face up (the rest face down), where a seat's own page shows all three of its own face up."""
    table = page.locator(".duel-table.spectating")
    expect(table).to_have_attribute("data-version", version(a))
    expect(page.locator(".hand")).to_have_count(0)
    expect(page.locator(".act")).to_have_count(0)
    for seat, own in ((0, a), (1, b)):
        flipped = sorted(set(own.view["seats"][seat]["flipped"]))
        secret = set(own.view["lineup"]) - set(flipped)
        assert secret, "some characters are still face down"
        side = page.locator(f".side.seat{seat}")
        faces = side.locator(".lineup .character.face-up").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(faces) == sorted(f"C{n}" for n in flipped)
        expect(side.locator(".lineup .face-down")).to_have_count(3 - len(flipped))
        for n in secret:
            expect(page.locator(f'[data-card="C{n}"]')).to_have_count(0)
            expect(own.page.locator(f'.side.mine .lineup [data-card="C{n}"]')).to_have_count(1)
        expect(own.page.locator(".side.mine .lineup .character.face-up")).to_have_count(3)
        expect(own.page.locator(".side.mine .lineup .face-down")).to_have_count(0)
        other = own.page.locator(".side.theirs .lineup")
        expect(other.locator(".face-down")).to_have_count(3 - len(set(own.view["seats"][1 - seat]["flipped"])))
    for n in a.view["hand"] + b.view["hand"]:
        expect(page.locator(f'.card[data-card="S{n}"]').filter(has=page.locator(".card-actions"))).to_have_count(0)
    page.context.close()


def a_stale_action_gets_the_error_in_spanish(b: Seat) -> None:
    """An action sent through the page's own socket at a version the match has left is refused, and the page says
    so in its language; the match goes on."""
    current = int(version(b))
    b.stale_next = True
    b.page.locator(".duel-table .act").first.click()
    spanish = Translator.for_language("es").message(STALE, {"given": current - 1, "current": current})
    assert spanish != STALE.format(given=current - 1, current=current), "the message has a Spanish translation"
    expect(b.page.get_by_role("alert").filter(has_text=spanish)).to_be_visible()
    expect(b.page.locator(".duel-table")).to_have_attribute("data-version", str(current))


def screenshots(seat: Seat, artefacts: Path, lang: str) -> None:
    """The whole page on a phone and on a desktop (``duel-LANG-WxH.png``), nothing wider than the screen."""
    for width, height in ((360, 740), (1280, 800)):
        seat.page.set_viewport_size({"width": width, "height": height})
        wide = seat.page.evaluate(WIDER, width)
        assert not wide, f"no sideways scrolling at {width} px: {wide}"
        seat.page.evaluate("window.scrollTo(0, 0)")
        seat.page.screenshot(path=str(artefacts / f"duel-{lang}-{width}x{height}.png"), full_page=True)


def test_a_drafted_match_against_a_bot_offers_the_draft_pool_and_only_legal_controls(browser: Browser, base_url: str,
                                                                                    artefacts: Path) -> None:
    me = seat_at(browser, "en-GB")
    me.page.goto(base_url + "/")
    me.page.select_option("#game", "duel")
    me.page.select_option("select[name=pick]", "draft")
    me.page.select_option("#opponent", "bot:easy")
    me.page.get_by_role("button", name="Create the room").click()
    pool = me.page.locator(".draft .face")  # the pool's faces to read, its picks in the dock
    expect(pool.first).to_be_visible()
    assert me.view["phase"] == "draft"
    expect(pool).to_have_count(len(me.view["draft_pool"]))
    expect(me.page.locator(".dock .tiles .act")).to_have_count(len(me.view["legal"]))
    me.page.screenshot(path=str(artefacts / "duel-draft-1280x800.png"))
    rng = random.Random(33)
    for _ in range(MAX_STEPS):
        expect(me.page.locator(".duel-table .act").first.or_(me.page.locator(".result h2"))).to_be_visible()
        if me.page.locator(".result").is_visible():
            break
        actions = offered(me)
        assert sorted(actions) == sorted(me.view["legal"])
        before = version(me)
        me.page.locator(f'.duel-table .act[data-action="{rng.choice(actions)}"]').click()
        expect(me.page.locator(".duel-table")).not_to_have_attribute("data-version", before)
    expect(me.page.locator(".result h2")).to_have_text(re.compile(r"^(You win!|You lose\.|The match is a tie\.)$"))
