"""Per-address limits that hold across server processes sharing one Redis (issue 22), and their in-process
counterparts for a single process.

- :class:`SharedCounter` counts what an address holds open (WebSockets) in every process together.
- :class:`SharedBudgets` is a token bucket per key (an address) that every process spends from.

Both keep working while Redis is down, each process then counting on its own (the limits of one process, as before
issue 22), and say so in the log: one WARNING line when Redis stops answering, one INFO line when it is back.
A Redis command waits at most its client's timeout (:func:`flametable.web.bus.connect`: 1 s), and while Redis is
known to be down no command is tried for each request: the next try comes after ``retry_after`` seconds (the
counter's heartbeat, or the next request past that time for the budgets).

The keys (``{prefix}`` is the bus's, ``flametable`` by default): ``{prefix}:{name}:procs``, a sorted set of the
processes counting, each scored with the time its count expires (Redis's own clock, in milliseconds); and per
process ``{prefix}:{name}:proc:{process}``, a hash of its counts by address, which expires with it. A budget is
``{prefix}:{name}:{key}``, a hash (``a`` the allowance, ``t`` when it was counted), which expires once it would be
full again. The scripts read keys they compute from the prefix: a single Redis (or a primary with replicas), not a
Redis Cluster.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from flametable.web.bus import cancel, describe, redis_errors, where

if TYPE_CHECKING:
    import redis.asyncio as aioredis

log = logging.getLogger("flametable.web.shared")


class Counter(Protocol):
    """What a hall needs to count the sockets of each address (:class:`SharedCounter`, :class:`LocalCounter`)."""

    async def admit(self, address: str, limit: int) -> bool:
        """Count one more for ``address`` if its total is below ``limit`` (True), else nothing (False)."""

    async def add(self, address: str) -> int:
        """Count one more for ``address``, whatever its total: the total after."""

    async def remove(self, address: str) -> None:
        """One that :meth:`admit` or :meth:`add` counted has ended."""

    async def count(self, address: str) -> int:
        """The total of ``address``."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalBudget(Protocol):
    """A token bucket per key in this process: :class:`flametable.web.rooms.Budgets`."""

    rate: float
    burst: float

    def allow(self, client: str) -> bool: ...


class Budget(Protocol):
    """What a hall needs to spend a budget per key (:class:`SharedBudgets`, :class:`LocalBudgets`)."""

    async def allow(self, key: str) -> bool:
        """Whether one more request of ``key`` fits its budget now (and count it)."""


class Script:
    """A Lua script run by its SHA-1 (EVALSHA), sent whole (EVAL, which caches it again) when Redis does not have
    it (a restarted or flushed Redis)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode("utf-8")).hexdigest()

    async def __call__(self, redis: aioredis.Redis, keys: list[str], args: list[str | int | float]) -> Any:
        from redis.exceptions import NoScriptError

        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            return await redis.eval(self.source, len(keys), *keys, *args)


class Reachability:
    """Whether Redis answered the last time, for the log (one line when that changes) and for the next try."""

    def __init__(self, what: str, client: aioredis.Redis, retry_after: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.where = where(client)
        self.retry_after = retry_after
        self.clock = clock
        self.down_since: float | None = None  # the last failure while Redis is down

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def worth_trying(self) -> bool:
        return self.down_since is None or self.clock() - self.down_since >= self.retry_after

    def failed(self, exc: BaseException) -> None:
        if self.down_since is None:
            log.warning("%s: Redis at %s does not answer (%s): each process counts on its own until it is back",
                        self.what, self.where, describe(exc))
        self.down_since = self.clock()

    def answered(self) -> None:
        if self.down_since is not None:
            self.down_since = None
            log.info("%s: Redis at %s answers again: the count is shared again", self.what, self.where)


# KEYS: the processes' sorted set, this process's hash. ARGV: this process, the address, this process's count of it
# (what it holds now, the new one included), the TTL (ms), the limit (0: none), the prefix of the processes' hashes.
# The processes whose time ran out are dropped; the address's total is this process's count and the live others';
# over the limit, nothing changes: {0, total without the new one}; else this process's count is written,
# its hash's and its own expiry pushed back: {1, total}.
COUNT = Script("""
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local others = 0
for _, process in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if process ~= ARGV[1] then
    local held = redis.call('HGET', ARGV[6] .. process, ARGV[2])
    if held then others = others + tonumber(held) end
  end
end
local own = tonumber(ARGV[3])
local limit = tonumber(ARGV[5])
if limit > 0 and others + own > limit then
  return {0, others + own - 1}
end
if own > 0 then
  redis.call('HSET', KEYS[2], ARGV[2], own)
else
  redis.call('HDEL', KEYS[2], ARGV[2])
end
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
return {1, others + own}
""")

# KEYS: the processes' sorted set, this process's hash. ARGV: this process, the TTL (ms). The heartbeat: this
# process's expiry and its hash's pushed back; 0 if the hash is not there (no counts, or Redis lost them).
BEAT = Script("""
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return redis.call('PEXPIRE', KEYS[2], ARGV[2])
""")

# KEYS and ARGV as BEAT's, then address and count pairs: this process's hash written anew, and its expiry.
WRITE = Script("""
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('DEL', KEYS[2])
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
return 1
""")


class SharedCounter:
    """What each address holds open (its WebSockets), counted in every process sharing the Redis.

    Each process keeps its own counts in memory (the truth for that process) and writes each change to its hash
    in Redis (``{prefix}:{name}:proc:{process}``): the count of the address, not a difference, so a command that
    failed or was sent twice leaves nothing wrong once the next one passes. The hash and the process's entry in
    the sorted set of processes expire ``ttl`` seconds after they were last written; a heartbeat every ``ttl / 3``
    pushes them back. So a process that dies without a word (SIGKILL, a machine gone) stops counting ``ttl``
    seconds later at most; one that stops cleanly (:meth:`stop`) takes its counts away at once. Each count is one
    Lua script (an address's total over the live processes, then this process's count written: atomic, so two
    processes never both take the last place).

    While Redis is down: each process admits against its own counts only (the limit per process), and the
    heartbeat tries Redis again; once it answers, the process's whole hash is written anew from memory. Sockets
    open in a process that cannot reach Redis are not seen by the others meanwhile."""

    def __init__(self, redis: aioredis.Redis, process: str, *, prefix: str = "flametable", name: str = "sockets",
                 ttl: float = 10.0) -> None:
        self.redis = redis
        self.process = process
        self.ttl = ttl
        self._ttl_ms = max(1, round(ttl * 1000))
        self._procs = f"{prefix}:{name}:procs"
        self._hashes = f"{prefix}:{name}:proc:"
        self._own = self._hashes + process
        self._counts: dict[str, int] = {}  # this process's, by address
        self._lock = asyncio.Lock()  # one command at a time: what Redis holds is the last count written
        self._stale = True  # Redis may not hold this process's counts: the heartbeat writes them all
        self._reach = Reachability("shared counter", redis, ttl / 3)
        self._beating: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the heartbeat (the first beat at once)."""
        if self._beating is None:
            await self.beat()
            self._beating = asyncio.get_running_loop().create_task(self._heartbeat())

    async def stop(self) -> None:
        """Stop the heartbeat and take this process's counts away from Redis (kept in memory)."""
        await cancel(self._beating)
        self._beating = None
        async with self._lock:
            try:
                await self.redis.zrem(self._procs, self.process)
                await self.redis.delete(self._own)
            except redis_errors() as exc:
                self._reach.failed(exc)  # the TTL takes them away
            self._stale = True

    async def admit(self, address: str, limit: int) -> bool:
        """Count one more for ``address`` if it holds fewer than ``limit`` in every process together (in this
        process alone while Redis is down)."""
        ok, _ = await self._change(address, 1, limit)
        return ok

    async def add(self, address: str) -> int:
        _, total = await self._change(address, 1, 0)
        return total

    async def remove(self, address: str) -> None:
        await self._change(address, -1, 0)

    async def count(self, address: str) -> int:
        """The total of ``address`` in every live process (this process's alone while Redis is down)."""
        _, total = await self._change(address, 0, 0)
        return total

    def local(self, address: str) -> int:
        """This process's count of ``address``."""
        return self._counts.get(address, 0)

    async def _change(self, address: str, step: int, limit: int) -> tuple[bool, int]:
        async with self._lock:
            own = max(0, self._counts.get(address, 0) + step)  # this process's count after the change
            answer = None
            if self._try_redis():
                try:
                    if self._stale:
                        await self._write_all()
                    answer = await COUNT(self.redis, [self._procs, self._own],
                                         [self.process, address, own, self._ttl_ms, limit, self._hashes])
                    self._reach.answered()
                except redis_errors() as exc:
                    self._reach.failed(exc)
                    self._stale = True
            if answer is not None:
                ok, total = bool(answer[0]), int(answer[1])
            else:  # Redis down: this process's own counts only
                ok = step <= 0 or limit <= 0 or own <= limit
                total = own if ok else own - 1
            if ok and own:
                self._counts[address] = own
            elif ok:
                self._counts.pop(address, None)
            return ok, total

    def _try_redis(self) -> bool:
        """Whether to ask Redis now: always while it answers; while it is down, the heartbeat tries (or, with no
        heartbeat running, the first change ``ttl / 3`` seconds after the last failure)."""
        return not self._reach.down or (self._beating is None and self._reach.worth_trying())

    async def beat(self) -> None:
        """Push this process's expiry back (and write its counts anew if Redis lost them or missed a change)."""
        async with self._lock:
            try:
                if self._stale or (not await BEAT(self.redis, [self._procs, self._own], [self.process, self._ttl_ms])
                                   and self._counts):
                    await self._write_all()
                self._reach.answered()
            except redis_errors() as exc:
                self._reach.failed(exc)
                self._stale = True

    async def _write_all(self) -> None:
        pairs = [item for address, count in self._counts.items() for item in (address, count)]
        await WRITE(self.redis, [self._procs, self._own], [self.process, self._ttl_ms, *pairs])
        self._stale = False

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            await self.beat()


class LocalCounter:
    """:class:`SharedCounter`'s counterpart in one process (what ``Hall.admit`` counts); several halls of one
    process share one by being given the same."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def admit(self, address: str, limit: int) -> bool:
        if self.counts.get(address, 0) >= limit:
            return False
        await self.add(address)
        return True

    async def add(self, address: str) -> int:
        total = self.counts[address] = self.counts.get(address, 0) + 1
        return total

    async def remove(self, address: str) -> None:
        count = self.counts.pop(address, 0) - 1
        if count > 0:
            self.counts[address] = count

    async def count(self, address: str) -> int:
        return self.counts.get(address, 0)


# KEYS: the bucket. ARGV: the rate (a second), the burst. Redis's clock (ms); a new bucket is full; the allowance
# earned since the last count is added (up to the burst), one taken if there is one; the bucket expires once it
# would be full again (a full bucket and no bucket are the same).
SPEND = Script("""
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'a', 't')
local allowance = tonumber(state[1])
local stamp = tonumber(state[2])
if allowance == nil or stamp == nil then
  allowance = burst
  stamp = now
end
if now > stamp then
  allowance = math.min(burst, allowance + (now - stamp) * rate / 1000)
  stamp = now
end
local allowed = 0
if allowance >= 1 then
  allowance = allowance - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'a', string.format('%.17g', allowance), 't', string.format('%d', stamp))
local ttl = 86400000
if rate > 0 then ttl = math.ceil((burst - allowance) * 1000 / rate) + 1000 end
redis.call('PEXPIRE', KEYS[1], ttl)
return allowed
""")


class SharedBudgets:
    """A token bucket per key (a client address) that every process sharing the Redis spends from:
    ``local``'s ``rate`` a second on average, its ``burst`` at once, with :class:`~flametable.web.rooms.Budgets`'
    semantics (a new key's bucket is full; one that would be full again is forgotten), counted by one Lua script
    on Redis's clock (atomic: two processes never both take the last token).

    **While Redis is down, the budgets are this process's own** (``local``, a ``rooms.Budgets``: what one process
    allowed before issue 22, so N processes allow up to N times the burst); Redis is tried again ``retry_after``
    seconds after it last failed. What the local buckets spent is not carried to Redis when it is back, nor the
    other way: a bucket is a rate, and a few seconds' difference is what a fallback costs."""

    def __init__(self, redis: aioredis.Redis, local: LocalBudget, *, prefix: str = "flametable",
                 name: str = "budget", retry_after: float = 1.0) -> None:
        self.redis = redis
        self.local = local
        self.rate = local.rate
        self.burst = local.burst
        self._keys = f"{prefix}:{name}:"
        self._reach = Reachability(f"shared budget {name}", redis, retry_after)

    @property
    def shared(self) -> bool:
        """Whether the last request was counted in Redis (else in this process)."""
        return not self._reach.down

    async def allow(self, key: str) -> bool:
        if self._reach.worth_trying():
            try:
                allowed = await SPEND(self.redis, [self._keys + key], [repr(self.rate), repr(self.burst)])
            except redis_errors() as exc:
                self._reach.failed(exc)
            else:
                self._reach.answered()
                return bool(allowed)
        return self.local.allow(key)


class LocalBudgets:
    """:class:`SharedBudgets`' counterpart in one process: ``local`` (a ``rooms.Budgets``) behind the same
    awaitable :meth:`allow`."""

    def __init__(self, local: LocalBudget) -> None:
        self.local = local

    async def allow(self, key: str) -> bool:
        return self.local.allow(key)

