"""``flametable cards duals``: the Flamecraft Duals shop deck, tokens and board in the player's language, and
``cards check`` of a data file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from flametable.cli.cards import load_or_fail, page_title, show_page
from flametable.cli.i18n import _, language, translate, translator
from flametable.core.i18n import pick
from flametable.games.duals import texts
from flametable.games.duals.data import DualsData, builtin_duals_data, load_duals_data
from flametable.games.duals.render import card_panel, hex_grid, legend
from flametable.games.duals.rules import NUM_TYPES, TYPE_KEYS
from flametable.games.duals.texts import BUDDY_TEXT, fmt
from flametable.texts.translator import Translator


class DualsWords(texts.DualsWords):
    """Flamecraft Duals' tokens, spaces and cards in the terminal's language (or ``tr``'s)."""

    def __init__(self, data: DualsData, tr: Translator | None = None) -> None:
        super().__init__(tr or translator(), data)


def type_name(t: int) -> str:
    return texts.type_name(translator(), t)


def ability_text(t: int) -> str:
    return texts.ability_text(translator(), t)


def show(file: Path | None, as_json: bool) -> None:
    data = load_or_fail(file, load_duals_data, builtin_duals_data, _("Bad data file: {error}"))
    show_page(data, as_json, duals_json, duals_page)


def duals_page(data: DualsData) -> list[RenderableType]:
    words = DualsWords(data)
    return [
        page_title(data.name, data.version, words.lang),
        Rule(_("Tokens")),
        tokens_table(data, words),
        Text(_("{n} of each type: 1 on the inner ring, 1 in the reserve, {bag} in the bag.").format(
            n=data.artisans_per_type, bag=data.artisans_per_type - 2)),
        fire_up_line(data, words),
        Text(),
        legend(words),
        Rule(_("Board")),
        board_part(data, words),
        Rule(_("Shop deck: {n} cards").format(n=len(data.cards))),
        Text(_("A card scores when its pattern lies on the top tokens of the board, turned in any of the 6 "
               "directions (never flipped); a dual counts as either of its types and Buddy as any type, for each "
               "card on its own. Scoring removes nothing from the board.")),  # D5
        Columns([card_panel(c.number, words, None) for c in data.cards]),
    ]


def tokens_table(data: DualsData, words: DualsWords) -> Table:
    per = data.artisans_per_type
    table = Table(box=None, pad_edge=False, show_edge=False)
    table.add_column(_("Token"))
    table.add_column(_("Count"), justify="right")
    table.add_column(_("Ability (FIRE UP)"), overflow="fold")
    for t in range(NUM_TYPES):
        table.add_row(words.token(t), str(per), ability_text(t))
    for k, (a, b) in enumerate(data.duals, start=NUM_TYPES):
        table.add_row(words.token(k), "1", _("one of its two abilities, never both: {first} or {second}").format(
            first=type_name(a), second=type_name(b)))
    if data.buddy_tokens:
        buddy = data.buddy
        table.add_row(words.token(buddy), str(data.buddy_tokens),
                      translate(BUDDY_TEXT) + " " + _("(Buddy variant only: play duals --buddy)"))
    return table


def fire_up_line(data: DualsData, words: DualsWords) -> Text:  # D3
    order = Text(" > ").join(words.token(t) for t in data.fire_up_order)
    return fmt(_("FIRE UP order (who starts): {order}. A dual counts as its higher type and beats an artisan of "
                 "that type; Buddy ranks below every dragon."), order=order)


def board_part(data: DualsData, words: DualsWords) -> RenderableType:
    board = data.board
    inner = ", ".join(board.names[s] for s in board.inner)
    centre = [s for s in range(board.size) if s not in board.inner and all(n in board.inner or n == s
                                                                            for n in board.adj[s])]
    lines: list[RenderableType] = [hex_grid([() for _ in range(board.size)], words)]
    text = _("{n} spaces. Starting spaces (one token of each type at random): {inner}.").format(
        n=board.size, inner=inner)
    if len(centre) == 1:
        text += " " + _("Centre: {space}.").format(space=board.names[centre[0]])
    lines.append(Text(text))
    return Group(*lines)


def duals_json(data: DualsData) -> dict[str, Any]:
    """The data in the current language: types by their keys, cells as in the data file."""
    lang = language()
    words = DualsWords(data)
    return {
        "game": "duals",
        "id": data.id,
        "version": data.version,
        "lang": lang,
        "name": pick(data.name, lang),
        "board": {
            "spaces": [{"name": n, "q": q, "r": r} for n, (q, r) in zip(data.board.names, data.board.coords,
                                                                         strict=True)],
            "inner": [data.board.names[s] for s in data.board.inner],
        },
        "tokens": {
            "types": [{"key": TYPE_KEYS[t], "name": type_name(t), "letter": words.type_letters[t],
                       "count": data.artisans_per_type, "ability": ability_text(t)} for t in range(NUM_TYPES)],
            "duals": [{"key": data.kind_names[k], "types": [TYPE_KEYS[a], TYPE_KEYS[b]], "name": words.kind_name(k),
                       "letters": words.letters(k), "count": 1}
                      for k, (a, b) in enumerate(data.duals, start=NUM_TYPES)],
            "buddy": {"key": "buddy", "name": words.kind_name(data.buddy), "letter": words.letters(data.buddy),
                      "count": data.buddy_tokens, "ability": translate(BUDDY_TEXT)},
            "fire_up_order": [TYPE_KEYS[t] for t in data.fire_up_order],
            "reserve_per_type": 1,
            "inner_ring_per_type": 1,
        },
        "cards": [
            {"number": c.number, "vp": c.vp, "starburst": c.starburst,
             "name": pick(c.name, lang) if c.name else None,
             "cells": [{"at": [cell.dq, cell.dr], **({"var": cell.var} if cell.var else
                                                    {"type": TYPE_KEYS[cell.type]})} for cell in c.cells]}
            for c in data.cards
        ],
    }


def check(path: Path) -> str:
    data = load_duals_data(path)
    return _("{file}: Flamecraft Duals data {id} (version {version}): {spaces} spaces, {tokens} tokens, {cards} shop "
             "cards.").format(file=path, id=data.id, version=data.version, spaces=data.board.size,
                              tokens=sum(data.supply), cards=len(data.cards))
