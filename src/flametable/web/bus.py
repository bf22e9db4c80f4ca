"""The message layer between server processes: several ``flametable serve`` processes share one database (the
truth) and one Redis, which only carries messages between them (as Colyseus' Redis presence does).

Each process has an id (:func:`new_process_id`) and a channel of its own, ``{prefix}:proc:{process}``; a message
is a JSON object sent to one process (:meth:`Bus.send`) and handed, in the order its sender sent them, to that
process's handler (:meth:`Bus.on_message`). Redis pub/sub keeps nothing: what nobody hears is gone. So a message
may be lost, and everything built on the bus must treat a loss as costing a resync, never a wrong state. The bus
tells each side what it can know of a loss:

- the sender: :meth:`Bus.send` is False when the message was not handed to the other process's subscription
  (Redis down, the message refused here, or nobody subscribed to that process's channel);
- the receiver: :meth:`Bus.on_reconnect` once its subscription is back after a break (what was published meanwhile
  is lost), and :meth:`Bus.on_gap` with the sender's id when a sender's sequence number skips (a message of it was
  lost on the way, whatever the reason).

What arrives is input like any other (a Redis that others can write to): a payload over the size limit, not UTF-8,
not JSON within :func:`flametable.core.limits.loads_json`'s limits (an object with a key twice, a text longer than
1,000 characters, nesting deeper than 32...) or not the envelope is dropped and logged, one WARNING line at most a
minute, counting the others. A message the receiver would refuse is refused already by :meth:`Bus.send` (False, and
a WARNING line), so that a sender learns it. Logs are for operators (English); nothing here is shown to a player.

On the wire a message travels in an envelope, ``{"from": SENDER, "seq": N, "body": MESSAGE}``: ``seq`` counts the
sender's messages to that one receiver from 1, a number taken by each message handed to Redis (whether or not it
arrived), none by one refused before. The handler gets the body as JSON carries it (a tuple arrives as a list).
A message may carry a text as it is (``send(..., text=TEXT)``: an event a process relays to its client, read by
nobody on the way): the envelope then says ``"text": true`` and the text follows it after a line break (JSON as
``json.dumps`` writes it holds none), so that it is neither escaped into the envelope nor parsed out of it, and
the handler finds it as the body's ``"text"``. Only the envelope is JSON within the limits; the text is any text
within the payload's size.

Two implementations: :class:`RedisBus` (``redis.asyncio``) and :class:`LocalBus`, in memory, several of them on one
:class:`LocalHub`, for tests of several halls in one process (the hub can fail, recover and lose messages on
purpose).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
import uuid
from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from flametable.core.limits import JSON_INT_LIMIT, MAX_DEPTH, MAX_STRING_CHARS, MIB, LimitError, loads_json

if TYPE_CHECKING:  # redis-py is imported only where Redis is used (the "postgres" extra): LocalBus needs none
    import redis.asyncio as aioredis

log = logging.getLogger("flametable.web.bus")

MAX_MESSAGE_BYTES = 1 * MIB
"""The largest payload carried (the envelope and its message, as UTF-8 JSON)."""
MAX_PROCESS_CHARS = 100
"""The longest process id an envelope may name (ours are 32 hex digits)."""
KEEP_SENDERS = 4096
"""Senders whose last sequence number a bus remembers (the least recently heard are forgotten: the next message of
one forgotten reads as a gap, which costs a resync and nothing else)."""

Message = dict[str, Any]
Handler = Callable[[Message], Awaitable[None]]
Reconnected = Callable[[], Awaitable[None]]
Gap = Callable[[str], Awaitable[None]]

ENVELOPE_KEYS = frozenset(("from", "seq", "body"))
TEXT_KEYS = ENVELOPE_KEYS | {"text"}  # an envelope followed by a text
INT_LOW, INT_HIGH = 1 - JSON_INT_LIMIT, JSON_INT_LIMIT - 1  # the integers loads_json reads


def new_process_id() -> str:
    """A new id for a server process: 32 hex digits (uuid4), never reused."""
    return uuid.uuid4().hex


def describe(exc: BaseException) -> str:
    """An exception in one line: its type and message."""
    text = str(exc).replace("\n", " ").strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Quiet:
    """One WARNING line at most every ``interval`` seconds, counting the lines it did not write (so that nothing
    sent to the bus can fill the log)."""

    __slots__ = ("clock", "interval", "told", "untold")

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = interval
        self.clock = clock
        self.told: float | None = None  # when the last line was written
        self.untold = 0  # lines not written since

    def warn(self, template: str, *args: object) -> None:
        now = self.clock()
        if self.told is not None and now - self.told < self.interval:
            self.untold += 1
            return
        self.told = now
        log.warning(template + " (%d more since the last such line)", *args, self.untold)
        self.untold = 0


def past_limits(value: Any, depth: int) -> str | None:
    """What of ``value``, standing ``depth`` lists and objects deep in its text, goes past a limit that
    :func:`~flametable.core.limits.loads_json` holds a text to (None: nothing): nesting, an integer's range, a
    text's or key's length. (Its other limits hold for any text ``json.dumps`` writes of a value without NaN or
    a lone surrogate.) A walk of the value, which is quicker than reading its text again."""
    if isinstance(value, str):
        return f"a text of {len(value)} characters (at most {MAX_STRING_CHARS})" if len(value) > MAX_STRING_CHARS \
            else None
    if isinstance(value, bool | float) or value is None:
        return None
    if isinstance(value, int):
        return None if INT_LOW <= value <= INT_HIGH else "an integer outside the range of JSON's"
    if depth > MAX_DEPTH:
        return f"lists and objects nested more than {MAX_DEPTH} deep"
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and len(key) > MAX_STRING_CHARS:
                return f"a key of {len(key)} characters (at most {MAX_STRING_CHARS})"
            if (problem := past_limits(item, depth + 1)) is not None:
                return problem
    elif isinstance(value, list | tuple):
        for item in value:
            if (problem := past_limits(item, depth + 1)) is not None:
                return problem
    return None


class Bus(ABC):
    """Messages to other server processes and from them (see the module). Set the handlers before :meth:`start`.

    Delivery: one message at a time, in the order received (so in the order each sender sent them); the handler
    should be quick (hand long work to a task): while it runs, later messages wait. A handler that raises is logged
    (one line) and the next message is delivered. :meth:`on_reconnect`'s and :meth:`on_gap`'s handlers run in tasks
    of their own, so that they may send and wait for answers; messages go on being delivered meanwhile."""

    def __init__(self, process_id: str | None = None, *, max_bytes: int = MAX_MESSAGE_BYTES,
                 quiet_seconds: float = 60.0) -> None:
        self.process = process_id or new_process_id()
        self.max_bytes = max_bytes
        self._handler: Handler | None = None
        self._reconnected: Reconnected | None = None
        self._gap: Gap | None = None
        self._next_seq: dict[str, int] = {}  # by destination process: the sequence number of the next message
        self._heard: OrderedDict[str, int] = OrderedDict()  # by sender: the last sequence number delivered
        self._rebase: set[str] = set()  # senders heard before the last break: their next message starts anew
        self._tasks: set[asyncio.Task[None]] = set()  # the reconnect and gap handlers running
        self._refused = Quiet(quiet_seconds)  # what this bus dropped, arriving
        self._unsent = Quiet(quiet_seconds)  # what it refused to send

    # ------------------------------------------------------------------ the interface

    def on_message(self, handler: Handler) -> None:
        """``handler(message)`` is awaited for each message to this process (the dict its sender sent)."""
        self._handler = handler

    def on_reconnect(self, handler: Reconnected) -> None:
        """``handler()`` runs after each subscription that follows a break (Redis gone and back, or not there at
        :meth:`start`): what was sent to this process meanwhile is lost, so rooms relayed through it resync."""
        self._reconnected = handler

    def on_gap(self, handler: Gap) -> None:
        """``handler(sender)`` runs when a message of ``sender`` was lost on the way (its sequence number skipped,
        or a first message that is not its first to this process): whatever the sender sent meanwhile is lost."""
        self._gap = handler

    @abstractmethod
    async def start(self) -> None:
        """Subscribe to this process's channel and deliver to the handler. Returns once the first subscription
        was tried; where it failed (Redis down), it is tried again in the background (then :meth:`on_reconnect`
        fires)."""

    @abstractmethod
    async def stop(self) -> None:
        """Stop delivering and sending; close the connections. Idempotent."""

    @abstractmethod
    async def send(self, process: str, message: Message, text: str | None = None) -> bool:
        """Send ``message`` (a JSON object) to ``process``, with ``text`` as it is (the body's ``"text"`` there:
        ``message`` has none then). True: it was handed to that process's subscription;
        False (never an exception) when it was not: Redis does not answer, nobody is subscribed to that process's
        channel, or the message cannot be carried (over the size limit, past the JSON limits: logged). A message
        that is not a dict or holds what JSON cannot write (an object, a set) is a bug of the caller:
        :class:`TypeError`. True promises no more than pub/sub does: the receiver may still lose it (then it sees
        a break or a gap)."""

    @property
    @abstractmethod
    def healthy(self) -> bool:
        """Whether Redis answered the last time this bus asked, and (once started) its subscription is live."""

    @abstractmethod
    async def ping(self) -> bool:
        """Whether Redis answers now (for ``/healthz``: ``"redis": "ok"`` or ``"down"``)."""

    # ------------------------------------------------------------------ what both implementations share

    def _encode(self, process: str, message: Message, text: str | None = None) -> bytes | None:
        """The payload carrying ``message`` (and ``text``) to ``process``, with its sequence number; None (logged)
        when the receiver would refuse it."""
        if not isinstance(message, dict):
            raise TypeError(f"a bus message is a dict, got {type(message).__name__}")
        if text is not None and (not isinstance(text, str) or "text" in message):
            raise TypeError("a bus message's text is a str, and the message has no 'text' of its own")
        seq = self._next_seq.get(process, 1)
        envelope: dict[str, Any] = {"from": self.process, "seq": seq, "body": message}
        if text is not None:
            envelope["text"] = True
        try:
            written = json.dumps(envelope, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            data = (written if text is None else f"{written}\n{text}").encode("utf-8")
        except ValueError as exc:  # NaN or infinity; a lone surrogate (UnicodeEncodeError)
            problem: str | None = describe(exc)
        else:
            problem = (f"{len(data)} bytes, at most {self.max_bytes}" if len(data) > self.max_bytes
                       else past_limits(message, 2))
        if problem is not None:
            self._unsent.warn("bus: a message to process %s was not sent: %s", process[:MAX_PROCESS_CHARS],
                              problem)
            return None
        self._next_seq[process] = seq + 1
        return data

    async def _deliver(self, data: bytes | str) -> None:
        """Hand the message ``data`` carries to the handler, or drop it (logged) if it is not a message."""
        size = len(data)
        if size > self.max_bytes:
            self._refused.warn("bus: dropped a message of %d bytes (at most %d)", size, self.max_bytes)
            return
        try:
            head, newline, text = (data.decode("utf-8") if isinstance(data, bytes) else data).partition("\n")
            envelope = loads_json(head)
        except (ValueError, LimitError) as exc:  # not UTF-8, not JSON, a key twice, a limit
            self._refused.warn("bus: dropped a message that is not JSON within the limits: %s", describe(exc))
            return
        if not (isinstance(envelope, dict) and envelope.keys() == (TEXT_KEYS if newline else ENVELOPE_KEYS)
                and isinstance(sender := envelope["from"], str) and 0 < len(sender) <= MAX_PROCESS_CHARS
                and type(seq := envelope["seq"]) is int and seq > 0 and isinstance(body := envelope["body"], dict)
                and (not newline or (envelope["text"] is True and "text" not in body))):
            self._refused.warn("bus: dropped a message that is no envelope (%s)", "from, seq and body; a text "
                               "after a line break only when it says so")
            return
        if newline:
            body["text"] = text
        last = self._heard.pop(sender, None)
        self._heard[sender] = seq
        if len(self._heard) > KEEP_SENDERS:
            self._heard.popitem(last=False)
        if last is None:  # a sender's first message (since the last break, for one heard before it)
            lost = seq != 1 and sender not in self._rebase
            self._rebase.discard(sender)
        else:  # a number skipped; or one already seen: the sender started again under the same id (given by its
            lost = seq != last + 1  # caller), its count anew. Both a gap, and never a message dropped for it
        if lost:
            self._spawn(self._gap, sender)
        if self._handler is None:
            return
        try:
            await self._handler(body)
        except asyncio.CancelledError as exc:  # the handler's own (a task it awaited), unless the bus stops
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise
            log.error("bus: the handler failed on a message of process %s (%s); delivery goes on", sender,
                      describe(exc))
        except Exception as exc:
            log.error("bus: the handler failed on a message of process %s (%s); delivery goes on", sender,
                      describe(exc))

    def _broke(self) -> None:
        """The subscription is back after a break: the senders heard before it start a new count (what they sent
        meanwhile is the break's loss, not a gap), and the reconnect handler runs. A sender first heard after the
        break whose first message is not its first is told as a gap (it may have sent before the break: then
        the gap's resync is one more than needed, never one less)."""
        kept = self._rebase if len(self._rebase) < KEEP_SENDERS else set()
        self._rebase = kept | set(self._heard)
        self._heard.clear()
        self._spawn(self._reconnected)

    def _spawn(self, handler: Callable[..., Awaitable[None]] | None, *args: Any) -> None:
        if handler is None:
            return

        async def run() -> None:
            try:
                await handler(*args)
            except Exception as exc:
                log.error("bus: the %s handler failed (%s)", "gap" if args else "reconnect", describe(exc))

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _cancel_tasks(self) -> None:
        await cancel(*self._tasks)


async def cancel(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel ``tasks`` and wait for their end."""
    running = [t for t in tasks if t is not None and not t.done()]
    for task in running:
        task.cancel()
    for task in running:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


@functools.cache
def redis_errors() -> tuple[type[Exception], ...]:
    """What a Redis command raises when Redis is away or fails: redis-py's errors and the system's (a connection
    refused, reset or timed out)."""
    from redis.exceptions import RedisError

    return (RedisError, OSError)


def connect(url: str, *, timeout: float = 1.0, name: str | None = None) -> aioredis.Redis:
    """A Redis client for ``url`` (``redis://HOST:PORT/DB``) that never waits long: ``timeout`` seconds to connect
    and for each answer, and no retries (the callers retry in their own time). :class:`ValueError` for a URL that
    is not Redis's; :class:`ImportError` where redis-py is not installed."""
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    return aioredis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                   retry=Retry(NoBackoff(), 0), protocol=2, client_name=name)


def where(client: aioredis.Redis) -> str:
    """Where ``client`` connects, for the log (``host:port/db``; never a password)."""
    kwargs = client.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"unix:{kwargs['path']}"
    return f"{kwargs.get('host', 'localhost')}:{kwargs.get('port', 6379)}/{kwargs.get('db', 0)}"


class RedisBus(Bus):
    """The bus on Redis pub/sub (``redis.asyncio``): a connection of its own that subscribes to this process's
    channel, and a client (``self.redis``, which :mod:`flametable.web.shared`'s limits may share) that publishes.

    - **Sending**: messages wait in one queue and go out in pipelines (all those waiting, in order, on one
      connection), so one process's messages reach each receiver in the order :meth:`send` was called. False when
      PUBLISH says that nobody received it (the other process is not subscribed: gone, or not yet started),
      and for every message of a pipeline that failed (some of which Redis may have delivered).
    - **When Redis goes away**: every command gives up after ``timeout`` seconds (1 s; a refused connection at
      once), so :meth:`send` is False quickly; the subscription is tried again after 0.1 s, then twice as long
      each time up to 2 s, and :meth:`on_reconnect` fires once it is back. The subscription PINGs Redis after a
      second of silence, and a connection that has not answered for three seconds is taken for gone (a network
      that drops packets without closing it). One WARNING line when Redis stops answering, one INFO line when it
      answers again; never a traceback.
    """

    def __init__(self, url: str, process_id: str | None = None, prefix: str = "flametable", *,
                 timeout: float = 1.0, backoff: tuple[float, float] = (0.1, 2.0), ping_every: float = 1.0,
                 max_bytes: int = MAX_MESSAGE_BYTES, quiet_seconds: float = 60.0, batch: int = 512) -> None:
        super().__init__(process_id, max_bytes=max_bytes, quiet_seconds=quiet_seconds)
        self.prefix = prefix
        self.timeout = timeout
        self.backoff = backoff
        self.ping_every = ping_every
        self.batch = batch
        self.redis = connect(url, timeout=timeout, name=f"flametable:{self.process}")
        self.where = where(self.redis)
        self._down = False  # Redis did not answer the last time it was asked
        self._subscribed = False
        self._subscriber: asyncio.Task[None] | None = None
        self._publisher: asyncio.Task[None] | None = None
        self._outbox: deque[tuple[str, bytes, asyncio.Future[bool]]] = deque()
        self._wake = asyncio.Event()
        self._stopped = False

    def channel(self, process: str) -> str:
        """The channel of ``process``."""
        return f"{self.prefix}:proc:{process}"

    @property
    def healthy(self) -> bool:
        return not self._down and not self._stopped and (self._subscriber is None or self._subscribed)

    async def start(self) -> None:
        if self._subscriber is not None or self._stopped:
            return
        tried = asyncio.Event()
        self._subscriber = asyncio.get_running_loop().create_task(self._subscribing(tried))
        await tried.wait()

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        await cancel(self._subscriber, self._publisher)
        await self._cancel_tasks()
        while self._outbox:
            _, _, future = self._outbox.popleft()
            if not future.done():
                future.set_result(False)
        with contextlib.suppress(*redis_errors()):
            await self.redis.aclose()

    async def ping(self) -> bool:
        if self._stopped:
            return False
        try:
            await self.redis.ping()
        except redis_errors() as exc:
            self._went_down(exc)
            return False
        self._came_back()
        return True

    async def send(self, process: str, message: Message, text: str | None = None) -> bool:
        if self._stopped:
            return False
        data = self._encode(process, message, text)
        if data is None:
            return False
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._outbox.append((self.channel(process), data, future))
        if self._publisher is None:
            self._publisher = asyncio.get_running_loop().create_task(self._publishing())
        self._wake.set()
        return await future

    # ------------------------------------------------------------------ the state of Redis, for the log

    def _went_down(self, exc: BaseException) -> None:
        if not self._down:
            self._down = True
            log.warning("bus: Redis at %s does not answer (%s): messages between server processes are lost until "
                        "it is back", self.where, describe(exc))

    def _came_back(self) -> None:
        if self._down:
            self._down = False
            log.info("bus: Redis at %s answers again", self.where)

    # ------------------------------------------------------------------ the two tasks

    async def _publishing(self) -> None:
        """Send what waits in the outbox, in order, a pipeline at a time."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                sent = [self._outbox.popleft() for _ in range(min(self.batch, len(self._outbox)))]
                results: list[bool] = [False] * len(sent)
                try:
                    pipe = self.redis.pipeline(transaction=False)
                    for channel, data, _ in sent:
                        pipe.publish(channel, data)
                    counts = await pipe.execute()
                except redis_errors() as exc:
                    self._went_down(exc)
                else:
                    self._came_back()
                    results = [isinstance(n, int) and n > 0 for n in counts]
                finally:  # cancelled too (the bus stopped): no sender waits for ever
                    for (_, _, future), ok in zip(sent, results, strict=True):
                        if not future.done():  # its sender may have been cancelled
                            future.set_result(ok)

    async def _subscribing(self, tried: asyncio.Event) -> None:
        """Subscribe, deliver, and subscribe again after each break (with backoff)."""
        delay = self.backoff[0]
        first = True
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel(self.process))
                confirmed = await pubsub.get_message(timeout=self.timeout)
                if not (isinstance(confirmed, dict) and confirmed.get("type") == "subscribe"):
                    raise TimeoutError("Redis did not confirm the subscription")
                self._subscribed = True
                self._came_back()
                delay = self.backoff[0]
                if not first:
                    self._broke()
                first = False
                tried.set()
                await self._listen(pubsub)
            except redis_errors() as exc:  # TimeoutError and ConnectionError are OSErrors too
                self._went_down(exc)
            except Exception as exc:  # not Redis's: never the end of the subscription
                log.error("bus: the subscription failed (%s); subscribing again", describe(exc))
            finally:
                self._subscribed = False
                with contextlib.suppress(*redis_errors()):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            first = False
            tried.set()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff[1])

    async def _listen(self, pubsub: aioredis.client.PubSub) -> None:
        """Deliver each message of the subscription; PING after a second of silence, and give up on a
        connection that has not answered for three."""
        loop = asyncio.get_running_loop()
        heard = loop.time()
        while True:
            message = await pubsub.get_message(timeout=self.ping_every)
            if message is None:
                if loop.time() - heard > 3 * self.ping_every:
                    raise TimeoutError(f"no answer from Redis for {3 * self.ping_every:g} s")
                await pubsub.ping()
                continue
            if message.get("type") == "message":
                await self._deliver(message["data"])
            heard = loop.time()


class LocalHub:
    """What several :class:`LocalBus` of one process share, as processes share a Redis: for tests. It can fail
    (:meth:`fail`: every send is False, as with Redis gone), :meth:`recover` (each started bus's
    :meth:`~Bus.on_reconnect` fires) and lose messages on the way (:meth:`lose`: their receiver sees a gap)."""

    def __init__(self) -> None:
        self.buses: dict[str, LocalBus] = {}  # the started buses, by process
        self.up = True
        self._lose = 0

    def fail(self) -> None:
        """Redis is gone: sends are False, buses are not healthy, nothing is delivered."""
        self.up = False

    def recover(self) -> None:
        """Redis is back: every started bus subscribes again (its reconnect handler runs)."""
        if not self.up:
            self.up = True
            for bus in list(self.buses.values()):
                bus._broke()

    def lose(self, count: int = 1) -> None:
        """The next ``count`` messages sent are lost on the way (their sends are True, as a publish whose
        receiver then dropped them): only their receivers' gap handlers can tell."""
        self._lose += count


class LocalBus(Bus):
    """The bus in memory: the messages of one process to another on the same :class:`LocalHub`, encoded and
    checked as :class:`RedisBus` does (so a receiver never shares an object with its sender), delivered by a task
    of the receiver in order."""

    def __init__(self, hub: LocalHub, process_id: str | None = None, *, max_bytes: int = MAX_MESSAGE_BYTES,
                 quiet_seconds: float = 60.0) -> None:
        super().__init__(process_id, max_bytes=max_bytes, quiet_seconds=quiet_seconds)
        self.hub = hub
        self._inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._delivery: asyncio.Task[None] | None = None
        self._stopped = False

    @property
    def healthy(self) -> bool:
        return self.hub.up and not self._stopped

    async def start(self) -> None:
        if self._delivery is not None or self._stopped:
            return
        self.hub.buses[self.process] = self
        self._delivery = asyncio.get_running_loop().create_task(self._delivering())

    async def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self.hub.buses.get(self.process) is self:
            del self.hub.buses[self.process]
        await cancel(self._delivery)
        await self._cancel_tasks()

    async def ping(self) -> bool:
        return self.hub.up and not self._stopped

    async def send(self, process: str, message: Message, text: str | None = None) -> bool:
        if self._stopped:
            return False
        data = self._encode(process, message, text)
        receiver = self.hub.buses.get(process)
        if data is None or not self.hub.up or receiver is None:
            return False
        if self.hub._lose:
            self.hub._lose -= 1
            return True
        receiver._inbox.put_nowait(data)
        return True

    def inject(self, data: bytes) -> None:
        """A payload arrives as it is (what anyone able to write to Redis could publish): for tests."""
        self._inbox.put_nowait(data)

    async def _delivering(self) -> None:
        while True:
            data = await self._inbox.get()
            if self.hub.up:
                await self._deliver(data)

