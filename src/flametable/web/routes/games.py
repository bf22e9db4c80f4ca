"""The registry's games: their names, titles and bots; the pieces a game's table draws (its facts); a check of
options (own decks) before a room is made."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from flametable.bots.registry import bot_names
from flametable.core import registry
from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.web import client
from flametable.web.common import fail, language_of, read_body
from flametable.web.messages import OPTIONS_CHECK
from flametable.web.replays import check_options, problem_of
from flametable.web.rooms import game_of


async def games(request: Request) -> Response:
    tr = language_of(request)
    out = []
    for name in registry.names():
        entry = registry.get(name)
        bots = bot_names(game_of(name))  # only bot:random for a game whose bots know no determiniser
        out.append({"name": name, "title": tr.translate(entry.title),
                    "bots": [f"bot:{level}" for level in bots if level != "ismcts:N"],
                    **client.client_json(entry, tr)})
    return JSONResponse({"games": out})


async def facts(request: Request) -> Response:
    tr = language_of(request)
    name = request.path_params["name"]
    entry = registry.find(name[:100])
    piece = entry.piece("facts") if entry is not None else None
    if entry is None or piece is None:
        return fail(tr, "no_facts", FlametableError(N_("The game {game!r} has no pieces to draw: play it in its "
                                                       "notation."), game=name[:100]), 404)
    return JSONResponse(piece(game_of(entry.name), tr))


async def check_game_options(request: Request) -> Response:
    tr = language_of(request)
    body = await read_body(request, tr, OPTIONS_CHECK)
    if isinstance(body, Response):
        return body
    try:
        check_options(request.path_params["name"][:100], body["options"])
    except registry.UnknownGame as exc:
        return fail(tr, "unknown_game", exc, 404)
    except FlametableError as exc:
        return JSONResponse({"error": "bad_options", "message": tr.error(exc), "problem": problem_of(exc, tr)},
                            status_code=400)
    return JSONResponse({"ok": True})


routes: list[BaseRoute] = [
    Route("/api/games", games),
    Route("/api/games/{name}/facts", facts),
    Route("/api/games/{name}/options/check", check_game_options, methods=["POST"]),
]
