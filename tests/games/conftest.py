"""The games' own tests drive the terminal too (their play commands, tables and card pages): the same ``cli``
fixture as the terminal interface's tests."""

from __future__ import annotations

from tests.cli.conftest import cli

__all__ = ["cli"]
