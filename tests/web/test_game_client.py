"""Each game's piece of the browser client is a registry piece (issue 20): ``/api/games`` says which module and
styles to load, the pages to link and the options to ask for; the server serves a game's files from its own
package, never a file outside its ``static`` folder. A plug-in game with no client piece gets the plain table and
a form made from its declared options."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import EntryPoint
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from flametable.core import registry
from flametable.core.registry import GROUP, Registry, builtins
from flametable.texts.translator import Translator
from flametable.web import botpool
from flametable.web.client import static_file
from tests.web.client import Server

NIM_SOURCE = Path(__file__).resolve().parents[1] / "plugins" / "nim" / "src"


@pytest.fixture
def nim_with_a_table(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Nim example plug-in, given its client piece (tests/plugins/nim/src/flametable_nim/browser.py), and Tiny,
    a plug-in with none."""
    monkeypatch.syspath_prepend(str(NIM_SOURCE))
    plugins = [EntryPoint(name="nim", value="flametable_nim.browser:ENTRY", group=GROUP),
               EntryPoint(name="tiny", value="tests.service.tiny:TinyGame", group=GROUP)]
    monkeypatch.setattr(registry, "GAMES", Registry(builtins(), plugins))
    botpool.clear_games()
    yield
    botpool.clear_games()


def listed(server: Server, lang: str = "en") -> dict[str, dict[str, Any]]:
    return {g["name"]: g for g in server.http.get(f"/api/games?lang={lang}").json()["games"]}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_games_list_says_which_module_styles_and_pages_to_load_and_the_options_in_the_language(lang: str) -> None:
    tr = Translator.for_language(lang)
    with Server() as server:
        duel = listed(server, lang)["duel"]
    assert duel["client"]["module"] == "/games/duel/static/table.js"
    assert duel["client"]["styles"] == ["/games/duel/static/table.css", "/games/duel/static/decks.css"]
    [decks] = duel["client"]["pages"]
    assert (decks["path"], decks["module"], decks["title"]) == (
        "/games/duel/decks", "/games/duel/static/decks.js", tr.gettext("Decks"))
    mode, pick = duel["options"]
    assert (mode["name"], mode["kind"], mode["label"], mode["default"]) == ("mode", "choice", tr.gettext("Cards"),
                                                                           "shared")
    assert mode["choices"] == [{"value": "shared", "label": tr.gettext("Shared pile")},
                               {"value": "decks", "label": tr.gettext("Own decks")}]
    assert [c["value"] for c in pick["choices"]] == ["random", "draft"]


def test_a_plug_in_game_s_declared_options_are_listed_with_or_without_a_client_piece(nim_with_a_table: None) -> None:
    with Server() as server:
        games = listed(server)
        nim, tiny = games["nim"], games["tiny"]
        assert nim["client"] == {"module": "/games/nim/static/table.js", "styles": ["/games/nim/static/table.css"],
                                 "pages": []}
        assert nim["options"] == [{"name": "heap", "kind": "int", "label": "Heap", "default": 15, "min": 1,
                                   "max": None}]
        assert (tiny["client"], tiny["options"], tiny["facts"]) == (None, [], False)  # the plain table, no form
        served = server.http.get("/games/nim/static/table.js")
        assert served.status_code == 200
        assert served.text == (files("flametable_nim") / "static" / "table.js").read_text(encoding="utf-8")
        assert server.http.get("/games/tiny/static/table.js").status_code == 404  # no client piece, no files


@pytest.mark.parametrize(("path", "media_type"), [("table.js", "text/javascript"), ("decks.css", "text/css")])
def test_a_game_s_files_are_served_from_its_package(path: str, media_type: str) -> None:
    with Server() as server:
        response = server.http.get(f"/games/duel/static/{path}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media_type)
    assert response.content == (files("flametable.games.duel") / "static" / path).read_bytes()


@pytest.mark.parametrize("path", ["%2e%2e/entry.py", "..%2Fentry.py", "%2Fetc%2Fpasswd", "..%5Centry.py",
                                  "missing.js", ""])
def test_nothing_outside_a_game_s_static_folder_is_served(path: str) -> None:
    with Server() as server:
        assert server.http.get(f"/games/duel/static/{path}").status_code == 404
        assert server.http.get(f"/games/nothing/static/{path or 'table.js'}").status_code == 404


@pytest.mark.parametrize("path", ["../entry.py", "/etc/passwd", "..\\entry.py", "a/../../entry.py", "c:/x.js", "."])
def test_a_path_that_leaves_the_folder_names_no_file(path: str) -> None:
    entry = registry.get("duel")
    assert (files("flametable.games.duel") / "static" / "table.js").is_file()
    assert static_file(entry, path) is None
    assert static_file(entry, "table.js") is not None


def test_a_game_s_own_page_is_the_client_s_page_and_no_other_page_is() -> None:
    with Server() as server:
        page = server.http.get("/games/duel/decks")
        assert page.status_code == 200
        assert page.text == server.http.get("/").text
        assert server.http.get("/games/duel/nothing").status_code == 404
        assert server.http.get("/games/duals/decks").status_code == 404  # Duals has no deck builder
