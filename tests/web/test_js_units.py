"""The browser client's pure functions (the Duals table's reading of the legal list, the lobby's reading of an
option's field), tested with Node's own test runner (``node --test``, no npm package): tests/web/js/*.test.mjs.
Without ``node`` the test is skipped, saying why (a failure where the services are required)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.services import require_or_skip

JS_TESTS = Path(__file__).resolve().parent / "js"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        require_or_skip("node", "no node on this machine (apt-get install -y nodejs): the client's unit tests need it")
    assert found is not None
    return found


def js_test_files() -> list[str]:
    return sorted(p.name for p in JS_TESTS.glob("*.test.mjs"))


def test_there_are_js_unit_tests() -> None:
    assert "duals_table.test.mjs" in js_test_files()


@pytest.mark.parametrize("name", js_test_files())
def test_the_client_s_pure_functions(name: str) -> None:
    done = subprocess.run([node(), "--import", "./register.mjs", "--test", name], cwd=JS_TESTS,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout
