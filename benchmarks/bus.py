"""The bus between server processes (issue 22): CPU time a relayed event costs, sent and received. Run by hand.

    PYTHONPATH=src:. python -m benchmarks.bus [--messages 20000] [--chars 3000] [--rounds 3]
                                              [--redis redis://127.0.0.1:6379/7]

Two :class:`~flametable.web.bus.RedisBus` of this one process on the Redis given: the first sends ``--messages``
messages shaped as a relayed event (``{"k": "out", "conn": ...}`` with an event's text of about ``--chars``
characters, as :class:`~flametable.web.cluster.RemoteSession` sends them) to the second, 50 at a time, and the
second's handler counts them. The figure is this process's CPU time per message (``time.process_time``: both
sides, encoding, Redis' client, the envelope's checks and the delivery), which the rest of a shared machine
touches much less than the wall clock (given too; Redis' own CPU is not counted). One JSON object per round, then
the median. Whether redis-py found ``hiredis`` (its C reply parser) is said.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

from flametable.web.bus import RedisBus


def event_text(chars: int) -> str:
    """An event's text of about ``chars`` characters: JSON with quotes and accents, as views are."""
    cards = [{"name": f"Llama «{i}» \"la roja\"", "spark": i % 9, "heat": 3, "charm": 2} for i in range(chars // 70)]
    return json.dumps({"type": "event", "version": 12, "view": {"hand": cards}}, ensure_ascii=False)


async def one_round(url: str, messages: int, text: str) -> dict[str, Any]:
    got = 0
    done = asyncio.Event()
    sender = RedisBus(url, prefix="ft-bench-bus")
    receiver = RedisBus(url, prefix="ft-bench-bus")

    async def count(_message: dict[str, Any]) -> None:
        nonlocal got
        got += 1
        if got == messages:
            done.set()

    receiver.on_message(count)
    await sender.start()
    await receiver.start()
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        for start in range(0, messages, 50):
            sent = await asyncio.gather(*(sender.send(receiver.process, {"k": "out", "conn": "c" * 16}, text)
                                          for _ in range(min(50, messages - start))))
            if not all(sent):
                raise SystemExit("a message was not delivered: is Redis there?")
        await asyncio.wait_for(done.wait(), 60)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await sender.stop()
        await receiver.stop()
    return {"messages": messages, "chars": len(text), "cpu_us_per_message": round(1e6 * cpu / messages, 1),
            "wall_us_per_message": round(1e6 * wall / messages, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--chars", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    args = parser.parse_args(argv)
    try:
        import hiredis  # noqa: F401
        parser_name = "hiredis"
    except ImportError:
        parser_name = "redis-py's own (pure Python)"
    text = event_text(args.chars)
    rounds = [asyncio.run(one_round(args.redis, args.messages, text)) for _ in range(args.rounds)]
    for figures in rounds:
        print(json.dumps(figures))
    print(json.dumps({"median_cpu_us_per_message": statistics.median(r["cpu_us_per_message"] for r in rounds),
                      "reply_parser": parser_name}))


if __name__ == "__main__":
    main()
