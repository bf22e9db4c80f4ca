"""Accounts and ratings in the browser (issue 23): two players sign up in two browsers, and for each game one makes
a rated room in the lobby, the other finds it in the list (its creator's name and rating shown) and takes the seat;
they play the match to its end and both see their rating change; each profile shows the match and the rating's
chart; the leaderboard lists them with the reader's own place; one deletes the account and the other's profile
still shows the match, against a deleted player. Screenshots of the profile and the leaderboard at 360 px and
1280 px, in English and Spanish (``out/browser/``: the tests never write into the source tree).

How the matches are played: Flame Duel's whole match (16 moves or so) through the two pages, each clicking its first
legal control when its turn comes; Flamecraft Duals's (about 100 moves) begins in the pages and goes on through
each seat's own socket (the seat tokens the pages hold), first legal action each, to its end, the pages following.

The leaderboard lists only settled ratings (RD at most 110), which takes about a dozen rated matches: before the
matches above, the test plays 14 rated matches of each game between the two accounts through the HTTP API (a room
made rated with Ana's session, joined rated with Bea's, one of them resigning over the room's socket, each a real
rated match rated by the server), so that the match played in the pages is their 15th."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.a11y import describe, violations
from tests.browser.conftest import ARTEFACTS
from tests.web.live import LiveServer

MOVES = ".table .board [data-action]"
PASSWORD = "a long rated password"
SEEDED = 14
WIDER = """width => [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > width + 0.5)
    .map(e => e.tagName + "." + e.className + ": " + (e.textContent || "").slice(0, 40))"""
_HTTP = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Session:
    """An account's session as the test speaks to the API with it: the browser context's cookie and its token."""

    def __init__(self, server: LiveServer, context: BrowserContext) -> None:
        self.server = server
        cookie = next(c for c in context.cookies() if c.get("name") == "flametable_session")
        self.cookie = f"flametable_session={cookie.get('value')}"
        self.csrf = self.call("GET", "/api/me")["csrf"]

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"cookie": self.cookie, "content-type": "application/json"}
        if method != "GET":
            headers["x-csrf-token"] = self.csrf
        request = urllib.request.Request(self.server.base + path, method=method, headers=headers,
                                         data=None if body is None else json.dumps(body).encode())
        with _HTTP.open(request, timeout=30) as answer:
            return json.loads(answer.read())


def seed(server: LiveServer, ana: Session, bea: Session, game: str, count: int) -> None:
    """``count`` rated matches of ``game`` through the API, the loser resigning: Bea, then Ana, then Bea..."""
    for i in range(count):
        made = ana.call("POST", "/api/rooms", {"game": game, "seats": ["me", "open"], "rated": True,
                                               "clock": {"kind": "fischer", "minutes": 10, "increment": 5}})
        joined = bea.call("POST", f"/api/rooms/{made['room']}/join", {"rated": True})
        socket = server.connect(made["room"])
        try:
            socket.send(type="hello", token=joined["token"] if i % 2 == 0 else made["token"])
            socket.until("welcome")
            socket.send(type="resign")
            socket.until("ended")
        finally:
            socket.close()
        time.sleep(0.1)  # within the address's budget of requests with a body (10 a second)


def sign_up(page: Page, name: str) -> None:
    page.goto("/account")
    expect(page.locator("form.sign-up-form")).to_be_visible()
    assert_accessible(page)
    page.fill("#up-name", name)
    page.fill("#up-password", PASSWORD)
    page.locator("form.sign-up-form button[type=submit]").click()
    expect(page.locator("header .account .me")).to_have_text(name)


def assert_accessible(page: Page) -> None:
    found = violations(page)
    assert not found, describe(found)


def make_rated_room(page: Page, game: str) -> str:
    page.goto("/")
    page.select_option("#game", game)
    page.select_option("#opponent", "open")
    expect(page.locator("#rated")).to_be_visible()  # signed in, against a friend
    expect(page.locator("#clock")).to_have_value("")  # untimed: a casual room, as before
    page.check("#rated")  # a rated match is played with a clock: untimed is no longer offered, and why is said
    expect(page.locator("#clock")).to_have_value("fischer:10:5")
    expect(page.locator('#clock option[value=""]')).to_be_disabled()
    expect(page.locator("form.create .rated-clock")).to_have_text(
        "A rated match is played with a clock: untimed is not offered.")
    page.uncheck("#rated")
    expect(page.locator('#clock option[value=""]')).to_be_enabled()
    expect(page.locator("form.create .rated-clock")).to_be_hidden()
    page.check("#rated")
    page.locator("form.create button[type=submit]").click()
    link = page.locator("input.room-link").input_value()
    expect(page.locator(".my-matches")).to_contain_text("waiting for a player")  # my matches going on
    page.screenshot(path=str(ARTEFACTS / f"rated-lobby-{game}-en-1280.png"), full_page=True)
    page.goto(link)
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")
    return link


def take_the_seat(page: Page, link: str, creator: str) -> None:
    """From the lobby's list, where the rated room shows its creator and rating."""
    page.goto("/")
    room = link.rsplit("/", 1)[1]
    row = page.locator("section.waiting li").filter(has=page.locator(f'a[href="/rooms/{room}"]'))
    expect(row.locator(".badge.rated")).to_have_text("Rated")
    expect(row.locator(".creator")).to_contain_text(re.compile(rf"by {creator} \(\d+\)"))  # settled: no "?"
    page.screenshot(path=str(ARTEFACTS / "rated-lobby-list-en-1280.png"), full_page=True)
    row.locator(f'a[href="/rooms/{room}"]').click()
    expect(page.locator(".rated-note")).to_be_visible()
    page.locator("section.join button.primary").click()
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")


def click_first_move(page: Page) -> None:
    before = page.locator(".table").get_attribute("data-version") or ""
    page.locator(MOVES).first.click()
    expect(page.locator(".table")).not_to_have_attribute("data-version", before)


def play_in_pages(pages: list[Page], limit: int) -> int:
    """Each page clicks its first legal control when its turn comes, up to ``limit`` moves or the end; how many."""
    moves = 0
    deadline = time.monotonic() + 60
    while moves < limit and time.monotonic() < deadline:
        if all(p.locator(".result").is_visible() for p in pages):
            break
        for page in pages:
            if page.locator(MOVES).count() and not page.locator(".result").is_visible():
                click_first_move(page)
                moves += 1
                break
        else:
            time.sleep(0.05)  # the other page's event is on its way: nothing to wait on from here
    return moves


def play_out_by_sockets(server: LiveServer, room: str, tokens: list[str]) -> None:
    """Both seats' own sockets (their tokens) play the first legal action whenever their seat is to act, to the
    end: the seat whose latest event (at the match's latest version) holds legal actions acts, then waits for its
    action's event."""
    sockets = [server.connect(room) for _ in tokens]
    sent: list[dict[str, Any]] = [{}, {}]

    def next_message(i: int) -> dict[str, Any]:
        """Seat ``i``'s next event or end (presence and the like skipped; an action refused for the connection's
        budget, 10 a second after a burst of 30, sent again)."""
        while True:
            message = sockets[i].recv()
            if message["type"] in ("event", "ended"):
                return message
            if message["type"] == "error" and message["code"] == "too_fast" and sent[i]:
                time.sleep(0.2)
                sockets[i].send(**sent[i])  # the same action again
            else:
                assert message["type"] != "error", message

    def version(message: dict[str, Any]) -> int:
        return int(message["event"]["version"]) if message["type"] == "event" else 1 << 60

    try:
        for socket, token in zip(sockets, tokens, strict=True):
            socket.send(type="hello", token=token)
            socket.until("welcome")
        latest = [next_message(0), next_message(1)]
        for _ in range(1000):
            newest = max(version(m) for m in latest)
            for i in (0, 1):
                while version(latest[i]) < newest:
                    latest[i] = next_message(i)
            if any(m["type"] == "ended" for m in latest):
                return
            movers = [i for i in (0, 1) if latest[i]["legal"]]
            if not movers:  # the last action's event: the end follows
                latest = [next_message(0), next_message(1)]
                continue
            mover = movers[0]
            act = {"type": "act", "action": latest[mover]["legal"][0], "version": version(latest[mover])}
            sent[mover] = act
            sockets[mover].send(**act)
            latest[mover] = next_message(mover)
        raise AssertionError("the match did not end")
    finally:
        for socket in sockets:
            socket.close()


def rating_shown(page: Page) -> None:
    expect(page.locator(".result .rating-change li").first).to_have_text(
        re.compile(r"^Your rating: \d+ → \d+ \([+-]?\d+\)\.$"))
    expect(page.locator(".result .rating-change li")).to_have_count(2)


def screenshots(page: Page, path: str, name: str, artefacts: Path) -> None:
    for lang in ("en", "es"):
        page.evaluate("(lang) => localStorage.setItem('flametable.lang', lang)", lang)
        for width, height in ((360, 740), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(path)
            expect(page.locator("#app")).to_have_attribute("data-page", re.compile("."))
            expect(page.locator("html")).to_have_attribute("lang", lang)
            wide = page.evaluate(WIDER, width)
            assert not wide, f"no sideways scrolling at {width} px: {wide}"
            if width == 1280:
                assert_accessible(page)
            shot = artefacts / f"{name}-{lang}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
    page.evaluate("localStorage.setItem('flametable.lang', 'en')")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_two_accounts_play_rated_matches_see_their_ratings_profiles_and_leaderboards(
        browser: Browser, base_url: str, live_server: LiveServer, artefacts: Path) -> None:
    contexts = [browser.new_context(base_url=base_url, locale="en-GB", viewport={"width": 1280, "height": 800})
                for _ in range(2)]
    ana, bea = (context.new_page() for context in contexts)
    sign_up(ana, "Amaia")
    sign_up(bea, "Bruno")
    assert_accessible(bea)
    a_api, b_api = Session(live_server, contexts[0]), Session(live_server, contexts[1])
    for game in ("duel", "duals"):
        seed(live_server, a_api, b_api, game, SEEDED)

    # Flame Duel: the whole match in the pages
    link = make_rated_room(ana, "duel")
    take_the_seat(bea, link, "Amaia")
    assert play_in_pages([ana, bea], 200) < 200
    for page in (ana, bea):
        rating_shown(page)
    ana.screenshot(path=str(artefacts / "rated-duel-end-en-1280.png"), full_page=True)

    # Flamecraft Duals: a few moves in the pages, the rest through the seats' own sockets
    link = make_rated_room(ana, "duals")
    take_the_seat(bea, link, "Amaia")
    assert play_in_pages([ana, bea], 4) == 4
    room = link.rsplit("/", 1)[1]
    tokens = [p.evaluate("(room) => localStorage.getItem(`flametable.seat.${room}`)", room) for p in (ana, bea)]
    play_out_by_sockets(live_server, room, tokens)
    for page in (ana, bea):
        expect(page.locator(".result")).to_be_visible()
        rating_shown(page)

    # the profiles: both games, their charts, the matches against each other
    for page, me, other in ((ana, "Amaia", "Bruno"), (bea, "Bruno", "Amaia")):
        page.locator("header .account .me").click()
        expect(page.locator(".profile h1")).to_have_text(me)
        expect(page.locator(".profile-game")).to_have_count(2)
        expect(page.locator(".profile-game svg.rating-chart")).to_have_count(2)
        expect(page.locator(".profile-game svg.rating-chart .tick.y").first).to_be_visible()
        expect(page.locator(".profile-game svg.rating-chart .tick.x").first).to_be_visible()
        first = page.locator("ul.recent li").first
        expect(first).to_contain_text(f"against {other}")
        expect(first.locator(".change")).to_have_text(re.compile(r"^rating [+-]?\d+$"))
        expect(first.locator("a.replay-link")).to_have_attribute("href", re.compile(r"^/replay\?room=.+&match=0$"))
        expect(page.locator("ul.recent li")).to_have_count(20)

    # the leaderboard: both listed (settled), the reader's own place
    ana.goto("/leaderboard/duel")
    for name in ("Amaia", "Bruno"):
        expect(ana.locator(".board-table tbody th").filter(has_text=name)).to_have_count(1)
    expect(ana.locator(".my-place")).to_have_text(re.compile(r"^Your place: [12] \(rating \d+\)\.$"))
    expect(ana.locator(".board-table tr.mine")).to_contain_text("Amaia")

    screenshots(ana, "/players/Amaia", "profile", artefacts)
    screenshots(ana, "/leaderboard/duals", "leaderboard", artefacts)

    # Bruno deletes his account: Amaia's matches stay, against a deleted player
    bea.goto("/account")
    bea.fill("#delete-password", PASSWORD)
    bea.locator("form.delete-form button[type=submit]").click()
    expect(bea.locator("header .account .sign-in")).to_be_visible()
    ana.goto("/players/Amaia")
    expect(ana.locator("ul.recent li").first).to_contain_text("against a deleted player")
    expect(ana.locator("ul.recent li .deleted")).to_have_count(20)
    ana.evaluate("localStorage.setItem('flametable.lang', 'es')")
    ana.goto("/players/Amaia")
    expect(ana.locator("ul.recent li").first).to_contain_text("contra un jugador eliminado")
    ana.goto("/leaderboard/duel")
    expect(ana.locator(".board-table tbody")).not_to_contain_text("Bruno")
    for context in contexts:
        context.close()
