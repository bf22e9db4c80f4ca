"""Translation markers usable by the engines without any I/O.

Engines never translate: they mark the English source text with :func:`N_` (:func:`N_plural` for a message
with a number, which has plural forms) so that the extractor finds it, and the interfaces translate it with the
player's language.
"""

from __future__ import annotations

from collections.abc import Mapping

LANGUAGES: tuple[str, ...] = ("en", "es")
"""Every language a player can choose; English is the source language."""


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it."""
    return message


class Plural(str):
    """A message with plural forms, marked with :func:`N_plural`: the English singular (the string itself), the
    English ``plural``, and ``by``, the name of the parameter whose number picks the form (by ``ngettext``, with
    the rule of the reader's language)."""

    plural: str
    by: str

    def __new__(cls, singular: str, plural: str, by: str) -> Plural:
        message = super().__new__(cls, singular)
        message.plural = plural
        message.by = by
        return message

    def __reduce__(self) -> tuple[type[Plural], tuple[str, str, str]]:
        return Plural, (str(self), self.plural, self.by)


def N_plural(singular: str, plural: str, by: str) -> Plural:
    """Mark a message with a number for translation, with its singular and plural forms: the parameter ``by`` of
    the message (``"n"`` for ``the record names {n} players``) picks the form."""
    return Plural(singular, plural, by)


class Phrase(str):
    """A message parameter that is itself a translatable phrase (translated before it is filled in)."""

    __slots__ = ()


def pick(text: Mapping[str, str], lang: str) -> str:
    """The text of a bilingual mapping in ``lang`` (falling back to English)."""
    return text.get(lang) or text["en"]
