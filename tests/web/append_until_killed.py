"""A process that appends actions until it is killed: ``python -m tests.web.append_until_killed URL``.

It makes a room, prints ``match ID``, then appends actions from 8 concurrent tasks and prints ``appended N``
(flushed) as soon as the append of action N has returned, for ever. The test kills it with SIGKILL and then looks
for every printed action in the database."""

from __future__ import annotations

import asyncio
import itertools
import sys
import time

from flametable.web.store import MatchRow, RoomRow, SeatRow, Store


async def main(url: str) -> None:
    store = await Store.open(url)
    match = MatchRow("durable", 0, "duel", "1", "base", "hash", {}, 7, ["bot:random", "bot:random"])
    await store.create_room(RoomRow("durable", "duel", {}, "test", time.time(),
                                    [SeatRow(0, "bot:random"), SeatRow(1, "bot:random")], match))
    assert match.id is not None
    match_id = match.id
    print(f"match {match_id}", flush=True)
    counter = itertools.count()

    async def worker() -> None:
        while True:
            index = next(counter)
            await store.append_action(match_id, index, f"action {index}", index % 2)
            sys.stdout.write(f"appended {index}\n")
            sys.stdout.flush()

    await asyncio.gather(*(worker() for _ in range(8)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
