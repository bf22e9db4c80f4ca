"""The project's exceptions. Every message names what was wrong."""

from __future__ import annotations

from typing import Any


class FlametableError(Exception):
    """Base class of every error the project raises on purpose."""


class IllegalAction(FlametableError):
    """An action that the rules do not allow in this state.

    ``reason`` is an English message template (marked for translation) and ``params`` fill it,
    so an interface can show ``_(reason).format(**params)`` in the player's language.
    """

    def __init__(self, reason: str, **params: Any) -> None:
        self.reason = reason
        self.params = params
        super().__init__(reason.format(**params) if params else reason)

    def translated(self, gettext: Any) -> str:
        """The message in the language of ``gettext`` (a ``str -> str`` translator)."""
        from flametable.core.i18n import Phrase

        text: str = gettext(self.reason)
        if not self.params:
            return text
        params = {k: gettext(v) if isinstance(v, Phrase) else v for k, v in self.params.items()}
        return text.format(**params)


class DataError(FlametableError):
    """A bad data file (card set, deck, board data): names the file, the entry and the field."""

    def __init__(self, source: str, entry: str, field: str, problem: str) -> None:
        self.source = source
        self.entry = entry
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: {entry}: {field}: {problem}")


class RecordError(FlametableError):
    """A match record that cannot be read or does not fit the game."""
