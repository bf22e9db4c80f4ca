"""The layout shows the architecture: imports flow one way, engines do no I/O, read no clock, use no global
randomness and need no third-party package."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "flametable"
LAYER = {"core": 0, "duel": 1, "duals": 1, "data": 1, "bots": 2, "sim": 2, "cli": 3}
FORBIDDEN_IN_ENGINES = {"random", "time", "datetime", "os", "io", "socket", "subprocess", "pathlib", "sys"}


def imports(path: Path) -> list[str]:
    """The modules ``path`` imports at run time (imports for the type checker only are left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def modules(package: str) -> list[Path]:
    return sorted((SRC / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(LAYER))
def test_imports_flow_one_way(package: str) -> None:
    """core ← games ← bots/sim ← interfaces: nothing imports from a higher layer, games not from each other."""
    for path in modules(package):
        for name in imports(path):
            parts = name.split(".")
            if parts[0] != "flametable" or len(parts) < 2 or parts[1] not in LAYER:
                continue
            other = parts[1]
            assert LAYER[other] <= LAYER[package], f"{path.relative_to(SRC)} imports {name}"
            if LAYER[package] == 1 and other != package:
                assert LAYER[other] == 0, f"{path.relative_to(SRC)}: a game imports another game ({name})"


@pytest.mark.parametrize("package", ["core", "duel", "duals"])
def test_engines_need_only_the_standard_library_and_do_no_io(package: str) -> None:
    stdlib = sys.stdlib_module_names
    for path in modules(package):
        if path.name in {"record.py", "data.py", "cards.py"}:
            continue  # the loaders of records and data files read files; the engines never call them
        for name in imports(path):
            top = name.split(".")[0]
            assert top == "flametable" or top == "__future__" or top in stdlib, f"{path.name}: imports {name}"
            assert top not in FORBIDDEN_IN_ENGINES, f"{path.relative_to(SRC)}: imports {name}"
