"""The layout shows the architecture: imports flow one way, engines do no I/O, read no clock, use no global
randomness and need no third-party package."""

from __future__ import annotations

import ast
import posixpath
import re
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "flametable"
LAYER = {"core": 0, "bots": 2, "sim": 2, "service": 2, "texts": 3, "cli": 4, "web": 4, "rl": 4, "games": 5}
"""The generic packages' layers; a game's engine modules stand at layer 1, its other modules above the interfaces."""
GAMES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "entry.py").exists())
ENGINE = {"board", "pattern", "data", "cards", "actions", "rules", "state", "game", "view", "determinize"}
"""The modules of a game's folder that make its engine: they import only ``core`` and one another."""
FORBIDDEN_IN_ENGINES = {"random", "time", "datetime", "os", "io", "socket", "subprocess", "pathlib", "sys"}
LOADERS = {"record.py", "data.py", "cards.py"}


def layer(module: str) -> tuple[int, str | None]:
    """The layer of a ``flametable...`` module and the game it belongs to (None for the generic layers)."""
    parts = module.split(".")
    if parts[1] != "games":
        return LAYER[parts[1]], None
    if len(parts) < 3:
        return LAYER["games"], None
    return (1 if len(parts) > 3 and parts[3] in ENGINE else LAYER["games"]), parts[2]


def package_modules() -> list[tuple[Path, str]]:
    """Every module of the package, with its dotted name."""
    return [(path, ".".join(["flametable", *path.relative_to(SRC).with_suffix("").parts]))
            for path in sorted(SRC.rglob("*.py"))]


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
    """core ← a game's engine ← bots/sim/service ← texts ← interfaces ← the rest of a game's folder: nothing imports
    from a higher layer, no generic module imports a game, no game imports another. (A game's registry entry
    names its pieces as "module:attribute" strings, imported when a command needs them.)"""
    for path, module in package_modules():
        if module.split(".")[1] != package:
            continue
        mine, game = layer(module)
        for name in imports(path):
            parts = name.split(".")
            if parts[0] != "flametable" or len(parts) < 2 or (parts[1] not in LAYER and parts[1] != "games"):
                continue
            theirs, their_game = layer(name)
            where = f"{path.relative_to(SRC)} imports {name}"
            assert their_game is None or their_game == game, f"{where}: only its own game's modules import a game"
            assert theirs <= mine, where
            if mine == 1:
                assert theirs == 0 or their_game == game, f"{where}: an engine imports only core and itself"


@pytest.mark.parametrize("game", GAMES)
def test_engines_need_only_the_standard_library_and_do_no_io(game: str) -> None:
    stdlib = sys.stdlib_module_names
    paths = [*modules("core"), *(SRC / "games" / game / f"{name}.py" for name in sorted(ENGINE))]
    for path in (p for p in paths if p.exists()):
        # the loaders of records and data files read files (the engines never call them): paths only
        forbidden = FORBIDDEN_IN_ENGINES - {"pathlib"} if path.name in LOADERS else FORBIDDEN_IN_ENGINES
        for name in imports(path):
            top = name.split(".")[0]
            assert top == "flametable" or top == "__future__" or top in stdlib, f"{path.name}: imports {name}"
            assert top not in forbidden, f"{path.relative_to(SRC)}: imports {name}"


def test_every_game_folder_has_the_same_files_for_the_same_pieces() -> None:
    """One game's folder reads like the other's: the pieces both have lie in files of the same names."""
    shared = {"__init__.py", "entry.py", "actions.py", "rules.py", "state.py", "view.py", "determinize.py",
              "game.py", "texts.py", "render.py", "tui.py", "play.py", "cards_page.py", "observation.py",
              "summary.py", "bots.py", "environments.py"}
    for game in GAMES:
        assert shared <= {p.name for p in (SRC / "games" / game).glob("*.py")}, game


def test_relative_imports_are_resolved_before_the_layers_are_checked() -> None:
    path = SRC / "games" / "duel" / "game.py"
    text = "from ..duals import rules\nfrom . import state\nfrom .cards import CardSet\n"
    tree_names = imports_of_text(text, path)
    assert tree_names == ["flametable.games.duals", "flametable.games.duel", "flametable.games.duel.cards"]


GAME_NAMES = set(GAMES)
"""The built-in games' names: only the games' own folders may use them."""


def _own(path: Path) -> bool:
    """A module of a game's own folder."""
    return path.relative_to(SRC).parts[0] == "games"


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


def test_every_piece_of_the_builtin_games_lies_in_its_own_folder_and_can_be_loaded() -> None:
    """Each built-in game is registered through its entry point like a plug-in, and each "module:attribute" of
    its entry names something that is there, inside the game's own folder."""
    from flametable.core.registry import builtins

    assert {entry.name for entry in builtins()} == GAME_NAMES
    for entry in builtins():
        assert entry.origin == f"{entry.name} = flametable.games.{entry.name}.entry:ENTRY"
        refs = {piece: getattr(entry, piece) for piece in entry.__dataclass_fields__
                if isinstance(getattr(entry, piece), str) and piece not in ("name", "title", "origin")}
        refs |= {f"environments[{key}]": ref for key, ref in entry.environments.items()}
        for piece, ref in refs.items():
            assert ref.startswith(f"flametable.games.{entry.name}."), (entry.name, piece, ref)
            if not piece.startswith("environments"):
                assert entry.piece(piece) is not None, (entry.name, piece)


def test_the_registry_knows_no_game_by_name() -> None:
    """core/registry.py names no game: the built-in games come in through their entry points."""
    text = (SRC / "core" / "registry.py").read_text(encoding="utf-8")
    assert not [name for name in GAME_NAMES if f'"{name}"' in text or f"games.{name}" in text]


# ------------------------------------------------------------------ the browser client

WEB_STATIC = SRC / "web" / "static"


def client_files() -> dict[str, Path]:
    """Every file of the browser client by the URL the server serves it at: the generic client's
    (``/static/...``) and each game's client piece (``/games/NAME/static/...``)."""
    found = {"/static/" + p.relative_to(WEB_STATIC).as_posix(): p for p in WEB_STATIC.rglob("*") if p.is_file()}
    for game in GAMES:
        folder = SRC / "games" / game / "static"
        found |= {f"/games/{game}/static/" + p.relative_to(folder).as_posix(): p
                  for p in folder.rglob("*") if p.is_file()}
    return found


GAME_WORDS = re.compile(r"\b(?:" + "|".join(sorted(GAME_NAMES)) + r")\b|flame\s*duel|flamecraft", re.IGNORECASE)
"""A built-in game's name or title, in any case."""


def test_the_generic_browser_client_names_no_game() -> None:
    """No game's name in the generic client's JS, CSS or HTML: a game's table, styles, pages and options come from
    its registry entry (its client piece), as a plug-in's do."""
    found = {url: GAME_WORDS.findall(path.read_text(encoding="utf-8"))
             for url, path in client_files().items() if url.startswith("/static/") and path.suffix in
             (".js", ".css", ".html")}
    assert {url: words for url, words in found.items() if words} == {}


IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']"""
                    r"""|\bimport\(\s*["']([^"']+)["']\s*\)""", re.MULTILINE | re.DOTALL)


def js_imports(url: str, text: str, dynamic: bool = True) -> list[str]:
    """The modules a JS module imports (``import ... from "./x.js"``, and ``import("./x.js")`` if ``dynamic``), as
    URLs."""
    out = []
    for match in IMPORT.finditer(text):
        if not dynamic and match.group(3):
            continue
        spec = next(group for group in match.groups() if group)
        out.append(spec if spec.startswith("/") else posixpath.normpath(posixpath.join(posixpath.dirname(url), spec)))
    return out


def import_cycle(graph: dict[str, list[str]]) -> list[str]:
    """One import circle of ``graph`` (module: the modules it imports), or []."""
    state: dict[str, int] = {}  # 1: being visited, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return []


def client_import_graph() -> dict[str, list[str]]:
    return {url: js_imports(url, path.read_text(encoding="utf-8"))
            for url, path in client_files().items() if path.suffix == ".js"}


def static_closure(roots: list[str]) -> set[str]:
    """The modules ``roots`` need before they run: themselves and what they import, ``import()`` left out."""
    files = client_files()
    needed: set[str] = set()
    todo = list(roots)
    while todo:
        url = todo.pop()
        if url not in needed:
            needed.add(url)
            todo += js_imports(url, files[url].read_text(encoding="utf-8"), dynamic=False)
    return needed


def test_the_page_preloads_every_module_the_lobby_needs_to_draw() -> None:
    """index.html asks at once for main.js's modules and the lobby's (the first page a player sees), instead of a
    level of imports at a time (issue 25: the lobby's load time): each a ``<link rel="modulepreload">``, none
    missing, none more."""
    html = client_files()["/static/index.html"].read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html))
    entry = re.findall(r'<script type="module" src="([^"]+)">', html)
    assert entry == ["/static/js/main.js"]
    assert preloaded == static_closure(["/static/js/main.js", "/static/js/lobby.js"]) - set(entry)


def test_every_import_of_the_browser_client_names_one_of_its_modules() -> None:
    graph = client_import_graph()
    assert {url: [m for m in imports if m not in graph] for url, imports in graph.items()
            if any(m not in graph for m in imports)} == {}


def test_the_browser_client_s_modules_import_each_other_in_no_circle() -> None:
    assert import_cycle(client_import_graph()) == []


@pytest.mark.parametrize(("modules", "circle"), [
    ({"/static/js/main.js": 'import { go } from "./lobby.js";',
      "/static/js/lobby.js": 'import {\n  api,\n} from "./api.js";\nimport { show } from "./main.js";'},
     ["/static/js/lobby.js", "/static/js/main.js", "/static/js/lobby.js"]),
    ({"/static/js/main.js": 'const page = () => import("./table.js");',
      "/static/js/table.js": 'import { go } from "../js/main.js";'},
     ["/static/js/main.js", "/static/js/table.js", "/static/js/main.js"]),
    ({"/games/g/static/table.js": 'import { h } from "/static/js/dom.js";',
      "/static/js/dom.js": 'export { render } from "/games/g/static/table.js";'},
     ["/games/g/static/table.js", "/static/js/dom.js", "/games/g/static/table.js"]),
])
def test_the_import_circle_check_finds_each_form(modules: dict[str, str], circle: list[str]) -> None:
    assert import_cycle({url: js_imports(url, text) for url, text in modules.items()}) == circle


def python_import_graph() -> dict[str, list[str]]:
    """Each module of the package: the package's modules it imports at run time (a name resolved to the longest
    module it begins with: ``flametable.core.registry.GameEntry`` is ``flametable.core.registry``)."""
    names = {module.removesuffix(".__init__"): path for path, module in package_modules()}
    graph: dict[str, list[str]] = {}
    for name, path in names.items():
        found = []
        for imported in imports(path):
            parts = imported.split(".")
            while parts and ".".join(parts) not in names:
                parts.pop()
            if parts and ".".join(parts) != name:
                found.append(".".join(parts))
        graph[name] = sorted(set(found))
    return graph


def test_the_python_modules_import_each_other_in_no_circle() -> None:
    """No circle of run-time imports among the package's modules (a type-checking import may go anywhere)."""
    graph = python_import_graph()
    assert "flametable.core.registry" in graph["flametable.games.duel.entry"]
    assert import_cycle(graph) == []
