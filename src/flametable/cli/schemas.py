"""The JSON Schema documents of the files flametable reads, generated from their declarations.

``python -m flametable.cli.schemas`` writes them into ``docs/schemas/`` (``--check``: only say which differ, exit 1
if any); ``tests/core/test_schema.py`` checks the committed files equal what this makes. The declarations live
beside their readers (:mod:`flametable.core.schema` is the mechanism; ``docs/formats.md`` the prose).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from flametable.core.record import SCHEMA as RECORD
from flametable.core.registry import BUILTINS
from flametable.core.schema import json_schema
from flametable.duals.data import DUALS_DATA
from flametable.duals.view import VIEW_SCHEMA as DUALS_VIEW
from flametable.duel.cards import CARD_SET, DECK
from flametable.duel.view import VIEW_SCHEMA as DUEL_VIEW
from flametable.service.events import SCHEMA as EVENT
from flametable.sim.results import CSV_ROW, line_schema
from flametable.web.app import JOIN_REQUEST, ROOM_REQUEST
from flametable.web.messages import CLIENT

DOCS = Path(__file__).resolve().parents[3] / "docs" / "schemas"
BASE = "https://flametable.invalid/schemas/"


def documents() -> dict[str, dict[str, Any]]:
    """Each document's file name and content, made from the declarations."""
    made = {
        "card-set": (CARD_SET, "Flame Duel card set",
                     "A Flame Duel card set file (TOML, read as this JSON data): the set, 33 characters and 21 "
                     "support cards (R1). Rules between fields are in docs/formats.md."),
        "deck": (DECK, "Flame Duel deck", "An own deck (TOML): 3 characters and 8 to 12 support cards (R2)."),
        "duals-data": (DUALS_DATA, "Flamecraft Duals data",
                       "A Flamecraft Duals data file (TOML, read as this JSON data): the set, the board (D1), the "
                       "tokens (D2, D3) and the shop deck (D4). Rules between fields are in docs/formats.md."),
        "duel-view": (DUEL_VIEW, "Flame Duel view",
                      "What one seat (or a spectator, seat null) may see of a Flame Duel match (R15): the JSON form of "
                      "flametable.duel.view.DuelView (DuelView.to_json / DuelView.from_json). Ids and notation, no "
                      "language: cards by number, actions in the game's notation, enums by value. Private fields "
                      "(hand, lineup, my_characters, known_top, my_pile, champion, legal) are empty in a spectator's "
                      "view."),
        "duals-view": (DUALS_VIEW, "Flamecraft Duals view",
                       "What one seat (or a spectator, seat null) may see of a Flamecraft Duals match (D10), as made"
                       " by flametable.duals.view.DualsView.to_json. Ids and notation only: spaces by their board "
                       "names, token kinds by the rules' type keys (a dual as 'type+type', 'buddy'), cards by "
                       "number, actions in notation, steps by name. Hidden from everyone: the deck order and the "
                       "bag's order; private to the seat: hand, matching, bottom_known, legal (empty for a spectator"
                       " and for the seat not to act)."),
        "record": (RECORD, "flametable match record",
                   "A match record (JSON): everything needed to replay a match exactly."),
        "result-line": (line_schema(BUILTINS), "flametable sim result line",
                        "One line of a JSON-lines results file of flametable sim; the summary by the line's game."),
        "result-csv-row": (CSV_ROW, "flametable sim result CSV row",
                           "One row of a CSV results file, every cell as text, by its column's name."),
    }
    made["event"] = (EVENT, "flametable event",
                     "One audience's news at one version of a match (docs/service.md): its view after the step, "
                     "who acted and the action's notation when that audience may know it. The game server sends "
                     "it inside {\"type\": \"event\", \"match\": M, \"event\": ...} messages.")
    made["room-request"] = (ROOM_REQUEST, "flametable server: room request",
                            "The body of POST /api/rooms on the game server (docs/server.md); the game checks the "
                            "options.")
    made["join-request"] = (JOIN_REQUEST, "flametable server: join request",
                            "The body of POST /api/rooms/ID/join on the game server (docs/server.md).")
    for kind, schema in CLIENT.items():
        made[f"client-{kind}"] = (schema, f"flametable server: client message '{kind}'",
                                  f"A client's '{kind}' message on a room's WebSocket (docs/server.md): "
                                  f"{schema.description}.")
    return {f"{name}.schema.json": json_schema(schema, title=title, description=text, id=f"{BASE}{name}.schema.json")
            for name, (schema, title, text) in made.items()}


def text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    check = "--check" in args
    out = Path(next((a for a in args if not a.startswith("--")), DOCS))
    stale = []
    for name, doc in documents().items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text(doc):
            stale.append(name)
            if not check:
                path.write_text(text(doc), encoding="utf-8")
    verb = "differ" if check else "written"
    print(f"{len(stale)} of {len(documents())} schema documents {verb}: {', '.join(stale) or '-'}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
