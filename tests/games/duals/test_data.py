"""Flamecraft Duals data: the board (D1), the tokens (D2, D3) and the shop deck (D4) as data, validated on
load with errors naming the file, the entry and the field."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from flametable.core.data import load_toml
from flametable.core.errors import DataError, RecordError
from flametable.games.duals.board import DIRECTIONS
from flametable.games.duals.data import load_duals_data, parse_duals_data
from flametable.games.duals.game import DualsGame

from .scripted import BOARD, DATA, STARBURST

TEXT = resources.files("flametable.games.duals").joinpath("data", "duals.toml").read_text(encoding="utf-8")


def parse(text: str, source: str = "test.toml") -> object:
    return parse_duals_data(load_toml(source, text=text), source)


def test_d1_board() -> None:
    """D1: "19 hexagonal spaces: a centre, an inner ring of 6, an outer ring of 12; two spaces are adjacent
    when they share a side. 'The 6 starting spaces around the centre' are the inner ring." """
    assert BOARD.size == 19
    centre = BOARD.at[(0, 0)]
    assert BOARD.names[centre] == "c3"
    assert set(BOARD.adj[centre]) == set(BOARD.inner)
    assert len(BOARD.inner) == 6
    outer = [s for s in range(19) if s != centre and s not in BOARD.inner]
    assert len(outer) == 12
    assert all(len(BOARD.adj[s]) == 6 for s in BOARD.inner)
    assert sorted(len(BOARD.adj[s]) for s in outer) == [3] * 6 + [4] * 6
    for s in range(19):
        for t in BOARD.adj[s]:
            assert s in BOARD.adj[t]
            q, r = BOARD.coords[s]
            q2, r2 = BOARD.coords[t]
            assert (q2 - q, r2 - r) in DIRECTIONS


def test_d2_tokens() -> None:
    """D2: "36 artisan dragons, 6 of each type ... 6 dual tokens, each two types: bread+crystal,
    crystal+iron, iron+potion, potion+plant, plant+meat, meat+bread. One Buddy token (variant only)." """
    assert DATA.supply[:6] == (6,) * 6
    assert DATA.kind_names[6:12] == (
        "bread+crystal", "crystal+iron", "iron+potion", "potion+plant", "plant+meat", "meat+bread",
    )
    assert DATA.supply[6:] == (1,) * 7
    assert DATA.kind_names[12] == "buddy"
    assert DATA.kind_mask[DATA.buddy] == 0b111111
    assert DATA.kind_of("crystal+bread") == DATA.kind_of("bread+crystal") == 6
    assert DATA.kind_of("toast") == -1


def test_d4_shop_deck() -> None:
    """D4: "42 pattern cards of 3 icons each: 6 'three of one type in a straight line' (3 VP), 6 'three of one
    type in a triangle' (3 VP), 30 'two of type A and one of type B in a straight line, B at one end' (2 VP,
    one per ordered pair A≠B); plus the STARBURST card (one card; higher VP; three different types; its
    owner's unspent coins are worth 0). 43 cards in all." """
    from .scripted import line, pair_end, triangle

    types = ["bread", "crystal", "meat", "iron", "potion", "plant"]
    assert len(DATA.cards) == 43
    lines = {line(t) for t in types}
    triangles = {triangle(t) for t in types}
    pairs = {pair_end(a, b) for a in types for b in types if a != b}
    assert len(lines) == 6
    assert len(triangles) == 6
    assert len(pairs) == 30
    assert {DATA.vp[c] for c in lines | triangles} == {3}
    assert {DATA.vp[c] for c in pairs} == {2}
    assert DATA.starburst == {STARBURST}
    assert STARBURST not in lines | triangles | pairs
    assert DATA.vp[STARBURST] > 3
    assert all(len(c.cells) == 3 for c in DATA.cards)
    assert len({c.var for c in DATA.card(STARBURST).cells}) == 3


def test_data_loads_from_a_custom_path(tmp_path: Path) -> None:
    """Data, not code: a player can edit the file and play with it."""
    path = tmp_path / "my-duals.toml"
    path.write_text(TEXT.replace('id = "flamecraft-duals-base"', 'id = "my-duals"').replace("vp = 5", "vp = 6"),
                    encoding="utf-8")
    data = load_duals_data(path)
    assert data.id == "my-duals"
    assert data.source == str(path)
    assert data.vp[STARBURST] == 6
    assert data.hash != DATA.hash
    game = DualsGame(path)
    assert game.content_id() == ("my-duals", data.hash)
    assert DualsGame(str(path)).content_id() == game.content_id()
    assert DualsGame().content_id() == (DATA.id, DATA.hash)


def test_content_hash_ignores_comments_and_layout() -> None:
    text = "# another comment\n" + TEXT.replace("vp = 3\n", "vp   =   3   # three\n")
    assert parse(text).hash == DATA.hash  # type: ignore[attr-defined]


CARD1 = 'cells = [{ at = [0, 0], type = "bread" }, { at = [1, 0], type = "bread" }, { at = [2, 0], type = "bread" }]'


@pytest.mark.parametrize(
    ("old", "new", "entry", "field"),
    [
        ("[board]", "[boards]", "file", "boards"),
        ('{ name = "a1", q = 0, r = -2 }', '{ name = "A-1", q = 0, r = -2 }', "board: spaces[0]", "name"),
        ('{ name = "a2", q = 1, r = -2 }', '{ name = "a1", q = 1, r = -2 }', "board: spaces[1]", "name"),
        ('{ name = "a2", q = 1, r = -2 }', '{ name = "a9", q = 0, r = -2 }', "board: spaces[1]", "q"),
        ('{ name = "a1", q = 0, r = -2 }', '{ name = "a1", q = "0", r = -2 }', "board: spaces[0]", "q"),
        ('inner = ["b2", "b3", "c2", "c4", "d2", "d3"]', 'inner = ["b2", "b3", "c2", "c4", "d2"]', "board", "inner"),
        ('inner = ["b2", "b3", "c2", "c4", "d2", "d3"]', 'inner = ["b2", "b3", "c2", "c4", "d2", "z9"]', "board",
         "inner"),
        ('fire_up_order = ["bread", "crystal", "meat", "iron", "potion", "plant"]',
         'fire_up_order = ["bread", "crystal", "meat", "iron", "potion", "bread"]', "tokens", "fire_up_order"),
        ('fire_up_order = ["bread",', 'fire_up_order = ["toast",', "tokens", "fire_up_order[0]"),
        ('duals = [["bread", "crystal"],', 'duals = [["bread", "bread"],', "tokens", "duals[0]"),
        ('duals = [["bread", "crystal"],', 'duals = [["crystal", "bread"], ["bread", "crystal"],', "tokens",
         "duals[1]"),
        ("artisans_per_type = 6", "artisans_per_type = 1", "tokens", "artisans_per_type"),
        ("artisans_per_type = 6", "artisans_per_type = 30", "tokens", "(count)"),
        ("buddy = 1", "buddy = 2", "tokens", "buddy"),
        ("buddy = 1", "buddy = 1\nfancy = true", "tokens", "fancy"),
        ("number = 1\nvp = 3\n", "number = 1\n", "card 1", "vp"),
        ("number = 1\nvp = 3\n", "number = 1\nvp = 3\ncolour = 'red'\n", "card 1", "colour"),
        ("number = 2\n", "number = 1\n", "card 1", "number"),
        ("number = 43\n", "number = 44\n", "card", "number"),
        (CARD1, CARD1.replace('type = "bread" }, { at = [1, 0]', 'type = "toast" }, { at = [1, 0]'),
         "card 1: cells[0]", "type"),
        (CARD1, CARD1.replace('{ at = [0, 0], type = "bread" }', '{ at = [0, 0], type = "bread", var = "A" }'),
         "card 1: cells[0]", "type"),
        (CARD1, CARD1.replace('{ at = [0, 0], type = "bread" }', '{ at = [0, 0] }'), "card 1: cells[0]", "type"),
        (CARD1, CARD1.replace("[1, 0]", "[0, 0]"), "card 1: cells[1]", "at"),
        (CARD1, CARD1.replace("[2, 0]", "[2, 0, 1]"), "card 1: cells[2]", "at"),
        (CARD1, CARD1.replace("[2, 0]", "[7, 0]"), "card 1", "cells"),
        (CARD1, "cells = []", "card 1", "cells"),
        ('{ at = [0, 0], var = "A" }', '{ at = [0, 0], var = "1A" }', "card 43: cells[0]", "var"),
        ("starburst = true", "starburst = 1", "card 43", "starburst"),
        ('name = { en = "STARBURST", es = "STARBURST" }', 'name = { en = "STARBURST" }', "card 43", "name.es"),
        ('[set]\nid = "flamecraft-duals-base"', '[set]\nid = ""', "set", "id"),
        ("spaces = [", "spaces = 3\nold = [", "board", "old"),
    ],
)
def test_data_validation_errors(old: str, new: str, entry: str, field: str) -> None:
    """A bad file raises DataError naming the file, the entry and the field."""
    assert old in TEXT
    with pytest.raises(DataError) as info:
        parse(TEXT.replace(old, new, 1))
    err = info.value
    assert (err.source, err.entry, err.field) == ("test.toml", entry, field), str(err)
    assert str(err).startswith(f"test.toml: {entry}: {field}: ")


def test_data_file_errors(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="there is no file") as info:
        load_duals_data(tmp_path / "missing.toml")
    assert info.value.field == "path"
    bad = tmp_path / "bad.toml"
    bad.write_text("[set\n", encoding="utf-8")
    with pytest.raises(DataError, match="not valid TOML") as info:
        load_duals_data(bad)
    assert (info.value.source, info.value.entry, info.value.field) == (str(bad), "file", "syntax")
    with pytest.raises(DataError) as info:
        parse(TEXT.split("# ----")[0])  # no cards at all
    assert info.value.entry == "file"
    assert info.value.field == "card"


def test_patterns_precomputed() -> None:
    """Every placement of every pattern is computed at load time, the pattern's own symmetry removed."""
    from .scripted import line, pair_end, triangle

    pats = DATA.matcher.patterns
    assert len(pats[line("bread") - 1].placements) == 27  # 9 per axis, a line reads the same both ways
    assert len(pats[pair_end("bread", "meat") - 1].placements) == 54  # ... but not with the meat at one end
    assert len(pats[triangle("meat") - 1].placements) == 24
    assert len(pats[STARBURST - 1].placements) == 24  # its three variables are interchangeable
    assert Counter(p.fixed for p in pats) == Counter({True: 42, False: 1})


def test_d11_the_buddy_variant_needs_data_with_a_buddy_token() -> None:
    data = parse_duals_data(load_toml("no-buddy.toml", text=TEXT.replace("buddy = 1", "buddy = 0")), "no-buddy.toml")
    assert not data.buddy_tokens
    DualsGame(data).new_match({}, 1)  # the plain game is fine
    with pytest.raises(RecordError, match="no Buddy token for the Buddy variant"):
        DualsGame(data).new_match({"buddy": True}, 1)
