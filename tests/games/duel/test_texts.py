"""Flame Duel's facts for the browser: the card set, stats, kinds and the table's words in the player's language,
from the card data (bilingual names) and the texts layer's messages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from flametable.games.duel.cards import NUM_CHARACTERS, NUM_SUPPORTS, Stat, SupportKind
from flametable.games.duel.game import DuelGame
from flametable.games.duel.texts import facts
from flametable.texts.translator import Translator

GAME = DuelGame()


def facts_in(lang: str) -> dict[str, Any]:
    return facts(GAME, Translator.for_language(lang))


def test_every_card_is_there_with_its_numbers_and_printed_values() -> None:
    got = facts_in("en")
    assert [c["number"] for c in got["characters"]] == list(range(1, NUM_CHARACTERS + 1))
    assert [s["number"] for s in got["supports"]] == list(range(1, NUM_SUPPORTS + 1))
    for c in got["characters"]:
        card = GAME.cards.character(c["number"])
        assert (c["spark"], c["heat"], c["charm"]) == (card.spark, card.heat, card.charm)
    for s in got["supports"]:
        support = GAME.cards.support(s["number"])
        assert (s["kind"], s["stat"], s["bonus"], s["equips_to"]) == (
            support.kind.key, support.stat.key, support.bonus, sorted(support.equips_to))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_names_and_texts_come_from_the_card_data_in_the_language(lang: str) -> None:
    got = facts_in(lang)
    assert got["lang"] == lang
    for c in got["characters"]:
        card = GAME.cards.character(c["number"])
        assert c["name"] == card.name[lang]
        assert c["ability"] == card.ability[lang]
    for s in got["supports"]:
        support = GAME.cards.support(s["number"])
        assert s["name"] == support.name[lang]
        assert s["text"] == support.text[lang]


def test_the_spanish_card_names_differ_from_the_english_ones() -> None:
    en, es = facts_in("en"), facts_in("es")
    assert sum(a["name"] != b["name"] for a, b in zip(en["characters"], es["characters"], strict=True)) > 20
    assert sum(a["name"] != b["name"] for a, b in zip(en["supports"], es["supports"], strict=True)) > 15


def test_stats_carry_a_name_and_a_distinct_symbol_and_kinds_a_name() -> None:
    en, es = facts_in("en"), facts_in("es")
    assert [s["key"] for s in en["stats"]] == [s.key for s in Stat]
    assert [s["name"] for s in en["stats"]] == ["Spark", "Heat", "Charm"]
    assert [s["name"] for s in es["stats"]] == ["Chispa", "Calor", "Simpatía"]
    assert len({s["symbol"] for s in en["stats"]}) == 3
    assert all(s["symbol"] for s in en["stats"])
    assert en["kinds"] == {"item": "Item", "place": "Place", "event": "Event"}
    assert es["kinds"] == {"item": "Objeto", "place": "Lugar", "event": "Evento"}
    assert set(es["kinds"]) == {k.key for k in SupportKind}


def test_the_table_words_are_translated_templates_with_the_same_parameters() -> None:
    en, es = facts_in("en")["words"], facts_in("es")["words"]
    assert en.keys() == es.keys()
    assert en["equips_to"] == "Equips to: {characters}"
    assert es["equips_to"] == "Equipable por: {characters}"
    for key, text in en.items():
        assert es[key] != text, key
        assert sorted(_params(es[key])) == sorted(_params(text)), key


def test_phases_and_reasons_are_in_the_language() -> None:
    es = facts_in("es")
    assert len(es["phases"]) == 7
    assert es["phases"]["stat"] == "elegir la estadística de la ronda"
    assert es["reasons"]["two_round_wins"] == "dos rondas ganadas"


def test_the_facts_are_json() -> None:
    assert json.loads(json.dumps(facts_in("es"))) == facts_in("es")


def _params(text: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", text)
