"""Every file flametable reads is checked at the door: mutated variants of valid files of the five kinds (card
set, Duals data, deck, a match record of each game, sim results as JSON lines and CSV), structural and
byte-level (:mod:`tests.fuzz.mutate`), are either refused with a project error or accepted and usable, never
an unexpected exception, each within 5 s; at the terminal, never a traceback.

Deterministic (hypothesis derandomized, no example database) and bounded: a few hundred variants in all.
The long run over thousands of files and every command: ``python -m benchmarks.fuzz_files``.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from flametable.cli.guard import INTERNAL_ERROR
from flametable.cli.main import app
from flametable.core.errors import FlametableError
from tests.fuzz.mutate import KINDS, mutate, originals, write_variant
from tests.fuzz.readers import READERS, RefusedByReport

SECONDS = 5
"""Each file is refused or accepted within this time."""

EXAMPLES = 60
"""Variants per kind in the suite (the long run makes thousands)."""

FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                phases=[Phase.explicit, Phase.generate],  # a seed does not shrink: no shrinking phase
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


class TooSlow(Exception):
    """A file still being read after :data:`SECONDS`."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TooSlow(f"still reading after {SECONDS} s")


@pytest.fixture(scope="module")
def valid(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A valid file of each kind, made by the program itself."""
    return originals(tmp_path_factory.mktemp("originals"))


@pytest.fixture
def deadline() -> Iterator[Callable[[], object]]:
    """Arms a :data:`SECONDS` alarm around one read (a hang fails the test instead of the suite)."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    yield lambda: signal.alarm(SECONDS)
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def read_variant(kind: str, original: bytes, seed: int, directory: Path, arm: Callable[[], object]) -> None:
    """Write variant ``seed`` of ``kind`` and read it: a project error or an accepted value pass, anything else
    (or more than :data:`SECONDS`) fails, naming the kind and the seed to reproduce it."""
    path = write_variant(directory, kind, original, seed)
    started = time.perf_counter()
    arm()
    try:
        READERS[kind](path)
    except (FlametableError, RefusedByReport):
        pass
    except BaseException as exc:
        raise AssertionError(f"{kind} variant {seed}: {type(exc).__name__}: {str(exc)[:300]}") from exc
    finally:
        signal.alarm(0)
    took = time.perf_counter() - started
    assert took < SECONDS, f"{kind} variant {seed}: {took:.1f} s"


@pytest.mark.parametrize("kind", list(KINDS))
@FUZZ
@given(seed=SEEDS)
def test_a_mutated_file_is_refused_cleanly_or_accepted(kind: str, seed: int, valid: dict[str, bytes],
                                                       tmp_path: Path, deadline: Callable[[], object]) -> None:
    """A mutated file of each kind: the reader refuses it with a project error naming what is wrong, or accepts
    it and the value works (a card set or board plays a match, a record replays and its report prints, results
    make a report; a record ``--verify`` accepts has the replayed result); never another exception, within
    5 s."""
    read_variant(kind, valid[kind], seed, tmp_path, deadline)


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_fuzz_tells_a_valid_file_from_a_mutated_one(kind: str, valid: dict[str, bytes], tmp_path: Path) -> None:
    """The fuzz test above can fail: the reader of each kind accepts the valid original (a reader refusing
    everything would pass it), and the variants are mutations, not copies: each of the first few differs from the
    original and some are refused with a project error."""
    original = tmp_path / f"original{KINDS[kind].suffix}"
    original.write_bytes(valid[kind])
    READERS[kind](original)
    refused = 0
    for seed in range(8):
        assert mutate(kind, valid[kind], seed) != valid[kind], f"{kind} variant {seed} is the original"
        try:
            READERS[kind](write_variant(tmp_path, kind, valid[kind], seed))
        except (FlametableError, RefusedByReport):
            refused += 1
    assert refused > 0, f"no variant of {kind} is refused: the mutations do not reach the reader"


COMMANDS = {
    "cards": [["cards", "check", "{file}"], ["cards", "duel", "--cards", "{file}", "--json"]],
    "duals": [["cards", "check", "{file}"]],
    "deck": [["cards", "check", "{file}"]],
    "record-duel": [["replay", "{file}", "--verify", "--json"], ["replay", "{file}"]],
    "record-duals": [["replay", "{file}", "--verify"]],
    "results-jsonl": [["report", "{file}", "--html", "{html}"]],
    "results-csv": [["report", "{file}", "--html", "{html}", "--lang", "es"]],
}

AT_THE_TERMINAL = 4
"""Variants per kind run through the commands in the suite (in process)."""


@pytest.mark.parametrize("kind", list(KINDS))
def test_no_mutated_file_shows_a_traceback_at_the_terminal(kind: str, valid: dict[str, bytes],
                                                           tmp_path: Path) -> None:
    """Whatever a file holds, the commands that read it never print a traceback: a clean error or an accepted
    file. The one-line internal error (exit 70) asking to report the file hides a traceback: a bug here, as the
    long run counts it (its format is pinned in tests/cli/test_internal_error.py)."""
    runner = CliRunner()
    for seed in range(AT_THE_TERMINAL):
        path = write_variant(tmp_path, kind, valid[kind], seed)
        for command in COMMANDS[kind]:
            args = [a.format(file=path, html=tmp_path / "report.html") for a in command]
            result = runner.invoke(app, args, env={"FLAMETABLE_DEBUG": None})
            assert "Traceback" not in result.output, (args, result.output)
            assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
            assert result.exit_code != INTERNAL_ERROR, (args, result.stderr)
