"""The project's exceptions. Every message names what was wrong.

A message is an English template (marked with ``N_`` where it is raised) and the parameters that fill it,
so that a front end shows it in its player's language with ``exc.translated(translate)`` (or
``Translator.error(exc)``); ``str(exc)`` is the English text. Parameters are names and values as they are
(file names, entries, fields, notation); a parameter that is itself a phrase is a
:class:`~flametable.core.i18n.Phrase`, translated before it is filled in, and one that is an error (the cause)
is translated the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flametable.core.i18n import Phrase


def _fill(template: str, params: Mapping[str, Any], translate: Callable[[str], str]) -> str:
    text = translate(template)
    if not params:
        return text
    return text.format(**{k: _param(v, translate) for k, v in params.items()})


def _param(value: Any, translate: Callable[[str], str]) -> Any:
    if isinstance(value, Phrase):
        return translate(value)
    if isinstance(value, FlametableError):  # the cause of this error, in the same language
        return value.translated(translate)
    return value


def _same(message: str) -> str:
    return message


class FlametableError(Exception):
    """Base class of every error the project raises on purpose: a message template and its parameters."""

    def __init__(self, template: str = "", /, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.translated(_same))

    def translated(self, translate: Callable[[str], str]) -> str:
        """The message in the language of ``translate`` (a ``str -> str`` translator of N_-marked messages)."""
        return _fill(self.template, self.params, translate)


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

    def translated(self, translate: Callable[[str], str]) -> str:
        entry, field = (_param(x, translate) for x in (self.entry, self.field))
        return f"{self.source}: {entry}: {field}: {_fill(self.problem, self.params, translate)}"


class RecordError(FlametableError):
    """A match record that cannot be read or does not fit the game (a template and its parameters)."""
