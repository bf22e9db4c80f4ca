"""Why the match service refused an action: one exception per check, each a message template with parameters.

Every rejection is an :class:`~flametable.core.errors.IllegalAction` (so ``reason`` is an English template
marked for translation, ``params`` fill it and ``translated(gettext)`` gives it in a player's language) with a
``kind`` naming the check that refused it. A rejected submission changes nothing: not the state, the version,
the record nor the events.

The checks run in this order, the first that fails decides:

=================  ==============================================================================
``over``           :class:`MatchOver`: the match has ended
``not_your_turn``  :class:`NotYourTurn`: the seat that sent the action is not the one to act
``stale``          :class:`StaleVersion`: the action was chosen at another version of the match
``unreadable``     :class:`Unreadable`: the notation, the id or the object names no action of the game
``illegal``        :class:`Illegal`: the rules do not allow the action now (the engine's own reason)
=================  ==============================================================================
"""

from __future__ import annotations

from typing import Any, ClassVar

from flametable.core.errors import IllegalAction
from flametable.core.i18n import Phrase


class Rejected(IllegalAction):
    """An action the match service refused; nothing changed."""

    kind: ClassVar[str] = "rejected"

    def to_json(self) -> dict[str, Any]:
        """The rejection as data for a front end: its kind, the English template, the parameters (ids, numbers
        and notation) and which of them are themselves phrases to translate before they fill the template."""
        return {
            "rejected": self.kind,
            "reason": self.reason,
            "params": {k: _data(v) for k, v in self.params.items()},
            "phrases": sorted(k for k, v in self.params.items() if isinstance(v, Phrase)),
        }


class MatchOver(Rejected):
    kind = "over"


class NotYourTurn(Rejected):
    kind = "not_your_turn"


class StaleVersion(Rejected):
    kind = "stale"


class Unreadable(Rejected):
    kind = "unreadable"


class Illegal(Rejected):
    kind = "illegal"


REJECTIONS: tuple[type[Rejected], ...] = (MatchOver, NotYourTurn, StaleVersion, Unreadable, Illegal)
"""Every kind of rejection, in the order the checks run."""


def _data(value: Any) -> Any:
    """A parameter as JSON data: numbers, text and ``None`` as they are, anything else as its text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
