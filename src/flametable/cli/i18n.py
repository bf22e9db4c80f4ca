"""The terminal's language: one :class:`~flametable.texts.translator.Translator`, chosen from ``--lang`` or the
locale, for the terminal's own words.

The terminal passes :func:`translator` explicitly to everything it uses from :mod:`flametable.texts` (the
texts a player reads whatever the front end); ``_``, ``ngettext`` and ``translate`` here are its shortcuts
for the terminal's own messages (menus, prompts, help), English literals found by the extractor. The
catalogue is kept up to date with ``python -m flametable.cli.i18n_tools update``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from flametable.core.errors import FlametableError
from flametable.texts import words
from flametable.texts.translator import DOMAIN, LOCALE_DIR, Translator

__all__ = ["DOMAIN", "LOCALE_DIR", "Translator", "_", "error_text", "illegal_text", "language", "language_from_env",
           "ngettext", "reason_text", "set_language", "translate", "translator"]

_terminal: Translator = Translator.for_language("en")


def language_from_env(env: Mapping[str, str] | None = None) -> str:
    """``es`` when the locale (LC_ALL, then LC_MESSAGES, then LANG) is Spanish, else ``en``."""
    env = os.environ if env is None else env
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


def set_language(lang: str | None) -> str:
    """The terminal speaks ``lang`` (``None``: from the environment) from now on; returns the language."""
    global _terminal
    _terminal = Translator.for_language(language_from_env() if lang is None else lang)
    return _terminal.lang


def translator() -> Translator:
    """The terminal's translator (the player at this terminal reads this language)."""
    return _terminal


def language() -> str:
    return _terminal.lang


def _(message: str) -> str:
    """Translate a literal English message (found by the extractor)."""
    return _terminal.gettext(message)


def translate(message: str) -> str:
    """Translate a message marked elsewhere with ``N_`` (a variable, so the extractor skips it here)."""
    return _terminal.translate(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _terminal.ngettext(singular, plural, n)


# ------------------------------------------------------------------ texts in the terminal's language


def error_text(exc: FlametableError) -> str:
    """An illegal action's reason, or a bad data file's or record's error, in the terminal's language."""
    return _terminal.error(exc)


illegal_text = error_text


def explain(exc: BaseException) -> str:
    """Any error shown to a player, in the terminal's language: the project's own errors are translated, others
    (a bad option value from the standard library) are shown as they are."""
    return error_text(exc) if isinstance(exc, FlametableError) else str(exc)


def reason_text(reason: object) -> str:
    return words.reason_text(_terminal, reason)


set_language(None)
