"""The browser client: its pages (one HTML file for every page), its files (plain ES modules and one style sheet,
served as they are: no build step), the translations of its messages; and ``/healthz``."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from flametable.core.errors import FlametableError
from flametable.core.i18n import LANGUAGES, N_
from flametable.texts.translator import DOMAIN, LOCALE_DIR
from flametable.web.common import fail, language_of
from flametable.web.rooms import Hall
from flametable.web.store import Store

if TYPE_CHECKING:
    from flametable.web.bus import Bus

STATIC = Path(__file__).resolve().parents[1] / "static"
"""The browser client: plain ES modules and one style sheet, served as they are (no build step)."""


@cache
def client_texts(lang: str) -> dict[str, str | list[str]]:
    """The translations of the browser client's messages (the catalogue's entries found in ``web/static`` and
    ``games/*/static``): a message's translation by its English text; a plural message's forms, in gettext's
    order, by its English singular (``ngettext`` in ``js/i18n.js``). A message not yet translated is left out (the
    client shows the English)."""
    if lang == "en":
        return {}
    from babel.messages.pofile import read_po

    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    texts: dict[str, str | list[str]] = {}
    for m in catalog:
        if not m.id or not any("/static/" in where for where, _ in m.locations):  # web/static, games/*/static
            continue
        if isinstance(m.id, str):
            if m.string:
                texts[m.id] = str(m.string)
        elif isinstance(m.string, (tuple, list)) and all(m.string):
            texts[str(m.id[0])] = [str(form) for form in m.string]
    return texts


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def texts(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return fail(language_of(request), "no_language", FlametableError(
            N_("There is no language {lang!r}: choose one of {languages}."), lang=lang[:20],
            languages=", ".join(LANGUAGES)), 404)
    return JSONResponse(client_texts(lang), headers={"cache-control": "no-cache"})


async def healthz(request: Request) -> Response:
    """``{"status": "ok"}`` once the database answers (503 before), with this process's name, the rooms it holds
    and its cluster's Redis: ``"ok"``, ``"down"`` (the process still serves the rooms it holds) or ``"off"`` (a
    single server)."""
    store: Store | None = getattr(request.app.state, "store", None)
    if store is None or not await store.ping():
        return JSONResponse({"status": "starting"}, status_code=503)
    hall: Hall = request.app.state.hall
    bus: Bus | None = getattr(request.app.state, "bus", None)
    redis = "off" if bus is None else "ok" if bus.healthy else "down"
    return JSONResponse({"status": "ok", "redis": redis, "process": hall.process, "rooms": len(hall.rooms)})


routes: list[BaseRoute] = [
    Route("/", page),
    Route("/rooms/{room}", page),
    Route("/replay", page),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
    Route("/api/texts/{lang}", texts),
    Route("/healthz", healthz),
]
