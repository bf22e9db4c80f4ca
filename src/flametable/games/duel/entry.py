"""Flame Duel's registry entry: where each of its pieces lives, all in this folder. ``pyproject.toml`` names it
under the ``flametable.games`` entry point, as any plug-in game names its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flametable.core.i18n import N_
from flametable.core.registry import Client, ClientPage, GameEntry, Option


def claims(data: Mapping[str, Any]) -> bool:
    """A Flame Duel card set has characters or support cards; a Flame Duel deck lists them."""
    return any(key in data for key in ("character", "support", "characters", "supports"))


def schemas() -> dict[str, tuple[Any, str, str]]:
    """The JSON Schema documents of this game's files and views (``docs/schemas/NAME.schema.json``): each one's
    declaration, title and description."""
    from flametable.games.duel.cards import CARD_SET, DECK
    from flametable.games.duel.view import VIEW_SCHEMA as DUEL_VIEW

    return {
        "card-set": (CARD_SET, "Flame Duel card set",
                     "A Flame Duel card set file (TOML, read as this JSON data): the set, 33 characters and 21 "
                     "support cards (R1). Rules between fields are in docs/formats.md."),
        "deck": (DECK, "Flame Duel deck", "An own deck (TOML): 3 characters and 8 to 12 support cards (R2)."),
        "duel-view": (DUEL_VIEW, "Flame Duel view",
                      "What one seat (or a spectator, seat null) may see of a Flame Duel match (R15): the JSON form "
                      "of flametable.games.duel.view.DuelView (DuelView.to_json / DuelView.from_json). Ids and "
                      "notation, no language: cards by number, actions in the game's notation, enums by value. Private "
                      "fields (hand, lineup, my_characters, known_top, my_pile, champion, legal) are empty in a "
                      "spectator's view."),
    }


HERE = "flametable.games.duel"

ENTRY = GameEntry(
    name="duel",
    title=N_("Flame Duel"),
    game=f"{HERE}.game:DuelGame",
    native=f"{HERE}.native:factory",
    data=f"{HERE}.cards:load_card_set",
    check=f"{HERE}.cards_page:check",
    claims=claims,
    bots=f"{HERE}.bots:knowledge",
    collect=f"{HERE}.summary:collect",
    summarize=f"{HERE}.summary:summarize",
    summary_schema=f"{HERE}.summary:SUMMARY",
    report=f"{HERE}.summary:report_sections",
    play=f"{HERE}.play:play_command",
    table=f"{HERE}.tui:DuelTable",
    narrator=f"{HERE}.tui:Narrator",
    log=f"{HERE}.texts:DuelLog",
    observation=f"{HERE}.observation:DuelObservation",
    facts=f"{HERE}.texts:facts",
    cards=f"{HERE}.cards_page:show",
    schemas=schemas,
    client=Client(package=HERE, module="table.js", styles=("table.css", "decks.css"),
                  pages=(ClientPage(name="decks", module="decks.js", title=N_("Decks")),)),
    # R2: the support cards (one shared pile or own decks) and how the characters are picked; own decks themselves
    # ("decks") are chosen by the table module's own lobby field (the decks saved by the deck builder)
    options=(Option("mode", "choice", N_("Cards"), "shared",
                    (("shared", N_("Shared pile")), ("decks", N_("Own decks")))),
             Option("pick", "choice", N_("Characters"), "random",
                    (("random", N_("Dealt at random")), ("draft", N_("Drafted"))))),
    environments={"pettingzoo:flametable/duel_v0": f"{HERE}.environments:env",
                  "gymnasium:flametable/Duel-v0": f"{HERE}.environments:DuelEnv"},
    help={"play": N_("Play Flame Duel: humans at this terminal (hot-seat for two) or bots."),
          "cards": N_("Show the Flame Duel cards."),
          "bench": N_("Random Flame Duel playouts on one core: steps and matches per second.")},
)
