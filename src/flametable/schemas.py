"""The JSON Schema documents of the files flametable reads and of the game server's messages, generated from their
declarations: a tool beside the packages, so that no interface reaches into another's modules for them.

``python -m flametable.schemas`` (or ``python -m flametable.cli.schemas``) writes them into ``docs/schemas/``
(``--check``: only say which differ, exit 1 if any); ``tests/core/test_schema.py`` checks the committed files equal
what this makes. The declarations live beside their readers (:mod:`flametable.core.schema` is the mechanism;
``docs/formats.md`` the prose).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from flametable.core import registry
from flametable.core.record import SCHEMA as RECORD
from flametable.core.schema import Schema, json_schema
from flametable.service.events import SCHEMA as EVENT
from flametable.sim.results import CSV_ROW, line_schema
from flametable.web.messages import (
    ACCEPT_REQUEST,
    CHALLENGE_REQUEST,
    CLIENT,
    CLOSE_REQUEST,
    DELETE_REQUEST,
    JOIN_REQUEST,
    LEADERBOARD_ANSWER,
    MY_MATCHES_REQUEST,
    PASSWORD_REQUEST,
    PROFILE_ANSWER,
    RATING_CHANGE_ANSWER,
    ROOM_REQUEST,
    SEAT_REQUEST,
    SEEK_REQUEST,
    SIGN_IN_REQUEST,
    SIGN_UP_REQUEST,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "schemas"
BASE = "https://flametable.invalid/schemas/"


def documents() -> dict[str, dict[str, Any]]:
    """Each document's file name and content, made from the declarations."""
    made: dict[str, tuple[Schema, str, str]] = {
        "record": (RECORD, "flametable match record",
                   "A match record (JSON): everything needed to replay a match exactly."),
        "result-line": (line_schema(registry.entries()), "flametable sim result line",
                        "One line of a JSON-lines results file of flametable sim; the summary by the line's game."),
        "result-csv-row": (CSV_ROW, "flametable sim result CSV row",
                           "One row of a CSV results file, every cell as text, by its column's name."),
    }
    for entry in registry.entries():
        schemas = entry.piece("schemas")
        made.update(schemas() if schemas is not None else {})
    made["event"] = (EVENT, "flametable event",
                     "One audience's news at one version of a match (docs/service.md): its view after the step, "
                     "who acted and the action's notation when that audience may know it. The game server sends "
                     "it inside {\"type\": \"event\", \"match\": M, \"event\": ...} messages.")
    made["room-request"] = (ROOM_REQUEST, "flametable server: room request",
                            "The body of POST /api/rooms on the game server (docs/server.md); the game checks the "
                            "options.")
    made["join-request"] = (JOIN_REQUEST, "flametable server: join request",
                            "The body of POST /api/rooms/ID/join on the game server (docs/server.md).")
    made["close-request"] = (CLOSE_REQUEST, "flametable server: close request",
                             "The body of POST /api/rooms/ID/close on the game server (docs/server.md): the seat "
                             "token of a player seated in the room.")
    made["sign-up-request"] = (SIGN_UP_REQUEST, "flametable server: sign-up request",
                               "The body of POST /api/account on the game server (docs/server.md, Accounts): a new "
                               "account's user name and password, and the seat tokens of the tab.")
    made["sign-in-request"] = (SIGN_IN_REQUEST, "flametable server: sign-in request",
                               "The body of POST /api/session on the game server (docs/server.md, Accounts): the "
                               "user name and password, and the seat tokens of the tab.")
    made["password-request"] = (PASSWORD_REQUEST, "flametable server: password change",
                                "The body of POST /api/account/password on the game server (docs/server.md, "
                                "Accounts): the current password and the new one.")
    made["delete-request"] = (DELETE_REQUEST, "flametable server: account deletion",
                              "The body of DELETE /api/account on the game server (docs/server.md, Accounts): the "
                              "account's password.")
    made["seek-request"] = (SEEK_REQUEST, "flametable server: seek request",
                            "The body of POST /api/seeks on the game server (docs/server.md, Quick pairing): the "
                            "pool to wait in: a game, a real-time clock, rated or casual.")
    made["seat-request"] = (SEAT_REQUEST, "flametable server: seat request",
                            "The body of POST /api/rooms/ID/seat on the game server (docs/server.md, Accounts): "
                            "which of the account's seats in the room gets a fresh token.")
    made["my-matches-request"] = (MY_MATCHES_REQUEST, "flametable server: my matches request",
                                  "The body of POST /api/my-matches on the game server (docs/server.md): the seat "
                                  "tokens the browser holds, each with its room.")
    made["challenge-request"] = (CHALLENGE_REQUEST, "flametable server: challenge request",
                                 "The body of POST /api/challenges on the game server (docs/server.md, "
                                 "Challenges): the challenged player, the game, its options, time control and "
                                 "whether the match is rated.")
    made["accept-request"] = (ACCEPT_REQUEST, "flametable server: challenge acceptance",
                              "The body of POST /api/challenges/ID/accept on the game server (docs/server.md, "
                              "Challenges): what the accepter brings of their own.")
    made["profile-answer"] = (PROFILE_ANSWER, "flametable server: a player's profile",
                              "What GET /api/players/NAME answers (docs/server.md, Ratings): ratings per game with "
                              "their history, results, the recent matches.")
    made["leaderboard-answer"] = (LEADERBOARD_ANSWER, "flametable server: a leaderboard's page",
                                  "What GET /api/leaderboard/GAME?page=N answers (docs/server.md, Ratings): a page of "
                                  "the game's best 100 settled ratings and the reader's own place.")
    made["rating-change-answer"] = (RATING_CHANGE_ANSWER, "flametable server: a match's rating change",
                                    "What GET /api/rooms/ID/matches/N/rating answers (docs/server.md, Ratings).")
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
