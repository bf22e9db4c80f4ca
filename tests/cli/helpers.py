"""Helpers shared by the tests of both games at the terminal: what a human seat reads, records to edit,
matches played with other data, the command run with no terminal at all."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import BOTS, Cli

SEAT_TEXTS = {
    "en": {
        "no_option": "There is no option 99: type a number from 1 to",
        "prompt": "Player 1 (you), your choice:",
        "bot": "Player 2 (bot:random)",
        "quit": "Match abandoned.",
        "options": "Your options:",
    },
    "es": {
        "no_option": "No hay opción 99: escribe un número del 1 al",
        "prompt": "Jugador 1 (tú), tu elección:",
        "bot": "Jugador 2 (bot:random)",
        "quit": "Partida abandonada.",
        "options": "Tus opciones:",
    },
}
"""What a human seat reads whatever the game (the prompt and the hand-over are shared), per language."""


def edit_record(path: Path, change: Callable[[Any], object]) -> Path:
    """A copy of the record at ``path`` (``edited.json`` beside it), its JSON changed in place by ``change``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    out = path.with_name("edited.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def interrupt_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every read from the terminal is a Ctrl-C."""
    from rich.console import Console

    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupted)


def run_without_terminal(*args: str) -> subprocess.CompletedProcess[str]:
    """``flametable ARGS`` in a new process, standard input closed, output to pipes."""
    code = "import sys; sys.stdin.close(); sys.stdin = None; from flametable.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False,
    )


def record_with_other_data(cli: Cli, tmp_path: Path, game: str, resource: Path, builtin_id: str,
                           other_id: str) -> tuple[Path, Path]:
    """A bot match of ``game`` (seed 2) played with a copy of the built-in data file ``resource`` whose id
    ``builtin_id`` is changed to ``other_id``, and recorded: (the data file, the record)."""
    text = resource.read_text(encoding="utf-8")
    data = tmp_path / resource.name
    data.write_text(text.replace(f'id = "{builtin_id}"', f'id = "{other_id}"'), encoding="utf-8")
    path = tmp_path / "match.json"
    cli.json("play", game, *BOTS, "--seed", "2", "--cards", str(data), "--record", str(path))
    return data, path
