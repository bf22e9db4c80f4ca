"""Issue 21, point 2: a ``log`` request never replays the match on the event loop, and the expensive requests are
counted per client address.

Each reader's log (audience and language) is kept as the match goes and built once, off the loop
(:mod:`flametable.web.logs`); it must give exactly the lines the full replay gives (``match_log`` on every step of
the audience's own views), through undos, resignations, rematches and reloads. ``log`` and ``sync`` requests of one
address, all its sockets together, have a budget (``too_many_requests`` beyond it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import pytest

from flametable.core.record import resigner, start
from flametable.service import Audience, MatchService, is_public
from flametable.texts.log import LogStep, match_log
from flametable.texts.translator import Translator
from flametable.web.rooms import Budgets, Conn, Hall, Limits, Room, RoomError, game_of
from flametable.web.store import Store, StoreError, record_of
from tests.web.client import Client, Server
from tests.web.memory_store import MemoryStore

pytestmark = pytest.mark.anyio

AUDIENCES: tuple[Audience, ...] = (0, 1, None)
LANGS = ("en", "es")
UNLIMITED = Limits(actions_per_second=1e9, burst=10**9, expensive_per_second=1e9, expensive_burst=10**9)


# ------------------------------------------------------------------ helpers


async def _sink(text: str) -> None:
    pass


@contextmanager
def views_by_thread(room: Room) -> Iterator[dict[str, int]]:
    """Count the engine views made, on the event loop (``loop``) and in other threads (``off``)."""
    loop = threading.get_ident()
    kind: Any = type(room.service.state)
    made = {"loop": 0, "off": 0}
    original = kind.view

    def counted(self: Any, audience: Audience) -> Any:
        made["loop" if threading.get_ident() == loop else "off"] += 1
        return original(self, audience)

    kind.view = counted
    try:
        yield made
    finally:
        kind.view = original


class Reader:
    """A connection of a room reading its log: the messages it was sent."""

    def __init__(self, room: Room, audience: Audience, lang: str, client: str = "reader") -> None:
        self.got: list[dict[str, Any]] = []
        self.conn = Conn(self._send, Translator.for_language(lang), client)
        self.room = room
        self.audience = audience
        self.seat()

    async def _send(self, text: str) -> None:
        self.got.append(json.loads(text))

    def seat(self) -> None:
        """Sit as the room's player at this audience's seat now (a rematch swaps the seats)."""
        self.conn.player = None if self.audience is None else self.audience ^ self.room.match.first_player

    async def log(self) -> dict[str, Any]:
        await self.room.match_log(self.conn)
        message = self.got[-1]
        assert message["type"] == "log"
        return message


def replayed(room: Room, audience: Audience, lang: str) -> list[str]:
    """The log as the server made it for every request before (issue 21): the whole match replayed from its start,
    ``match_log`` on all the steps of that audience's own views."""
    match = room.match
    state = start(room.game, record_of(match, actions=False, result=False))
    first = state.view(audience)
    steps = []
    for actor, notation in zip(room.actors, match.actions, strict=True):
        action = room.game.action_from_text(notation)
        before = state.view(audience)
        state.apply(action)
        known = audience == actor or is_public(room.game, action)
        steps.append(LogStep(before, state.view(audience), actor, action if known else None))
    return match_log(room.game, Translator.for_language(lang), audience, steps, first=first, outcome=state.outcome,
                     resigned=resigner(match.result))


async def check_every_reader(room: Room, readers: list[Reader]) -> None:
    """Each reader's log is the full replay's, and asking for it made no view on the event loop (its log is
    kept as the match goes, or built in a thread)."""
    for reader in readers:
        reader.seat()
        with views_by_thread(room) as made:
            message = await reader.log()
        assert made["loop"] == 0
        assert message["match"] == room.match.number
        assert message["lines"] == replayed(room, reader.audience, reader.conn.tr.lang), (
            f"{room.row.game} at version {room.service.version}: audience {reader.audience}, {reader.conn.tr.lang}")


async def act(room: Room, rng: random.Random) -> None:
    """The seat to act plays a random legal action."""
    seat = room.service.to_act
    assert seat is not None
    legal = room.service.legal(seat)
    player = Conn(_sink, Translator.for_language("en"), "players")
    player.player = seat ^ room.match.first_player
    await room.act(player, legal[rng.randrange(len(legal))].text(), room.wire_version)


def length(game: str, options: dict[str, Any], seed: int) -> int:
    """How many actions the match of :func:`act`'s random players lasts (``seed``: the match's and the players')."""
    service = MatchService.new(game_of(game), options, seed, ["a", "b"])
    rng = random.Random(seed)
    while (seat := service.to_act) is not None:
        legal = service.legal(seat)
        service.submit(seat, legal[rng.randrange(len(legal))].text())
    return service.version


async def bot_moved(room: Room, seat: int) -> None:
    """Wait until the bot has played and ``seat`` is to act (or the match is over)."""
    for _ in range(5000):
        if not room.playing or (room.service.to_act == seat and (room.bot_task is None or room.bot_task.done())):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the bot did not move")


def a_hall(seed: int, limits: Limits = UNLIMITED, store: MemoryStore | None = None) -> Hall:
    """A hall on a store in memory whose matches all have the seed ``seed``."""
    return Hall(cast(Store, store or MemoryStore()), seeds=lambda: seed, limits=limits)


def readers_of(room: Room, client: str = "reader") -> list[Reader]:
    return [Reader(room, audience, lang, client) for audience in AUDIENCES for lang in LANGS]


# ------------------------------------------------------------------ the lines: exactly the full replay's


@pytest.mark.parametrize(("game", "options", "seeds"), [
    ("duel", {}, (1, 2)), ("duel", {"pick": "draft"}, (3,)), ("duals", {}, (4, 5)), ("duals", {"buddy": True}, (6,)),
], ids=["duel", "duel-draft", "duals", "duals-buddy"])
async def test_the_log_kept_as_the_match_goes_is_the_full_replay_s(game: str, options: dict[str, Any],
                                                                    seeds: tuple[int, ...]) -> None:
    """Every audience in both languages, some readers from the start, others coming in the middle (their log built
    while the match goes on: the steps played meanwhile are added after the build), checked along the match."""
    for seed in seeds:
        hall = a_hall(seed)
        room, _ = await hall.create(game, options, ["me", "me"], "creator")
        rng = random.Random(seed)
        early = [Reader(room, 0, "en"), Reader(room, None, "es")]
        await check_every_reader(room, early)
        late = [r for r in readers_of(room) if (r.audience, r.conn.tr.lang) not in ((0, "en"), (None, "es"))]
        came = False
        while room.playing:
            await act(room, rng)
            if not came and room.service.version >= 9:
                came = True
                async with hall.log_builds:  # the builds wait: the match moves on meanwhile
                    asking = [asyncio.create_task(r.log()) for r in late]
                    await asyncio.sleep(0.01)
                    for _ in range(3):
                        if room.playing:
                            await act(room, rng)
                await asyncio.gather(*asking)
                await check_every_reader(room, late)
            elif room.service.version % 11 == 0:
                await check_every_reader(room, early + late if came else early)
        await check_every_reader(room, early + late)  # the end told
        assert room.match.status == "over"


async def test_the_log_after_an_undo_against_a_bot_a_resignation_and_a_rematch_is_the_full_replay_s() -> None:
    for game, seed in (("duel", 11), ("duals", 12)):
        hall = a_hall(seed)
        room, _ = await hall.create(game, None, ["me", "bot:random"], "creator")
        me = room.seat_of(0)
        assert me is not None
        await bot_moved(room, me)
        readers = readers_of(room)
        await check_every_reader(room, readers)
        rng = random.Random(seed)
        undone = 0
        player = Conn(_sink, Translator.for_language("en"), "players")
        player.player = 0
        while room.playing and undone < 2:
            await act(room, rng)
            await bot_moved(room, me)
            await check_every_reader(room, readers)
            try:
                await room.undo(player, room.wire_version)
            except RoomError as exc:  # a take-back that would reveal something is refused
                if exc.code != "undo_reveals":
                    raise
                continue
            undone += 1
            await bot_moved(room, me)
            await check_every_reader(room, readers)  # built again from the match as it is after the undo
        assert undone == 2, game
        for _ in range(3):
            if room.playing:
                await act(room, rng)
                await bot_moved(room, me)
        await room.resign(player)
        await check_every_reader(room, readers)  # "... resigned." at the end
        assert readers[0].got[-1]["lines"][-1] == f"Player {me + 1} resigned."
        await room.rematch(player)  # against a bot: at once, the seats swapped
        assert room.match.number == 1
        await bot_moved(room, room.seat_of(0) or 0)
        await check_every_reader(room, readers)
        await hall.close()


async def test_the_log_after_a_reload_is_the_full_replay_s() -> None:
    """A store failure reloads the room from the store: its logs are made again from the match the store has."""
    store = MemoryStore()
    hall = a_hall(21, store=store)
    room, _ = await hall.create("duals", None, ["me", "me"], "creator")
    rng = random.Random(21)
    readers = readers_of(room)
    for _ in range(12):
        await act(room, rng)
    await check_every_reader(room, readers)
    stored = store.append_action

    async def failing(*args: Any, **kwargs: Any) -> None:
        raise StoreError("the disk is full")

    store.append_action = failing  # type: ignore[method-assign]
    with pytest.raises(RoomError) as caught:
        await act(room, rng)
    assert caught.value.code == "store"
    store.append_action = stored  # type: ignore[method-assign]
    await check_every_reader(room, readers)
    for _ in range(5):
        await act(room, rng)
    await check_every_reader(room, readers)


# ------------------------------------------------------------------ the event loop: no replay


@pytest.mark.parametrize("game", ["duel", "duals"])
async def test_twenty_spectators_asking_for_the_log_replay_nothing_on_the_event_loop(game: str) -> None:
    """Twenty spectator sockets (one address) ask for the log of a long match again and again: the event loop
    makes no view for them (the log was built once, in a thread: one replay's worth of views); the log is right."""
    options = {"pick": "draft"} if game == "duel" else {}
    hall = a_hall(31)
    room, _ = await hall.create(game, options, ["me", "me"], "creator")
    rng = random.Random(31)
    while room.service.version < min(80, length(game, options, 31) - 1):  # long, one action before the end
        await act(room, rng)
    spectators = [Reader(room, None, "en", "one-address") for _ in range(20)]
    with views_by_thread(room) as made:
        for _ in range(5):
            for spectator in spectators:
                await spectator.log()
    assert made["loop"] == 0
    assert 0 < made["off"] <= room.service.version + 1  # one build: the first view and one view per step
    assert spectators[-1].got[-1]["lines"] == replayed(room, None, "en")
    # the match goes on: each step is added from the events the room tells, still no view made for the log
    with views_by_thread(room) as made:
        await act(room, rng)
        actions = made["loop"]  # the views of the action's events (one per audience)
        for spectator in spectators:
            await spectator.log()
    assert made["loop"] == actions <= 3
    assert made["off"] == 0
    assert spectators[0].got[-1]["lines"] == replayed(room, None, "en")


async def test_another_room_is_not_slowed_by_a_flood_of_log_requests() -> None:
    """While one address floods a room with ``log`` and ``sync`` requests, the players of another room, from their
    own addresses, are answered, and the event loop makes no view for the flood's logs."""
    hall = a_hall(41, Limits(actions_per_second=1e9, burst=10**9))
    flooded, _ = await hall.create("duals", None, ["me", "me"], "creator")
    other, _ = await hall.create("duals", None, ["me", "me"], "creator")
    rng = random.Random(41)
    for _ in range(60):
        await act(flooded, rng)
    flood = [Reader(flooded, None, "en", "flooder") for _ in range(20)]
    players = [Reader(other, 0, "en", "player-0"), Reader(other, 1, "es", "player-1")]
    refused: list[str] = []
    began = time.monotonic()
    with views_by_thread(flooded) as made:  # the views of every Duals match (both rooms)
        for _ in range(10):
            for spectator in flood:
                try:
                    await spectator.log()
                except RoomError as exc:
                    refused.append(exc.code)
            await act(other, rng)
            for player in players:
                await player.log()  # never refused: another address
                await other.sync(player.conn)
    elapsed = time.monotonic() - began
    limits = hall.limits
    assert set(refused) == {"too_many_requests"}
    assert len(refused) >= 200 - limits.expensive_burst - limits.expensive_per_second * elapsed - 1
    assert made["loop"] == 3 * 10 + 2 * 10  # the other room's events (3 views an action) and syncs, nothing else
    for player in players:
        assert player.got[-2]["lines"] == replayed(other, player.audience, player.conn.tr.lang)


# ------------------------------------------------------------------ the budget of an address, through the socket


def test_spectator_sockets_of_one_address_are_refused_beyond_its_budget_of_log_requests() -> None:
    """Twenty spectator sockets from one address, each within its own limit (10 messages a second, 30 at once),
    ask for the log 15 times each at once: the address's budget (20 a second, 60 at once) answers the first ones,
    each right, and refuses the others with ``too_many_requests`` in the socket's language."""
    limits = Limits(actions_per_second=10, burst=30)
    with Server(limits=limits) as server:
        room = server.room("duals", ["bot:random", "bot:random"])["room"]
        deadline = time.monotonic() + 30
        while server.http.get(f"/api/rooms/{room}").json()["status"] == "playing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        hall: Hall = server.app.state.hall
        with contextlib.ExitStack() as stack:
            sockets = [stack.enter_context(server.connect(room, lang="es" if i % 2 else "en")) for i in range(20)]
            for s in sockets:
                s.hello()
                s.until("ended")
            began = time.monotonic()
            for s in sockets:
                for _ in range(15):
                    s.send(type="log")
            answers = [answer for s in sockets for answer in answers_of(s, 15)]
            elapsed = time.monotonic() - began
            loaded = hall.rooms[room]
            logs = [a for a in answers if a["type"] == "log"]
            refused = [a for a in answers if a["type"] == "error"]
            assert len(logs) + len(refused) == 300
            assert {a["code"] for a in refused} == {"too_many_requests"}  # never too_fast: each socket is within
            assert limits.expensive_burst <= len(logs) <= limits.expensive_burst + limits.expensive_per_second * \
                elapsed + 1
            expected = {lang: replayed(loaded, None, lang) for lang in LANGS}
            assert all(a["lines"] == expected["en"] or a["lines"] == expected["es"] for a in logs)
            assert any("dirección" in a["message"] for a in refused)  # the Spanish sockets' refusal in Spanish
            assert any("address" in a["message"] for a in refused)


def answers_of(client: Client, count: int) -> list[dict[str, Any]]:
    """The next ``count`` answers (logs or errors) ``client`` gets, past the presence news of the others' hellos."""
    answers: list[dict[str, Any]] = []
    while len(answers) < count:
        message = client.recv()
        if message["type"] in ("log", "error"):
            answers.append(message)
    return answers


def test_an_address_budget_refills_is_its_own_and_is_forgotten_once_full_again() -> None:
    now = [0.0]
    budgets = Budgets(rate=2.0, burst=3, clock=lambda: now[0])
    assert [budgets.allow("a") for _ in range(4)] == [True, True, True, False]  # the burst, then refused
    assert budgets.allow("b")  # another address: its own budget
    now[0] = 0.5
    assert budgets.allow("a")  # one more earned in half a second at 2 a second
    assert not budgets.allow("a")
    for i in range(1000):  # many addresses heard from once: kept while their bucket refills...
        now[0] = 1.0 + i / 1000
        budgets.allow(f"passer-by {i}")
    assert len(budgets) == 1000 + 1  # "b", heard from at 0 s, is full again at 1.5 s: forgotten; "a" (0.5 s) not yet
    now[0] = 10.0
    budgets.allow("c")  # ...and forgotten once it is full again (forgetting it changes nothing)
    assert len(budgets) == 1


def test_the_browsers_of_one_home_never_meet_the_budget() -> None:
    """Three tabs of one address (two tables and a spectator) asking for the log after every event, as the browser
    does (at most 4 times a second), and each resyncing once a second, for ten minutes: never refused."""
    limits = Limits()
    now = [0.0]
    budgets = Budgets(limits.expensive_per_second, limits.expensive_burst, clock=lambda: now[0])
    for tick in range(10 * 60 * 4):  # every quarter of a second
        now[0] = tick / 4
        for _tab in range(3):
            assert budgets.allow("home")
            if tick % 4 == 0:
                assert budgets.allow("home")
