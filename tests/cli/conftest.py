"""Helpers for the terminal interface's tests: run the Typer app in-process."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from flametable.cli.main import app

BOTS = ["--p1", "bot:random", "--p2", "bot:random"]


class Cli:
    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None, env: dict[str, str | None] | None = None) -> Result:
        result = self.runner.invoke(app, list(args), input=input, env=env)
        assert "Traceback" not in result.output, result.output
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result

    def json(self, *args: str) -> Any:
        result = self(*args, "--json")
        assert result.exit_code == 0, result.output
        lines = result.stdout.strip().splitlines()
        assert len(lines) == 1, result.stdout
        return json.loads(lines[0])


@pytest.fixture
def cli() -> Cli:
    return Cli()
