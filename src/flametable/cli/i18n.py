"""The player's language: gettext catalogs shipped in ``flametable/locale`` (English is the source).

Strings are English in the code, wrapped in ``_()`` (or marked with ``N_`` and translated later with
:func:`translate`). The catalog is kept up to date with ``python -m flametable.cli.i18n_tools update``.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from flametable.core.i18n import LANGUAGES

DOMAIN = "flametable"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_current: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def language_from_env(env: Mapping[str, str] | None = None) -> str:
    """``es`` when the locale (LC_ALL, then LC_MESSAGES, then LANG) is Spanish, else ``en``."""
    env = os.environ if env is None else env
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English: no catalog, the source strings as they are)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def set_language(lang: str | None) -> str:
    """Use ``lang`` (``None``: from the environment) for every later message; returns the language."""
    global _current, _lang
    chosen = language_from_env() if lang is None else lang
    if chosen not in LANGUAGES:
        raise ValueError(f"unknown language {chosen!r} (known: {', '.join(LANGUAGES)})")
    _current = translations(chosen)
    _lang = chosen
    return chosen


def language() -> str:
    return _lang


def _(message: str) -> str:
    """Translate a literal English message (found by the extractor)."""
    return _current.gettext(message)


def translate(message: str) -> str:
    """Translate a message marked elsewhere with ``N_`` (a variable, so the extractor skips it here)."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


set_language(None)
