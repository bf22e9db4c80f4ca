"""The server's storage, on SQLite and on PostgreSQL: what is stored comes back as it was, an action is durable
once its append returns, appends arriving together share one commit, and the writes keep their order."""

from __future__ import annotations

import asyncio
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

import flametable
from flametable.bots.registry import HUMAN
from flametable.web import store as store_module
from flametable.web.rooms import Hall
from flametable.web.store import (
    Conflict,
    MatchRow,
    RoomRow,
    SeatRow,
    Store,
    StoreError,
    UnsupportedDatabase,
    database_url,
    default_url,
    make_engine,
    shown_url,
    upgrade,
)

pytestmark = pytest.mark.anyio

TABLES = {"rooms", "seats", "matches", "actions", "room_owners", "accounts", "sessions", "seat_accounts",
          "rated_rooms", "ratings", "rating_history", "seeks", "challenges"}
HEAD = "0009"  # the latest migration
MAX_SEED = 2**64 - 1


def a_match(room_id: str = "r1", number: int = 0, seed: int = 5, **changes: Any) -> MatchRow:
    match = MatchRow(room_id=room_id, number=number, game="duel", rules_version="3", content_id="base",
                     content_hash="ab" * 32, options={"mode": "short", "deck": [1, 2]}, seed=seed,
                     players=[HUMAN, "bot:hard"], first_player=0, setup={"hands": [["a", "b"], ["c"]]})
    for name, value in changes.items():
        setattr(match, name, value)
    return match


def a_room(room_id: str = "r1", *, creator: str = "client-a", created_at: float = 1000.0,
           seats: list[SeatRow] | None = None, match: MatchRow | None = None) -> RoomRow:
    return RoomRow(id=room_id, game="duel", options={"mode": "short"}, creator=creator, created_at=created_at,
                   seats=seats if seats is not None else [SeatRow(0, HUMAN), SeatRow(1, "bot:hard")],
                   match=match or a_match(room_id))


async def made(store: Store, room: RoomRow) -> int:
    await store.create_room(room)
    assert room.match.id is not None
    return room.match.id


async def table_names(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            return set(await connection.run_sync(lambda c: sa.inspect(c).get_table_names()))
    finally:
        await engine.dispose()


# --- migrations ---------------------------------------------------------------------------------------------

async def test_upgrade_makes_the_tables_of_an_empty_database_and_a_second_upgrade_changes_nothing(
        db_url: str) -> None:
    assert await table_names(db_url) == set()
    assert await upgrade(db_url) == HEAD
    assert await table_names(db_url) == TABLES | {"alembic_version"}
    assert await upgrade(db_url) == HEAD
    engine = make_engine(db_url)
    try:
        async with engine.connect() as connection:
            versions = (await connection.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
    finally:
        await engine.dispose()
    assert [tuple(v) for v in versions] == [(HEAD,)]


async def upgrade_to(url: str, revision: str) -> None:
    """Migrate the database at ``url`` to ``revision`` only (as a server of that time left it)."""
    from alembic import command

    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda c: command.upgrade(store_module.alembic_config(c), revision))
    finally:
        await engine.dispose()


async def index_names(url: str, table: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as connection:
            found = await connection.run_sync(lambda c: sa.inspect(c).get_indexes(table))
            return {str(i["name"]) for i in found}
    finally:
        await engine.dispose()


async def test_a_database_of_the_first_migration_is_upgraded_with_its_rooms_kept(db_url: str) -> None:
    await upgrade_to(db_url, "0001")
    old = await Store.open(db_url, migrate=False)
    try:
        room = a_room(seats=[SeatRow(0, HUMAN, "ab" * 32), SeatRow(1, HUMAN)])
        await made(old, room)
    finally:
        await old.close()
    assert "ix_matches_status" not in await index_names(db_url, "matches")
    assert await upgrade(db_url) == HEAD
    assert "ix_matches_status" in await index_names(db_url, "matches")
    opened = await Store.open(db_url)
    try:
        assert await opened.load_room("r1") == room
        assert [r.id for r in await opened.waiting_rooms()] == ["r1"]
    finally:
        await opened.close()


async def test_the_tables_the_store_uses_are_the_ones_the_migrations_make(db_url: str) -> None:
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as connection:
            diff = await connection.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), store_module.metadata))
    finally:
        await engine.dispose()
    assert diff == []


async def test_open_without_migrate_leaves_the_database_alone(db_url: str) -> None:
    opened = await Store.open(db_url, migrate=False)
    try:
        assert await opened.ping()
        assert await table_names(db_url) == set()
    finally:
        await opened.close()


# --- rooms, seats and matches -------------------------------------------------------------------------------

async def test_a_room_comes_back_as_it_was_made(store: Store) -> None:
    room = a_room(created_at=1712345678.25)
    match_id = await made(store, room)
    loaded = await store.load_room("r1")
    assert loaded == room
    assert loaded is not room
    assert loaded.match.id == match_id
    assert loaded.match.actions == []


async def test_an_unknown_room_or_match_is_none(store: Store) -> None:
    await made(store, a_room())
    assert await store.load_room("nowhere") is None
    assert await store.load_match("nowhere", 0) is None
    assert await store.load_match("r1", 1) is None


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, 2**63, MAX_SEED])
async def test_seeds_come_back_whole_up_to_2_to_the_64_minus_1(store: Store, seed: int) -> None:
    await made(store, a_room(match=a_match(seed=seed)))
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.match.seed == seed


async def test_no_setup_and_no_result_come_back_as_none(store: Store) -> None:
    await made(store, a_room(match=a_match(setup=None)))
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert (loaded.setup, loaded.result) == (None, None)


async def test_a_room_id_taken_twice_is_a_conflict(store: Store) -> None:
    await made(store, a_room())
    with pytest.raises(Conflict):
        await store.create_room(a_room())
    assert await store.waiting_rooms() != []  # the first one is whole


async def test_a_seat_is_claimed_once_and_keeps_only_the_hash_it_was_given(store: Store) -> None:
    room = a_room(seats=[SeatRow(0, HUMAN), SeatRow(1, HUMAN)])
    await made(store, room)
    token = "the-secret-token-of-seat-0"
    digest = hashlib.sha256(token.encode()).hexdigest()
    assert await store.claim_seat("r1", 0, digest)
    assert not await store.claim_seat("r1", 0, hashlib.sha256(b"another").hexdigest())
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.seats == [SeatRow(0, HUMAN, digest), SeatRow(1, HUMAN, None)]
    async with store.engine.connect() as connection:
        stored = [str(value) for table in (store_module.rooms, store_module.seats, store_module.matches)
                  for row in (await connection.execute(sa.select(table))).all() for value in row]
    assert digest in stored
    assert not any(token in value for value in stored)


async def test_a_bot_seat_or_an_unknown_one_cannot_be_claimed(store: Store) -> None:
    await made(store, a_room())
    assert not await store.claim_seat("r1", 1, "h" * 64)  # a bot's
    assert not await store.claim_seat("r1", 2, "h" * 64)
    assert not await store.claim_seat("nowhere", 0, "h" * 64)


async def test_concurrent_claims_of_one_seat_give_it_once(store: Store) -> None:
    await made(store, a_room())
    claims = await asyncio.gather(*(store.claim_seat("r1", 0, f"{i:064x}") for i in range(10)))
    assert claims.count(True) == 1
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.seats[0].token_hash == f"{claims.index(True):064x}"


async def test_a_rematch_becomes_the_rooms_current_match_and_the_first_stays(store: Store) -> None:
    first_id = await made(store, a_room())
    await store.append_action(first_id, 0, "play 1", 0, status="over", result={"winner": 0})
    rematch = a_match(number=1, seed=MAX_SEED, first_player=1, players=["bot:hard", HUMAN])
    await store.start_match(rematch)
    assert rematch.id is not None
    assert rematch.id != first_id
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.match == rematch
    first = await store.load_match("r1", 0)
    assert first is not None
    assert (first.id, first.actions, first.status, first.result) == (first_id, ["play 1"], "over", {"winner": 0})


async def test_a_rematch_of_an_unknown_room_or_with_a_number_taken_fails(store: Store) -> None:
    await made(store, a_room())
    with pytest.raises(StoreError):
        await store.start_match(a_match(room_id="nowhere", number=1))
    with pytest.raises(Conflict):
        await store.start_match(a_match(number=0))
    loaded = await store.load_room("r1")
    assert loaded is not None
    assert loaded.match.number == 0


# --- the action log -----------------------------------------------------------------------------------------

async def test_actions_come_back_in_order_and_the_last_one_ends_the_match(store: Store) -> None:
    match_id = await made(store, a_room())
    for i in range(5):
        await store.append_action(match_id, i, f"play {i}", i % 2)
    await store.append_action(match_id, 5, "play 5", 1, status="over", result={"winner": 1, "score": [3, 7]})
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert loaded.actions == [f"play {i}" for i in range(6)]
    assert (loaded.status, loaded.result) == ("over", {"winner": 1, "score": [3, 7]})


async def test_an_action_index_taken_twice_is_a_conflict(store: Store) -> None:
    match_id = await made(store, a_room())
    await store.append_action(match_id, 0, "first", 0)
    with pytest.raises(Conflict) as caught:
        await store.append_action(match_id, 0, "second", 1)
    assert isinstance(caught.value.__cause__, sa.exc.IntegrityError)
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert loaded.actions == ["first"]


async def test_an_action_of_an_unknown_match_is_an_error_but_no_conflict(store: Store) -> None:
    with pytest.raises(StoreError) as caught:
        await store.append_action(999, 0, "play", 0)
    assert not isinstance(caught.value, Conflict)


async def test_appends_arriving_together_share_their_commits(store: Store) -> None:
    match_id = await made(store, a_room())
    commits = 0

    def counted(_connection: Any) -> None:
        nonlocal commits
        commits += 1

    sa.event.listen(store.engine.sync_engine, "commit", counted)
    try:
        await asyncio.gather(*(store.append_action(match_id, i, f"play {i}", i % 2) for i in range(200)))
    finally:
        sa.event.remove(store.engine.sync_engine, "commit", counted)
    assert 1 <= commits <= 10, commits
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert loaded.actions == [f"play {i}" for i in range(200)]


async def test_a_conflict_in_a_batch_fails_only_its_caller(store: Store) -> None:
    match_id = await made(store, a_room())
    await store.append_action(match_id, 0, "first", 0)
    appends = [store.append_action(match_id, i, f"play {i}", 0) for i in range(1, 20)]
    appends.insert(7, store.append_action(match_id, 0, "again", 1))
    outcomes = await asyncio.gather(*appends, return_exceptions=True)
    assert [type(o) for o in outcomes] == [type(None)] * 7 + [Conflict] + [type(None)] * 12
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert loaded.actions == ["first"] + [f"play {i}" for i in range(1, 20)]


async def test_two_appends_of_one_index_in_one_batch_keep_the_first(store: Store) -> None:
    match_id = await made(store, a_room())
    outcomes = await asyncio.gather(store.append_action(match_id, 0, "mine", 0),
                                    store.append_action(match_id, 0, "theirs", 1), return_exceptions=True)
    assert outcomes[0] is None
    assert isinstance(outcomes[1], Conflict)
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert loaded.actions == ["mine"]


async def test_an_undo_is_done_after_the_appends_asked_for_before_it_and_before_those_after(store: Store) -> None:
    match_id = await made(store, a_room())
    await asyncio.gather(
        *(store.append_action(match_id, i, f"play {i}", 0) for i in range(10)),
        store.undo(match_id, keep=4, base=6),
        *(store.append_action(match_id, i, f"again {i}", 1) for i in range(4, 7)),
    )
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert loaded.actions == [f"play {i}" for i in range(4)] + [f"again {i}" for i in range(4, 7)]
    assert loaded.base == 6


async def test_undo_deletes_from_the_index_kept_on(store: Store) -> None:
    match_id = await made(store, a_room())
    for i in range(5):
        await store.append_action(match_id, i, f"play {i}", 0)
    await store.undo(match_id, keep=3, base=2)
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert (loaded.actions, loaded.base) == (["play 0", "play 1", "play 2"], 2)
    with pytest.raises(StoreError):
        await store.undo(999, keep=0, base=1)


async def test_a_resignation_ends_the_match_after_its_pending_actions(store: Store) -> None:
    match_id = await made(store, a_room())
    await asyncio.gather(store.append_action(match_id, 0, "play 0", 0),
                         store.end_match(match_id, "resigned", {"resigned": 1}))
    loaded = await store.load_match("r1", 0)
    assert loaded is not None
    assert (loaded.actions, loaded.status, loaded.result) == (["play 0"], "resigned", {"resigned": 1})
    with pytest.raises(StoreError):
        await store.end_match(999, "resigned", {"resigned": 0})


# --- the lobby ----------------------------------------------------------------------------------------------

async def test_waiting_rooms_are_the_newest_playing_ones_with_an_open_persons_seat(store: Store) -> None:
    open_ids = {}
    for i in range(4):
        open_ids[f"open{i}"] = await made(store, a_room(f"open{i}", created_at=100.0 + i))
    await made(store, a_room("full", created_at=500.0))
    assert await store.claim_seat("full", 0, "f" * 64)
    await made(store, a_room("bots", created_at=501.0, seats=[SeatRow(0, "bot:easy"), SeatRow(1, "bot:hard")]))
    ended = await made(store, a_room("ended", created_at=502.0))
    await store.end_match(ended, "resigned", {"resigned": 0})
    await store.append_action(open_ids["open3"], 0, "play 0", 0)

    waiting = await store.waiting_rooms()
    assert [r.id for r in waiting] == ["open3", "open2", "open1", "open0"]
    assert all(r.match.actions == [] for r in waiting)
    assert waiting[0].match.id == open_ids["open3"]
    assert waiting[0] == RoomRow(id="open3", game="duel", options={"mode": "short"}, creator="client-a",
                                 created_at=103.0, seats=[SeatRow(0, HUMAN), SeatRow(1, "bot:hard")],
                                 match=a_match("open3", id=open_ids["open3"]))
    assert [r.id for r in await store.waiting_rooms(limit=2)] == ["open3", "open2"]


async def test_a_room_the_hall_makes_with_an_open_seat_is_listed_and_joined_through_the_store(store: Store) -> None:
    hall = Hall(store, seeds=lambda: 1)
    room, _ = await hall.create("duel", None, ["me", "open"], "client-a")
    assert [r.id for r in await store.waiting_rooms()] == [room.id]
    _, player, token, _brought = await hall.join(room.id, None)
    assert (player, len(token) >= 32) == (1, True)
    assert await store.waiting_rooms() == []
    loaded = await store.load_room(room.id)
    assert loaded is not None
    assert [s.token_hash is not None for s in loaded.seats] == [True, True]


async def test_a_room_waits_again_once_its_rematch_plays(store: Store) -> None:
    ended = await made(store, a_room())
    await store.append_action(ended, 0, "play 0", 0, status="over", result={"winner": 0})
    assert await store.waiting_rooms() == []
    await store.start_match(a_match(number=1))
    assert [r.match.number for r in await store.waiting_rooms()] == [1]


async def test_open_rooms_by_counts_a_creators_rooms_still_playing(store: Store) -> None:
    ids = [await made(store, a_room(f"r{i}", creator="a")) for i in range(3)]
    await made(store, a_room("other", creator="b"))
    assert await store.open_rooms_by("a") == 3
    await store.append_action(ids[0], 0, "play 0", 0, status="over", result={"winner": 0})
    await store.end_match(ids[1], "resigned", {"resigned": 1})
    assert await store.open_rooms_by("a") == 1
    assert await store.open_rooms_by("b") == 1
    assert await store.open_rooms_by("nobody") == 0


async def test_open_rooms_by_counts_a_creators_all_bot_rooms_apart(store: Store) -> None:
    """A room whose seats are all bots counts toward its creator's all-bot rooms (issue 21, point 5), never
    toward its rooms with a person, open seats included."""
    bots = [SeatRow(0, "bot:hard"), SeatRow(1, "bot:easy")]
    ids = [await made(store, a_room(f"b{i}", seats=bots)) for i in range(3)]
    await made(store, a_room("person"))
    await made(store, a_room("open", seats=[SeatRow(0, HUMAN), SeatRow(1, "bot:hard", None)]))
    await made(store, a_room("other", creator="b", seats=bots))
    assert await store.open_rooms_by("client-a", bots_only=True) == 3
    assert await store.open_rooms_by("client-a") == 2
    await store.append_action(ids[0], 0, "play 0", 0, status="over", result={"winner": 0})
    assert await store.open_rooms_by("client-a", bots_only=True) == 2
    assert await store.open_rooms_by("b", bots_only=True) == 1
    assert await store.open_rooms_by("b") == 0


# --- failures -----------------------------------------------------------------------------------------------

async def test_a_database_that_does_not_answer(anyio_backend: str) -> None:
    url = "postgresql://postgres@127.0.0.1:1/nothing"
    with pytest.raises(StoreError) as caught:
        await Store.open(url)
    assert caught.value.__cause__ is not None
    with pytest.raises(StoreError):
        await upgrade(url)
    unmigrated = await Store.open(url, migrate=False)
    try:
        assert not await unmigrated.ping()
        with pytest.raises(StoreError) as failed:
            await unmigrated.load_room("r1")
        assert failed.value.__cause__ is not None
        with pytest.raises(StoreError):
            await unmigrated.append_action(1, 0, "play", 0)
        with pytest.raises(StoreError):
            await unmigrated.create_room(a_room())
    finally:
        await unmigrated.close()


async def test_a_failed_write_rolls_back_and_the_writer_goes_on(store: Store) -> None:
    await made(store, a_room())
    room = a_room("two", seats=[SeatRow(0, HUMAN), SeatRow(0, HUMAN)])  # the same seat twice
    with pytest.raises(StoreError):
        await store.create_room(room)
    assert await store.load_room("two") is None  # not half made
    async with store.engine.begin() as connection:
        await connection.execute(sa.text("DROP TABLE actions"))
    with pytest.raises(StoreError) as caught:
        await store.append_action(1, 0, "play", 0)
    assert not isinstance(caught.value, Conflict)
    assert isinstance(caught.value.__cause__, sa.exc.SQLAlchemyError)
    assert await store.claim_seat("r1", 0, "c" * 64)


async def test_writes_after_close_are_refused(db_url: str, anyio_backend: str) -> None:
    opened = await Store.open(db_url)
    await opened.close()
    await opened.close()
    with pytest.raises(StoreError):
        await opened.append_action(1, 0, "play", 0)
    with pytest.raises(StoreError):
        await opened.create_room(a_room())


async def test_reads_after_close_are_refused_and_open_no_connection(db_url: str, anyio_backend: str) -> None:
    """A task still reading once the server's store is closed (the shutdown's leak, issue 24) gets
    :class:`StoreError`: no connection is opened on the disposed engine, none left for the garbage collector."""
    opened = await Store.open(db_url)
    await made(opened, a_room())
    await opened.close()
    connected: list[object] = []
    sa.event.listen(opened.engine.sync_engine, "connect", lambda dbapi, _record: connected.append(dbapi))
    with pytest.raises(StoreError, match="the store is closed"):
        await opened.load_room("r1")
    with pytest.raises(StoreError, match="the store is closed"):
        await opened.waiting_rooms()
    assert not await opened.ping()
    assert connected == []


async def test_close_finishes_the_writes_asked_for(db_url: str, anyio_backend: str) -> None:
    opened = await Store.open(db_url)
    match_id = await made(opened, a_room())
    pending = [asyncio.ensure_future(opened.append_action(match_id, i, f"play {i}", 0)) for i in range(20)]
    await asyncio.sleep(0)
    await opened.close()
    await asyncio.gather(*pending)
    reopened = await Store.open(db_url)
    try:
        loaded = await reopened.load_match("r1", 0)
        assert loaded is not None
        assert len(loaded.actions) == 20
    finally:
        await reopened.close()


# --- URLs and SQLite ----------------------------------------------------------------------------------------

def test_urls_are_given_their_async_drivers(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    assert database_url(str(path)) == f"sqlite+aiosqlite:///{path}"
    assert database_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert database_url("sqlite+aiosqlite:////a/b.db") == "sqlite+aiosqlite:////a/b.db"
    assert database_url("postgresql://u:pw@h:5433/d") == "postgresql+asyncpg://u:pw@h:5433/d"
    assert database_url("postgres://u@h/d") == "postgresql+asyncpg://u@h/d"
    assert database_url("postgresql+asyncpg://u@h/d") == "postgresql+asyncpg://u@h/d"


@pytest.mark.parametrize("text", ["mysql://u@h/d", "postgresql+psycopg2://u@h/d", "http://example.com", "", "://"])
def test_other_databases_are_refused_by_name(text: str) -> None:
    with pytest.raises(UnsupportedDatabase, match="unsupported or malformed database URL") as caught:
        database_url(text)
    assert caught.value.url == text.strip()


def test_the_default_database_is_a_file_in_the_data_directory(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLAMETABLE_DATA_DIR", str(tmp_path / "data"))
    assert default_url() == f"sqlite+aiosqlite:///{tmp_path / 'data' / 'flametable.db'}"
    monkeypatch.delenv("FLAMETABLE_DATA_DIR")
    assert default_url().endswith("/flametable.db")
    assert str(tmp_path) not in default_url()


async def test_sqlite_is_durable_at_each_commit_and_checks_foreign_keys(tmp_path: Path, anyio_backend: str) -> None:
    path = tmp_path / "not" / "made" / "yet.db"
    opened = await Store.open(str(path))
    try:
        assert path.exists()
        async with opened.engine.connect() as connection:
            pragmas = [(await connection.execute(sa.text(f"PRAGMA {name}"))).scalar_one()
                       for name in ("journal_mode", "synchronous", "foreign_keys")]
        assert pragmas == ["wal", 2, 1]  # synchronous 2: FULL
    finally:
        await opened.close()


# --- durability ---------------------------------------------------------------------------------------------

def _killed_after_appends(url: str, tmp_path: Path, wanted: int = 60) -> tuple[int, list[int]]:
    """Run ``tests.web.append_until_killed`` on ``url``, SIGKILL it once it has printed ``wanted`` appends:
    (its match's id, the indexes it printed)."""
    root = Path(flametable.__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root / "src"), str(root)])}
    child = subprocess.Popen([sys.executable, "-u", "-m", "tests.web.append_until_killed", url],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    assert child.stdout is not None
    printed: list[int] = []
    match_id = -1
    deadline = time.monotonic() + 60
    try:
        while len(printed) < wanted and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            word, _, value = line.strip().partition(" ")
            if word == "match":
                match_id = int(value)
            elif word == "appended":
                printed.append(int(value))
        child.send_signal(signal.SIGKILL)
        rest, errors = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL, errors
    printed += [int(line.split()[1]) for line in rest.splitlines() if line.startswith("appended ")]
    assert len(printed) >= wanted, errors
    return match_id, printed


async def test_every_action_whose_append_returned_survives_a_kill(db_url: str, tmp_path: Path,
                                                                  anyio_backend: str) -> None:
    await upgrade(db_url)
    match_id, printed = await asyncio.to_thread(_killed_after_appends, db_url, tmp_path)
    reopened = await Store.open(db_url)
    try:
        loaded = await reopened.load_match("durable", 0)
    finally:
        await reopened.close()
    assert loaded is not None
    assert loaded.id == match_id
    assert set(printed) <= {int(n.split()[1]) for n in loaded.actions}
    assert loaded.actions == [f"action {i}" for i in range(len(loaded.actions))]  # no hole


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql+asyncpg://u:hunter2@h:5432/d", "postgresql+asyncpg://u:***@h:5432/d"),
    ("postgresql://u:hunter2@h:port/d", "postgresql://u:***@h:port/d"),  # malformed: hidden all the same
    ("sqlite+aiosqlite:////a/b.db", "sqlite+aiosqlite:////a/b.db"),
])
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert shown_url(url) == shown
