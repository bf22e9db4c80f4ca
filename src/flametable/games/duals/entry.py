"""Flamecraft Duals' registry entry: where each of its pieces lives, all in this folder. ``pyproject.toml`` names it
under the ``flametable.games`` entry point, as any plug-in game names its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flametable.core.i18n import N_
from flametable.core.registry import Client, GameEntry, Option


def claims(data: Mapping[str, Any]) -> bool:
    """Flamecraft Duals data has a board, tokens or shop cards."""
    return "board" in data or "tokens" in data or "card" in data


def schemas() -> dict[str, tuple[Any, str, str]]:
    """The JSON Schema documents of this game's files and views (``docs/schemas/NAME.schema.json``): each one's
    declaration, title and description."""
    from flametable.games.duals.data import DUALS_DATA
    from flametable.games.duals.view import VIEW_SCHEMA as DUALS_VIEW

    return {
        "duals-data": (DUALS_DATA, "Flamecraft Duals data",
                       "A Flamecraft Duals data file (TOML, read as this JSON data): the set, the board (D1), the "
                       "tokens (D2, D3) and the shop deck (D4). Rules between fields are in docs/formats.md."),
        "duals-view": (DUALS_VIEW, "Flamecraft Duals view",
                       "What one seat (or a spectator, seat null) may see of a Flamecraft Duals match (D10), as made"
                       " by flametable.games.duals.view.DualsView.to_json. Ids and notation only: spaces by their "
                       "board names, token kinds by the rules' type keys (a dual as 'type+type', 'buddy'), cards by "
                       "number, actions in notation, steps by name. Hidden from everyone: the deck order and the "
                       "bag's order; private to the seat: hand, matching, bottom_known, legal (empty for a spectator"
                       " and for the seat not to act)."),
    }


HERE = "flametable.games.duals"

ENTRY = GameEntry(
    name="duals",
    title=N_("Flamecraft Duals"),
    game=f"{HERE}.game:DualsGame",
    native=f"{HERE}.native:factory",
    data=f"{HERE}.data:load_duals_data",
    check=f"{HERE}.cards_page:check",
    claims=claims,
    bots=f"{HERE}.bots:knowledge",
    collect=f"{HERE}.summary:collect",
    summarize=f"{HERE}.summary:summarize",
    summary_schema=f"{HERE}.summary:SUMMARY",
    report=f"{HERE}.summary:report_sections",
    play=f"{HERE}.play:play_command",
    table=f"{HERE}.tui:DualsTable",
    narrator=f"{HERE}.tui:DualsNarrator",
    log=f"{HERE}.texts:DualsLog",
    observation=f"{HERE}.observation:DualsObservation",
    facts=f"{HERE}.texts:facts",
    cards=f"{HERE}.cards_page:show",
    schemas=schemas,
    client=Client(package=HERE, module="table.js", styles=("table.css",)),
    options=(Option("buddy", "bool", N_("Buddy variant"), False),),  # D11
    environments={"pettingzoo:flametable/duals_v0": f"{HERE}.environments:env",
                  "gymnasium:flametable/Duals-v0": f"{HERE}.environments:DualsEnv"},
    help={"play": N_("Play Flamecraft Duals: humans at this terminal (hot-seat for two) or bots."),
          "cards": N_("Show the Flamecraft Duals shop deck, tokens and board."),
          "bench": N_("Random Flamecraft Duals playouts on one core: steps and matches per second.")},
)
