"""The leak check of the game server (issue 11): seeded matches played through the server by client-side bots,
every message each seat and a spectator received captured, then checked against the engine's own view of that
audience at that version.

:func:`play` runs one match in a room of two open seats (``POST /api/rooms`` with ``["me", "open"]``, then
``join``) through Starlette's ``TestClient``: seat 0, seat 1 and one spectator connect by WebSocket, and each
seat's client decides from the view it was sent (rebuilt with the game's view class, a seeded bot choosing among
the view's ``legal`` actions). Along the way the seats and the spectator send wrong messages (an act out of turn,
at a stale version, an illegal one naming a hidden card, garbage, ``undo``, ``rematch``, ``log``, ``sync``) and
the lobby and room routes are read; every answer is captured too, with the version the match was at.

:func:`check` downloads nothing: it replays the record the server released at the end (``GET .../record``) with
the engine and returns a :class:`Leak` for every captured message that says more than its audience may know:

* ``event``: its ``view`` is exactly ``view_json(state_at_version.view(audience))``; ``actor``, ``to_act`` and
  ``result`` are the engine's; ``action`` is null unless the audience acted or the game declares it public;
* before the ``ended`` message no frame holds the seed (in decimal), nor another seat's token (a spectator's and
  the HTTP routes' none at all), and the record route refuses with 409;
* ``log``: exactly the game's log (:mod:`flametable.texts.log`) made from the audience's own engine views at that
  version and the actions it may know, in English or Spanish;
* every other frame (errors, logs, welcome, presence, rematch, the HTTP answers) names no card its audience has
  not seen (the opponent's hand and unflipped characters, the draw piles; in Duals the hands and the deck) beyond
  what the audience itself sent; two illegal actions naming two different hidden cards get the same answer.

A leak names its audience, the frame's position and the frame's exact text. ``python -m benchmarks.server_leaks``
runs 1,000 matches per game; ``tests/web/test_leaks.py`` a slice.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from flametable.bots.registry import make_bot
from flametable.core import registry
from flametable.core.i18n import LANGUAGES
from flametable.core.record import MatchRecord, start
from flametable.core.rng import Rng
from flametable.games.duals.view import DualsView
from flametable.games.duel.view import DuelView
from flametable.service import is_public, view_json
from flametable.texts.log import LogStep, match_log
from flametable.texts.translator import Translator
from flametable.web.app import Settings, create_app
from flametable.web.rooms import Limits
from tests.web.memory_store import MemoryStore

SPECTATOR = "spectator"
HTTP = "http"
Audience = int | str  # 0, 1, SPECTATOR or HTTP (the lobby and room routes, which anyone may read)

UNLIMITED = Limits(actions_per_second=1e9, burst=10**9, expensive_per_second=1e9, expensive_burst=10**9,
                   bodies_per_second=1e9, bodies_burst=10**9, replays_per_second=1e9, replays_burst=10**9)
"""No rate limit: the client bots answer at once, far faster than a person."""

CARD_NAME = re.compile(r"(?<![\w-])[SCK][0-9]{1,3}(?![\w-])")
"""A card's name in notation and in the engines' messages: ``S7`` and ``C12`` (Flame Duel), ``K12`` (Duals); not
the same letters inside a room id or a seat token (``lCrPCw_-wTI_S7b2``: URL-safe base64, letters, digits, ``_``
and ``-``)."""


def match_seed(game: str, index: int, base: int = 0) -> int:
    """The seed of match ``index``: long (19 or 20 digits) so that finding it in a message is never chance."""
    digest = hashlib.sha256(f"flametable-leak:{game}:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") | (1 << 62)


class Seeds:
    """The server's seeds (``Settings.seeds``): each room takes the one the harness queued for it."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def push(self, seed: int) -> None:
        self.queue.append(seed)

    def __call__(self) -> int:
        if not self.queue:
            raise RuntimeError("the leak harness queued no seed for this room")
        return self.queue.pop(0)


@contextmanager
def server() -> Iterator[tuple[TestClient, Seeds]]:
    """A game server on an in-memory store, bots in threads, no rate limit, seeds from the harness."""
    seeds = Seeds()
    app = create_app(Settings("memory", bots="thread", open_store=MemoryStore.open, seeds=seeds, limits=UNLIMITED))
    with TestClient(app) as client:
        yield client, seeds


# ------------------------------------------------------------------ what each game hides


def _s(cards: Any) -> set[str]:
    return {f"S{c}" for c in cards if c}


def _c(cards: Any) -> set[str]:
    return {f"C{c}" for c in cards if c}


def _k(cards: Any) -> set[str]:
    return {f"K{c}" for c in cards}


@dataclass(frozen=True)
class GameKit:
    """What the harness needs to know of one game: its view class, its hidden cards, its illegal probes."""

    name: str
    view_from_json: Callable[[Any], Any]
    hidden: Callable[[Any, Any, int | None], set[str]]  # (state, the audience's view JSON, audience) -> names
    probe: tuple[str, str]  # an action naming a card ({} the card's name), and the letter of such cards


def _duel_hidden(state: Any, view: Mapping[str, Any], audience: int | None) -> set[str]:
    """The cards ``audience`` may not know where they are: the other hands (beyond the cards taken back in view of
    all), the draw piles (beyond the top cards it looked at and, in own decks, its own pile's contents), the other
    seat's characters it was not shown."""
    seen_s = _s(view["hand"]) | _s(view["known_top"]) | _s(view["my_pile"]) | _s([view["place"]])
    seen_s |= _s(e["card"] for e in view["events"])
    seen_c = _c(view["lineup"]) | _c(view["my_characters"]) | _c([view["champion"]]) | _c(view["draft_pool"])
    for info in view["seats"]:
        seen_s |= _s(info["revealed"]) | _s(info["discard"]) | _s(info["items"])
        seen_c |= _c(info["flipped"]) | _c(info["known_characters"]) | _c([info["character"]])
    for result in view["results"]:
        seen_c |= _c(result["characters"])
    others = [p for p in (0, 1) if p != audience]
    secret_s = set().union(*(_s(state.hands[p]) for p in others), *(_s(pile) for pile in state.piles))
    secret_c = set().union(*(_c(state.characters[p]) | _c([state.champion[p]]) for p in others))
    return (secret_s - seen_s) | (secret_c - seen_c)


def _duals_hidden(state: Any, view: Mapping[str, Any], audience: int | None) -> set[str]:
    """The cards ``audience`` may not know where they are: the other hands and the shop deck (beyond the cards
    it put at the bottom itself)."""
    seen = _k(view["hand"]) | _k(card for card, _pos in view["bottom_known"])
    for info in view["seats"]:
        seen |= _k(info["pile"])
    others = [p for p in (0, 1) if p != audience]
    secret = set().union(*(_k(state.hands[p]) for p in others), _k(state.deck))
    return secret - seen


KITS: dict[str, GameKit] = {
    "duel": GameKit("duel", DuelView.from_json, _duel_hidden, ("play {}", "S")),
    "duals": GameKit("duals", DualsView.from_json, _duals_hidden, ("score {}", "K")),
}


# ------------------------------------------------------------------ a match, captured


@dataclass
class Frame:
    """One message an audience received: its text, the match version when it came, what the audience had just
    sent (its card names are its own to repeat), and the probe it answers (two probes: two hidden cards)."""

    audience: Audience
    index: int
    text: str
    version: int
    sent: str = ""
    probe: tuple[int, str] | None = None  # (probe pair number, the hidden card named)
    http: bool = False  # an HTTP answer (``METHOD path -> status body``), not a WebSocket frame
    after_end: bool = False  # received once every connection had the ``ended`` message


@dataclass
class Capture:
    game: str
    options: dict[str, Any]
    seed: int
    room: str = ""
    tokens: dict[int, str] = field(default_factory=dict)
    frames: list[Frame] = field(default_factory=list)
    record: str = ""  # the released record's text
    released: bool = False

    def add(self, audience: Audience, text: str, version: int, sent: str = "",
            probe: tuple[int, str] | None = None, http: bool = False) -> Frame:
        frame = Frame(audience, len(self.frames), text, version, sent, probe, http, self.released)
        self.frames.append(frame)
        return frame


@dataclass(frozen=True)
class Leak:
    """A captured frame that says more than its audience may know: which rule, and the frame itself."""

    game: str
    seed: int
    audience: Audience
    index: int
    rule: str
    text: str

    def __str__(self) -> str:
        return (f"{self.game} seed {self.seed}: frame {self.index} to {self.audience!r} breaks '{self.rule}': "
                f"{self.text}")


class ProtocolError(AssertionError):
    """The server did not answer as the harness expects (a harness or server bug, not a leak)."""


class _Client:
    """One WebSocket of the match: every frame it receives goes into the capture."""

    def __init__(self, capture: Capture, audience: Audience, ws: WebSocketTestSession, clock: Callable[[], int]):
        self.capture = capture
        self.audience = audience
        self.ws = ws
        self.clock = clock

    def send(self, message: Mapping[str, Any] | str) -> str:
        text = message if isinstance(message, str) else json.dumps(message)
        self.ws.send_text(text)
        return text

    def until(self, kind: str, sent: str = "", probe: tuple[int, str] | None = None, limit: int = 8) -> dict[str, Any]:
        """Read frames up to the first of type ``kind`` (capturing all): that one."""
        for _ in range(limit):
            text = self.ws.receive_text()
            self.capture.add(self.audience, text, self.clock(), sent, probe)
            data = json.loads(text)
            if data.get("type") == kind:
                return dict(data)
        raise ProtocolError(f"{self.audience!r} received no {kind!r} message in {limit} frames")

    def ask(self, message: Mapping[str, Any] | str, kind: str, probe: tuple[int, str] | None = None) -> dict[str, Any]:
        sent = self.send(message)
        return self.until(kind, sent, probe)


def play(client: TestClient, seeds: Seeds, game: str, seed: int, options: Mapping[str, Any] | None = None,
         bots: Sequence[str] = ("bot:random", "bot:random"), wrong: float = 0.1,
         seed_of: Callable[[str], int] | None = None) -> Capture:
    """One match through the server, captured: client-side bots at both seats, a spectator watching, wrong
    messages sent with probability ``wrong`` at each decision (and each kind at least once, early on). A server
    that does not take its seeds from ``seeds`` (a real ``flametable serve``): ``seed_of(room)`` reads the seed it
    chose (from its database), once the room is made."""
    kit = KITS[game]
    engine = registry.make_game(game)
    capture = Capture(game, dict(options or {}), seed)
    rng = Rng(seed ^ 0x5EED)
    version = 0

    def now() -> int:
        return version

    def http(method: str, path: str, body: Any = None, audience: Audience = HTTP) -> Any:
        response = client.request(method, path, json=body)
        capture.add(audience, f"{method} {path} -> {response.status_code} {response.text}", version, http=True)
        return response

    seeds.push(seed)
    made = http("POST", "/api/rooms", {"game": game, "options": capture.options, "seats": ["me", "open"]}, 0)
    if made.status_code != 201:
        raise ProtocolError(f"the room was not made: {made.text}")
    room = capture.room = made.json()["room"]
    capture.tokens[0] = made.json()["token"]
    if seed_of is not None:
        seed = capture.seed = seed_of(room)
    state = engine.new_match(capture.options, seed)  # the harness's own copy, to find hidden cards for probes
    http("GET", "/api/rooms")
    joined = http("POST", f"/api/rooms/{room}/join", {}, 1)
    capture.tokens[1] = joined.json()["token"]
    bot = [make_bot(bots[p], engine, (seed + 1 + p) & (2**64 - 1)) for p in (0, 1)]
    base = f"/api/rooms/{room}/ws"
    with client.websocket_connect(base) as w0, client.websocket_connect(base) as w1, \
            client.websocket_connect(base + "?lang=es") as ws:
        seat = {0: _Client(capture, 0, w0, now), 1: _Client(capture, 1, w1, now),
                None: _Client(capture, SPECTATOR, ws, now)}
        views: dict[int | None, dict[str, Any]] = {}
        for who, token in ((0, capture.tokens[0]), (1, capture.tokens[1]), (None, None)):
            views[who] = seat[who].ask({"type": "hello", "token": token}, "event")["event"]
            for earlier in (0, 1, None):  # the hello's presence reaches everyone connected
                if earlier is not who and earlier in views:
                    seat[earlier].until("presence")
            seat[who].until("presence")
        http("GET", f"/api/rooms/{room}")
        refused = http("GET", f"/api/rooms/{room}/matches/0/record")
        if refused.status_code != 409:
            raise ProtocolError(f"the record of a match being played was served: {refused.status_code}")
        probes = itertools.count()
        decision = 0

        def now_and_then(kind: int) -> bool:  # each kind of wrong message once in the first 3 decisions, then by chance
            return (decision < 3 and decision == kind % 3) or rng.below(1_000_000) < wrong * 1_000_000

        while True:
            to_act = views[0]["to_act"]
            if to_act is None:
                break
            mine, other = seat[to_act], seat[1 - to_act]
            view = kit.view_from_json(views[to_act]["view"])
            legal = list(view.legal)
            if now_and_then(0):  # the other seat acts out of turn
                other.ask({"type": "act", "action": legal[0].text(), "version": version}, "error")
            if now_and_then(1) and version > 0:  # a stale version
                mine.ask({"type": "act", "action": legal[0].id, "version": version - 1}, "error")
            if now_and_then(2):  # an illegal action, naming hidden cards
                _probe(mine, kit, state, to_act, version, next(probes), rng)
            if now_and_then(3):
                mine.ask({"type": "log"}, "log")
                other.ask({"type": "sync"}, "event")
                seat[None].ask({"type": "log"}, "log")
            if now_and_then(4):
                seat[None].ask({"type": "act", "action": legal[0].text(), "version": version}, "error")
                mine.ask({"type": "undo", "version": version}, "error")
                other.ask({"type": "rematch"}, "error")
                mine.ask("{", "error")
            if now_and_then(5):
                http("GET", "/api/rooms")
                http("GET", f"/api/rooms/{room}")
                if http("GET", f"/api/rooms/{room}/matches/0/record").status_code != 409:
                    raise ProtocolError("the record of a match being played was served")
            if now_and_then(8) and version >= 2:  # a client comes back on a second connection, two versions behind
                again = (0, 1, None)[rng.below(3)]
                with client.websocket_connect(base) as ws_again:
                    back = _Client(capture, SPECTATOR if again is None else again, ws_again, now)
                    back.ask({"type": "hello", "token": capture.tokens.get(again) if again is not None else None,
                              "match": 0, "version": version - 2}, "presence")
                    for who in (0, 1, None):
                        seat[who].until("presence")
                # (its leaving may be told to the others by a presence message: read, if at all, with the next frames)
            chosen = bot[to_act].choose(view, legal)
            mine.send({"type": "act", "action": chosen.text() if decision % 2 else chosen.id, "version": version})
            version += 1
            state.apply(chosen)
            for who in (0, 1, None):
                event = seat[who].until("event")["event"]
                if event["version"] != version:
                    raise ProtocolError(f"{who!r} was sent version {event['version']}, not {version}: {event}")
                views[who] = event
            decision += 1
        for who in (0, 1, None):
            seat[who].until("ended")
        capture.released = True
        for who in (0, 1, None):
            seat[who].ask({"type": "log"}, "log")
    record = http("GET", f"/api/rooms/{room}/matches/0/record")
    if record.status_code != 200:
        raise ProtocolError(f"the record of the ended match was not served: {record.status_code} {record.text}")
    capture.record = record.text
    return capture


def _probe(client: _Client, kit: GameKit, state: Any, seat: int, version: int, number: int, rng: Rng) -> None:
    """Two illegal actions naming two cards the seat may not know where they are (in the opponent's hand, in a
    pile...): the server's answers must be the same but for the name. The harness, which plays both seats and
    chose the seed, knows the engine's state."""
    template, letter = kit.probe
    names = sorted(n for n in kit.hidden(state, _view_now(state, seat), seat) if n.startswith(letter))
    if len(names) < 2:
        return
    first = rng.below(len(names))
    second = (first + 1 + rng.below(len(names) - 1)) % len(names)
    for name in (names[first], names[second]):
        client.ask({"type": "act", "action": template.format(name), "version": version}, "error",
                   probe=(number, name))


def _view_now(state: Any, seat: int) -> dict[str, Any]:
    data = view_json(state.view(seat))
    assert isinstance(data, dict)
    return data


# ------------------------------------------------------------------ the check


def check(capture: Capture) -> tuple[list[Leak], int]:
    """Every leak in ``capture`` and the number of frames checked."""
    kit = KITS[capture.game]
    engine = registry.make_game(capture.game)
    leaks: list[Leak] = []

    def leak(frame: Frame, rule: str) -> None:
        leaks.append(Leak(capture.game, capture.seed, frame.audience, frame.index, rule, frame.text))

    try:
        record = MatchRecord.from_json(json.loads(capture.record))
    except ValueError as exc:
        return [Leak(capture.game, capture.seed, HTTP, -1, f"the released record does not read: {exc}",
                     capture.record)], 0
    if record.seed != capture.seed:
        leaks.append(Leak(capture.game, capture.seed, HTTP, -1, "the record's seed is the match's", capture.record))
    state = start(engine, record)
    states = [state.clone()]
    actors: list[int] = []
    for text in record.actions:
        actor = state.to_act
        assert actor is not None
        actors.append(actor)
        state.apply(engine.action_from_text(text))
        states.append(state.clone())
    views: dict[tuple[int | None, int], Any] = {}

    def view_of(audience: int | None, version: int) -> Any:
        key = (audience, version)
        if key not in views:
            views[key] = view_json(states[version].view(audience))
        return views[key]

    seed_text = str(capture.seed)
    ended: set[Audience] = set()
    probes: dict[int, list[tuple[Frame, str]]] = {}
    for frame in capture.frames:
        who: int | None = frame.audience if isinstance(frame.audience, int) else None
        released = frame.after_end if frame.http else frame.audience in ended
        if not released:
            if seed_text in frame.text:
                leak(frame, "the seed before the match is over")
            for p, token in capture.tokens.items():
                if p != frame.audience and token in frame.text:
                    leak(frame, f"seat {p}'s token")
        try:
            data = None if frame.http else json.loads(frame.text)
        except ValueError:
            leak(frame, "not JSON")
            continue
        version = min(frame.version, len(record.actions))
        if data is not None and data.get("type") == "event":
            _check_event(data["event"], who, engine, record, actors, states, view_of, functools.partial(leak, frame))
        elif data is not None and data.get("type") == "ended":
            ended.add(frame.audience)
        elif not released:
            if data is not None and data.get("type") == "log":
                expected = [_log(engine, lang, who, record, actors, states, version) for lang in LANGUAGES]
                if data["lines"] not in expected:
                    leak(frame, f"a log that is not the one made from the audience's own views at version {version}")
            if (data is not None and data.get("type") == "welcome" and data.get("options")
                    and not callable(getattr(engine, "public_options", None))):
                leak(frame, "options of a game that declares none public")
            secret = kit.hidden(states[version], view_of(who, version), who)
            named = set(CARD_NAME.findall(frame.text)) - set(CARD_NAME.findall(frame.sent))
            if named & secret:
                leak(frame, f"hidden cards named: {sorted(named & secret)}")
            if frame.probe is not None:
                probes.setdefault(frame.probe[0], []).append((frame, frame.probe[1]))
    for pair in probes.values():
        answers = {frame.text.replace(name, "#") for frame, name in pair}
        if len(answers) > 1:
            leak(pair[-1][0], f"two hidden cards answered differently: {[f.text for f, _n in pair]}")
    return leaks, len(capture.frames)


def _check_event(event: Mapping[str, Any], who: int | None, engine: Any, record: MatchRecord, actors: list[int],
                 states: list[Any], view_of: Callable[[int | None, int], Any], leak: Callable[[str], None]) -> None:
    version = event.get("version")
    if not isinstance(version, int) or not 0 <= version < len(states):
        leak(f"an event of a version the match never had: {version!r}")
        return
    if event.get("audience") != who:
        leak(f"an event for audience {event.get('audience')!r}")
    if event.get("view") != view_of(who, version):
        leak("an event's view is not the engine's view of its audience at its version")
    state = states[version]
    if event.get("to_act") != state.to_act:
        leak("an event's to_act is not the engine's")
    outcome = state.outcome
    if event.get("result") != (outcome.to_json() if outcome is not None else None):
        leak("an event's result is not the engine's")
    actor, action = event.get("actor"), event.get("action")
    if actor is None:
        if action is not None:
            leak("a sync that names an action")
        return
    if version == 0 or actor != actors[version - 1]:
        leak(f"an event's actor {actor!r} did not act at version {version}")
        return
    notation = record.actions[version - 1]
    known = who == actor or is_public(engine, engine.action_from_text(notation))
    if action != (notation if known else None):
        leak(f"an event's action {action!r} (the action played: {notation!r}, known to the audience: {known})")


def run(game: str, matches: int, *, start_index: int = 0, seed_base: int = 0, options: Mapping[str, Any] | None = None,
        bots: Sequence[str] = ("bot:random", "bot:random"), wrong: float = 0.1,
        on_match: Callable[[Capture, list[Leak]], None] | None = None) -> tuple[int, int, list[Leak]]:
    """``matches`` matches of ``game`` through one server, each checked: (matches, frames checked, leaks)."""
    frames = 0
    leaks: list[Leak] = []
    with server() as (client, seeds):
        for index in range(start_index, start_index + matches):
            capture = play(client, seeds, game, match_seed(game, index, seed_base), options, bots, wrong)
            found, count = check(capture)
            frames += count
            leaks.extend(found)
            if on_match is not None:
                on_match(capture, found)
    return matches, frames, leaks


def _log(engine: Any, lang: str, who: int | None, record: MatchRecord, actors: list[int], states: list[Any],
         version: int) -> list[str]:
    """The log ``who`` may read at ``version``: made from the engine's views of ``who`` and the actions it may
    know."""
    steps = []
    for i in range(version):
        action = engine.action_from_text(record.actions[i])
        known = who == actors[i] or is_public(engine, action)
        steps.append(LogStep(states[i].view(who), states[i + 1].view(who), actors[i], action if known else None))
    return match_log(engine, Translator.for_language(lang), who, steps, first=states[0].view(who),
                     outcome=states[version].outcome)
