"""The match service: the seam between the engines and every front end (terminal, lab, server).

See ``docs/service.md``: :class:`MatchService` accepts actions from whichever seat sends them and returns the
:class:`Event` each audience may see; :func:`run` drives a match whose seats are all deciders in this process;
:mod:`flametable.service.thinking` lets bots decide off the caller's thread.
"""

from __future__ import annotations

from flametable.core.match import new_record
from flametable.service.driver import Decider, play, run
from flametable.service.errors import (
    REJECTIONS,
    Illegal,
    MatchOver,
    NotYourTurn,
    Rejected,
    StaleVersion,
    Unreadable,
)
from flametable.service.events import EVENT_FORMAT, Applied, Audience, Event, EventError, view_json
from flametable.service.match import MatchService, PublicActions, Turn, is_public
from flametable.service.thinking import bot_turn, decide_later

__all__ = [
    "EVENT_FORMAT",
    "REJECTIONS",
    "Applied",
    "Audience",
    "Decider",
    "Event",
    "EventError",
    "Illegal",
    "MatchOver",
    "MatchService",
    "NotYourTurn",
    "PublicActions",
    "Rejected",
    "StaleVersion",
    "Turn",
    "Unreadable",
    "bot_turn",
    "decide_later",
    "is_public",
    "new_record",
    "play",
    "run",
    "view_json",
]
