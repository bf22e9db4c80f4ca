"""Mutation testing of one rules engine with mutmut 3 (not part of the test suite; see docs/mutation.md).

Usage (from the repository root, with the dev venv and ``pip install mutmut``)::

    nice -n 10 .venv/bin/python scripts/mutation.py duals   # src/flametable/games/duals/state.py vs tests/games/duals
    nice -n 10 .venv/bin/python scripts/mutation.py duel    # src/flametable/games/duel/state.py vs tests/games/duel

The script copies ``src/``, ``tests/`` and ``pyproject.toml`` into ``out/mutation/<engine>/`` (``/out/`` is
git-ignored), writes a ``setup.cfg`` with the ``[mutmut]`` section there (so the repository's own files are
never touched), runs ``mutmut run`` in that copy, and prints the count and every surviving mutant with its
line in the engine file and its diff. ``--summary`` only prints the results of the last run again.

Only the engine's ``state.py`` is mutated, and only that game's tests run. The few property tests that play
hundreds of random matches are left out (``SLOW``): each takes tens of seconds under mutmut's trampolines, so
every surviving mutant would cost minutes. Leaving them out can only make the count worse (a mutant they
would kill counts as alive unless another test kills it), never better.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENGINES = {
    "duals": "src/flametable/games/duals/state.py",
    "duel": "src/flametable/games/duel/state.py",
}

# Test functions left out of the run (see the module docstring), by name so a moved file does not matter.
SLOW = {
    "duals": [
        "test_random_matches_finish_and_replay_identically",
        "test_views_round_trip_validate_and_hide_what_they_must_over_1000_random_matches",
    ],
    "duel": [
        "test_random_matches_finish_and_replay_identically",
        "test_every_view_round_trips_through_json_and_fits_the_schema",
        "test_the_json_of_a_view_never_names_a_hidden_card",
        "test_the_json_of_a_seats_view_is_the_same_in_every_state_it_cannot_tell_apart",
        "test_any_text_reads_as_an_action_or_raises_illegal_action",
        "test_every_legal_action_applies_and_every_other_raises",
        "test_views_do_not_depend_on_what_the_viewer_must_not_know",
    ],
}

# A conftest.py for the copy only: mutmut stops a mutant's tests at the first failure, so the quick rules tests
# run first and the property tests (seconds each) last; the order changes no verdict, only the time.
ORDER_PLUGIN = '''"""Written by scripts/mutation.py: quick rules tests first, property tests last."""


def _rank(item):
    name = item.nodeid
    if "/test_rules_" in name:
        return 0
    if "/test_properties" in name or "/test_hidden_info" in name or "/test_golden" in name:
        return 2
    return 1


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=_rank)
'''

# mutmut's exit codes (mutmut/stats.py), folded into the columns of the results table.
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped",
          36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout", 255: "timeout", 37: "type check",
          -11: "segfault", -9: "segfault"}


def status(code: int | None) -> str:
    if code is None:
        return "not checked"
    return STATUS.get(code, "suspicious")


def workdir(engine: str) -> Path:
    return ROOT / "out" / "mutation" / engine


def mutmut_bin() -> str:
    found = Path(sys.executable).parent / "mutmut"
    if found.exists():
        return str(found)
    which = shutil.which("mutmut")
    if which is None:
        sys.exit("mutmut is not installed in this environment: pip install 'mutmut>=3.8,<4'")
    return which


def prepare(engine: str) -> Path:
    """A fresh copy of the code and tests, with the mutmut configuration for ``engine``."""
    work = workdir(engine)
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "*.egg-info")
    for name in ("src", "tests", "docs"):  # docs: the JSON Schemas the view tests check against
        shutil.copytree(ROOT / name, work / name, ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", work / "pyproject.toml")
    (work / "conftest.py").write_text(ORDER_PLUGIN, encoding="utf-8")
    game = "duals" if engine == "duals" else "duel"
    deselect = " and ".join(f"not {name}" for name in SLOW[engine])
    # pyproject.toml has no [tool.mutmut], so mutmut reads setup.cfg (one value per line for lists).
    (work / "setup.cfg").write_text(
        "[mutmut]\n"
        "source_paths = src/\n"
        f"only_mutate = {ENGINES[engine]}\n"
        "pytest_add_cli_args_test_selection =\n"
        f"    tests/{game}/\n"
        "    -k\n"
        f"    {deselect}\n"
        "also_copy =\n"
        "    conftest.py\n"
        "    docs/\n"
        "pytest_add_cli_args =\n"
        "    -p\n"
        "    no:cacheprovider\n",
        encoding="utf-8",
    )
    return work


def refresh_tests(engine: str) -> list[str]:
    """Copy the tests again into the last run's copy; the names of the mutants that were left alive."""
    work = workdir(engine)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    for dest in (work / "tests", work / "mutants" / "tests"):
        shutil.rmtree(dest)
        shutil.copytree(ROOT / "tests", dest, ignore=ignore)
    return sorted(name for name, code in results(engine).items() if status(code) in ("survived", "suspicious"))


MEMORY_LIMIT = 3 << 30
"""Address space for mutmut and each of its forks: a mutant that grows a list without end fails its tests with a
MemoryError (killed) instead of swapping the machine to a halt (seen once, at 24 GiB)."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run(engine: str, jobs: int | None, again: bool = False) -> float:
    if again:
        work = workdir(engine)
        names = refresh_tests(engine)
        if not names:
            return 0.0
    else:
        work = prepare(engine)
        names = []
    cmd = [mutmut_bin(), "run", *names]
    if jobs:
        cmd += ["--max-children", str(jobs)]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    started = time.monotonic()
    with (work / "mutmut-run.log").open("a" if again else "w", encoding="utf-8") as log:
        done = subprocess.run(cmd, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, check=False,
                              preexec_fn=_limit_memory)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"mutmut run failed (exit {done.returncode}); see {work / 'mutmut-run.log'}")
    return elapsed


def results(engine: str) -> dict[str, int | None]:
    meta = workdir(engine) / "mutants" / (ENGINES[engine] + ".meta")
    data = json.loads(meta.read_text(encoding="utf-8"))
    codes: dict[str, int | None] = data["exit_code_by_key"]
    return codes


def show(engine: str, name: str) -> str:
    done = subprocess.run([mutmut_bin(), "show", name], cwd=workdir(engine), capture_output=True, text=True,
                          check=False)
    return done.stdout


def source_line(engine: str, name: str, diff: str) -> int:
    """The line of the engine file that the mutant changes (mutmut's diff counts from the function)."""
    source = (ROOT / ENGINES[engine]).read_text(encoding="utf-8")
    lines = source.splitlines()
    func = name.split("ǁ")[-1].split("__mutmut_")[0] if "ǁ" in name else name.split(".")[-1].split("__mutmut_")[0]
    spans = [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(ast.parse(source))
             if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == func]
    old = 0
    def_at = removed_at = 0
    removed = ""
    for row in diff.splitlines():
        if row.startswith("@@"):
            old = int(row.split()[1].split(",")[0][1:])
            continue
        if row.startswith(("---", "+++")) or not old:
            continue
        if row.startswith("+"):
            continue
        text = row[1:]
        if not def_at and text.lstrip().startswith(("def ", "async def ")):
            def_at = old
        if row.startswith("-") and not removed_at:
            removed_at, removed = old, text.strip()
        old += 1
    best = 0
    for start, end in spans:
        for i in range(start, end + 1):
            if lines[i - 1].strip() == removed:
                offset = removed_at - def_at if def_at else None
                if not best or (offset is not None and abs(i - start - offset) < abs(best - start - offset)):
                    best = i
    return best


def report(engine: str, elapsed: float | None) -> int:
    codes = results(engine)
    counts = Counter(status(c) for c in codes.values())
    ran = sum(n for s, n in counts.items() if s not in ("no tests", "skipped", "not checked"))
    alive = counts["survived"] + counts["suspicious"]
    path = ENGINES[engine]
    print(f"{path}: {len(codes)} mutants, {ran} ran")
    for name in ("killed", "timeout", "survived", "suspicious", "no tests", "type check", "segfault",
                 "not checked"):
        if counts[name]:
            print(f"  {name:12} {counts[name]}")
    if ran:
        print(f"  alive: {alive}/{ran} = {100 * alive / ran:.1f}% of the mutants that ran")
    if elapsed is not None:
        print(f"  wall time: {elapsed / 60:.1f} min")
    for name, code in sorted(codes.items()):
        if status(code) in ("survived", "suspicious", "no tests"):
            diff = show(engine, name)
            print(f"\n## {status(code)}: {path}:{source_line(engine, name, diff)} {name}")
            print("\n".join(r for r in diff.splitlines() if r.startswith(("-", "+")) and r[:3] not in ("---", "+++")))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("engine", choices=sorted(ENGINES))
    parser.add_argument("--jobs", type=int, default=None, help="mutants tested at once (default: mutmut's, the cores)")
    parser.add_argument("--summary", action="store_true", help="print the last run's results without running")
    parser.add_argument("--again", action="store_true",
                        help="copy the tests again and run only the last run's surviving mutants (after adding tests)")
    args = parser.parse_args()
    elapsed = None if args.summary else run(args.engine, args.jobs, args.again)
    return report(args.engine, elapsed)


if __name__ == "__main__":
    raise SystemExit(main())
