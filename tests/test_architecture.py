"""The layout shows the architecture: imports flow one way, engines do no I/O, read no clock, use no global
randomness and need no third-party package."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "flametable"
LAYER = {"core": 0, "duel": 1, "duals": 1, "data": 1, "bots": 2, "sim": 2, "service": 2, "texts": 3, "cli": 4,
         "web": 4, "rl": 4}
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
    """core ← games ← bots/sim/service ← texts ← interfaces: nothing imports from a higher layer, games not from
    each other. (The game registry, in core, names the pieces of higher layers only as "module:attribute" strings,
    imported when a command needs them.)"""
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


GAME_NAMES = {"duel", "duals"}
"""The built-in games' names: only the registry, the games' own packages and their own modules may use them."""
OWN_MODULES = {"core/registry.py"}


def _own(path: Path) -> bool:
    """The registry, a game's package, or a module of one game's own (``duel.py``, ``duals_summary.py``...)."""
    relative = path.relative_to(SRC).as_posix()
    return relative in OWN_MODULES or path.parent.name in GAME_NAMES or path.stem.split("_")[0] in GAME_NAMES


def name_dispatch(text: str) -> list[int]:
    """The lines of ``text`` that choose by a game's name: a comparison or a ``match`` case with one of the
    names, or a mapping keyed by them."""

    def names_in(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in GAME_NAMES
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(names_in(e) for e in node.elts)
        return False

    def chooses(node: ast.AST) -> bool:
        if isinstance(node, ast.Compare):
            return any(names_in(x) for x in [node.left, *node.comparators])
        if isinstance(node, ast.Dict):
            return any(k is not None and names_in(k) for k in node.keys)
        return isinstance(node, ast.MatchValue) and names_in(node.value)

    return [node.lineno for node in ast.walk(ast.parse(text)) if isinstance(node, ast.expr | ast.pattern)
            and chooses(node)]


def test_no_module_outside_the_registry_dispatches_on_a_game_name() -> None:
    """The registry alone knows which games exist: nowhere else does code choose by a game's name."""
    found = {path.relative_to(SRC).as_posix(): name_dispatch(path.read_text(encoding="utf-8"))
             for path in sorted(SRC.rglob("*.py")) if not _own(path)}
    assert {where: lines for where, lines in found.items() if lines} == {}


@pytest.mark.parametrize("text", [
    'if game.name == "duel":\n    pass\n',
    'ok = name in ("duel", "duals")\n',
    'table = {"duals": 1}\n',
    'match name:\n    case "duel":\n        pass\n',
])
def test_the_dispatch_check_finds_each_form(text: str) -> None:
    assert name_dispatch(text) != []


def test_every_piece_of_the_builtin_games_can_be_loaded() -> None:
    """Each "module:attribute" of the built-in entries names something that is there."""
    from flametable.core.registry import BUILTINS

    assert {entry.name for entry in BUILTINS} == GAME_NAMES
    for entry in BUILTINS:
        for piece in entry.__dataclass_fields__:
            if isinstance(getattr(entry, piece), str) and piece not in ("name", "title", "origin"):
                assert entry.piece(piece) is not None, (entry.name, piece)
