"""Tests that need a service of the machine (PostgreSQL, Redis, a browser): without it they are skipped, saying
why, unless ``FLAMETABLE_REQUIRE_SERVICES=1`` is set (as CI does), when its absence is a failure."""

from __future__ import annotations

import os

import pytest

REQUIRE_VARIABLE = "FLAMETABLE_REQUIRE_SERVICES"


def services_required() -> bool:
    return os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0")


def require_or_skip(what: str, reason: str) -> None:
    """``what`` (a service) is missing because of ``reason``: skip the test, or fail it when services are
    required."""
    message = f"{what} is not available: {reason}"
    if services_required():
        pytest.fail(f"{message} ({REQUIRE_VARIABLE}=1: the services are required)", pytrace=False)
    pytest.skip(message)
