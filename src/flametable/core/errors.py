"""The project's exceptions. Every message names what was wrong.

A message is an English template (marked with ``N_`` where it is raised, or ``N_plural`` when a number in it
picks a plural form) and the parameters that fill it, so that a front end shows it in its player's language with
``exc.translated(translate)`` (or ``Translator.error(exc)``); ``str(exc)`` is the English text. Parameters are
names and values as they are (file names, entries, fields, notation); a parameter that is itself a phrase is a
:class:`~flametable.core.i18n.Phrase`, translated before it is filled in, and one that is an error (the cause)
is translated the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flametable.core.i18n import Phrase, Plural

Translate = Callable[[str], str]
"""A translator of ``N_``-marked messages (``tr.translate``)."""
Ngettext = Callable[[str, str, int], str]
"""A translator of messages with plural forms: ``(singular, plural, n) -> the form for n`` (``tr.ngettext``)."""


def plurals_of(translate: Translate) -> Ngettext:
    """The ``ngettext`` that goes with ``translate``: its translator's when ``translate`` is a translator's method
    (``tr.translate``, ``tr.gettext``), else English's rule (one: the singular) applied with ``translate``."""
    ngettext = getattr(getattr(translate, "__self__", None), "ngettext", None)
    if callable(ngettext):
        return ngettext  # type: ignore[no-any-return]

    def english(singular: str, plural: str, n: int) -> str:
        return translate(singular if n == 1 else plural)

    return english


def _fill(template: str, params: Mapping[str, Any], translate: Translate, ngettext: Ngettext) -> str:
    if isinstance(template, Plural):
        text = ngettext(template, template.plural, params[template.by])
    else:
        text = translate(template)
    if not params:
        return text
    return text.format(**{k: _param(v, translate, ngettext) for k, v in params.items()})


def _param(value: Any, translate: Translate, ngettext: Ngettext) -> Any:
    if isinstance(value, Phrase):
        return translate(value)
    if isinstance(value, FlametableError):  # the cause of this error, in the same language
        return value.translated(translate, ngettext)
    return value


def _same(message: str) -> str:
    return message


class FlametableError(Exception):
    """Base class of every error the project raises on purpose: a message template and its parameters."""

    def __init__(self, template: str = "", /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.translated(_same))

    def translated(self, translate: Translate, ngettext: Ngettext | None = None) -> str:
        """The message in the language of ``translate`` (a ``str -> str`` translator of N_-marked messages) and
        ``ngettext`` (its plural forms; by default :func:`plurals_of` ``translate``)."""
        return _fill(self.template, self.params, translate, ngettext or plurals_of(translate))


class IllegalAction(FlametableError):
    """An action that the rules do not allow in this state.

    ``reason`` is an English message template (marked for translation) and ``params`` fill it,
    so an interface can show ``_(reason).format(**params)`` in the player's language.
    """

    def __init__(self, reason: str, /, **params: Any) -> None:
        self.reason = reason
        super().__init__(reason, **params)


class DataError(FlametableError):
    """A bad data file (card set, deck, board data): names the file, the entry and the field.

    ``problem`` is an English template filled by ``params``; ``entry`` and ``field`` are names from the file as
    they are, or a :class:`~flametable.core.i18n.Phrase` when they name no entry of it (``file``, ``syntax``).
    """

    def __init__(self, source: str, entry: str, field: str, problem: str, /, **params: Any) -> None:
        self.source = source
        self.entry = entry
        self.field = field
        self.problem = problem
        super().__init__(problem, **params)

    def translated(self, translate: Translate, ngettext: Ngettext | None = None) -> str:
        ngettext = ngettext or plurals_of(translate)
        entry, field = (_param(x, translate, ngettext) for x in (self.entry, self.field))
        return f"{self.source}: {entry}: {field}: {_fill(self.problem, self.params, translate, ngettext)}"


class FileError(DataError):
    """A data file that cannot be read or parsed at all (there is no such file, it is no UTF-8 text, it is no valid
    TOML): its message is one sentence that names the file (``problem`` has a ``{file}`` parameter), not a chain
    of labels; ``entry`` and ``field`` still say which problem it is (``file`` and ``path``, ``encoding`` or
    ``syntax``)."""

    def translated(self, translate: Translate, ngettext: Ngettext | None = None) -> str:
        return _fill(self.problem, self.params, translate, ngettext or plurals_of(translate))


class RecordError(FlametableError):
    """A match record that cannot be read or does not fit the game (a template and its parameters)."""
