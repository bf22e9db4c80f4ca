"""Reproducible checks: every dependency and dev tool is pinned, and CI runs exactly the README's test command."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement such as ``typer>=0.12`` (PEP 503)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match is not None, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep, f"constraints.txt: {line!r} is not pinned with =="
        pins[_name(name)] = version
    return pins


def test_every_declared_dependency_is_pinned_exactly() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared += extra
    pins = _pins()
    missing = sorted({_name(r) for r in declared} - set(pins))
    assert not missing, f"not pinned in constraints.txt: {missing}"


def test_ci_runs_the_readme_test_command_with_the_constraints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.search(r"```sh\n(.*?)```", readme, re.S)
    assert commands is not None
    lines = commands.group(1).strip().splitlines()
    assert len(lines) == 2, "the README opens with exactly two commands"
    assert all("-c constraints.txt" in line for line in lines)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert lines[1] in ci.splitlines(), "CI must run the README's test command as it is written"


def test_the_readme_says_what_flametable_is_before_the_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    intro = readme[: readme.index("```sh")]
    assert "flametable is a digital table" in intro
    assert "docs/architecture.md" in intro
    assert (ROOT / "docs" / "architecture.md").is_file()


def test_the_native_build_requirements_are_pinned_as_in_constraints() -> None:
    """pip's build isolation does not read ``-c constraints.txt``: ``native/pyproject.toml`` pins the same
    versions of nanobind and scikit-build-core (issue 26)."""
    build = tomllib.loads((ROOT / "native" / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    pins = _pins()
    for requirement in build["requires"]:
        name, sep, version = requirement.partition("==")
        assert sep, f"native/pyproject.toml: {requirement!r} is not pinned with =="
        assert pins.get(_name(name)) == version, f"{requirement} is not what constraints.txt pins"


def test_the_readme_installs_the_native_engines() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line for line in readme.split("```sh\n", 1)[1].split("```", 1)[0].splitlines() if line]
    assert all(" ./native " in line for line in lines)
