"""The Spanish catalog is complete, reviewed, compiled, and keeps every placeholder.

When this fails after adding or changing a message: ``python -m flametable.cli.i18n_tools update``,
translate the new entries in ``src/flametable/locale/es/LC_MESSAGES/flametable.po``, then
``python -m flametable.cli.i18n_tools compile``.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

import flametable

PACKAGE = Path(flametable.__file__).parent
LOCALE = PACKAGE / "locale"
PO = LOCALE / "es" / "LC_MESSAGES" / "flametable.po"
MO = PO.with_suffix(".mo")
POT = LOCALE / "flametable.pot"
KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "H_": None, "gettext": None, "ngettext": (1, 2), "N_plural": (1, 2),
                            "pgettext": ((1, "c"), 2)}


def _load(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale="es")


@pytest.fixture(scope="module")
def es() -> Catalog:
    return _load(PO)


@pytest.fixture(scope="module")
def extracted() -> set[Any]:
    found = extract_from_dir(str(PACKAGE), [("**.py", "python")], keywords=KEYWORDS)
    return {(message, context) for _file, _line, message, _comments, context in found}


def _ids(message: Any) -> tuple[str, ...]:
    return message if isinstance(message, tuple) else (message,)


def _fields(text: str) -> Counter[str]:
    """The placeholders of a ``str.format`` template, with conversion and spec: ``{name!r}``."""
    out: Counter[str] = Counter()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            out[f"{name}!{conversion or ''}:{spec or ''}"] += 1
    return out


def test_every_message_is_in_the_catalog(es: Catalog, extracted: set[Any]) -> None:
    missing = sorted(str(m) for m, context in extracted if es.get(m, context=context) is None)
    assert not missing, f"run `python -m flametable.cli.i18n_tools update` and translate: {missing}"
    assert len(extracted) > 150


def test_the_template_is_up_to_date(extracted: set[Any]) -> None:
    with POT.open("rb") as f:
        template = read_po(f)
    missing = sorted(str(m) for m, context in extracted if template.get(m, context=context) is None)
    assert not missing, "run `python -m flametable.cli.i18n_tools update`"


def test_no_untranslated_or_fuzzy_entry(es: Catalog) -> None:
    bad = [m.id for m in es if m.id and (m.fuzzy or not all(_ids(m.string)))]
    assert not bad, f"untranslated or fuzzy: {bad}"
    assert not es.fuzzy


def test_placeholders_match(es: Catalog) -> None:
    for message in es:
        if not message.id:
            continue
        ids = _ids(message.id)
        for i, text in enumerate(_ids(message.string)):
            if not text:
                continue  # untranslated: reported by test_no_untranslated_or_fuzzy_entry
            source = ids[0] if i == 0 else ids[-1]
            assert _fields(text) == _fields(source), (message.id, text)


def test_mo_is_compiled_from_po(es: Catalog, tmp_path: Path) -> None:
    with MO.open("rb") as f:
        committed = read_mo(f)
    fresh_path = tmp_path / "fresh.mo"
    with fresh_path.open("wb") as out:
        write_mo(out, es)
    with fresh_path.open("rb") as f:
        fresh = read_mo(f)

    def messages(catalog: Catalog) -> dict[Any, Any]:
        def value(x: Any) -> Any:
            return tuple(x) if isinstance(x, (list, tuple)) else x

        return {value(m.id): value(m.string) for m in catalog if m.id}

    assert messages(committed) == messages(fresh)
    assert messages(committed)


def test_spanish_is_used_at_run_time() -> None:
    from flametable.games.duel.rules import Phase, Reason
    from flametable.games.duel.texts import phase_text, stat_name
    from flametable.texts.translator import Translator
    from flametable.texts.words import reason_text

    es, en = Translator.for_language("es"), Translator.for_language("en")
    assert (stat_name(es, 0), stat_name(es, 1), stat_name(es, 2)) == ("Chispa", "Calor", "Simpatía")
    assert reason_text(es, Reason.TWO_WINS) == "dos rondas ganadas"
    assert phase_text(es, Phase.STAT) == "elegir la estadística de la ronda"
    assert es.gettext("Pass") == "Pasar"
    assert es.translate("Item") == "Objeto"
    assert es.ngettext("{n} card", "{n} cards", 2).format(n=2) == "2 cartas"
    assert stat_name(en, 2) == "Charm"
    assert (es.lang, en.lang) == ("es", "en")
    assert Translator.for_language("es") is es  # one per language, made once
    with pytest.raises(ValueError, match="unknown language"):
        Translator.for_language("xx")


def test_the_terminal_speaks_its_own_language() -> None:
    """The terminal's translator (``--lang`` or the locale) is one translator, and only the terminal's."""
    from flametable.cli.i18n import _, language, set_language, translate, translator

    try:
        assert set_language("es") == "es"
        assert (language(), translator().lang) == ("es", "es")
        assert _("Pass") == "Pasar"
        assert translate("Item") == "Objeto"
        set_language("en")
        assert _("Pass") == "Pass"
    finally:
        set_language("en")


def test_language_from_environment() -> None:
    from flametable.cli.i18n import language_from_env

    assert language_from_env({"LANG": "es_ES.UTF-8"}) == "es"
    assert language_from_env({"LC_ALL": "en_US.UTF-8", "LANG": "es_ES.UTF-8"}) == "en"
    assert language_from_env({"LC_MESSAGES": "es_MX", "LANG": "C"}) == "es"
    assert language_from_env({"LC_ALL": "", "LANG": "es"}) == "es"
    assert language_from_env({}) == "en"


def test_duals_errors_name_tokens_and_abilities_in_the_players_language() -> None:
    from flametable.cli.i18n import illegal_text, set_language
    from flametable.core.errors import IllegalAction
    from flametable.texts.translator import Translator
    from flametable.texts.words import error_text
    from tests.games.duals.scripted import act, play, start

    st = start({"c4": ["bread", "meat"], "c5": ["iron"]}, ["plant", "crystal"], coins=(1, 0))
    play(st, "place c3", "fire plant", "use c4")
    with pytest.raises(IllegalAction) as err:
        st.apply(act("fire bread"))
    assert error_text(Translator.for_language("es"), err.value) == "La ficha asado no tiene la habilidad pan."
    try:
        set_language("es")
        assert illegal_text(err.value) == "La ficha asado no tiene la habilidad pan."
    finally:
        set_language("en")
    assert illegal_text(err.value) == "The meat token has no bread ability."


RULING_REFERENCE = re.compile(r"\b[RD]\d{1,2}\b|\bFAQ\b|\bRULINGS\b")


def test_no_ruling_number_reaches_a_player(es: Catalog) -> None:
    """Ruling numbers (R2, D8, "FAQ") are for the code and the tests: no message a player reads, English or
    Spanish, cites one."""
    cited = [text for message in es if message.id
             for text in (*_ids(message.id), *_ids(message.string)) if RULING_REFERENCE.search(text)]
    assert not cited, cited
    assert RULING_REFERENCE.search("the end is triggered (D8)")
    assert not RULING_REFERENCE.search("K12 D-pad R&D")
