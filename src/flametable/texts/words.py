"""Words every game's texts use: an outcome's reason and an error, in a player's language. (Each game's own
words, such as Flame Duel's stats, are in its folder's ``texts.py``.)"""

from __future__ import annotations

from flametable.core.errors import FlametableError
from flametable.core.outcome import Reason
from flametable.texts.translator import Translator


def reason_text(tr: Translator, reason: object) -> str:
    """The reason of an outcome: a :class:`~flametable.core.outcome.Reason` in ``tr``'s language, any other as
    its value."""
    return tr.translate(reason.text) if isinstance(reason, Reason) else str(reason)


def error_text(tr: Translator, exc: FlametableError) -> str:
    """An engine's reason (an illegal action) or a bad file's or record's error, its phrase parameters
    translated too."""
    return tr.error(exc)
