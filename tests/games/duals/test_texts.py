"""The facts a browser draws Flamecraft Duals from (``GET /api/games/duals/facts``): the board's spaces as the hex
grid they are, every token kind with its letters and colours, the shop cards' patterns and VP, the words of each
step, in the reader's language; JSON values only, public data only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flametable.games.duals.game import DualsGame
from flametable.games.duals.texts import facts
from flametable.texts.translator import Translator

GAME = DualsGame()


def facts_in(lang: str) -> dict[str, Any]:
    return facts(GAME, Translator.for_language(lang))


def test_the_board_is_the_nineteen_spaces_of_the_notation_with_their_coordinates_and_neighbours() -> None:
    spaces = {s["name"]: s for s in facts_in("en")["spaces"]}
    assert len(spaces) == 19
    assert (spaces["c3"]["q"], spaces["c3"]["r"]) == (0, 0)
    assert spaces["c3"]["neighbours"] == ["b2", "b3", "c2", "c4", "d2", "d3"]
    assert spaces["a1"]["neighbours"] == ["a2", "b1", "b2"]
    assert sorted(n for n, s in spaces.items() if s["inner"]) == ["b2", "b3", "c2", "c4", "d2", "d3"]
    for name, space in spaces.items():  # neighbours are exactly the spaces one hex step away, both ways
        for other in space["neighbours"]:
            assert name in spaces[other]["neighbours"]
            dq, dr = spaces[other]["q"] - space["q"], spaces[other]["r"] - space["r"]
            assert (dq, dr) in {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


@pytest.mark.parametrize(("lang", "meat", "letters", "dual"), [
    ("en", "meat", ["B", "C", "M", "I", "P", "L"], ("PL", "potion+plant")),
    ("es", "asado", ["P", "C", "A", "H", "E", "F"], ("EF", "elixir+flor")),
])
def test_every_token_kind_has_its_letters_name_and_a_colour_per_type_in_the_readers_language(
        lang: str, meat: str, letters: list[str], dual: tuple[str, str]) -> None:
    f = facts_in(lang)
    assert [t["letter"] for t in f["types"]] == letters
    assert [t["key"] for t in f["types"]] == ["bread", "crystal", "meat", "iron", "potion", "plant"]
    assert f["types"][2]["name"] == meat
    assert len({t["colour"] for t in f["types"]}) == 6
    kinds = f["kinds"]
    assert len(kinds) == 13  # 6 artisans, 6 duals, Buddy: the view's keys
    assert kinds["meat"]["name"] == meat
    assert kinds["meat"]["letters"] == letters[2]
    assert (kinds["potion+plant"]["letters"], kinds["potion+plant"]["name"]) == dual
    assert kinds["potion+plant"]["types"] == ["potion", "plant"]
    assert len(kinds["potion+plant"]["colours"]) == 2
    assert kinds["buddy"]["letters"] == "*"
    assert kinds["buddy"]["types"] == []


def test_the_shop_cards_carry_their_pattern_vp_and_name() -> None:
    en, es = facts_in("en"), facts_in("es")
    cards = {c["number"]: c for c in en["cards"]}
    assert sorted(cards) == list(range(1, 44))
    assert cards[1]["vp"] == 3
    assert cards[1]["label"] == "K1"
    assert cards[1]["cells"] == [{"q": 0, "r": 0, "type": "bread", "var": None},
                                 {"q": 1, "r": 0, "type": "bread", "var": None},
                                 {"q": 2, "r": 0, "type": "bread", "var": None}]
    starburst = cards[43]
    assert starburst["starburst"]
    assert starburst["name"] == "STARBURST"
    assert [c["var"] for c in starburst["cells"]] == ["A", "B", "C"]
    assert [c["cells"] for c in es["cards"]] == [c["cells"] for c in en["cards"]]


def test_the_words_of_each_step_are_in_the_readers_language() -> None:
    en, es = facts_in("en"), facts_in("es")
    assert set(en["steps"]) == {"place", "fire", "take", "meat", "iron", "potion", "plant", "score", "bottom", "over"}
    assert en["steps"]["place"] == "PLAY: place the token"
    assert es["steps"]["place"] != en["steps"]["place"]
    assert es["types"][2]["ability"] != en["types"][2]["ability"]


def test_the_facts_are_json_values() -> None:
    for lang in ("en", "es"):
        f = facts_in(lang)
        assert json.loads(json.dumps(f)) == f
