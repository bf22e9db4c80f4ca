"""Issue 25, points 2, 3, 7 and 8 and the cards' details of point 1, in English and Spanish, at 360×740 and
1280×800: a card's details on a tap and on the keyboard's focus; the turn told (the tab's title, an optional
chime while the tab is hidden, the header's words fitting the reader); the other player's last move shown and told
in one line, for players and spectators; the controls off, saying why, while the connection is down; and the small
fixes (the chooser's words in Spanish, the replay viewer's names, the hidden cards shown at the end)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, ViewportSize, WebSocketRoute, expect

from tests.browser.a11y import describe, violations
from tests.browser.rooms import Room, Rooms

SIZES = {"phone": (360, 740), "desktop": (1280, 800)}
LOCALES = {"en": "en-GB", "es": "es-ES"}
TITLE = {"en": "● Your turn — flametable", "es": "● Tu turno — flametable"}
TIMEOUT = 60_000  # a loaded CI machine: wait long, on conditions only

CHIMES = """() => {
  window.__chimes = 0;
  window.__hidden = false;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() { window.__chimes += 1; return super.createOscillator(); }
  };
  Object.defineProperty(Document.prototype, 'hidden', { get: () => window.__hidden === true, configurable: true });
}"""
"""Count the chimes the page starts, and let a test say the tab is hidden."""


@pytest.fixture(params=[(lang, size) for lang in LOCALES for size in SIZES], ids=lambda p: f"{p[0]}-{p[1]}")
def context(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[BrowserContext]:
    lang, size = request.param
    width, height = SIZES[size]
    made = browser.new_context(locale=LOCALES[lang], base_url=base_url, viewport={"width": width, "height": height})
    made.add_init_script(script=f"({CHIMES})()")
    yield made
    made.close()


def lang_of(page: Page) -> str:
    return str(page.evaluate("navigator.language.slice(0, 2)"))


def decision(page: Page) -> None:
    expect(page.locator(".table .board [data-action]").first).to_be_visible(timeout=TIMEOUT)


def until_a_hand(page: Page) -> None:
    """Play the line-up (the first option each time) until the round's hand is dealt."""
    for _ in range(10):
        decision(page)
        if page.locator(".dock .hand .mini").count():
            return
        before = page.locator(".duel-table").get_attribute("data-version") or ""
        page.locator(".table .board [data-action]").first.click()
        expect(page.locator(".duel-table")).not_to_have_attribute("data-version", before, timeout=TIMEOUT)
    raise AssertionError("no hand was dealt")


def test_a_card_s_details_show_on_a_tap_and_on_the_keyboard_s_focus(context: BrowserContext, rooms: Rooms) -> None:
    page = context.new_page()
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"]))
    until_a_hand(page)
    page.reload()  # no pointer on this page yet: the keyboard's focus shows the details
    card = page.locator(".dock .hand .mini").first
    expect(card).to_be_visible(timeout=TIMEOUT)
    details = card.locator(".details")
    expect(details).to_be_hidden()
    page.keyboard.press("Tab")  # the keyboard's focus (no pointer yet): the card's details come with it
    card.locator(".peek").focus()
    expect(details).to_be_visible(timeout=TIMEOUT)
    expect(details).to_contain_text(re.compile(r"S\d+"))
    page.locator("main").focus()
    expect(details).to_be_hidden(timeout=TIMEOUT)
    card.locator(".peek").click()  # a tap opens them, another closes them
    expect(card.locator(".peek")).to_have_attribute("aria-expanded", "true")
    expect(details).to_be_visible(timeout=TIMEOUT)
    box = details.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= size["width"] + 1, "the details inside the screen"
    card.locator(".peek").click()
    expect(details).to_be_hidden(timeout=TIMEOUT)


def seated_pair(context: BrowserContext, browser: Browser, base_url: str, rooms: Rooms) -> tuple[Room, Page, Page]:
    """A Flame Duel room of two people: this context's page as Player 1, another browser (in the other language,
    at the other size) as Player 2."""
    room = rooms.make("duel", ["me", "open"])
    token = rooms.join(room)
    mine = context.new_page()
    rooms.sit(mine, room)
    other_lang = "es-ES" if lang_of(mine) == "en" else "en-GB"
    size = mine.viewport_size
    assert size is not None
    other_size: ViewportSize = ({"width": 1280, "height": 800} if size["width"] == 360
                                 else {"width": 360, "height": 740})
    theirs = browser.new_context(locale=other_lang, base_url=base_url, viewport=other_size)
    theirs.add_init_script(script=f"({CHIMES})()")
    other = theirs.new_page()
    rooms.sit(other, room, token=token)
    return room, mine, other


def to_act(a: Page, b: Page) -> tuple[Page, Page]:
    """The page with the decision, then the other: page ``a`` shows a decision of its own or the other seat to act
    (waited for on its own state), then the page with it shows its controls."""
    expect(a.locator(".table .board [data-action], .duel-table .side.theirs.to-act").first).to_be_attached(
        timeout=TIMEOUT)
    actor, waiting = (b, a) if a.locator(".duel-table .side.theirs.to-act").count() else (a, b)
    decision(actor)
    return actor, waiting


def test_the_turn_is_told_the_last_move_shown_and_the_chime_rings_only_when_asked(
        context: BrowserContext, browser: Browser, base_url: str, rooms: Rooms) -> None:
    room, a, b = seated_pair(context, browser, base_url, rooms)
    watcher = browser.new_context(locale="en-GB", base_url=base_url).new_page()  # no seat token: a spectator
    rooms.sit(watcher, room, player=None)
    expect(watcher.locator(".watching")).to_be_visible()
    sides = watcher.locator(".duel-table .side")
    expect(sides).to_have_count(2, timeout=TIMEOUT)
    for side in (sides.nth(0), sides.nth(1)):  # (drawn again as the match's first events arrive)
        expect(side).to_be_visible(timeout=TIMEOUT)
    stacked = watcher.evaluate("""() => {
        const [top, bottom] = [...document.querySelectorAll('.duel-table .side')].map((e) => e.getBoundingClientRect());
        return top && bottom ? top.bottom <= bottom.top : null;
    }""")
    assert stacked is True, "a spectator sees both sides, one above the other"
    actor, waiting = to_act(a, b)
    expect(actor).to_have_title(TITLE[lang_of(actor)], timeout=TIMEOUT)
    expect(waiting).to_have_title("flametable")
    # the header says whose turn in the reader's words: one's own task, or what the other is doing
    expect(actor.locator(".duel-head .turn-words")).to_contain_text(re.compile(r"^(Your turn|Tu turno): "))
    expect(waiting.locator(".duel-head .turn-words")).to_have_text(
        re.compile(r"^(Player \d is [a-z -]+…|Jugador \d (está|elige).*…)$"))
    expect(waiting.locator(".sound-choice input")).not_to_be_checked()  # the chime is off until asked for
    for page in (waiting, actor):
        page.evaluate("() => { window.__hidden = true; }")
    # a round of decisions: each page's next decision chimes only where the chime was asked for and the tab hidden
    actor.locator(".sound-choice input").check()
    for _ in range(6):
        now, other = to_act(a, b)
        other.evaluate("() => { window.__hidden = true; }")
        before = now.locator(".duel-table").get_attribute("data-version")
        move = now.locator(".table .board [data-action]").first
        move.click()
        expect(now.locator(".duel-table")).not_to_have_attribute("data-version", before or "", timeout=TIMEOUT)
        # the other page tells the move in one line, and marks it on the table
        strip = other.locator(".table > .last-move")
        expect(strip).to_be_visible(timeout=TIMEOUT)
        expect(strip).to_contain_text(re.compile(r"^(Last move|Última jugada):"))
        expect(watcher.locator(".table > .last-move")).to_be_visible(timeout=TIMEOUT)
        expect(now.locator(".table > .last-move")).to_be_hidden()  # one's own move is not news
        if now.locator(".duel-table .round-log li").count():
            expect(other.locator(".duel-table .round-log li.last-move")).to_have_count(1, timeout=TIMEOUT)
        if now.locator(".duel-table .round-stat").count():
            stat = other.locator(".duel-table .round-stat")
            expect(stat).not_to_contain_text("Elige la estadística:")  # names who chose, not an order
            expect(stat).to_contain_text(re.compile(r"(chosen by|elegida por|chooses|elige)"))
    chimes = {page: page.evaluate("window.__chimes") for page in (a, b)}
    assert chimes[actor] >= 1, "asked for: the hidden tab chimed at its decision"
    assert chimes[waiting] == 0, "not asked for: no chime"


class Cut:
    """A page's room socket through the test: cut, and held down until let through again."""

    def __init__(self) -> None:
        self.routes: list[WebSocketRoute] = []
        self.down = False

    def route(self, ws: WebSocketRoute) -> None:
        self.routes.append(ws)
        if not self.down:
            ws.connect_to_server()

    def cut(self) -> None:
        self.down = True
        for ws in self.routes:
            ws.close()

    def mend(self, page: Page) -> None:
        self.down = False
        page.evaluate("() => window.dispatchEvent(new Event('online'))")  # the client tries again at once


def test_while_the_connection_is_down_the_controls_are_off_and_say_why(context: BrowserContext, rooms: Rooms) -> None:
    page = context.new_page()
    cut = Cut()
    page.route_web_socket(re.compile(r"/ws"), cut.route)
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"]))
    decision(page)
    cut.cut()
    expect(page.locator(".table .status")).to_have_attribute("data-state", re.compile("reconnecting|connecting"),
                                                             timeout=TIMEOUT)
    why = page.locator(".board .offline-why")
    expect(why).to_be_visible(timeout=TIMEOUT)
    expect(why).to_contain_text(re.compile(r"(Connection lost|Conexión perdida)"))
    controls = page.locator(".table .board [data-action]")
    assert controls.count() > 0
    for i in range(controls.count()):
        expect(controls.nth(i)).to_be_disabled()
        expect(controls.nth(i)).to_have_attribute("aria-describedby", "offline-why")
    page.evaluate("window.scrollTo(0, 0)")
    expect(why).to_be_in_viewport(ratio=1, timeout=TIMEOUT)  # said where the controls are, in sight
    version = page.locator(".duel-table").get_attribute("data-version")
    cut.mend(page)
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected", timeout=TIMEOUT)
    expect(why).to_have_count(0)
    control = page.locator(".table .board [data-action]").first
    expect(control).to_be_enabled()
    control.click()
    expect(page.locator(".duel-table")).not_to_have_attribute("data-version", version or "", timeout=TIMEOUT)


def test_a_move_that_the_socket_cannot_carry_is_said_not_sent(context: BrowserContext, rooms: Rooms) -> None:
    """A click in the moment the socket closes (before the page knows it): not silently lost."""
    page = context.new_page()
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    decision(page)
    # the socket is closing, and the page has not heard of it yet
    page.evaluate("() => Object.defineProperty(WebSocket.prototype, 'readyState', {"
                  " get: () => 2, configurable: true })")
    page.locator(".table .board [data-action]").first.dispatch_event("click")
    expect(page.locator(".table .error")).to_have_text(re.compile(r"(Not sent|No enviada)"), timeout=TIMEOUT)


def test_at_the_end_the_hidden_cards_are_shown_and_the_replay_names_no_one_you(context: BrowserContext,
                                                                               rooms: Rooms) -> None:
    page = context.new_page()
    refused: list[str] = []

    def budget_spent(route: Route) -> None:
        """The first replay asked is refused as a busy server refuses it (the address's replays a second): the
        client asks again, as the message says."""
        if not refused:
            refused.append(route.request.url)
            route.fulfill(status=429, json={"error": "too_many_requests", "message": "Too many replays"})
        else:
            route.continue_()

    page.route(re.compile(r"/matches/\d+/replay"), budget_spent)
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"]))
    until_a_hand(page)  # round 1: one character of each line-up flipped, the hands dealt
    hidden = page.locator(".side.theirs .lineup .face-down").count()
    assert hidden == 2
    page.locator(".controls button.resign").click()
    page.locator("dialog.confirm button.confirm-resign").click()
    expect(page.locator(".result .headline")).to_be_visible(timeout=TIMEOUT)
    # the record is released: the opponent's characters never flipped are face up, its hand is shown
    expect(page.locator(".side.theirs .lineup .mini.revealed")).to_have_count(hidden, timeout=TIMEOUT)
    expect(page.locator(".side.theirs .lineup .face-down")).to_have_count(0)
    expect(page.locator(".side.theirs .shown-hand .mini").first).to_be_visible()
    assert len(refused) == 1, "refused once, then asked again"
    page.locator(".result a[href^='/replay']").click()
    expect(page.locator(".replay .step-counter")).to_be_visible(timeout=TIMEOUT)
    page.locator(".replay-nav .last").click()
    expect(page.locator(".replay .board")).not_to_contain_text(re.compile(r"\((you|tú)\)"))
    expect(page.locator(".replay .board .side-name").first).to_contain_text(re.compile(r"(Player|Jugador) \d"))


HELP_TITLE = {("en", "duel"): "How to play Flame Duel", ("es", "duel"): "Cómo se juega a Duelo de llamas",
              ("en", "duals"): "How to play Flamecraft Duals", ("es", "duals"): "Cómo se juega a Flamecraft Duals"}


def test_how_to_play_each_game_from_the_lobby_and_from_the_table(context: BrowserContext, rooms: Rooms) -> None:
    """Point 9: a short how-to-play of each game in the reader's language, reached from the lobby (the game
    chosen) and from a table; no accessibility violation on it."""
    page = context.new_page()
    lang = "es" if "es" in str(context.pages[0].evaluate("navigator.language")) else "en"
    for game in ("duel", "duals"):
        page.goto("/")
        page.select_option("#game", game)
        page.locator("form.create .help-link").click()
        expect(page.locator(".help h1")).to_have_text(HELP_TITLE[(lang, game)], timeout=TIMEOUT)
        expect(page.locator(".help section")).to_have_count(5 if game == "duals" else 6)
        found = violations(page)
        assert not found, describe(found)
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    page.locator(".table .controls .help-link").click()
    expect(page.locator(".help h1")).to_have_text(HELP_TITLE[(lang, "duals")], timeout=TIMEOUT)
    page.go_back()
    expect(page.locator(".table .board > *").first).to_be_attached(timeout=TIMEOUT)  # back at the table


DECKS = [{"name": "Good", "characters": [1, 2, 3], "supports": [1, 2, 3, 4, 5, 6, 7, 8]},
         {"name": "Short", "characters": [4, 5], "supports": [1, 2, 3, 4, 5, 6, 7, 8]}]
"""A deck the game accepts and one it refuses (2 characters: a deck holds 3, R2)."""


def test_a_failed_save_takes_the_focus_to_why_and_the_lobby_offers_only_good_decks(context: BrowserContext,
                                                                                   base_url: str) -> None:
    """Point 6: the deck builder's refused save moves the keyboard's focus to the problem, in sight; the lobby's
    choice of an own deck offers only the decks the game accepts, and says why beside the others (the problem in
    words, not the option's path)."""
    page = context.new_page()
    page.goto("/games/duel/decks")
    page.locator("button.new-deck").click()
    for n in (1, 2):  # two characters only
        page.locator(f'input[name="character"][value="{n}"]').check()
    page.locator('input[name="support"]').first.scroll_into_view_if_needed()  # the player is far below the message
    page.locator("form.deck-builder button[type=submit]").click()
    problem = page.locator("#deck-problem")
    expect(problem).to_be_focused(timeout=TIMEOUT)
    expect(problem).to_be_in_viewport(timeout=TIMEOUT)
    expect(problem).not_to_have_text("")
    page.evaluate("(decks) => localStorage.setItem('flametable.decks', JSON.stringify(decks))", DECKS)
    page.goto("/")
    page.select_option("#game", "duel")
    deck = page.locator("select[name=deck]")
    expect(deck.locator("option[value='1']")).to_be_disabled(timeout=TIMEOUT)
    expect(deck.locator("option[value='0']")).to_be_enabled()
    why = page.locator("#deck-problems li")
    expect(why).to_have_count(1)
    expect(why).to_contain_text("Short: ")
    expect(why).not_to_contain_text("options.")
    found = violations(page)
    assert not found, describe(found)
