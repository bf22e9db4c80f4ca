"""The message layer between server processes (``web/bus.py``) and the limits they share (``web/shared.py``):
messages reach their process in the order sent, a lost one is always told (to its sender as False, to its receiver
as a break or a gap) so that it costs a resync and never a wrong state, what arrives is checked as input, and a
Redis gone and back costs one log line each way and no hang."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from flametable.web.bus import MAX_MESSAGE_BYTES, Bus, LocalBus, LocalHub, RedisBus, connect
from flametable.web.rooms import Budgets
from flametable.web.shared import LocalBudgets, LocalCounter, SharedBudgets, SharedCounter
from tests.services import RedisServer, machine_redis_url

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]
BUS_LOG = "flametable.web.bus"
SHARED_LOG = "flametable.web.shared"


class Inbox:
    """What a bus delivered, and the breaks and gaps it told."""

    def __init__(self, bus: Bus, fail_on: Callable[[dict[str, Any]], bool] = lambda m: False) -> None:
        self.messages: list[dict[str, Any]] = []
        self.gaps: list[str] = []
        self.reconnects = 0
        self.fail_on = fail_on
        bus.on_message(self.handle)
        bus.on_gap(self.gap)
        bus.on_reconnect(self.reconnected)

    async def handle(self, message: dict[str, Any]) -> None:
        if self.fail_on(message):
            raise RuntimeError("the handler's own bug")
        self.messages.append(message)

    async def gap(self, sender: str) -> None:
        self.gaps.append(sender)

    async def reconnected(self) -> None:
        self.reconnects += 1


async def until(check: Callable[[], bool], timeout: float = 5.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come within {timeout} s")
        await asyncio.sleep(0.01)


async def timed(call: Awaitable[Any]) -> tuple[Any, float]:
    start = time.monotonic()
    result = await call
    return result, time.monotonic() - start


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def records(caplog: pytest.LogCaptureFixture, logger: str, level: int) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == logger and r.levelno == level]


# ---------------------------------------------------------------------------------------------------- fixtures


@pytest.fixture
def redis_url() -> str:
    return machine_redis_url()


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of the test's own on the machine's Redis; its keys are deleted after the test."""
    name = f"fttest:{secrets.token_hex(6)}"
    yield name
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{name}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


Make = Callable[..., Awaitable[Bus]]


@pytest.fixture(params=["local", "redis"])
async def make_bus(request: pytest.FixtureRequest, anyio_backend: str) -> AsyncIterator[Make]:
    """Started buses of one kind that reach each other: on one LocalHub, or on the machine's Redis under one
    prefix. ``make(start=False)`` leaves it to the test to start."""
    made: list[Bus] = []
    hub = LocalHub()
    if request.param == "redis":
        url = machine_redis_url()
        prefix = request.getfixturevalue("prefix")

    async def make(start: bool = True, **options: Any) -> Bus:
        bus: Bus = (LocalBus(hub, **options) if request.param == "local"
                    else RedisBus(url, prefix=prefix, **options))
        made.append(bus)
        if start:
            await bus.start()
        return bus

    yield make
    for bus in made:
        await bus.stop()


async def inject(bus: Bus, receiver: Bus, data: bytes) -> None:
    """``data`` arrives at ``receiver`` as it is: what anyone able to write to Redis could publish."""
    if isinstance(receiver, LocalBus):
        receiver.inject(data)
    else:
        assert isinstance(bus, RedisBus)
        assert isinstance(receiver, RedisBus)
        await bus.redis.publish(receiver.channel(receiver.process), data)


# ---------------------------------------------------------------------------------------------------- delivery


async def test_messages_from_each_sender_arrive_in_the_order_sent(make_bus: Make) -> None:
    a, b, c = await make_bus(), await make_bus(), await make_bus()
    inbox = Inbox(b)
    sends = [sender.send(b.process, {"from": name, "i": i}) for i in range(200) for sender, name in ((a, "a"),
                                                                                                      (c, "c"))]
    assert all(await asyncio.gather(*sends))
    await until(lambda: len(inbox.messages) == 400, what="400 messages")
    for name in ("a", "c"):
        assert [m["i"] for m in inbox.messages if m["from"] == name] == list(range(200))
    assert inbox.gaps == []


async def test_the_receiver_gets_the_message_as_sent_and_never_the_sender_s_object(make_bus: Make) -> None:
    a, b = await make_bus(), await make_bus()
    inbox = Inbox(b)
    seats = [0, 1]
    message = {"type": "frames", "room": "r1", "text": "Ñandú ☃", "seats": seats, "nested": {"n": None, "x": 1.5}}
    assert await a.send(b.process, message)
    seats.append(2)
    await until(lambda: len(inbox.messages) == 1)
    assert inbox.messages == [{"type": "frames", "room": "r1", "text": "Ñandú ☃", "seats": [0, 1],
                               "nested": {"n": None, "x": 1.5}}]


async def test_a_text_sent_as_it_is_arrives_as_it_was_however_long_and_whatever_it_holds(make_bus: Make) -> None:
    """A relayed event's text travels after the envelope, neither escaped nor parsed: longer than any text the JSON
    limits let through, with line breaks, quotes and what is not JSON at all."""
    a, b = await make_bus(), await make_bus()
    inbox = Inbox(b)
    texts = ['{"type":"event","view":' + '"Ñandú \\"☃\\"",' * 3000 + '}', "line\nbreaks\n\n", "", "\n{not json"]
    for text in texts:
        assert await a.send(b.process, {"k": "out", "conn": "c1"}, text)
    await until(lambda: len(inbox.messages) == len(texts))
    assert inbox.messages == [{"k": "out", "conn": "c1", "text": text} for text in texts]
    with pytest.raises(TypeError):  # the text would overwrite the message's own
        await a.send(b.process, {"text": "mine"}, "relayed")


async def test_a_handler_that_raises_is_logged_in_one_line_and_delivery_goes_on(
        make_bus: Make, caplog: pytest.LogCaptureFixture) -> None:
    a, b = await make_bus(), await make_bus()
    inbox = Inbox(b, fail_on=lambda m: m["i"] == 1)
    for i in range(4):
        assert await a.send(b.process, {"i": i})
    await until(lambda: len(inbox.messages) == 3)
    assert [m["i"] for m in inbox.messages] == [0, 2, 3]
    errors = records(caplog, BUS_LOG, logging.ERROR)
    assert len(errors) == 1
    assert "handler failed" in errors[0].getMessage()
    assert "the handler's own bug" in errors[0].getMessage()
    assert errors[0].exc_info is None
    assert "\n" not in errors[0].getMessage()


async def test_a_handler_cancelled_by_what_it_awaited_does_not_end_the_delivery(make_bus: Make) -> None:
    a, b = await make_bus(), await make_bus()
    delivered: list[int] = []

    async def handle(message: dict[str, Any]) -> None:
        if message["i"] == 0:
            waited = asyncio.get_running_loop().create_future()
            waited.cancel()
            await waited  # CancelledError, though nobody cancelled the bus
        delivered.append(message["i"])

    b.on_message(handle)
    assert await a.send(b.process, {"i": 0})
    assert await a.send(b.process, {"i": 1})
    await until(lambda: delivered == [1])


async def test_a_send_to_a_process_nobody_listens_to_is_false_and_raises_nothing(make_bus: Make) -> None:
    a = await make_bus()
    result, seconds = await timed(a.send("0" * 32, {"type": "act"}))
    assert result is False
    assert seconds < 1.0


async def test_a_message_sent_before_its_receiver_listened_is_false_and_the_receiver_sees_the_gap(
        make_bus: Make) -> None:
    a, b = await make_bus(), await make_bus(start=False)
    inbox = Inbox(b)
    assert await a.send(b.process, {"i": 1}) is False  # nobody subscribed yet: lost, and the sender knows
    await b.start()
    assert await a.send(b.process, {"i": 2})
    await until(lambda: len(inbox.messages) == 1 and len(inbox.gaps) == 1)
    assert inbox.messages == [{"i": 2}]
    assert inbox.gaps == [a.process]  # the receiver knows too: it resyncs what it holds of a's


async def test_a_message_the_receiver_would_refuse_is_not_sent(make_bus: Make,
                                                              caplog: pytest.LogCaptureFixture) -> None:
    a, b = await make_bus(quiet_seconds=0), await make_bus()
    inbox = Inbox(b)
    refused: list[dict[str, Any]] = [
        {"text": "x" * MAX_MESSAGE_BYTES},  # over the size limit
        {"text": "x" * 1001},  # a text longer than loads_json reads
        {"deep": nested(33)},  # lists inside each other, deeper than loads_json reads
        {"n": float("nan")},
        {"n": 2**64},
        {"text": "\ud800"},  # a lone surrogate: no UTF-8
    ]
    for message in refused:
        assert await a.send(b.process, message) is False
    assert len(records(caplog, BUS_LOG, logging.WARNING)) == len(refused)
    with pytest.raises(TypeError):
        await a.send(b.process, {"not json": {1, 2}})
    with pytest.raises(TypeError):
        await a.send(b.process, ["a", "list"])  # type: ignore[arg-type]
    assert await a.send(b.process, {"ok": True})
    await until(lambda: len(inbox.messages) == 1)
    await asyncio.sleep(0.05)
    assert inbox.messages == [{"ok": True}]
    assert inbox.gaps == []  # what was refused here took no sequence number: the sender knows, nothing was lost


AT_AND_PAST_THE_LIMITS = [
    pytest.param({"deep": nested(30)}, {"deep": nested(31)}, id="nesting"),  # the envelope and the body: 2 more
    pytest.param({"text": "x" * 1000}, {"text": "x" * 1001}, id="a-text"),
    pytest.param({"k" * 1000: 1}, {"k" * 1001: 1}, id="a-key"),
    pytest.param({"n": 2**64 - 1, "m": 1 - 2**64}, {"n": 2**64}, id="an-integer"),
]


@pytest.mark.parametrize(("at", "past"), AT_AND_PAST_THE_LIMITS)
async def test_the_sender_refuses_exactly_what_the_receiver_would(make_bus: Make, at: dict[str, Any],
                                                                  past: dict[str, Any]) -> None:
    a, b = await make_bus(), await make_bus(quiet_seconds=0)
    inbox = Inbox(b)
    assert await a.send(b.process, at)
    assert await a.send(b.process, past) is False
    envelope = {"from": a.process, "seq": 2, "body": past}  # had it been sent: the receiver drops it
    await inject(a, b, json.dumps(envelope).encode())
    await until(lambda: len(inbox.messages) == 1)
    await asyncio.sleep(0.05)
    assert inbox.messages == [at]


BAD_PAYLOADS = [
    pytest.param(b'{"from":"p","seq":1,"body":{"t":"' + b"x" * MAX_MESSAGE_BYTES + b'"}}', id="over-the-size-limit"),
    pytest.param(b'{"from":"p","seq":1,"body":{"type":"act","type":"sync"}}', id="a-key-twice-in-the-body"),
    pytest.param(b'{"from":"p","seq":1,"seq":2,"body":{}}', id="a-key-twice-in-the-envelope"),
    pytest.param(b'{"from":"p","seq":1,"body":{"t":"\xff"}}', id="not-utf-8"),
    pytest.param(b'{"from":"p","seq":1,"body":', id="not-json"),
    pytest.param(b'{"from":"p","seq":1,"body":{"n":NaN}}', id="nan"),
    pytest.param(b'{"from":"p","body":{}}', id="no-sequence-number"),
    pytest.param(b'{"from":"p","seq":true,"body":{}}', id="a-boolean-sequence-number"),
    pytest.param(b'{"from":"p","seq":0,"body":{}}', id="sequence-number-zero"),
    pytest.param(b'{"from":"","seq":1,"body":{}}', id="no-sender"),
    pytest.param(b'{"from":"p","seq":1,"body":[1]}', id="a-body-that-is-no-object"),
    pytest.param(b'{"from":"p","seq":1,"body":{},"more":1}', id="a-key-more"),
    pytest.param(b'[1,2]', id="no-object"),
    pytest.param(b'{"from":"p","seq":1,"body":{}}\nsome text', id="a-text-the-envelope-does-not-announce"),
    pytest.param(b'{"from":"p","seq":1,"body":{},"text":true}', id="a-text-announced-and-missing"),
    pytest.param(b'{"from":"p","seq":1,"body":{},"text":1}\nx', id="a-text-announced-by-no-true"),
    pytest.param(b'{"from":"p","seq":1,"body":{"text":"x"},"text":true}\ny', id="a-text-and-a-body-s-text"),
    pytest.param(b'{"from":"p","seq":1,"body":{},"text":true}\n\xff', id="a-text-that-is-no-utf-8"),
]


@pytest.mark.parametrize("payload", BAD_PAYLOADS)
async def test_a_payload_that_is_no_message_is_dropped_and_logged_never_delivered(
        make_bus: Make, payload: bytes, caplog: pytest.LogCaptureFixture) -> None:
    a, b = await make_bus(), await make_bus(quiet_seconds=0)
    inbox = Inbox(b)
    await inject(a, b, payload)
    assert await a.send(b.process, {"after": True})
    await until(lambda: len(inbox.messages) == 1)
    assert inbox.messages == [{"after": True}]
    warnings = records(caplog, BUS_LOG, logging.WARNING)
    assert len(warnings) == 1
    assert warnings[0].getMessage().startswith("bus: dropped a message")
    assert inbox.gaps == []


async def test_dropped_payloads_are_logged_one_line_a_minute_at_most_counting_the_others(
        make_bus: Make, caplog: pytest.LogCaptureFixture) -> None:
    a, b = await make_bus(), await make_bus()
    inbox = Inbox(b)
    for _ in range(50):
        await inject(a, b, b'{"from":"p","seq":1,"body":{"a":1,"a":2}}')
    assert await a.send(b.process, {"after": True})
    await until(lambda: len(inbox.messages) == 1)
    assert len(records(caplog, BUS_LOG, logging.WARNING)) == 1


async def test_a_message_lost_on_the_way_is_told_to_its_receiver_as_a_gap() -> None:
    hub = LocalHub()
    a, b = LocalBus(hub), LocalBus(hub)
    inbox = Inbox(b)
    await a.start()
    await b.start()
    try:
        assert await a.send(b.process, {"i": 1})
        hub.lose()
        assert await a.send(b.process, {"i": 2})  # published, then lost: the sender cannot know
        assert await a.send(b.process, {"i": 3})
        await until(lambda: len(inbox.messages) == 2 and len(inbox.gaps) == 1)
        assert inbox.messages == [{"i": 1}, {"i": 3}]
        assert inbox.gaps == [a.process]
    finally:
        await a.stop()
        await b.stop()


async def test_a_sender_that_starts_again_under_the_same_id_is_a_gap_and_still_heard(make_bus: Make) -> None:
    a, b = await make_bus(), await make_bus()
    inbox = Inbox(b)
    assert await a.send(b.process, {"i": 1})
    assert await a.send(b.process, {"i": 2})
    again = await make_bus(process_id=a.process)  # a process id given by its caller, used again after a restart
    assert await again.send(b.process, {"i": 3})  # its count starts at 1 again
    await until(lambda: len(inbox.messages) == 3 and inbox.gaps == [a.process])
    assert inbox.messages == [{"i": 1}, {"i": 2}, {"i": 3}]


async def test_a_local_hub_that_fails_refuses_sends_and_its_recovery_fires_on_reconnect() -> None:
    hub = LocalHub()
    a, b = LocalBus(hub), LocalBus(hub)
    inbox = Inbox(b)
    await a.start()
    await b.start()
    try:
        hub.fail()
        assert await a.send(b.process, {"i": 1}) is False
        assert not a.healthy
        assert not await a.ping()
        hub.recover()
        await until(lambda: inbox.reconnects == 1)
        assert a.healthy
        assert await a.ping()
        assert await a.send(b.process, {"i": 2})
        await until(lambda: len(inbox.messages) == 1)
        assert inbox.messages == [{"i": 2}]
        # b had never heard a: a first message that is not a's first is a gap, whether it was lost in the break
        # or after it (a resync more than needed, never one less)
        await until(lambda: inbox.gaps == [a.process])
    finally:
        await a.stop()
        await b.stop()


# ---------------------------------------------------------------------------------------------------- Redis gone


def told(caplog: pytest.LogCaptureFixture, logger: str = BUS_LOG) -> tuple[int, int]:
    """How many WARNING lines said that Redis went away, and INFO lines that it is back; none may be an ERROR or
    hold a traceback."""
    mine = [r for r in caplog.records if r.name == logger]
    assert [r.getMessage() for r in mine if r.exc_info or r.levelno >= logging.ERROR] == []
    return (sum(r.levelno == logging.WARNING and "does not answer" in r.getMessage() for r in mine),
            sum(r.levelno == logging.INFO and "answers again" in r.getMessage() for r in mine))


async def test_a_redis_gone_and_back_costs_false_sends_a_reconnect_and_one_line_each_way(
        own_redis: RedisServer, caplog: pytest.LogCaptureFixture, anyio_backend: str) -> None:
    caplog.set_level(logging.INFO, logger=BUS_LOG)
    a, b = RedisBus(own_redis.url), RedisBus(own_redis.url)
    a_inbox, b_inbox = Inbox(a), Inbox(b)
    await a.start()
    await b.start()
    try:
        assert a.healthy
        assert b.healthy
        assert await a.ping()
        assert await a.send(b.process, {"i": 0})
        own_redis.stop()
        await until(lambda: not a.healthy and not b.healthy, what="both buses seeing Redis gone")
        for i in range(5):  # each send gives up at once (the connection is refused): never a hang
            result, seconds = await timed(a.send(b.process, {"i": i}))
            assert result is False
            assert seconds < 1.5
        assert await a.ping() is False
        await asyncio.sleep(1.0)  # the subscriptions try again meanwhile (after 0.1 s, 0.2 s, 0.4 s...)
        own_redis.start()
        await until(lambda: a_inbox.reconnects == 1 and b_inbox.reconnects == 1, timeout=6.0,
                    what="both subscriptions back")
        assert a.healthy
        assert b.healthy
        assert await b.ping()
        assert await a.send(b.process, {"i": 100})
        assert await b.send(a.process, {"i": 200})
        await until(lambda: len(b_inbox.messages) == 2 and len(a_inbox.messages) == 1)
        assert b_inbox.messages == [{"i": 0}, {"i": 100}]
        assert a_inbox.messages == [{"i": 200}]
        assert b_inbox.gaps == []  # the break told the loss (on_reconnect): a's count starts anew for b
    finally:
        await a.stop()
        await b.stop()
    assert told(caplog) == (2, 2)  # one line each way for each bus


async def test_a_redis_that_stops_answering_without_closing_its_connections_is_given_up_in_bounded_time(
        own_redis: RedisServer, caplog: pytest.LogCaptureFixture, anyio_backend: str) -> None:
    caplog.set_level(logging.INFO, logger=BUS_LOG)
    a, b = RedisBus(own_redis.url, ping_every=0.3), RedisBus(own_redis.url, ping_every=0.3)
    b_inbox = Inbox(b)
    await a.start()
    await b.start()
    try:
        own_redis.pause()  # SIGSTOP: connections stay open, nothing answers (a network that drops packets)
        result, seconds = await timed(a.send(b.process, {"i": 1}))
        assert result is False
        assert seconds < 1.5
        await until(lambda: not b.healthy, timeout=3.0, what="the subscription given up")  # no pong for 0.9 s
        own_redis.resume()
        await until(lambda: b_inbox.reconnects == 1, timeout=6.0, what="the subscription back")
        assert await a.send(b.process, {"i": 2})
        await until(lambda: len(b_inbox.messages) >= 1)
        assert b_inbox.messages[-1] == {"i": 2}
    finally:
        own_redis.resume()
        await a.stop()
        await b.stop()
    down, back = told(caplog)
    assert down == 2
    assert back >= 1


async def test_a_bus_started_while_redis_is_down_subscribes_once_it_is_there(
        own_redis: RedisServer, anyio_backend: str) -> None:
    a, b = RedisBus(own_redis.url), RedisBus(own_redis.url)
    b_inbox = Inbox(b)
    own_redis.stop()
    try:
        _, seconds = await timed(b.start())
        assert seconds < 1.5
        assert not b.healthy
        own_redis.start()
        await until(lambda: b_inbox.reconnects == 1, timeout=5.0, what="the first subscription")
        assert await a.send(b.process, {"i": 1})
        await until(lambda: b_inbox.messages == [{"i": 1}])
    finally:
        await a.stop()
        await b.stop()


# ---------------------------------------------------------------------------------------------------- the counter


async def test_a_shared_counter_sums_every_process_s_sockets_of_an_address(redis_url: str, prefix: str,
                                                                          anyio_backend: str) -> None:
    client = connect(redis_url)
    one, two = SharedCounter(client, "one", prefix=prefix), SharedCounter(client, "two", prefix=prefix)
    await one.start()
    await two.start()
    try:
        assert await one.add("addr") == 1
        assert await two.add("addr") == 2
        assert await one.add("addr") == 3
        assert await two.count("addr") == 3
        assert await one.count("other") == 0
        await two.remove("addr")
        assert await one.count("addr") == 2
        assert await two.admit("addr", 3)  # the third place, taken in the other process
        assert not await one.admit("addr", 3)  # every process together holds 3: refused, nothing counted
        assert one.local("addr") == 2
        assert two.local("addr") == 1
        assert await two.admit("other", 3)
        await two.stop()  # a process that stops takes its counts away at once
        assert await one.count("addr") == 2
        assert await one.count("other") == 0
    finally:
        await one.stop()
        await two.stop()
        await client.aclose()


DYING = """
import asyncio, sys
from flametable.web.bus import connect
from flametable.web.shared import SharedCounter

async def main():
    counter = SharedCounter(connect(sys.argv[1]), "dying", prefix=sys.argv[2], ttl=1.0)
    await counter.start()
    for _ in range(3):
        await counter.add("addr")
    print("counted", flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


async def test_a_process_killed_stops_counting_once_its_ttl_has_passed(redis_url: str, prefix: str,
                                                                       anyio_backend: str) -> None:
    client = connect(redis_url)
    alive = SharedCounter(client, "alive", prefix=prefix, ttl=1.0)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    dying = await asyncio.create_subprocess_exec(sys.executable, "-c", DYING, redis_url, prefix, env=env,
                                                 stdout=asyncio.subprocess.PIPE)
    try:
        assert dying.stdout is not None
        assert await asyncio.wait_for(dying.stdout.readline(), 20) == b"counted\n"
        assert await alive.add("addr") == 4
        dying.send_signal(signal.SIGKILL)  # no word to Redis
        await dying.wait()
        assert await alive.count("addr") == 4  # until its time runs out
        start = time.monotonic()
        while await alive.count("addr") != 1:
            assert time.monotonic() - start < 2.0, "the dead process still counts"
            await asyncio.sleep(0.05)
    finally:
        if dying.returncode is None:
            dying.kill()
            await dying.wait()
        await alive.stop()
        await client.aclose()


async def test_a_counter_counts_its_own_sockets_while_redis_is_down_and_shares_them_again_once_it_is_back(
        own_redis: RedisServer, caplog: pytest.LogCaptureFixture, anyio_backend: str) -> None:
    caplog.set_level(logging.INFO, logger=SHARED_LOG)
    client_one, client_two = connect(own_redis.url), connect(own_redis.url)
    one = SharedCounter(client_one, "one", ttl=0.6)
    two = SharedCounter(client_two, "two", ttl=0.6)
    await one.start()
    await two.start()
    try:
        assert await one.admit("addr", 3)
        assert await one.admit("addr", 3)
        assert await two.admit("addr", 3)
        assert not await two.admit("addr", 3)
        own_redis.stop()
        admitted, seconds = await timed(two.admit("addr", 3))  # this process holds 1 of its own 3
        assert admitted
        assert seconds < 1.5
        assert await two.admit("addr", 3)
        answer, seconds = await timed(two.admit("addr", 3))  # 3 in this process: the per-process limit
        assert not answer
        assert seconds < 0.1
        await two.remove("addr")
        assert two.local("addr") == 2
        own_redis.start()  # an empty Redis: the heartbeats write each process's counts anew
        await until(lambda: not one._reach.down and not two._reach.down, timeout=3.0, what="Redis answering")
        await asyncio.sleep(0.3)
        assert await one.count("addr") == 4  # 2 + 2
        assert not await one.admit("addr", 4)
    finally:
        await one.stop()
        await two.stop()
        await client_one.aclose()
        await client_two.aclose()
    down, back = told(caplog, SHARED_LOG)
    assert down >= 1
    assert back >= 1
    assert down == back


async def test_a_local_counter_counts_one_process_s_sockets() -> None:
    counter = LocalCounter()
    assert await counter.admit("addr", 2)
    assert await counter.admit("addr", 2)
    assert not await counter.admit("addr", 2)
    assert await counter.add("addr") == 3
    assert await counter.count("addr") == 3
    for _ in range(3):
        await counter.remove("addr")
    assert counter.counts == {}


# ---------------------------------------------------------------------------------------------------- budgets


async def test_shared_budgets_are_one_budget_for_every_process_and_refill_with_time(
        redis_url: str, prefix: str, anyio_backend: str) -> None:
    client = connect(redis_url)
    one = SharedBudgets(client, Budgets(2.0, 5), prefix=prefix, name="logs")
    two = SharedBudgets(client, Budgets(2.0, 5), prefix=prefix, name="logs")
    try:
        assert [await one.allow("addr") for _ in range(3)] == [True] * 3
        assert [await two.allow("addr") for _ in range(2)] == [True] * 2
        assert not await one.allow("addr")
        assert not await two.allow("addr")
        assert await one.allow("another address")
        ttl = await client.pttl(f"{prefix}:logs:addr")
        assert 0 < ttl <= 3600  # forgotten once full again: 5 tokens at 2 a second, and a second more
        await asyncio.sleep(0.6)  # 1.2 tokens earned
        assert await two.allow("addr")
        assert not await one.allow("addr")
        assert one.shared
        assert two.shared
    finally:
        await client.aclose()


async def test_shared_budgets_run_their_script_again_after_redis_forgot_it(redis_url: str, prefix: str,
                                                                          anyio_backend: str) -> None:
    client = connect(redis_url)
    one = SharedBudgets(client, Budgets(0.01, 3), prefix=prefix)
    two = SharedBudgets(client, Budgets(0.01, 3), prefix=prefix)
    try:
        assert await one.allow("addr")
        assert await one.allow("addr")
        await client.script_flush()  # EVALSHA: NOSCRIPT; EVAL then
        assert await two.allow("addr")
        assert not await two.allow("addr")  # the shared bucket: the local one would still be full
        assert two.shared
    finally:
        await client.aclose()


async def test_shared_budgets_fall_back_to_this_process_s_own_while_redis_is_down(
        own_redis: RedisServer, caplog: pytest.LogCaptureFixture, anyio_backend: str) -> None:
    caplog.set_level(logging.INFO, logger=SHARED_LOG)
    client = connect(own_redis.url)
    budgets = SharedBudgets(client, Budgets(0.01, 3), retry_after=0.3)
    try:
        assert await budgets.allow("addr")
        assert budgets.shared
        own_redis.stop()
        start = time.monotonic()
        answers = [await budgets.allow("addr") for _ in range(4)]
        assert answers == [True, True, True, False]  # the local bucket: full at first, 3 at once
        assert time.monotonic() - start < 1.5
        assert not budgets.shared
        own_redis.start()
        await asyncio.sleep(0.35)
        assert await budgets.allow("addr")
        assert budgets.shared
    finally:
        await client.aclose()
    assert told(caplog, SHARED_LOG) == (1, 1)


async def test_local_budgets_are_the_process_s_budgets() -> None:
    budgets = LocalBudgets(Budgets(0.01, 2))
    assert [await budgets.allow("addr") for _ in range(3)] == [True, True, False]
    assert await budgets.allow("other")
