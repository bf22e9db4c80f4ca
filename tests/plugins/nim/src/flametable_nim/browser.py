"""Nim with a piece of the browser client (``static/table.js``, ``static/table.css``): its own table, drawn in place
of the plain one, and its declared option, the heap, which the lobby's form asks for.

The distribution's entry point names the bare :class:`~flametable_nim.NimGame` (a game of the core protocol only);
the browser tests declare ``nim = flametable_nim.browser:ENTRY`` instead, as a plug-in bringing a client would.
"""

from __future__ import annotations

from flametable.core.i18n import N_
from flametable.core.registry import Client, GameEntry, Option

ENTRY = GameEntry(
    name="nim",
    title="Nim",
    game="flametable_nim:NimGame",
    client=Client(package="flametable_nim", module="table.js", styles=("table.css",)),
    options=(Option("heap", "int", N_("Heap"), 15, minimum=1),),
)
