"""Browser tests: Playwright (pytest-playwright) drives Debian's chromium through ``executable_path`` (no browser is
ever downloaded) against a real ``flametable serve`` on 127.0.0.1. Without chromium the tests skip, saying why,
unless the services are required (``.ci/run``), where they fail."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, Playwright, sync_playwright

from tests.browser.rooms import Rooms
from tests.services import require_or_skip
from tests.web.live import LiveServer

ARTEFACTS = Path(__file__).resolve().parents[2] / "out" / "browser"
"""Where the tests write their screenshots (kept out of git)."""

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
"""Chromium's flags here: no sandbox as root, and no network of its own (this machine's network is closed)."""


def chromium() -> str:
    """The path of Debian's chromium, or a skip (a failure where the services are required)."""
    found = os.environ.get("FLAMETABLE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        require_or_skip("chromium", "no chromium on this machine (apt-get install -y chromium, as the README's "
                                    "test command does where it can)")
    assert found is not None
    return found


# Playwright's sync API keeps an asyncio loop running in the main thread while it lives: pytest-playwright keeps it
# for the whole session, so every later test that calls asyncio.run() (the store's, the CLI's) would fail. These
# overrides give Playwright and its browser to this package only: they stop when the browser tests are done.


@pytest.fixture(scope="package")
def playwright(_pw_api_request_contexts: Any) -> Iterator[Playwright]:
    pw = sync_playwright().start()
    if _pw_api_request_contexts:
        _pw_api_request_contexts.instrument(pw)
    yield pw
    pw.stop()


@pytest.fixture(scope="package")
def browser_type(playwright: Playwright, browser_name: str) -> BrowserType:
    chosen: BrowserType = getattr(playwright, browser_name)
    return chosen


@pytest.fixture(scope="package")
def launch_browser(browser_type_launch_args: dict[str, Any], browser_type: BrowserType) -> Callable[..., Browser]:
    def launch(**kwargs: Any) -> Browser:
        return browser_type.launch(**{**browser_type_launch_args, **kwargs})

    return launch


@pytest.fixture(scope="package")
def browser_context_args(base_url: str) -> dict[str, Any]:
    """Each new context's arguments: the live server as its base URL (no device emulation, no video)."""
    return {"base_url": base_url}


@pytest.fixture(scope="package")
def browser(launch_browser: Callable[..., Browser]) -> Iterator[Browser]:
    opened = launch_browser()
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": chromium(), "args": FLAGS}


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One real server for the browser tests (SQLite in a temporary directory)."""
    data = tmp_path_factory.mktemp("browser-server")
    server = LiveServer(f"sqlite+aiosqlite:///{data / 'flametable.db'}", data)
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    return live_server.base


@pytest.fixture
def artefacts() -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS


@pytest.fixture
def rooms(live_server: LiveServer) -> Iterator[Rooms]:
    """The rooms a test makes (through the HTTP API), resigned when it ends."""
    made = Rooms(live_server)
    yield made
    made.resign_all()
