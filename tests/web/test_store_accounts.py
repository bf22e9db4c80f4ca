"""Accounts in the store (issue 23), on SQLite and PostgreSQL: ``flametable db upgrade`` brings a database of the
rooms-only schema (0002, 0003) to 0004 with its rooms and matches as they were; a name key is one account's; a
deleted account frees its name and keeps its row (a tombstone) for the seats it held; sessions end one by one or all
together; seats are given to an account by their tokens, never taken from another account."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import sqlalchemy as sa

from flametable.bots.registry import HUMAN
from flametable.web.accounts import AccountError, Accounts, HashCost, Hasher
from flametable.web.rooms import token_hash
from flametable.web.store import AccountStore, SeatRow, Store, seat_accounts
from flametable.web.store.tables import actions, matches
from tests.web.live import SRC
from tests.web.test_store import HEAD, a_match, a_room, made, table_names, upgrade_to

pytestmark = pytest.mark.anyio

HASH = "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA"  # a PHC string: what is stored, never checked
NEW_HASH = HASH.replace("aGFz", "bmV3")


def db_upgrade(url: str) -> subprocess.CompletedProcess[str]:
    """``flametable db upgrade --db URL``, this tree's code, as an operator runs it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run([sys.executable, "-m", "flametable.cli", "db", "upgrade", "--db", url, "--lang", "en"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.mark.parametrize("revision", ["0002", "0003"])
async def test_db_upgrade_brings_a_rooms_only_database_to_accounts_with_its_rooms_and_matches_kept(
        db_url: str, revision: str) -> None:
    await upgrade_to(db_url, revision)
    old = await Store.open(db_url, migrate=False)
    try:
        waiting = a_room("r1", seats=[SeatRow(0, HUMAN, "ab" * 32), SeatRow(1, HUMAN)])
        await made(old, waiting)
        played = a_room("r2", seats=[SeatRow(0, HUMAN, "cd" * 32), SeatRow(1, "bot:hard")])
        match_id = await made(old, played)
        # the actions as that schema's server stored them (today's append also reads the rooms' owners of 0003)
        async with old.engine.begin() as connection:
            await connection.execute(actions.insert(), [
                {"match_id": match_id, "idx": 0, "notation": "play 1", "seat": 0},
                {"match_id": match_id, "idx": 1, "notation": "play 2", "seat": 1}])
            await connection.execute(matches.update().where(matches.c.id == match_id).values(
                status="over", result={"winner": 0}))
    finally:
        await old.close()
    assert "accounts" not in await table_names(db_url)

    done = db_upgrade(db_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"revision {HEAD}" in done.stdout

    assert {"accounts", "sessions", "seat_accounts"} <= await table_names(db_url)
    store = await Store.open(db_url)
    try:
        assert await store.load_room("r1") == waiting
        again = await store.load_room("r2")
        assert again is not None
        assert again.match.actions == ["play 1", "play 2"]
        assert (again.match.status, again.match.result) == ("over", {"winner": 0})
        accounts = AccountStore(store)  # and the new tables work on the old rooms
        ana = await accounts.create("Ana", "ana", HASH, 1.0)
        assert ana is not None
        assert await accounts.attach_tokens(ana.id, [("r2", "cd" * 32)]) == [("r2", 0)]
        assert await accounts.seat_holders("r2") == {0: ana.id}
    finally:
        await store.close()


async def test_a_name_key_is_one_live_account_s_and_a_deleted_account_frees_it_keeping_its_row(store: Store) -> None:
    accounts = AccountStore(store)
    ana = await accounts.create("Ana", "ana", HASH, 1.0)
    assert ana is not None
    assert await accounts.create("ANA", "ana", HASH, 2.0) is None  # the key is taken, whatever the name shown
    assert await accounts.by_key("ana") == ana

    await made(store, a_room("r1", seats=[SeatRow(0, HUMAN, token_hash("t" * 32)), SeatRow(1, "bot:hard")]))
    await accounts.attach_players(ana.id, "r1", [0])
    await accounts.delete(ana.id, 3.0)

    assert await accounts.by_key("ana") is None
    assert await accounts.names([ana.id]) == {ana.id: None}  # the tombstone: no name, no hash
    assert await accounts.seat_holders("r1") == {0: ana.id}  # the seat still names it
    async with store.engine.connect() as connection:
        row = (await connection.execute(sa.text(
            "SELECT name, name_key, password_hash, deleted_at FROM accounts WHERE id = :id"), {"id": ana.id})).one()
    assert tuple(row) == (None, None, None, 3.0)
    again = await accounts.create("ana", "ana", HASH, 4.0)  # the name is free for anyone
    assert again is not None
    assert again.id != ana.id
    assert await accounts.seat_holders("r1") == {0: ana.id}  # the new account does not inherit the seats


async def test_sessions_end_one_by_one_or_all_but_the_changer_s_with_a_password_change(store: Store) -> None:
    accounts = AccountStore(store)
    ana = await accounts.create("Ana", "ana", HASH, 1.0)
    assert ana is not None
    for name in ("s1", "s2", "s3"):
        await accounts.start_session(ana.id, name * 16, 10.0)
    found = await accounts.session("s1" * 16, since=0.0)
    assert found is not None
    assert (found.account, found.created_at) == (ana, 10.0)
    assert await accounts.session("s1" * 16, since=11.0) is None  # past its time

    await accounts.end_session("s1" * 16)
    assert await accounts.session("s1" * 16, since=0.0) is None
    assert await accounts.session_count(ana.id) == 2

    assert await accounts.change_password(ana.id, NEW_HASH, "s4" * 16, 20.0)
    assert [await accounts.session(s * 16, since=0.0) is None for s in ("s2", "s3", "s4")] == [True, True, False]
    changed = await accounts.by_key("ana")
    assert changed is not None
    assert changed.password_hash == NEW_HASH

    await accounts.start_session(ana.id, "s5" * 16, 30.0, ending="s4" * 16, expired_before=25.0)
    assert await accounts.session_count(ana.id) == 1  # s4 ended by the new sign-in (and it was past its time)
    await accounts.delete(ana.id, 40.0)
    assert await accounts.session("s5" * 16, since=0.0) is None
    assert await accounts.session_count(ana.id) == 0


async def test_a_rehash_is_kept_only_over_the_hash_it_replaces(store: Store) -> None:
    accounts = AccountStore(store)
    ana = await accounts.create("Ana", "ana", HASH, 1.0)
    assert ana is not None
    assert not await accounts.rehash(ana.id, "another hash", NEW_HASH)  # the password changed meanwhile
    assert await accounts.rehash(ana.id, HASH, NEW_HASH)
    again = await accounts.by_key("ana")
    assert again is not None
    assert again.password_hash == NEW_HASH


async def test_seats_are_given_by_their_tokens_never_taken_from_another_account(store: Store) -> None:
    accounts = AccountStore(store)
    ana = await accounts.create("Ana", "ana", HASH, 1.0)
    bea = await accounts.create("Bea", "bea", HASH, 1.0)
    assert ana is not None
    assert bea is not None
    await made(store, a_room("r1", seats=[SeatRow(0, HUMAN, token_hash("a" * 32)),
                                          SeatRow(1, HUMAN, token_hash("b" * 32))]))
    await made(store, a_room("r2", seats=[SeatRow(0, HUMAN, token_hash("c" * 32)), SeatRow(1, HUMAN)]))

    assert await accounts.attach_tokens(bea.id, [("r1", token_hash("b" * 32))]) == [("r1", 1)]
    given = await accounts.attach_tokens(ana.id, [
        ("r1", token_hash("a" * 32)), ("r1", token_hash("b" * 32)),  # Bea's seat: not taken from her
        ("r2", token_hash("c" * 32)), ("r2", token_hash("x" * 32)),  # a token of no seat
        ("r9", token_hash("a" * 32)),  # a room that is not there
    ])
    assert given == [("r1", 0), ("r2", 0)]
    assert await accounts.seat_holders("r1") == {0: ana.id, 1: bea.id}
    assert await accounts.attach_tokens(ana.id, [("r1", token_hash("a" * 32))]) == [("r1", 0)]  # again: the same

    seats = await accounts.seats_of(ana.id, since=0.0)
    assert [(s.room_id, s.player, s.seat, s.waiting) for s in seats] == [("r1", 0, 0, False), ("r2", 0, 0, True)]
    assert [s.room_id for s in await accounts.seats_of(ana.id, since=5000.0)] == ["r1"]  # r2 waits past its time


async def test_a_seat_s_token_is_replaced_for_its_account_only_and_not_in_a_closed_room(store: Store) -> None:
    accounts = AccountStore(store)
    ana = await accounts.create("Ana", "ana", HASH, 1.0)
    bea = await accounts.create("Bea", "bea", HASH, 1.0)
    assert ana is not None
    assert bea is not None
    room = a_room("r1", seats=[SeatRow(0, HUMAN, token_hash("a" * 32)), SeatRow(1, HUMAN)])
    match_id = await made(store, room)
    await accounts.attach_players(ana.id, "r1", [0])

    assert (await accounts.replace_token(bea.id, "r1", None, token_hash("n" * 32))).player is None
    assert (await accounts.replace_token(ana.id, "r1", 1, token_hash("n" * 32))).player is None  # not her seat
    assert (await accounts.replace_token(ana.id, "r1", None, token_hash("n" * 32))).player == 0
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.seats[0].token_hash == token_hash("n" * 32)

    assert await store.close_waiting(match_id, "closed")
    done = await accounts.replace_token(ana.id, "r1", None, token_hash("m" * 32))
    assert (done.player, done.closed) == (0, True)
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.seats[0].token_hash == token_hash("n" * 32)


async def test_a_room_s_seats_and_their_accounts_go_together(store: Store) -> None:
    accounts = AccountStore(store)
    ana = await accounts.create("Ana", "ana", HASH, 1.0)
    assert ana is not None
    await made(store, a_room("r1", seats=[SeatRow(0, HUMAN, token_hash("a" * 32)), SeatRow(1, HUMAN)],
                             match=a_match("r1")))
    await accounts.attach_players(ana.id, "r1", [0])
    async with store.engine.begin() as connection:
        await connection.execute(sa.text("DELETE FROM rooms WHERE id = 'r1'"))
        left = (await connection.execute(sa.select(sa.func.count()).select_from(seat_accounts))).scalar_one()
    assert left == 0


async def test_signing_in_makes_a_hash_of_older_parameters_again_with_the_current_ones(store: Store) -> None:
    before = Accounts(AccountStore(store), Hasher(HashCost(1, 1024, 1)))
    ana = await before.sign_up("Ana", "correct horse", "address")
    assert ana.password_hash.startswith("$argon2id$v=19$m=1024,t=1,p=1$")
    now = Accounts(AccountStore(store), Hasher(HashCost(2, 2048, 1)))  # the server's parameters raised
    await now.sign_in("ana", "correct horse", "address")
    again = await AccountStore(store).by_key("ana")
    assert again is not None
    assert again.password_hash.startswith("$argon2id$v=19$m=2048,t=2,p=1$")
    assert (await now.sign_in("ANA", "correct horse", "address")).id == ana.id  # the same password still
    with pytest.raises(AccountError, match="wrong"):
        await now.sign_in("ana", "correct horsE", "address")
