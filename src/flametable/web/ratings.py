"""Ratings on the server (issue 23; ``docs/server.md``, Ratings): which rooms are rated, the rating of a match once
it ends, and what the profile, the leaderboard, the lobby and the end of a match show of ratings. The numbers are
:mod:`flametable.service.ratings`' (Glicko-2); the tables and the exactly-once update
:mod:`flametable.web.store.ratings`'; the HTTP routes :mod:`flametable.web.routes.players`'.

**A rated match** is played in a room made with ``"rated": true`` and a clock (real time or turn-based, never
untimed: :func:`needs_clock`) by a signed-in creator (its seats: the creator's and one open for a person, no
bot) and joined by another signed-in account asking ``"rated": true`` too; anything else (a guest, a bot, a room
made casual, the creator's own account in the other seat) is never rated. Every match
of such a room (its rematches too: the same two accounts asked) is rated once it ends: a win 1, a draw 0.5, a loss
(a resignation too) 0.

**When.** The room calls :func:`rate_if_rated` once it has stored the end of a match (``web/rooms.py``: its one
hook line at each end, the rules' and a resignation), before it tells the players; the players' pages then ask the
match's rating change (``GET /api/rooms/ID/matches/N/rating``), which rates it there if that had not happened
(the process died in between): the store makes a match rated at most once, whoever asks first. At start-up the
server rates what is left (:func:`rate_pending`).

This module imports neither :mod:`flametable.web.rooms` nor the routes: the rooms import it.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from flametable.core.errors import FlametableError
from flametable.core.i18n import N_
from flametable.service.ratings import Rating, grown
from flametable.web.store import MatchRow, Rated, RatingStore, Store

log = logging.getLogger("flametable.web")


class RatingError(FlametableError):
    """A request about ratings refused: ``code`` names the check, ``status`` the HTTP status; the template says why,
    in the reader's language once translated."""

    def __init__(self, code: str, template: str, /, status: int = 400, **params: Any) -> None:
        self.code = code
        self.status = status
        super().__init__(template, **params)


def needs_account() -> RatingError:
    return RatingError("rated_needs_account", N_("A rated match is played between two signed-in accounts: sign in "
                                                 "(or sign up) first."), status=401)


def rated_seats() -> RatingError:
    return RatingError("rated_seats", N_("A rated room has your seat and one seat left open for another player: no "
                                         "bot, no second seat of yours."))


def needs_clock() -> RatingError:
    """A rated match is played with a clock (issue 24 point 5): real time or turn-based, never untimed."""
    return RatingError("rated_needs_clock", N_("A rated match is played with a clock: choose a time control."))


def rated_room() -> RatingError:
    return RatingError("rated_room", N_("This room is rated: join it signed in and asking for a rated match "
                                        "(\"rated\": true)."), status=409)


def not_rated() -> RatingError:
    return RatingError("not_rated", N_("This room is not rated: join it without asking for a rated match."),
                       status=409)


def own_room() -> RatingError:
    return RatingError("own_rated_room", N_("You made this rated room: its other seat is for another account."),
                       status=409)


async def rate_if_rated(store: Any, match: MatchRow, now: float) -> Rated | None:
    """Rate ``match`` if it is a rated match that just ended (stored as ended: the store reads it so), at most once
    whoever asks; None for a match that is not rated. Never raises: a failure is logged (the match is rated later,
    when its players' pages ask, or at the next start-up) and the end of the match goes on."""
    if not isinstance(store, Store) or match.id is None:  # a store in memory (tests) knows no ratings
        return None
    try:
        return await RatingStore(store).rate(match.id, now)
    except Exception:
        log.exception("room %s: rating match %d failed; it is rated when asked again", match.room_id, match.number)
        return None


async def rated_match(store: Any, room_id: str) -> bool:
    """Whether the room's match is rated (its creator asked, and another account joined asking too); False for a
    store in memory (tests), and, logged, when that cannot be read (issue 24: a casual match's seat may go to a bot,
    a rated one's never)."""
    if not isinstance(store, Store):
        return False
    try:
        rated = await RatingStore(store).rated_room(room_id)
    except Exception:
        log.exception("room %s: reading whether it is rated failed", room_id)
        return True  # the safe answer: no bot takes the seat of a match that may be rated
    return rated is not None and rated.joiner_id is not None


async def rate_pending(store: Any, now: float) -> int:
    """Rate the ended matches of rated rooms that have no rating yet (their rating failed, or the process died
    before it); how many were rated. Never raises (logged)."""
    if not isinstance(store, Store):
        return 0
    done = 0
    try:
        rating = RatingStore(store)
        for match_id in await rating.unrated():
            if (await rating.rate(match_id, now)) is not None:
                done += 1
    except Exception:
        log.exception("rating the matches left unrated failed; they are rated when asked")
    if done:
        log.info("%d rated matches left unrated were rated", done)
    return done


def rating_json(rating: Rating, now: float | None = None) -> dict[str, Any]:
    """A rating as the API shows it: its numbers (the RD grown to ``now`` by the time since its last match, when
    given), whether it is provisional (RD above 110) and how a player reads it (``1500?``)."""
    shown = grown(rating, now) if now is not None else rating
    return {"rating": round(shown.rating, 1), "rd": round(shown.rd, 1), "volatility": round(shown.volatility, 6),
            "display": shown.display, "provisional": shown.provisional}


def change_json(before: Rating, after: Rating) -> dict[str, Any]:
    """A match's rating change: before, after, and the difference (rounded to a tenth; ``delta_display`` rounded
    as ratings are, with its sign: ``+162``, ``-3``, ``0``)."""
    delta = after.rating - before.rating
    whole = math.floor(after.rating + 0.5) - math.floor(before.rating + 0.5)  # as the ratings are shown
    return {"before": rating_json(before), "after": rating_json(after), "delta": round(delta, 1),
            "delta_display": f"{whole:+d}" if whole else "0"}
