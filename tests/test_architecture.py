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
LOADERS = {"record.py", "data.py", "cards.py"}


def imports(path: Path) -> list[str]:
    """The modules ``path`` imports at run time (imports for the type checker only are left out)."""
    return imports_of_text(path.read_text(encoding="utf-8"), path)


def imports_of_text(text: str, path: Path) -> list[str]:
    """The modules that ``text``, standing at ``path``, imports at run time, relative ones made absolute."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    package = ["flametable", *path.relative_to(SRC).parent.parts]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []  # from . / .. resolved
            out.append(".".join([*base, *([node.module] if node.module else [])]))
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
        # the loaders of records and data files read files (the engines never call them): paths only
        forbidden = FORBIDDEN_IN_ENGINES - {"pathlib"} if path.name in LOADERS else FORBIDDEN_IN_ENGINES
        for name in imports(path):
            top = name.split(".")[0]
            assert top == "flametable" or top == "__future__" or top in stdlib, f"{path.name}: imports {name}"
            assert top not in forbidden, f"{path.relative_to(SRC)}: imports {name}"


def test_relative_imports_are_resolved_before_the_layers_are_checked() -> None:
    path = SRC / "duel" / "game.py"
    text = "from ..duals import rules\nfrom . import state\nfrom .cards import CardSet\n"
    tree_names = imports_of_text(text, path)
    assert tree_names == ["flametable.duals", "flametable.duel", "flametable.duel.cards"]
