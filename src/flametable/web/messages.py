"""What clients send the server and what it sends them, each client message checked against a declared schema.

A client speaks JSON objects over one WebSocket per room, each with a ``type``:

=========== ==================================================================================================
``hello``   the first message: ``token`` (the seat's secret, or null to watch), ``match`` and ``version`` last
            seen (null: none, send a full sync), ``lang`` (``en`` or ``es``)
``act``     play ``action`` (its notation or integer id) chosen at ``version``
``undo``    take back to your previous decision (only against a bot), chosen at ``version``
``resign``  give up the match
``rematch`` offer a rematch once the match is over, or accept the other player's offer
``log``     ask for the match log in your language
``sync``    ask for a full resync of your view
``lang``    change the language of what the server writes to you
``claim``   real time, the other player away for 60 s: ``take`` ``win`` (the match), or ``bot`` (a casual
            match: a bot takes the empty seat and the match plays on)
=========== ==================================================================================================

The bodies of the HTTP requests that take one are declared here too (:data:`ROOM_REQUEST`, :data:`JOIN_REQUEST`,
:data:`CLOSE_REQUEST`, :data:`OPTIONS_CHECK`, :data:`SEEK_REQUEST`, :data:`MY_MATCHES_REQUEST`; the accounts'
:data:`SIGN_UP_REQUEST`, :data:`SIGN_IN_REQUEST`, :data:`PASSWORD_REQUEST`, :data:`DELETE_REQUEST`,
:data:`SEAT_REQUEST`; the challenges' :data:`CHALLENGE_REQUEST`, :data:`ACCEPT_REQUEST`), and the translation of
versions between the match service and the wire.

The server answers with ``welcome``, ``event``, ``presence``, ``rematch``, ``ended``, ``log`` and ``error``
messages (``docs/server.md``). Everything a player reads in them is already in the connection's language.
Every check raises a :class:`MessageError` (code + translatable template); nothing in a message is trusted before
:func:`read` has passed it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from flametable.core.errors import FlametableError
from flametable.core.i18n import LANGUAGES, N_, Phrase
from flametable.core.limits import LimitError, loads_json
from flametable.core.protocol import Action
from flametable.core.schema import Anything, Bool, Const, Int, List, Nullable, Num, Obj, Schema, Str, validate
from flametable.service.events import Event

MAX_MESSAGE_BYTES = 4096
"""The longest message a client may send (its UTF-8 bytes); longer ones are refused unread."""

MAX_VERSION = 2**53  # a version or match number beyond any match's (and exact in every JSON reader)
_TOKEN = Str(pattern=r"[A-Za-z0-9_-]{16,64}", pattern_problem=N_("is not a seat token"), max_len=64,
             description="the seat's secret token, as the server gave it")
_VERSION = Int(0, MAX_VERSION, "the match version the client saw")
_LANG = Str(choices=LANGUAGES, description="the language of the server's texts for this client")

CLIENT: dict[str, Obj] = {
    "hello": Obj(required={"type": Const("hello")},
                 optional={"token": Nullable(_TOKEN), "match": Nullable(Int(0, MAX_VERSION)),
                           "version": Nullable(_VERSION), "lang": _LANG},
                 title="hello", description="the first message of a connection: who it is and what it has seen"),
    "act": Obj(required={"type": Const("act"),
                         "action": Anything(None, "the action: its notation (text) or its id (a whole number)"),
                         "version": _VERSION},
               title="act", description="play an action chosen at a version of the match"),
    "undo": Obj(required={"type": Const("undo"), "version": _VERSION}, title="undo",
                description="take back to your previous decision (only against a bot)"),
    "resign": Obj(required={"type": Const("resign")}, title="resign", description="give up the match"),
    "rematch": Obj(required={"type": Const("rematch")}, title="rematch",
                   description="offer a rematch once the match is over, or accept the offer"),
    "log": Obj(required={"type": Const("log")}, title="log", description="ask for the match log"),
    "sync": Obj(required={"type": Const("sync")}, title="sync", description="ask for a full resync of your view"),
    "lang": Obj(required={"type": Const("lang"), "lang": _LANG}, title="lang",
                description="change the language of the server's texts"),
    "claim": Obj(required={"type": Const("claim"),
                           "take": Str(choices=("win", "bot"), description="the win, or (a casual match) a bot in "
                                                                            "the seat of the player who left")},
                 title="claim", description="real time: the other player has been away long enough (issue 24)"),
}
"""The schema of each client message, by its ``type``."""

# the bodies of the HTTP requests that take one (``docs/server.md``)
ROOM_REQUEST = Obj(
    required={"game": Str(max_len=100, description="a game of the registry"),
              "seats": List(Str(max_len=100), min=2, max=2,
                            description='each seat: "me", "open" or a bot spec ("bot:hard")')},
    optional={"options": Anything("object", "the game's options (checked by the game)"),
              "rated": Bool("a rated match (issue 23): the creator signed in, the seats \"me\" and \"open\"; "
                            "default false"),
              "clock": Nullable(Anything("object", "the time control (issue 24): {\"kind\": \"fischer\", "
                                                   "\"minutes\": 3, \"increment\": 2}, {\"kind\": \"turn\", "
                                                   "\"days\": 3} or null (untimed)"))},
    title="room request",
)
"""``POST /api/rooms``."""
SEEK_REQUEST = Obj(
    required={"game": Str(max_len=100, description="a game of the registry"),
              "clock": Anything("object", "the pool's real-time control (issue 24): {\"kind\": \"fischer\", "
                                          "\"minutes\": 3, \"increment\": 2}")},
    optional={"rated": Bool("a rated pool (signed in); default false: casual")},
    title="seek request",
)
"""``POST /api/seeks``: wait in a pool for quick pairing (issue 24)."""
JOIN_REQUEST = Obj(optional={"player": Int(0, 1, "the seat wanted (default: the first open one)"),
                             "rated": Bool("the joiner asks for the rated match of a rated room (signed in, another "
                                           "account than its creator's); default false"),
                             "brings": Nullable(Anything("object", "what the joiner brings of their own, in a game "
                                                                   "whose options take it (Flame Duel's own decks: "
                                                                   "{\"characters\": [...], \"supports\": [...]}, "
                                                                   "checked as the creator's); null or left out: "
                                                                   "the game's random one"))},
                   title="join request")
"""``POST /api/rooms/ID/join``."""
CLOSE_REQUEST = Obj(required={"token": _TOKEN}, title="close request")
"""``POST /api/rooms/ID/close``: the seat token of a player seated in the room."""
OPTIONS_CHECK = Obj(required={"options": Anything("object", "the game's options (checked by the game)")},
                    title="options check")
"""``POST /api/games/NAME/options/check``."""

# accounts (issue 23: ``docs/server.md``, Accounts); a user name's and a password's own rules are
# ``flametable.web.accounts``'s, told in its words (these bound what is read)
_NAME = Str(max_len=64, description="the user name: 3 to 20 letters, digits, '_' or '-' (compared after NFKC, "
                                    "case-insensitively)")
_PASSWORD = Str(blank=True, max_len=256, description="a password: 8 to 256 characters, not one of the most common")
_SEATS = List(Obj(required={"room": Str(max_len=64, description="a room's id"), "token": _TOKEN},
                  title="seat", description="a seat token this tab holds, and its room"),
              max=50, description="the seat tokens the tab holds (at most 50): their seats then belong to the account")
SIGN_UP_REQUEST = Obj(required={"name": _NAME, "password": _PASSWORD}, optional={"seats": _SEATS},
                      title="sign-up request")
"""``POST /api/account``: a new account (and the tab's seats given to it)."""
SIGN_IN_REQUEST = Obj(required={"name": _NAME, "password": _PASSWORD}, optional={"seats": _SEATS},
                      title="sign-in request")
"""``POST /api/session``: sign in (and the tab's seats given to the account)."""
PASSWORD_REQUEST = Obj(required={"password": _PASSWORD, "new_password": _PASSWORD}, title="password change")
"""``POST /api/account/password``: the current password and the new one."""
DELETE_REQUEST = Obj(required={"password": _PASSWORD}, title="account deletion")
"""``DELETE /api/account``: the account's password, to confirm."""
MY_MATCHES_REQUEST = Obj(
    required={"seats": List(_SEATS.of, max=50, description="the seat tokens this browser holds (at most 50), each with "
                                                           "its room: a token proves its own seat only")},
    title="my matches request")
"""``POST /api/my-matches`` (issue 25): the browser's seats, whose live matches are listed."""
SEAT_REQUEST = Obj(optional={"player": Int(0, 1, "the room's player whose seat is wanted (default: the account's "
                                                 "first seat in the room)")},
                   title="seat request")
"""``POST /api/rooms/ID/seat``: a fresh token for the account's seat in the room."""
CHALLENGE_REQUEST = Obj(
    required={"to": Str(max_len=64, description="the challenged player's user name"),
              "game": Str(max_len=100, description="a game of the registry")},
    optional={"options": Anything("object", "the game's options (checked by the game; the challenger's own deck "
                                            "among them, kept from the challenged)"),
              "clock": Nullable(Anything("object", "the time control, as a room's (null: untimed)")),
              "rated": Bool("a rated match (both players are signed in); default false")},
    title="challenge request",
)
"""``POST /api/challenges`` (issue 24): a signed-in player challenges another account."""
ACCEPT_REQUEST = Obj(optional={"brings": Nullable(Anything("object", "what the accepter brings of their own, as a "
                                                                     "joiner does (Flame Duel's own deck); null or "
                                                                     "left out: the game's random one"))},
                     title="challenge acceptance")
"""``POST /api/challenges/ID/accept``."""

# ratings (issue 23: ``docs/server.md``, Ratings): what the routes of ratings answer, declared as the requests are
_GAME = Str(max_len=100, description="a game of the registry")
_PLAYER = Str(max_len=64, description="a user name, as shown")
_RATING = Obj(required={"rating": Num(description="the Glicko-2 rating, to a tenth"),
                        "rd": Num(0, 350, "the rating deviation (RD), to a tenth, grown by the time since the last "
                                          "rated match where said"),
                        "volatility": Num(0, description="the rating's volatility"),
                        "display": Str(max_len=20, description="the rating as players read it: rounded, '?' after it "
                                                               "while provisional ('1662?')"),
                        "provisional": Bool("the RD is above 110")},
              title="rating")
_CHANGE: dict[str, Schema] = {
    "before": _RATING, "after": _RATING, "delta": Num(description="the rating after minus before, to a tenth"),
    "delta_display": Str(max_len=20, description="the change as players read it ('+162', '-3', '0')")}
RATING_CHANGE_ANSWER = Obj(
    required={"room": Str(max_len=64, description="the room's id"), "match": Int(0, MAX_VERSION, "the match's number"),
              "status": Str(choices=("playing", "ended", "unplayed"), description="the match is being played, ended "
                                                                                  "(by the rules or a resignation), "
                                                                                  "or was closed unplayed"),
              "rated": Bool("the match is rated (both accounts asked for it)"),
              "players": List(Obj(required={"seat": Int(0, 1, "the seat in the match"),
                                            "name": Nullable(_PLAYER, "null: a deleted account"), **_CHANGE},
                                  title="seat's change"),
                              max=2, description="each seat's change once a rated match ended (else none)")},
    title="rating change")
"""``GET /api/rooms/ID/matches/N/rating``."""
_OPPONENT = Obj(required={"kind": Str(choices=("account", "deleted", "guest", "bot"),
                                      description="another account, a deleted one, a guest or a bot")},
                optional={"name": _PLAYER, "profile": Str(max_len=200, description="the account's profile page"),
                          "bot": Str(max_len=100, description="the bot's spec ('bot:easy')")},
                title="opponent")
PROFILE_ANSWER = Obj(
    required={
        "name": _PLAYER, "created_at": Num(0, description="when the account was made (seconds since 1970)"),
        "games": List(Obj(required={
            "game": _GAME, "title": Str(max_len=200, description="the game's title in the reader's language"),
            "rating": Nullable(_RATING, "null: never rated in this game"),
            "rated_matches": Int(0, None, "the rated matches played"),
            "place": Nullable(Int(1, None, "the place on the game's leaderboard"), "null: provisional or unrated"),
            "leaderboard": Str(max_len=200, description="the game's leaderboard page"),
            "wins": Int(0), "losses": Int(0), "draws": Int(0),
            "history": List(Obj(required={"at": Num(0, description="when (seconds since 1970)"),
                                          "rating": Num(), "rd": Num(0, 350)},
                                optional={"start": Bool("the rating before the first rated match")},
                                title="point"),
                            description="the rating before the first rated match, then after each, the oldest "
                                        "first")},
            title="game"), description="each game the player finished a match of, in the registry's order"),
        "recent": List(Obj(required={
            "room": Str(max_len=64), "match": Int(0, MAX_VERSION), "game": _GAME, "title": Str(max_len=200),
            "at": Num(0, description="when it was rated, else when its room was made (seconds since 1970)"),
            "opponent": _OPPONENT, "result": Str(choices=("win", "loss", "draw")),
            "reason": Nullable(Str(max_len=100, description="why it ended (the game's reason, or 'resigned')")),
            "rated": Bool(), "change": Nullable(Obj(required=dict(_CHANGE), title="change")),
            "replay": Str(max_len=300, description="the match's page in the replay viewer")},
            title="match"), max=20, description="the latest finished matches, the newest first"),
        "turn_timeouts": Int(0, None, "the turn-based matches the player lost on time (issue 24)")},
    title="profile")
"""``GET /api/players/NAME``."""
LEADERBOARD_ANSWER = Obj(
    required={
        "game": _GAME, "title": Str(max_len=200), "page": Int(1, 100), "pages": Int(1, 100),
        "per_page": Int(1, 100), "total": Int(0, 100, "the ratings listed (at most the best 100)"),
        "ranked": Int(0, None, "every settled rating of the game"),
        "rows": List(Obj(required={"place": Int(1, 100), "name": _PLAYER, "profile": Str(max_len=200),
                                   **_RATING.required}, title="place"), max=20),
        "me": Nullable(Obj(required={"name": _PLAYER,
                                     "place": Nullable(Int(1, None), "null: provisional or unrated"),
                                     "listed": Bool("the place is among the best 100"),
                                     "rating": Nullable(_RATING, "null: never rated in this game")},
                           title="reader"), "null: a guest")},
    title="leaderboard")
"""``GET /api/leaderboard/GAME?page=N``."""

_ACTION_ID = Int(0, MAX_VERSION)
_NOTATION = Str(max_len=200)


class MessageError(FlametableError):
    """A message the server refuses: ``code`` says which check (``bad_json``, ``too_big``, ``unknown_type``,
    ``bad_message``...), the template says what was wrong, in the reader's language once translated."""

    def __init__(self, code: str, template: str, /, **params: Any) -> None:
        self.code = code
        super().__init__(template, **params)


MESSAGE = Phrase(N_("message"))


def _bad(source: str, entry: Any, fieldname: Any, problem: str, /, **params: Any) -> FlametableError:
    """A schema problem as a :class:`MessageError` naming the field (the error factory of ``validate``)."""
    return MessageError("bad_message", N_("The message's {field}: {problem}"), field=fieldname,
                        problem=FlametableError(problem, **params))


def request_error(source: str, entry: Any, fieldname: Any, problem: str, /, **params: Any) -> FlametableError:
    """A schema problem of an HTTP request body, naming the field."""
    return MessageError("bad_request", N_("The request's {field}: {problem}"), field=fieldname,
                        problem=FlametableError(problem, **params))


def read(text: str | bytes) -> dict[str, Any]:
    """The client message of ``text``, checked; else :class:`MessageError` saying what is wrong."""
    size = len(text.encode("utf-8", "surrogatepass")) if isinstance(text, str) else len(text)
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_big", N_("A message may hold at most {limit} bytes; this one holds {size}."),
                           limit=MAX_MESSAGE_BYTES, size=size)
    try:
        data = loads_json(text.decode("utf-8") if isinstance(text, bytes) else text)
    except LimitError as exc:
        raise MessageError("bad_json", N_("The message is not valid JSON: {problem}"), problem=exc) from None
    except UnicodeDecodeError as exc:
        raise MessageError("bad_json", N_("The message is not UTF-8 text (byte {position})."),
                           position=exc.start + 1) from None
    except json.JSONDecodeError as exc:
        raise MessageError("bad_json", N_("The message is not valid JSON (column {column})."),
                           column=exc.colno) from None
    if not isinstance(data, Mapping):
        raise MessageError("bad_message", N_("A message is a JSON object with a \"type\"."))
    kind = data.get("type")
    schema = CLIENT.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MessageError("unknown_type", N_("Unknown message type {type!r}: send one of {types}."),
                           type=kind if isinstance(kind, str) and len(kind) <= 40 else str(kind)[:40],
                           types=", ".join(CLIENT))
    validate(data, schema, "message", MESSAGE, error=_bad, json=True)
    if kind == "act":
        action = data["action"]
        validate(action, _ACTION_ID if type(action) is int else _NOTATION, "message", MESSAGE,
                 error=_bad_action, json=True)
    return dict(data)


def _bad_action(source: str, entry: Any, fieldname: Any, problem: str, /, **params: Any) -> FlametableError:
    return _bad(source, entry, "action", problem, **params)


# ------------------------------------------------------------------ versions on the wire
# A client sees a match's version as ``base + version``: ``version`` the match service's (its count of actions),
# ``base`` the match's (raised by each undo past every version the match had, so that a client never takes a new
# state for one it saw). These three functions are the only places the two meet.


def wire_version(base: int, version: int) -> int:
    """The version a client is told of the match service's ``version``."""
    return base + version


def service_version(base: int, wire: int) -> int:
    """The match service's version of a client's ``wire`` version; -1 (a version no match has: stale) for one
    of before the last undo."""
    return wire - base if wire >= base else -1


def base_after_undo(wire: int, keep: int) -> int:
    """The base once the match, at ``wire``, is taken back to its first ``keep`` actions: the version clients see
    next is ``wire + 1``."""
    return wire + 1 - keep


# ------------------------------------------------------------------ what the server sends


def event_message(event: Event, base: int, match: int, legal: Iterable[Action], can_undo: bool) -> dict[str, Any]:
    """An event message: the event JSON of the audience at the wire version, ``legal`` in notation (the seat to
    act's legal actions, what a client without the game's table offers as buttons), ``can_undo``."""
    data = event.to_json()
    data["version"] = wire_version(base, data["version"])
    return {"type": "event", "match": match, "event": data, "legal": [a.text() for a in legal], "can_undo": can_undo}



def error(code: str, text: str, detail: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An error event: ``code`` names the check that refused (stable, for programs), ``message`` says it in the
    connection's language, ``detail`` (optional) gives a rejection's data (``Rejected.to_json``)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": text}
    if detail is not None:
        out["detail"] = dict(detail)
    return out


def dumps(message: Mapping[str, Any]) -> str:
    """A server message as compact JSON text (UTF-8 as it is)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))
