"""The Translator: one language's catalogue, made once per language, holding no process-wide state."""

from __future__ import annotations

import pytest

from flametable.core.errors import IllegalAction, RecordError
from flametable.core.i18n import N_, Phrase
from flametable.games.duel.rules import PHASE_TEXT, Phase
from flametable.texts.translator import Translator

ES, EN = Translator.for_language("es"), Translator.for_language("en")


def test_a_template_is_filled_after_its_phrases_are_translated() -> None:
    template = N_("{action} is not possible now: {expected}.")
    params = {"action": "pass", "expected": PHASE_TEXT[Phase.STAT]}
    assert EN.message(template, params) == "pass is not possible now: choose the round's stat."
    assert ES.message(template, params) == "pass no es posible ahora: toca elegir la estadística de la ronda."


def test_an_error_and_its_cause_in_one_language() -> None:
    cause = IllegalAction(N_("{action} is not possible now: {expected}."), action="pass",
                          expected=PHASE_TEXT[Phase.STAT])
    exc = RecordError(N_("the record cannot start a match: {error}"), error=cause)
    assert str(exc) == "the record cannot start a match: pass is not possible now: choose the round's stat."
    assert ES.error(exc) == ("con el registro no se puede empezar una partida: pass no es posible ahora: "
                             "toca elegir la estadística de la ronda.")


def test_languages_and_texts_of_data_files() -> None:
    name = {"en": "Grandma Ember", "es": "Abuela Ascua"}
    assert (EN.pick(name), ES.pick(name)) == ("Grandma Ember", "Abuela Ascua")
    assert ES.translate(Phrase(N_("Spark"))) == "Chispa"
    assert ES.ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carta"
    assert repr(ES) == "Translator('es')"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        Translator.for_language("fr")
