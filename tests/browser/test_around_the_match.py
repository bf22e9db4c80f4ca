"""Around the match, in the browser: a reload keeps the seat and the state; the connection of both seats; resign,
the result screen and a rematch with the seats swapped; undo against a bot; the match log; watching by link; every
control reachable and operable by keyboard; the others' moves told to screen readers; 360 px wide.

The board's legal moves are found by ``data-action`` (the mark every table puts on the control of a legal action),
so these tests hold whatever a game's drawing."""

from __future__ import annotations

from playwright.sync_api import Browser, Locator, Page, WebSocketRoute, expect

from tests.browser.rooms import Room, Rooms

MOVES = ".table .board [data-action]"


def seat(page: Page) -> str | None:
    return page.locator(".table").get_attribute("data-seat")


def version(page: Page) -> str | None:
    return page.locator(".table").get_attribute("data-version")


def moves(page: Page) -> list[str]:
    return [m.get_attribute("data-action") or "" for m in page.locator(MOVES).all()]


def my_turn(page: Page, after: str | None = None) -> None:
    """Wait until this page's seat is to act (its legal moves shown), at a version other than ``after``."""
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")
    if after is not None:
        expect(page.locator(".table")).not_to_have_attribute("data-version", after)
    expect(page.locator(".table .player.to-act")).to_have_class(f"player seat{seat(page)} to-act")
    expect(page.locator(MOVES).first).to_be_visible()


def play_first_move(page: Page) -> str:
    """Play the first legal move and wait until it is this seat's turn again; the version before the move."""
    my_turn(page)
    before = version(page)
    page.locator(MOVES).first.click()
    expect(page.locator(".table")).not_to_have_attribute("data-version", before or "")
    my_turn(page)
    return before or ""


def test_a_reload_mid_match_keeps_the_seat_and_the_state(page: Page, rooms: Rooms) -> None:
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    play_first_move(page)
    mine, seen, offered = seat(page), version(page), moves(page)
    page.reload()
    my_turn(page)
    assert (seat(page), version(page), moves(page)) == (mine, seen, offered)
    expect(page.locator(f".table .player.seat{mine} .name")).to_have_text(f"Player {int(mine or 0) + 1} (you)")
    expect(page.locator(".controls button.resign")).to_be_visible()


def test_a_lost_connection_comes_back_by_itself_with_the_seat_and_the_state(page: Page, rooms: Rooms) -> None:
    """The page's sockets go through a relay the test can cut, as a lost network would."""
    relays: list[WebSocketRoute] = []

    def relay(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        relays.append(ws)

    page.route_web_socket("**/api/rooms/*/ws*", relay)
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    play_first_move(page)
    mine, seen, offered = seat(page), version(page), moves(page)
    relays[-1].close(code=1006, reason="network lost")
    expect(page.locator(".table .status")).to_have_attribute("data-state", "reconnecting")
    expect(page.locator(".table .status")).to_have_text("Connection lost: reconnecting…")
    my_turn(page)
    assert len(relays) == 2
    assert (seat(page), version(page), moves(page)) == (mine, seen, offered)
    before = version(page)
    page.locator(MOVES).first.click()  # and the seat still plays
    my_turn(page, after=before)


def test_the_connection_of_both_seats_is_shown(browser: Browser, page: Page, rooms: Rooms, base_url: str) -> None:
    room = rooms.make("duals", ["me", "open"])
    rooms.sit(page, room)
    other = f".table .player.seat{1 - int(seat(page) or 0)} .presence"
    expect(page.locator(other)).to_have_text("seat free")
    friend_token = rooms.join(room)
    friend = browser.new_context(base_url=base_url).new_page()
    rooms.sit(friend, room, token=friend_token)
    expect(page.locator(other)).to_have_text("connected")
    expect(friend.locator(f".table .player.seat{seat(page)} .presence")).to_have_text("connected")
    friend.context.close()
    expect(page.locator(other)).to_have_text("disconnected")
    expect(page.locator(other)).to_have_class("presence off")
    expect(page.locator("#live")).to_contain_text("has disconnected")
    friend = browser.new_context(base_url=base_url).new_page()
    rooms.sit(friend, room, token=friend_token)  # the friend comes back with the same seat
    expect(page.locator(other)).to_have_text("connected")
    expect(page.locator("#live")).to_contain_text("is connected")
    expect(friend.locator(".watching")).to_be_hidden()
    friend.context.close()


def test_resign_shows_the_result_and_a_rematch_swaps_the_seats(page: Page, rooms: Rooms) -> None:
    room = rooms.make("duals", ["me", "bot:easy"])
    rooms.sit(page, room)
    my_turn(page)
    first = seat(page)
    page.locator(".controls button.resign").click()
    page.locator("dialog.confirm button.keep-playing").click()  # changing one's mind changes nothing
    expect(page.locator("dialog.confirm")).to_be_hidden()
    expect(page.locator(".result")).to_be_hidden()
    page.locator(".controls button.resign").click()
    page.locator("dialog.confirm button.confirm-resign").click()
    expect(page.locator(".result .headline")).to_have_text("You lose.")
    expect(page.locator(".result .headline")).to_be_focused()
    # the log's last line, among the result's: who resigned
    expect(page.locator(".result .final")).to_contain_text(f"Player {int(first or 0) + 1} resigned.")
    expect(page.locator(".result a[download]")).to_have_attribute("href", f"/api/rooms/{room.id}/matches/0/record")
    expect(page.locator(".controls button.resign")).to_have_count(0)
    expect(page.locator(MOVES)).to_have_count(0)  # nothing left to play
    page.locator(".controls button.rematch").click()
    expect(page.locator(".table")).to_have_attribute("data-seat", str(1 - int(first or 0)))
    expect(page.locator(".result")).to_be_hidden()
    expect(page.locator(f".table .player.seat{1 - int(first or 0)} .name")).to_contain_text("(you)")
    expect(page.locator(".controls button.resign")).to_be_visible()
    expect(page.locator("#live")).to_contain_text("A new match begins")
    my_turn(page)  # the new match is played from the new seat


def test_undo_against_a_bot_takes_the_move_back(page: Page, rooms: Rooms) -> None:
    """In a draft of Flame Duel's characters every pick is public, so the take-back is always allowed."""
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"], {"mode": "shared", "pick": "draft"}))
    my_turn(page)
    undo = page.locator(".controls button.undo")
    expect(undo).to_be_disabled()  # nothing of mine to take back yet
    offered, before = moves(page), version(page)
    page.locator(MOVES).first.click()
    my_turn(page, after=before)
    assert moves(page) != offered
    expect(undo).to_be_enabled()
    undo.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#live")).to_contain_text("Your last move was taken back.")
    my_turn(page)
    assert moves(page) == offered
    expect(undo).to_be_disabled()
    expect(undo).to_be_focused()  # off now, yet still holding the keyboard's focus (aria-disabled)
    page.keyboard.press("Enter")  # pressed again: told why nothing happens, nothing sent
    expect(page.locator("#live")).to_contain_text("Nothing to take back yet")
    assert int(version(page) or 0) > int(before or 0)  # a version is never reused for another state
    expect(page.locator(".table .error")).to_have_text("")


def test_the_match_log_opens_and_has_lines(page: Page, rooms: Rooms) -> None:
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    play_first_move(page)
    toggle = page.locator(".controls button.show-log")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#match-log")).to_be_hidden()
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("region", name="Match log")).to_be_visible()
    expect(page.locator("#match-log li").first).to_be_visible()
    assert page.locator("#match-log li").count() >= 2  # at least the move played and the bot's answer


def test_a_spectator_watches_by_link_with_no_control_to_act(browser: Browser, page: Page, rooms: Rooms,
                                                            base_url: str) -> None:
    room = rooms.make("duals", ["me", "bot:easy"])
    rooms.sit(page, room)
    play_first_move(page)
    watcher = browser.new_context(base_url=base_url).new_page()
    watcher.goto(room.link)
    expect(watcher.locator(".watching")).to_have_text("You are watching this match.")
    expect(watcher.locator(".table .board > *").first).to_be_attached()
    expect(watcher.locator(".table")).to_have_attribute("data-seat", "")
    expect(watcher.locator(".table .name", has_text="(you)")).to_have_count(0)
    expect(watcher.locator(MOVES)).to_have_count(0)
    expect(watcher.locator(".controls button.resign, .controls button.undo, .controls button.rematch")).to_have_count(0)
    expect(watcher.locator(".controls button.show-log")).to_be_visible()
    expect(page.locator(".watching")).to_be_hidden()
    watcher.context.close()


def focused(page: Page) -> str:
    """What has the keyboard's focus: its tag, class and words."""
    answer: str = page.evaluate("""() => { const el = document.activeElement;
        return `${el.tagName} ${el.className} ${el.getAttribute('data-action') || el.textContent.slice(0, 30)}`; }""")
    return answer


def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until the focus is on an element matching ``selector`` (at most ``limit`` times)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} not reached with Tab; the focus is on {focused(page)}")


def test_every_control_is_reached_and_operated_by_keyboard(page: Page, rooms: Rooms) -> None:
    rooms.sit(page, rooms.make("duals", ["me", "bot:easy"]))
    my_turn(page)
    # the table redraws its board after every message: a control is known by what it is, not by its element
    key = "(el) => `${el.tagName} ${el.className} ${el.getAttribute('href') || ''} ${el.textContent}`"
    every = f"""() => [...document.querySelectorAll('button, a[href], select, input, [tabindex="0"]')]
        .filter((el) => el.offsetParent !== null && !el.disabled).map({key})"""  # a disabled button is skipped
    controls: list[str] = page.evaluate(every)
    page.locator("body").focus()
    reached: set[str] = set()
    for _ in range(len(controls) + 5):  # once round the page
        page.keyboard.press("Tab")
        reached.add(page.evaluate(f"() => ({key})(document.activeElement)"))
    missed = sorted(set(controls) - reached)
    assert not missed, missed
    # a move played with the keyboard only: Tab to it, Enter
    before = version(page)
    page.locator("body").focus()
    tab_to(page, MOVES.replace(".table .board ", ".board "))
    page.keyboard.press("Enter")
    my_turn(page, after=before)
    # the focus stays on the table (not lost to the page) after the board is redrawn
    assert page.evaluate("document.getElementById('app').contains(document.activeElement)"), focused(page)
    # Space opens the log
    tab_to(page, "button.show-log")
    page.keyboard.press("Space")
    expect(page.locator("#match-log")).to_be_visible()
    # the resign question by keyboard: Escape keeps playing
    tab_to(page, "button.resign")
    page.keyboard.press("Enter")
    expect(page.locator("dialog.confirm button.keep-playing")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("dialog.confirm")).to_be_hidden()
    expect(page.locator(".result")).to_be_hidden()


def test_the_bot_s_moves_are_told_to_screen_readers(page: Page, rooms: Rooms) -> None:
    """In a draft of Flame Duel's characters the picks alternate: after the player's pick, the bot's."""
    rooms.sit(page, rooms.make("duel", ["me", "bot:easy"], {"mode": "shared", "pick": "draft"}))
    expect(page.locator("#live")).to_have_attribute("aria-live", "polite")
    play_first_move(page)
    bot = f"Player {2 - int(seat(page) or 0)}"
    page.locator(".controls button.show-log").click()
    expect(page.locator("#match-log li").last).to_contain_text(bot)
    last = page.locator("#match-log li").last.text_content() or ""
    expect(page.locator("#live")).to_contain_text(last)  # the bot's pick, the last line of the log


def test_nothing_scrolls_sideways_at_360_px(page: Page, rooms: Rooms, base_url: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(base_url + "/")
    expect(page.locator("#app[data-page='lobby']")).not_to_have_attribute("aria-busy", "true")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    for game in ("duel", "duals"):
        rooms.sit(page, rooms.make(game, ["me", "bot:easy"]))
        my_turn(page)
        page.locator(".controls button.show-log").click()
        expect(page.locator("#match-log")).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 360, game


def with_a_friend(browser: Browser, page: Page, rooms: Rooms, base_url: str) -> tuple[Room, Page, Locator]:
    """A Duals room where ``page`` plays a friend seated in a page of their own: the room, the friend's page and
    where ``page`` shows the friend's connection (once it says "connected")."""
    room = rooms.make("duals", ["me", "open"])
    rooms.sit(page, room)
    other = page.locator(f".table .player.seat{1 - int(seat(page) or 0)} .presence")
    friend = browser.new_context(base_url=base_url).new_page()
    rooms.sit(friend, room, token=rooms.join(room))
    expect(other).to_have_text("connected")
    return room, friend, other


def test_a_moment_s_absence_is_not_shown_to_the_other_player(browser: Browser, page: Page, rooms: Rooms,
                                                             base_url: str) -> None:
    """A reload (or a language switch, which reconnects) comes back within the grace: the other player is never
    told of it; a real departure is told once the grace is over."""
    _room, friend, other = with_a_friend(browser, page, rooms, base_url)
    friend.reload()
    friend.select_option("#lang", "es")
    expect(friend.locator(".table .status")).to_have_attribute("data-state", "connected")
    page.wait_for_timeout(2500)  # past the grace
    expect(other).to_have_text("connected")
    expect(page.locator("#live")).not_to_contain_text("disconnected")
    friend.context.close()
    expect(other).to_have_text("disconnected")
    expect(page.locator("#live")).to_contain_text("has disconnected")


def test_the_grace_runs_from_the_first_word_of_an_absence(browser: Browser, page: Page, rooms: Rooms,
                                                          base_url: str) -> None:
    """Others coming and going (a spectator's hello makes the server say everyone's presence again) do not put off
    telling that the friend left."""
    room, friend, other = with_a_friend(browser, page, rooms, base_url)
    friend.context.close()
    watchers = []
    for _ in range(2):  # at 1.5 s and 3 s: each would have restarted a 2 s grace
        page.wait_for_timeout(1500)
        watcher = rooms.server.connect(room.id)
        watcher.send(type="hello", token=None)
        watcher.until("welcome")
        watchers.append(watcher)
    expect(other).to_have_text("disconnected", timeout=900)  # by 4 s, not 5 s
    for watcher in watchers:
        watcher.close()


def test_a_friend_who_left_as_the_rematch_swapped_the_seats_is_told_once_the_grace_is_over(
        browser: Browser, page: Page, rooms: Rooms, base_url: str) -> None:
    room = rooms.make("duals", ["me", "open"])
    rooms.sit(page, room)
    friend = browser.new_context(base_url=base_url).new_page()
    rooms.sit(friend, room, token=rooms.join(room))
    before = seat(page)
    page.locator(".controls button.resign").click()
    page.locator("dialog .confirm-resign").click()
    friend.locator(".controls button.rematch").click()
    expect(page.locator(".controls button.rematch")).to_have_text("Accept the rematch")
    friend.context.close()
    page.locator(".controls button.rematch").click()  # within the grace: the seats swap
    expect(page.locator(".table .status")).to_have_attribute("data-state", "connected")
    expect(page.locator("#live")).to_contain_text("A new match begins")
    assert seat(page) != before
    other = page.locator(f".table .player.seat{1 - int(seat(page) or 0)} .presence")
    expect(other).to_have_text("disconnected", timeout=5000)
    expect(page.locator("#live")).to_contain_text("has disconnected")


def test_a_player_closes_their_waiting_room_from_the_table_or_the_lobby(page: Page, rooms: Rooms) -> None:
    """Issue 21, point 6: a room still waiting for a player can be closed by its player (a button while the other
    seat is free); the table then says why the match will not be played, with no rematch to offer."""
    room = rooms.make("duals", ["me", "open"])
    rooms.sit(page, room)
    page.locator(".controls button.close-room").click()
    expect(page.locator(".result .headline")).to_have_text(
        "The room was closed by its player while a seat was still open.")
    expect(page.locator(".controls button.close-room")).to_have_count(0)
    expect(page.locator(".controls button.rematch")).to_have_count(0)
    expect(page.locator(".controls button.resign")).to_have_count(0)
    expect(page.locator(".result a[download]")).to_have_count(0)
    other = rooms.make("duals", ["me", "open"])
    rooms.sit(page, other)
    page.goto(rooms.server.base + "/")
    mine = page.locator(".waiting li", has=page.locator(f'a[href="/rooms/{other.id}"]'))
    mine.locator("button.close-room").click()
    expect(page.locator(f'.waiting a[href="/rooms/{other.id}"]')).to_have_count(0)
    expect(page.locator(f'.waiting a[href="/rooms/{room.id}"]')).to_have_count(0)


def test_a_room_made_in_the_lobby_waits_in_its_list_with_its_close_button(page: Page, rooms: Rooms) -> None:
    """The room a player has just made for a friend is listed at once as theirs to close: not at the list's next
    poll (every 5 s), nor after a reload."""
    page.goto(rooms.server.base + "/")
    page.select_option("#opponent", "open")
    page.get_by_role("button", name="Create the room").click()
    link = page.locator("input.room-link")
    expect(link).to_be_visible()
    room_id = (link.input_value() or "").rsplit("/", 1)[-1]
    mine = page.locator(".waiting li", has=page.locator(f'a[href="/rooms/{room_id}"]'))
    expect(mine.locator("button.close-room")).to_be_visible(timeout=2_000)  # within the poll's 5 s


def test_a_full_room_offers_no_close_button(browser: Browser, page: Page, rooms: Rooms, base_url: str) -> None:
    room = rooms.make("duals", ["me", "open"])
    rooms.sit(page, room)
    expect(page.locator(".controls button.close-room")).to_be_visible()
    rooms.join(room)
    expect(page.locator(".controls button.close-room")).to_have_count(0)
    expect(page.locator(".controls button.resign")).to_be_visible()
