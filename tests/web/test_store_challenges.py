"""Direct challenges in the store (issue 24, point 6), on SQLite and PostgreSQL: a challenge is pending until one
answer is taken (accept or decline by the challenged, cancel by the challenger), exactly one of several given at
once, by one process or two; an accepted challenge keeps its room, or goes back to pending when its room could not
be made."""

from __future__ import annotations

import asyncio

import pytest

from flametable.web.store import AccountStore, ChallengeStore, Store
from flametable.web.store.challenges import ACCEPTED, CANCELLED, DECLINED, PENDING
from tests.web.test_store_accounts import HASH

pytestmark = pytest.mark.anyio


async def two_accounts(store: Store) -> tuple[int, int]:
    accounts = AccountStore(store)
    ana, bea = await accounts.create("Ana", "ana", HASH, 1.0), await accounts.create("Bea", "bea", HASH, 1.0)
    assert ana is not None
    assert bea is not None
    return ana.id, bea.id


async def test_a_challenge_is_listed_for_both_until_it_is_answered(store: Store) -> None:
    ana, bea = await two_accounts(store)
    challenges = ChallengeStore(store)
    await challenges.add("c1", ana, bea, "duel", {"mode": "decks"}, {"kind": "turn", "days": 3}, True, 10.0)
    made = await challenges.get("c1")
    assert made is not None
    assert (made.from_name, made.to_name, made.status, made.rated, made.clock) == (
        "Ana", "Bea", PENDING, True, {"kind": "turn", "days": 3})
    assert [c.id for c in await challenges.of(ana)] == [c.id for c in await challenges.of(bea)] == ["c1"]
    assert await challenges.pending_count(ana) == 1
    assert not await challenges.settle("c1", DECLINED, to_id=ana)  # not Ana's to decline
    assert not await challenges.settle("c1", CANCELLED, from_id=bea)  # nor Bea's to cancel
    assert await challenges.settle("c1", DECLINED, to_id=bea)
    assert await challenges.of(ana) == []
    assert await challenges.pending_count(ana) == 0


async def test_an_accepted_challenge_keeps_its_room_or_waits_again(store: Store) -> None:
    ana, bea = await two_accounts(store)
    challenges = ChallengeStore(store)
    await challenges.add("c1", ana, bea, "duel", {}, None, False, 10.0)
    assert await challenges.settle("c1", ACCEPTED, to_id=bea)
    assert await challenges.of(ana) == []  # accepted, no room yet
    await challenges.reopen("c1")  # the room could not be made
    assert [c.status for c in await challenges.of(bea)] == [PENDING]
    assert await challenges.settle("c1", ACCEPTED, to_id=bea)
    await challenges.made_room("c1", "room-1")
    await challenges.reopen("c1")  # a room made: it stays accepted
    assert [(c.status, c.room_id) for c in await challenges.of(ana)] == [(ACCEPTED, "room-1")]


async def test_of_answers_given_at_once_exactly_one_is_taken(store: Store) -> None:
    ana, bea = await two_accounts(store)
    challenges = ChallengeStore(store)
    for i in range(10):
        await challenges.add(f"c{i}", ana, bea, "duel", {}, None, False, float(i))
    answers = await asyncio.gather(*(answer for i in range(10) for answer in (
        challenges.settle(f"c{i}", ACCEPTED, to_id=bea), challenges.settle(f"c{i}", ACCEPTED, to_id=bea),
        challenges.settle(f"c{i}", CANCELLED, from_id=ana))))
    assert [sum(answers[3 * i:3 * i + 3]) for i in range(10)] == [1] * 10


async def test_two_processes_accepting_one_challenge_take_it_once(two: tuple[Store, Store]) -> None:
    first, second = two
    ana, bea = await two_accounts(first)
    await ChallengeStore(first).add("c1", ana, bea, "duel", {}, None, False, 1.0)
    taken = await asyncio.gather(ChallengeStore(first).settle("c1", ACCEPTED, to_id=bea),
                                 ChallengeStore(second).settle("c1", ACCEPTED, to_id=bea))
    assert sorted(taken) == [False, True]
