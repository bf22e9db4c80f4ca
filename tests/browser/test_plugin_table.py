"""A plug-in game that brings a piece of the browser client is drawn by its own table (issue 20): the Nim example
plug-in, given its client piece (tests/plugins/nim/src/flametable_nim/browser.py: static/table.js draws the heap
as stones), and its declared option, the heap, asked for by the lobby's form."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.rooms import Rooms
from tests.web.live import LiveServer

NIM_SOURCE = Path(__file__).resolve().parents[1] / "plugins" / "nim" / "src"


@pytest.fixture(scope="module")
def nim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server where Nim is installed with its client piece: a distribution declaring
    ``nim = flametable_nim.browser:ENTRY`` (its metadata, as an installer writes it), and Nim's sources."""
    installed = tmp_path_factory.mktemp("nim-with-a-table")
    info = installed / "flametable_nim_table-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: flametable-nim-table\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text("[flametable.games]\nnim = flametable_nim.browser:ENTRY\n",
                                           encoding="utf-8")
    data = tmp_path_factory.mktemp("nim-server")
    server = LiveServer(f"sqlite+aiosqlite:///{data / 'flametable.db'}", data, pythonpath=[installed, NIM_SOURCE])
    server.start()
    try:
        yield server
    finally:
        server.kill()


def test_a_plug_in_game_s_table_is_drawn_by_its_own_module(page: Page, nim_server: LiveServer,
                                                            artefacts: Path) -> None:
    rooms = Rooms(nim_server)
    room = rooms.make("nim", ["me", "open"], {"heap": 4})  # a friend who never moves: the heap stays as dealt
    try:
        rooms.join(room)  # whoever the seed sets to act first (a bot there could take stones before the check)
        rooms.sit(page, room)
        heap = page.locator(".board .nim-heap")
        expect(heap).to_be_visible()
        expect(heap).to_have_attribute("data-stones", "4")
        expect(heap).to_have_text("●●●● (4)")
        expect(page.locator(".board dl.fields")).to_have_count(0)  # not the plain table
        styled = page.evaluate("() => getComputedStyle(document.querySelector('.nim-heap')).fontSize")
        assert styled == "32px"  # its own style sheet (2rem)
        page.screenshot(path=str(artefacts / "nim-own-table.png"))
    finally:
        rooms.resign_all()


def test_the_lobby_asks_for_a_plug_in_game_s_declared_options(page: Page, nim_server: LiveServer) -> None:
    page.goto(nim_server.base + "/")
    page.select_option("#game", "nim")
    heap = page.get_by_label("Heap")
    expect(heap).to_have_value("15")  # its declared default
    expect(heap).to_have_attribute("type", "number")
    heap.fill("0")
    page.get_by_role("button", name="Create the room").click()
    assert page.evaluate("() => document.querySelector('input[name=heap]').validity.rangeUnderflow")  # min 1
    expect(page.locator(".room-link")).to_have_count(0)  # no room made
    heap.fill("4")
    page.select_option("#opponent", "open")
    page.get_by_role("button", name="Create the room").click()
    link = page.locator(".room-link").input_value()
    rooms = Rooms(nim_server)
    room = rooms.adopt(page, link)
    try:
        rooms.join(room)  # the friend sits down: the match begins, with the heap asked for
        page.get_by_role("button", name="Go to the table").click()
        expect(page.locator(".board .nim-heap")).to_have_attribute("data-stones", "4")
    finally:
        rooms.resign_all()
    page.goto(nim_server.base + "/")
    page.select_option("#game", "duel")
    expect(page.get_by_label("Heap")).to_have_count(0)
    expect(page.locator("select[name=mode]")).to_have_value("shared")
    expect(page.locator("select[name=deck]")).to_have_count(1)  # Flame Duel's own field: an own deck
