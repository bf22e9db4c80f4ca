"""One language's catalogue, passed explicitly to whatever makes text for a player.

A terminal makes one translator from ``--lang`` or the locale; a server makes one per connection. Nothing
here is process-wide: two translators of different languages are used side by side, from any thread.
The gettext catalogues are shipped in ``flametable/locale`` (English is the source language: no catalogue).
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from flametable.core.errors import FlametableError
from flametable.core.i18n import LANGUAGES, pick

DOMAIN = "flametable"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


class Translator:
    """The messages of one language: ``gettext`` for literal messages (found by the extractor as
    ``_ = tr.gettext; _("...")``), ``pgettext`` for a word that needs a context, ``ngettext`` for plurals,
    ``translate`` for messages marked elsewhere with ``N_`` (engines' phrases, tables of names), ``error`` for the
    project's errors (templates with parameters)."""

    __slots__ = ("_catalog", "lang")

    def __init__(self, lang: str, catalog: _gettext.NullTranslations) -> None:
        self.lang = lang
        self._catalog = catalog

    @staticmethod
    def for_language(lang: str) -> Translator:
        """The translator of ``lang`` (one per language, made once and shared: it holds no state)."""
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
        return _translator(lang)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def gettext(self, message: str) -> str:
        """A literal English message in this language."""
        return self._catalog.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """A literal English message in this language, where the same English word needs a different translation
        in another ``context`` (a game's command words)."""
        return self._catalog.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural form for ``n``, in this language."""
        return self._catalog.ngettext(singular, plural, n)

    def translate(self, message: str) -> str:
        """A message marked elsewhere with ``N_`` (a variable here, so the extractor skips it)."""
        return self._catalog.gettext(message)

    def message(self, template: str, params: Mapping[str, Any]) -> str:
        """An N_-marked template filled with ``params``; :class:`~flametable.core.i18n.Phrase` parameters are
        translated before they are filled in (as an error's message is)."""
        return FlametableError(template, **params).translated(self.translate)

    def error(self, exc: FlametableError) -> str:
        """One of the project's errors (an illegal action, a bad data file or record) in this language."""
        return exc.translated(self.translate)

    def pick(self, text: Mapping[str, str]) -> str:
        """This language's text of a bilingual mapping from a data file (falling back to English)."""
        return pick(text, self.lang)


@cache
def _translator(lang: str) -> Translator:
    if lang == "en":
        return Translator(lang, _gettext.NullTranslations())
    return Translator(lang, _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang],
                                                 fallback=True))
