"""The deck builder and the replay viewer in a browser (issue 12): a deck built in the builder is the deck a match is
played with; a bad deck shows the game's problem next to it; a finished match replays in the viewer, step by step,
to the record's own result."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import FilePayload, Page, expect


def built_deck(page: Page, base_url: str, name: str, characters: int, supports: int) -> None:
    """Open the builder, name a new deck and tick the first ``characters`` characters and ``supports`` supports
    (with the keyboard's space bar for the first character: the checkboxes are real ones), then save."""
    page.goto(base_url + "/games/duel/decks")
    page.get_by_role("button", name="New deck").click()
    page.get_by_label("Name").fill(name)
    characters_box = page.locator("fieldset.characters input[type=checkbox]")
    supports_box = page.locator("fieldset.supports input[type=checkbox]")
    characters_box.first.focus()
    page.keyboard.press("Space")
    for i in range(1, characters):
        characters_box.nth(i).click()
    for i in range(supports):
        supports_box.nth(i).click()
    expect(page.locator(".deck-counts")).to_have_text(
        f"Chosen: {characters} characters, {supports} support cards.")
    page.get_by_role("button", name="Save the deck").click()


def test_a_deck_built_in_the_builder_is_the_deck_the_match_is_played_with(page: Page, base_url: str,
                                                                          artefacts: Path) -> None:
    page.set_viewport_size({"width": 360, "height": 800})
    built_deck(page, base_url, "Hot hand", 3, 8)
    expect(page.get_by_role("status")).to_have_text("The deck was saved.")
    expect(page.locator(".deck-list .deck-name")).to_have_text(["Hot hand"])
    page.screenshot(path=str(artefacts / "decks-list-360.png"))
    saved: list[dict[str, Any]] = page.evaluate("JSON.parse(localStorage.getItem('flametable.decks'))")
    deck = saved[0]
    assert len(deck["characters"]) == 3
    assert len(deck["supports"]) == 8

    page.get_by_role("link", name="Play", exact=True).click()
    page.select_option("#game", "duel")
    page.select_option("select[name=mode]", "decks")
    page.select_option("select[name=pick]", "random")
    page.select_option("select[name=deck]", label="Hot hand")
    page.select_option("#opponent", "bot:easy")
    page.get_by_role("button", name="Create the room").click()
    expect(page).to_have_url(re.compile(r"/rooms/[A-Za-z0-9_-]+$"))
    room = page.url.rsplit("/", 1)[1]
    expect(page.get_by_role("status")).to_have_text("Connected")
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()  # the table's own question (a <dialog>)
    expect(page.locator(".result h2")).to_have_text("You lose.")
    record = page.request.get(f"{base_url}/api/rooms/{room}/matches/0/record").json()
    assert record["options"]["decks"][0] == {"characters": deck["characters"], "supports": deck["supports"]}
    replayed = page.request.get(f"{base_url}/api/rooms/{room}/matches/0/replay").json()
    assert sorted(replayed["steps"][0]["views"]["0"]["my_characters"]) == sorted(deck["characters"])


def test_a_bad_deck_shows_the_game_s_problem_next_to_it(page: Page, base_url: str, artefacts: Path) -> None:
    built_deck(page, base_url, "Too few", 2, 8)
    problem = page.locator("#deck-problem")
    expect(problem).to_have_text("a deck has exactly 3 characters, got 2")
    page.screenshot(path=str(artefacts / "decks-builder-problem.png"))
    expect(page.locator("fieldset.characters")).to_have_attribute("aria-describedby", "deck-problem")
    saved = page.evaluate("localStorage.getItem('flametable.decks')")
    assert saved is None or "Too few" not in saved  # not saved


def test_a_finished_match_replays_in_the_viewer_to_the_record_s_result(page: Page, base_url: str,
                                                                       artefacts: Path) -> None:
    made = page.request.post(f"{base_url}/api/rooms", data={"game": "duel", "seats": ["bot:easy", "bot:easy"]})
    assert made.status == 201, made.text()
    room = made.json()["room"]
    page.goto(f"{base_url}/games/duel/decks")  # anywhere, while the bots play
    record = page.request.get(f"{base_url}/api/rooms/{room}/matches/0/record")
    for _ in range(120):
        if record.status == 200:
            break
        page.wait_for_timeout(250)  # the bots play by themselves: no event to wait on from this page
        record = page.request.get(f"{base_url}/api/rooms/{room}/matches/0/record")
    assert record.status == 200, record.text()
    result = record.json()["result"]
    actions = record.json()["actions"]

    page.goto(f"{base_url}/replay?room={room}&match=0")
    expect(page.locator(".step-counter")).to_have_text(f"Step 0 of {len(actions)}")
    expect(page.get_by_role("button", name="Previous")).to_be_disabled()
    page.get_by_role("button", name="Next").click()
    expect(page.locator(".step-counter")).to_have_text(f"Step 1 of {len(actions)}")
    page.keyboard.press("End")
    expect(page.locator(".step-counter")).to_have_text(f"Step {len(actions)} of {len(actions)}")
    winner = "The match is a tie." if result["winner"] is None else f"Player {result['winner'] + 1} wins."
    expect(page.locator(".result h2")).to_have_text(winner)
    page.get_by_label("A spectator").check()
    expect(page.locator(".step-log li").last).to_contain_text("Round wins")
    page.screenshot(path=str(artefacts / "replay-last-step.png"), full_page=True)
    page.keyboard.press("Home")
    expect(page.locator(".result")).to_be_hidden()


def test_an_uploaded_file_that_is_no_record_is_refused_in_the_player_s_language(page: Page, base_url: str) -> None:
    page.goto(base_url + "/replay")
    not_a_record: FilePayload = {"name": "match.json", "mimeType": "application/json", "buffer": b'{"format": 1}'}
    page.get_by_label("Record file").set_input_files(files=[not_a_record])
    expect(page.get_by_role("alert")).to_contain_text("The file is not a match record")
