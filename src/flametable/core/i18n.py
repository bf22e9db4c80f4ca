"""Translation markers usable by the engines without any I/O.

Engines never translate: they mark the English source text with :func:`N_` so that the
extractor finds it, and the interfaces translate it with the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES: tuple[str, ...] = ("en", "es")
"""Every language a player can choose; English is the source language."""


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it."""
    return message


class Phrase(str):
    """A message parameter that is itself a translatable phrase (translated before it is filled in)."""

    __slots__ = ()


def pick(text: Mapping[str, str], lang: str) -> str:
    """The text of a bilingual mapping in ``lang`` (falling back to English)."""
    return text.get(lang) or text["en"]
