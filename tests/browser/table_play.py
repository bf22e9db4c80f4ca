"""Playing a room's table in a browser by its controls, whatever the game: wait until this page has a decision (or
the match is over), click one of the controls the page shows, wait until the table moved. Waits are on the page's
own state, never fixed sleeps (the CI machine is loaded)."""

from __future__ import annotations

import random

from playwright.sync_api import Page

TIMEOUT_MS = 60_000
CONTROLS = ".table .board [data-action], .table .board .duals-table .target"
"""A move's controls on every table: the marked legal actions, and the first space of a two-click move (Duals)."""

STATE = """() => {
  const result = document.querySelector('.table .result');
  if (result && !result.hidden) return 'over';
  const board = document.querySelector('.table .board');
  const duals = document.querySelector('.duals-table');
  if (duals && duals.dataset.mine !== 'true') return 'wait';
  return board && board.querySelector('[data-action], .duals-table .target') ? 'mine' : 'wait';
}"""

MARK = """() => { const t = document.querySelector('.table'); const d = document.querySelector('.duals-table');
  return (t ? t.dataset.version : '') + '|' + (d ? d.dataset.state : ''); }"""


def next_decision(page: Page) -> str:
    """'mine' once the page shows controls to click, 'over' once the match's result is shown."""
    handle = page.wait_for_function(f"() => {{ const s = ({STATE})(); return s === 'wait' ? false : s; }}",
                                    timeout=TIMEOUT_MS)
    found = handle.json_value()
    assert isinstance(found, str)
    return found


def click_one(page: Page, rng: random.Random) -> None:
    """Click one of the controls shown (chosen by ``rng``) and wait until the table changed."""
    before = page.evaluate(MARK)
    controls = page.locator(CONTROLS)
    controls.nth(rng.randrange(controls.count())).click()
    page.wait_for_function(f"(before) => ({MARK})() !== before || ({STATE})() === 'over'", arg=before,
                           timeout=TIMEOUT_MS)
