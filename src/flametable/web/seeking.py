"""Quick pairing in the server (issue 24, point 2): the pools, and the pairing loop every server process runs.

A *pool* is a game, a real-time clock and rated or casual (its key: ``"duel 3+2 rated"``). A player's seek waits in
one (:mod:`flametable.web.routes.seeks` makes it); every ``Settings.pairing_every`` seconds :meth:`Seeker.step` pairs
each pool where two seeks or more wait (the store's :func:`~flametable.web.store.seeks.pair`: closest ratings first,
the allowed gap widening with the wait, each seek taken under a row lock, so that several processes pairing the
same pools never pair one seek twice) and makes each pair's room: the pool's game and clock, both seats held, each
seat's token the secret its seek's client holds (the seat's stored hash is the seek's ``secret_hash``), so the
client asking after its seek learns its room and already holds its token. A rated pool's room is rated (both players
signed in: a guest's seeks are casual), and a signed-in player's seat is their account's.

Seeks whose client stopped asking after them (``Settings.seek_stale_seconds``) are expired at each step: a player
who closed the lobby is never paired. That a client asked is kept in memory and written once a step for every seek
asked after meanwhile (the store's one writer is not given a write per request).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass

from flametable.core import registry
from flametable.service.clock import FISCHER, TimeControl
from flametable.service.pairing import Gap
from flametable.web.rooms import Hall
from flametable.web.store import AccountStore, RatingStore, Store, StoreError
from flametable.web.store.seeks import SeekRow

log = logging.getLogger("flametable.web")

PRESETS = ((3, 2), (5, 3), (10, 5))
"""The time controls the lobby offers (minutes + increment seconds); any real-time clock makes a pool."""
RATED, CASUAL = "rated", "casual"
CREATOR = "pairing:"
"""The ``creator`` of the rooms the pairing makes: this, then the process's name."""


@dataclass(frozen=True)
class Pool:
    """A pool: a game, a real-time clock, rated or casual."""

    game: str
    clock: TimeControl
    rated: bool

    @property
    def key(self) -> str:
        return f"{self.game} {self.clock.minutes}+{self.clock.increment} {RATED if self.rated else CASUAL}"

    @staticmethod
    def parse(key: str) -> Pool | None:
        """The pool of a stored key (None: not a key of a pool)."""
        parts = key.split(" ")
        if len(parts) != 3 or parts[2] not in (RATED, CASUAL) or "+" not in parts[1]:
            return None
        minutes, _, increment = parts[1].partition("+")
        if not (minutes.isdigit() and increment.isdigit()):
            return None
        return Pool(parts[0], TimeControl(FISCHER, minutes=int(minutes), increment=int(increment)),
                    parts[2] == RATED)

    def to_json(self) -> dict[str, object]:
        return {"pool": self.key, "game": self.game, "clock": self.clock.to_json(), "rated": self.rated}


def offered() -> list[Pool]:
    """The pools the lobby lists whether or not anyone waits there: each game's presets, rated and casual."""
    return [Pool(game, TimeControl(FISCHER, minutes=m, increment=i), rated)
            for game in registry.names() for m, i in PRESETS for rated in (False, True)]


class Seeker:
    """The pairing of one server process: :meth:`step` pairs every pool now; :meth:`start` runs it every
    ``every`` seconds in a task of its own until :meth:`stop`."""

    def __init__(self, hall: Hall, store: Store, *, gap: Gap | None = None, every: float | None = 0.5,
                 stale: float = 30.0, grace: float = 10.0, keep: float = 3600.0, purge_every: float = 60.0) -> None:
        self.hall = hall
        self.store = store
        self.gap = gap or Gap()
        self.every = every
        self.stale = stale
        self.grace = grace  # a pair still without a room this long after its pairing waits again
        self.keep = keep  # the seeks done with (cancelled, expired, paired and played) this long are deleted
        self.purge_every = purge_every  # ... at most once every this many seconds of the hall's clock
        self.purged: float | None = None  # when this process last deleted old seeks
        self.task: asyncio.Task[None] | None = None
        self.made = 0  # the rooms this process made for pairs
        self.seen: set[str] = set()  # the waiting seeks asked after since the last step

    def touch(self, seek_id: str) -> None:
        """The seek's client asked after it: written with the others at the next step (one write a step, however
        many clients ask)."""
        self.seen.add(seek_id)

    async def step(self) -> list[tuple[str, str, str]]:
        """Write which seeks were asked after, expire those nobody asks after, pair every pool, make each pair's
        room: (room, seek, seek) each. Pairs left without a room past the grace (their process stopped, or could
        not store their room) wait again first, so they are paired again in this step; and, once every
        ``purge_every`` seconds, the seeks done with for ``keep`` seconds are deleted."""
        if self.seen:
            seen, self.seen = self.seen, set()
            await self.store.seeks_seen(sorted(seen))
        now = self.hall.clock()
        if self.purged is None or now - self.purged >= self.purge_every:
            self.purged = now
            if gone := await self.store.purge_seeks(self.keep):
                log.info("%d old seeks deleted", gone)
        if back := await self.store.unseat_seeks(self.grace):
            log.warning("%d paired seeks had no room %.0f s after their pairing; they wait again", back, self.grace)
        await self.store.expire_seeks(self.stale)
        made: list[tuple[str, str, str]] = []
        for key in await self.store.waiting_pools():
            pool = Pool.parse(key)
            if pool is None:  # pragma: no cover - the routes make only pools' keys
                continue
            pairs = await self.store.pair_seeks(key, self.gap)
            if not pairs:
                continue
            rows = await self.store.load_seeks([seek for pair in pairs for seek in pair])
            made += await self._rooms(pool, [(rows[a], rows[b]) for a, b in pairs])
        return made

    async def _rooms(self, pool: Pool, pairs: list[tuple[SeekRow, SeekRow]]) -> list[tuple[str, str, str]]:
        """The rooms of a pool's pairs, stored in one write: seats drawn at random, each held by its seek's secret;
        a signed-in player's seat their account's; rated in a rated pool when both are signed in. Rooms that cannot
        be made put their seeks back in their pool."""
        seated = [(a, b) if secrets.randbelow(2) == 0 else (b, a) for a, b in pairs]
        try:
            rooms = await self.hall.create_many([
                (pool.game, ["me", "me"], CREATOR + self.hall.process, pool.clock.to_json(),
                 {p: s.secret_hash or "" for p, s in enumerate(two)}) for two in seated])
        except Exception:
            log.exception("pool %s: the rooms of %d pairs could not be made; their seeks wait again", pool.key,
                          len(pairs))
            with contextlib.suppress(StoreError):
                await self.store.unpair_seeks([seek.id for pair in pairs for seek in pair])
            return []
        for room, two in zip(rooms, seated, strict=True):
            try:
                accounts = AccountStore(self.store)
                for player, seek in enumerate(two):
                    if seek.account_id is not None:
                        await accounts.attach_players(seek.account_id, room.id, [player])
                if pool.rated and two[0].account_id is not None and two[1].account_id is not None:
                    ratings = RatingStore(self.store)
                    await ratings.make_rated(room.id, two[0].account_id, self.hall.clock())
                    await ratings.accept(room.id, two[1].account_id)
            except StoreError:
                log.exception("room %s of pool %s: its accounts could not be stored; its match is not rated", room.id,
                              pool.key)
            self.hall.maybe_forget(room)
        given = await self.store.seat_seeks([(seek.id, two[1 - player].id, room.id, player)
                                             for room, two in zip(rooms, seated, strict=True)
                                             for player, seek in enumerate(two)])
        if given < 2 * len(rooms):  # made too late: the seeks were put back (their rooms go unplayed, then abort)
            log.warning("pool %s: %d of %d seeks were put back before their room was stored", pool.key,
                        2 * len(rooms) - given, 2 * len(rooms))
        self.made += len(rooms)
        return [(room.id, a.id, b.id) for room, (a, b) in zip(rooms, pairs, strict=True)]

    async def run(self) -> None:
        """:meth:`step` every ``every`` seconds until cancelled (a step that fails is logged; the next tries
        again)."""
        assert self.every is not None
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.step()
            except StoreError:
                log.exception("pairing failed; the next step tries again")

    def start(self) -> None:
        if self.every is not None and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="flametable-pairing")

    async def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
