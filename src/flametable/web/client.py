"""Each game's piece of the browser client, from the registry (no game is named here):

``GET /games/NAME/static/FILE``   a file of the game's ``static`` folder (its table module, styles, pages), read
                                  from its Python package; 404 for anything outside that folder
``GET /games/NAME/PAGE``          one of the game's own pages (the deck builder): the page, which draws it

and what ``GET /api/games`` tells the client of each game: which module and styles to load, the pages to link,
the options to ask for (labels and choices in the player's language). A game with no client piece gets the plain
table and a form of its declared options.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Coroutine
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from flametable.core import registry
from flametable.core.registry import GameEntry, Option
from flametable.texts.translator import Translator

STATIC = "static"
"""The folder of a game's package that holds its client files."""

TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
         ".json": "application/json", ".png": "image/png"}


def static_url(name: str, file: str) -> str:
    return f"/games/{name}/{STATIC}/{file}"


def static_file(entry: GameEntry, path: str) -> Traversable | None:
    """The file ``path`` (``/``-separated, relative) of the game's ``static`` folder, or None: no client piece, no
    such file, or a path that would leave the folder (``..``, an absolute path, a backslash, a link outside)."""
    if entry.client is None or not path or path.startswith("/") or "\\" in path or ":" in path:
        return None
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return None
    try:
        folder = files(entry.client.package) / STATIC
    except (ImportError, TypeError, ValueError):
        return None
    found = folder.joinpath(*parts)
    if isinstance(found, Path) and isinstance(folder, Path):
        try:
            found.resolve().relative_to(folder.resolve())  # a link out of the folder is not the game's file
        except ValueError:
            return None
    return found if found.is_file() else None


def option_json(option: Option, tr: Translator) -> dict[str, Any]:
    default = option.default
    if default is None:
        default = {"choice": option.choices[0][0] if option.choices else None, "bool": False,
                   "int": option.minimum if option.minimum is not None else 0}[option.kind]
    out: dict[str, Any] = {"name": option.name, "kind": option.kind, "label": tr.translate(option.label),
                           "default": default}
    if option.kind == "choice":
        out["choices"] = [{"value": value, "label": tr.translate(label)} for value, label in option.choices]
    if option.kind == "int":
        out["min"], out["max"] = option.minimum, option.maximum
    return out


def client_json(entry: GameEntry, tr: Translator) -> dict[str, Any]:
    """What ``/api/games`` says of a game's client: ``client`` (its module, styles and pages as URLs; null: the
    plain table), whether it has ``facts``, and the ``options`` its lobby form asks for, in ``tr``'s language."""
    client = entry.client
    piece = None if client is None else {
        "module": static_url(entry.name, client.module),
        "styles": [static_url(entry.name, style) for style in client.styles],
        "pages": [{"name": page.name, "title": tr.translate(page.title), "path": f"/games/{entry.name}/{page.name}",
                   "module": static_url(entry.name, page.module)} for page in client.pages],
    }
    return {"client": piece, "facts": entry.has("facts"), "options": [option_json(o, tr) for o in entry.options]}


def routes(page: Callable[[Request], Coroutine[Any, Any, Response]]) -> list[Route]:
    """The routes of the games' client files and pages; ``page`` answers with the client's page."""

    async def static(request: Request) -> Response:
        entry = registry.find(request.path_params["name"][:100])
        found = static_file(entry, request.path_params["path"]) if entry is not None else None
        if found is None:
            return PlainTextResponse("Not Found", status_code=404)
        kind = TYPES.get(Path(found.name).suffix) or mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        return Response(found.read_bytes(), media_type=kind)

    async def game_page(request: Request) -> Response:
        entry = registry.find(request.path_params["name"][:100])
        if entry is None or entry.client is None or all(p.name != request.path_params["page"]
                                                         for p in entry.client.pages):
            return PlainTextResponse("Not Found", status_code=404)
        return await page(request)

    return [Route("/games/{name}/static/{path:path}", static), Route("/games/{name}/{page}", game_page)]
