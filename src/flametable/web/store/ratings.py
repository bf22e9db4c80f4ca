"""Ratings in the store (issue 23): the rooms made rated, one Glicko-2 rating per account per game, and a history
row per rated match per account (the tables ``rated_rooms``, ``ratings`` and ``rating_history`` of migration 0005).

**Rated only when both asked.** A room is rated when its signed-in creator asked for it (:meth:`RatingStore.
make_rated`, its row in ``rated_rooms``) and another signed-in account joined it asking too (:meth:`RatingStore.
accept`, ``joiner_id``). A match of such a room is rated once it ends (``over`` or ``resigned``) if, read in the
rating's own transaction, both of its seats are people's and belong to exactly those two accounts: a bot's seat, a
guest's, a room nobody joined asking, a match closed unplayed are never rated.

**Exactly once, whatever process asks.** :meth:`RatingStore.rate` does everything in one transaction: the two
accounts' rating rows are made if new and locked (PostgreSQL: ``FOR UPDATE``, in the accounts' order, so two matches
of one account rated at once never lose an update; SQLite: its write lock, taken by that first write), then the
match's history rows are looked for under the lock: if they are there, the match was rated already and nothing is
written (the rows found are returned). Two processes (or two calls of one) rating the same match at once: the second
waits for the first's commit and finds its rows. The history's key (match, account) is the last guard: a second set
of rows for a match cannot be stored.

Writes go through the store's one writer (:mod:`flametable.web.store`); reads use pooled connections. A database
failure is :class:`~flametable.web.store.StoreError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from flametable.bots.registry import HUMAN
from flametable.service.ratings import PROVISIONAL_RD, RATING_PERIOD, SCALE, Rating, rate_match
from flametable.web.store.errors import database_errors
from flametable.web.store.queries import Store
from flametable.web.store.tables import (
    accounts,
    matches,
    rated_rooms,
    rating_history,
    ratings,
    rooms,
    seat_accounts,
    seats,
)

ENDED = ("over", "resigned", "timeout", "forfeit")
"""The statuses of a match played to its end (the rules', a resignation, a clock at zero, a player who left and
the other claimed the win: issue 24): the ones rated. An aborted match (no first decision in time) is not."""
BOARD_SIZE = 100
"""The leaderboard lists the best this many non-provisional ratings."""


@dataclass(frozen=True)
class RatedRoom:
    """A room made rated: its creator's account, and the account that joined asking for a rated match too (None
    while nobody did)."""

    room_id: str
    creator_id: int
    joiner_id: int | None


@dataclass(frozen=True)
class Change:
    """One account's rating change in one rated match: its score (1, 0.5, 0), its rating before (as stored then,
    its time not kept) and after (at ``at``, when the match was rated)."""

    match_id: int
    account_id: int
    game: str
    opponent_id: int
    score: float
    before: Rating
    after: Rating
    at: float


@dataclass(frozen=True)
class Rated:
    """What :meth:`RatingStore.rate` did: the match's changes by seat (seat 0's first), and whether this call made
    them (``fresh``; False: the match was rated already, by this process or another)."""

    changes: tuple[Change, Change]
    fresh: bool


@dataclass(frozen=True)
class Standing:
    """An account's rating in a game as stored: the rating, how many rated matches it played."""

    account_id: int
    game: str
    rating: Rating
    matches: int


@dataclass(frozen=True)
class Played:
    """A finished match (``over`` or ``resigned``) of an account's seat, for its profile: the opponent is an account
    (``opponent_id``; its ``opponent_name`` None once deleted), a bot (``opponent_kind``) or a guest (neither)."""

    room_id: str
    number: int
    match_id: int
    game: str
    status: str
    result: dict[str, Any]
    seat: int  # the account's seat in the match
    opponent_kind: str  # HUMAN or a bot spec
    opponent_id: int | None
    opponent_name: str | None
    created_at: float  # the room's creation (a match's end time is not stored; a rated one's is its change's ``at``)
    clock: dict[str, Any] | None = None  # the match's time control (issue 24); None: untimed

    @property
    def score(self) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss (a resignation: a loss of the resigner)."""
        return score_of(self.result, self.seat)


def score_of(result: dict[str, Any] | None, seat: int) -> float:
    """The score of ``seat`` in a match's stored result: 1 a win, 0.5 a draw (no winner), 0 a loss."""
    winner = (result or {}).get("winner")
    if winner is None:
        return 0.5
    return 1.0 if winner == seat else 0.0


def _rating(row: Any, prefix: str = "") -> Rating:
    at = row[prefix + "rated_at"] if prefix + "rated_at" in row else row[prefix + "at"]
    return Rating(float(row[prefix + "rating"]), float(row[prefix + "rd"]), float(row[prefix + "volatility"]),
                  None if at is None else float(at))


def _change(row: Any) -> Change:
    return Change(match_id=int(row["match_id"]), account_id=int(row["account_id"]), game=str(row["game"]),
                  opponent_id=int(row["opponent_id"]), score=float(row["score"]),
                  before=Rating(float(row["rating_before"]), float(row["rd_before"]),
                                float(row["volatility_before"])),
                  after=Rating(float(row["rating_after"]), float(row["rd_after"]), float(row["volatility_after"]),
                               float(row["at"])),
                  at=float(row["at"]))


def _insert(connection: AsyncConnection) -> Any:
    """The dialect's INSERT, for its ``ON CONFLICT DO NOTHING``."""
    return postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert


def _live_rd_squared(now: float) -> sa.ColumnElement[float]:
    """A rating's RD squared at ``now``: grown since its last update by one period without games per
    :data:`RATING_PERIOD` seconds (as :func:`flametable.service.ratings.grown` grows it, before its cap at 350)."""
    elapsed = sa.case((ratings.c.rated_at < now, (sa.literal(now) - ratings.c.rated_at) / RATING_PERIOD), else_=0.0)
    growth = ratings.c.volatility * SCALE
    return ratings.c.rd * ratings.c.rd + elapsed * growth * growth


def _on_board(game: str, now: float) -> list[sa.ColumnElement[bool]]:
    """The conditions of a rating listed on ``game``'s leaderboard at ``now``: a live account's, rated at least
    once, not provisional (its RD at ``now`` at most 110)."""
    return [ratings.c.game == game, ratings.c.matches > 0, accounts.c.name_key.is_not(None),
            _live_rd_squared(now) <= PROVISIONAL_RD * PROVISIONAL_RD]


class RatingStore:
    """The ratings of a :class:`Store` (made beside it: ``RatingStore(store)``; it keeps nothing of its own)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @property
    def engine(self) -> AsyncEngine:
        return self.store.engine

    # --- rated rooms ----------------------------------------------------------------------------------------

    async def make_rated(self, room_id: str, creator_id: int, now: float) -> None:
        """The room (just made by the account ``creator_id``, signed in and asking) is rated."""

        async def work(connection: AsyncConnection) -> None:
            await connection.execute(sa.insert(rated_rooms).values(room_id=room_id, creator_id=creator_id,
                                                                   joiner_id=None, created_at=now))

        await self.store._write(f"cannot make the room {room_id} rated", work)

    async def accept(self, room_id: str, joiner_id: int) -> bool:
        """The account ``joiner_id``, which just took the open seat of the rated room asking for a rated match, is
        its second player; False if the room is not rated, has its second account already, or is the joiner's own."""

        async def work(connection: AsyncConnection) -> bool:
            done = await connection.execute(sa.update(rated_rooms).where(
                rated_rooms.c.room_id == room_id, rated_rooms.c.joiner_id.is_(None),
                rated_rooms.c.creator_id != joiner_id).values(joiner_id=joiner_id))
            return done.rowcount == 1

        return await self.store._write(f"cannot give the rated room {room_id} its second account", work)

    async def rated_rooms(self, room_ids: Iterable[str]) -> dict[str, RatedRoom]:
        """The rated rooms among ``room_ids``."""
        wanted = sorted(set(room_ids))
        if not wanted:
            return {}
        with database_errors("cannot read the rated rooms"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(sa.select(rated_rooms).where(
                    rated_rooms.c.room_id.in_(wanted)))).mappings().all()
        return {str(r["room_id"]): RatedRoom(str(r["room_id"]), int(r["creator_id"]),
                                             None if r["joiner_id"] is None else int(r["joiner_id"])) for r in rows}

    async def rated_room(self, room_id: str) -> RatedRoom | None:
        return (await self.rated_rooms([room_id])).get(room_id)

    async def holders(self, room_ids: Iterable[str]) -> dict[str, dict[int, tuple[int, str | None]]]:
        """The seats of the rooms that belong to an account: room -> player -> (account id, name; None once
        deleted)."""
        wanted = sorted(set(room_ids))
        if not wanted:
            return {}
        query = (sa.select(seat_accounts.c.room_id, seat_accounts.c.player, accounts.c.id, accounts.c.name)
                 .join(accounts, accounts.c.id == seat_accounts.c.account_id)
                 .where(seat_accounts.c.room_id.in_(wanted)))
        found: dict[str, dict[int, tuple[int, str | None]]] = {}
        with database_errors("cannot read the accounts of the rooms' seats"):
            async with self.engine.connect() as connection:
                for r in await connection.execute(query):
                    found.setdefault(str(r[0]), {})[int(r[1])] = (int(r[2]), None if r[3] is None else str(r[3]))
        return found

    # --- rating a match: exactly once -----------------------------------------------------------------------

    async def rate(self, match_id: int, now: float) -> Rated | None:
        """Rate the match ``match_id`` if it is a rated match that ended (see the module's doc), in one transaction,
        at most once whoever asks: its two changes (``fresh`` False when it was rated already, nothing written);
        None for a match that is not rated (or not ended)."""

        async def work(connection: AsyncConnection) -> Rated | None:
            players = await self._players(connection, match_id)
            if players is None:
                return None
            game, (first, second), score_first = players
            insert = _insert(connection)
            ids = sorted({first, second})
            for account_id in ids:  # the rows of new players, at the defaults: the first write (SQLite's lock)
                await connection.execute(insert(ratings).values(
                    account_id=account_id, game=game, rating=Rating().rating, rd=Rating().rd,
                    volatility=Rating().volatility, rated_at=None, matches=0).on_conflict_do_nothing())
            held: dict[int, Standing] = {}
            for account_id in ids:  # locked one by one in the accounts' order (no deadlock between two matches)
                row = (await connection.execute(sa.select(ratings).where(
                    ratings.c.account_id == account_id, ratings.c.game == game).with_for_update())).mappings().one()
                held[account_id] = Standing(account_id, game, _rating(row), int(row["matches"]))
            done = (await connection.execute(sa.select(rating_history).where(
                rating_history.c.match_id == match_id))).mappings().all()
            if done:  # rated already (read under the lock: a rating of this match by another is committed)
                found = {int(r["account_id"]): _change(r) for r in done}
                return Rated((found[first], found[second]), fresh=False)
            a, b = held[first], held[second]
            new_a, new_b = rate_match(a.rating, b.rating, score_first, now)
            made = (Change(match_id, first, game, second, score_first, replace(a.rating, at=None), new_a, now),
                    Change(match_id, second, game, first, 1 - score_first, replace(b.rating, at=None), new_b, now))
            for change, standing in zip(made, (a, b), strict=True):
                await connection.execute(sa.update(ratings).where(
                    ratings.c.account_id == change.account_id, ratings.c.game == game).values(
                    rating=change.after.rating, rd=change.after.rd, volatility=change.after.volatility,
                    rated_at=now, matches=standing.matches + 1))
            await connection.execute(sa.insert(rating_history), [
                {"match_id": match_id, "account_id": c.account_id, "game": game, "opponent_id": c.opponent_id,
                 "score": c.score, "rating_before": c.before.rating, "rd_before": c.before.rd,
                 "volatility_before": c.before.volatility, "rating_after": c.after.rating, "rd_after": c.after.rd,
                 "volatility_after": c.after.volatility, "at": now} for c in made])
            return Rated(made, fresh=True)

        return await self.store._write(f"cannot rate the match {match_id}", work)

    @staticmethod
    async def _players(connection: AsyncConnection, match_id: int) -> tuple[str, tuple[int, int], float] | None:
        """The game, the accounts at seats 0 and 1 and seat 0's score of the match, if it is rated and ended."""
        match = (await connection.execute(sa.select(
            matches.c.room_id, matches.c.game, matches.c.status, matches.c.result, matches.c.first_player).where(
            matches.c.id == match_id))).mappings().first()
        if match is None or match["status"] not in ENDED or match["result"] is None:
            return None
        room_id = match["room_id"]
        rated = (await connection.execute(sa.select(rated_rooms.c.creator_id, rated_rooms.c.joiner_id).where(
            rated_rooms.c.room_id == room_id))).first()
        if rated is None or rated[1] is None or rated[0] == rated[1]:
            return None
        kinds = {int(r[0]): str(r[1]) for r in await connection.execute(
            sa.select(seats.c.player, seats.c.kind).where(seats.c.room_id == room_id))}
        holders = {int(r[0]): int(r[1]) for r in await connection.execute(
            sa.select(seat_accounts.c.player, seat_accounts.c.account_id).where(seat_accounts.c.room_id == room_id))}
        if kinds != {0: HUMAN, 1: HUMAN} or sorted(holders.values()) != sorted((int(rated[0]), int(rated[1]))) \
                or set(holders) != {0, 1}:
            return None
        first_player = int(match["first_player"])  # the room's player at seat 0
        at_seat = (holders[first_player], holders[1 - first_player])
        return str(match["game"]), at_seat, score_of(match["result"], 0)

    async def changes(self, match_id: int) -> dict[int, Change]:
        """The rating changes of the match, by account (none: not rated, or not yet)."""
        with database_errors(f"cannot read the rating changes of the match {match_id}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(sa.select(rating_history).where(
                    rating_history.c.match_id == match_id))).mappings().all()
        return {int(r["account_id"]): _change(r) for r in rows}

    async def unrated(self, limit: int = 1000) -> list[int]:
        """Ended matches of rooms rated by two accounts that have no rating yet (a rating that failed: retried at
        start-up), the oldest first."""
        query = (sa.select(matches.c.id).select_from(matches)
                 .join(rated_rooms, rated_rooms.c.room_id == matches.c.room_id)
                 .where(rated_rooms.c.joiner_id.is_not(None), matches.c.status.in_(ENDED),
                        ~sa.exists().where(rating_history.c.match_id == matches.c.id))
                 .order_by(matches.c.id).limit(limit))
        with database_errors("cannot list the matches still to rate"):
            async with self.engine.connect() as connection:
                return [int(r[0]) for r in await connection.execute(query)]

    # --- reading ratings ------------------------------------------------------------------------------------

    async def standings(self, account_ids: Iterable[int], game: str | None = None) -> list[Standing]:
        """The stored ratings of the accounts (in ``game``, else in every game); a new player has none."""
        wanted = sorted(set(account_ids))
        if not wanted:
            return []
        query = sa.select(ratings).where(ratings.c.account_id.in_(wanted), ratings.c.matches > 0)
        if game is not None:
            query = query.where(ratings.c.game == game)
        with database_errors("cannot read ratings"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query.order_by(ratings.c.game))).mappings().all()
        return [Standing(int(r["account_id"]), str(r["game"]), _rating(r), int(r["matches"])) for r in rows]

    async def history(self, account_id: int) -> list[Change]:
        """Every rating change of the account, game by game, the oldest first."""
        with database_errors(f"cannot read the rating history of account {account_id}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(sa.select(rating_history).where(
                    rating_history.c.account_id == account_id).order_by(
                    rating_history.c.game, rating_history.c.at, rating_history.c.match_id))).mappings().all()
        return [_change(r) for r in rows]

    async def finished(self, account_id: int, limit: int | None = None) -> list[Played]:
        """The finished matches (``over``, ``resigned``) of the account's seats, the newest rooms first (a room's
        rematches the latest first); all of them without ``limit``."""
        mine = seat_accounts.alias("mine")
        theirs = seat_accounts.alias("theirs")
        other = seats.alias("other")
        query = (sa.select(matches.c.id.label("match_id"), matches.c.room_id, matches.c.number, matches.c.game,
                           matches.c.status, matches.c.result, matches.c.first_player, matches.c.clock,
                           mine.c.player,
                           rooms.c.created_at, other.c.kind.label("opponent_kind"),
                           theirs.c.account_id.label("opponent_id"), accounts.c.name.label("opponent_name"))
                 .select_from(mine)
                 .join(rooms, rooms.c.id == mine.c.room_id)
                 .join(matches, matches.c.room_id == rooms.c.id)
                 .join(other, sa.and_(other.c.room_id == rooms.c.id, other.c.player == 1 - mine.c.player))
                 .outerjoin(theirs, sa.and_(theirs.c.room_id == rooms.c.id, theirs.c.player == other.c.player))
                 .outerjoin(accounts, accounts.c.id == theirs.c.account_id)
                 .where(mine.c.account_id == account_id, matches.c.status.in_(ENDED))
                 .order_by(rooms.c.created_at.desc(), rooms.c.id, matches.c.number.desc()))
        if limit is not None:
            query = query.limit(limit)
        with database_errors(f"cannot list the matches of account {account_id}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).mappings().all()
        return [Played(room_id=str(r["room_id"]), number=int(r["number"]), match_id=int(r["match_id"]),
                       game=str(r["game"]), status=str(r["status"]), result=dict(r["result"] or {}),
                       seat=int(r["player"]) ^ int(r["first_player"]), opponent_kind=str(r["opponent_kind"]),
                       opponent_id=None if r["opponent_id"] is None else int(r["opponent_id"]),
                       opponent_name=None if r["opponent_name"] is None else str(r["opponent_name"]),
                       created_at=float(r["created_at"]),
                       clock=dict(r["clock"]) if isinstance(r["clock"], dict) else None) for r in rows]

    async def changes_of(self, account_id: int, match_ids: Sequence[int]) -> dict[int, Change]:
        """The account's rating changes in the matches ``match_ids`` (those rated), by match."""
        if not match_ids:
            return {}
        with database_errors(f"cannot read the rating changes of account {account_id}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(sa.select(rating_history).where(
                    rating_history.c.account_id == account_id,
                    rating_history.c.match_id.in_(sorted(set(match_ids)))))).mappings().all()
        return {int(r["match_id"]): _change(r) for r in rows}

    # --- the leaderboard ------------------------------------------------------------------------------------

    async def board(self, game: str, now: float, offset: int, limit: int) -> list[tuple[int, str, Rating]]:
        """Places ``offset + 1`` to ``offset + limit`` of ``game``'s leaderboard at ``now`` (within the best
        :data:`BOARD_SIZE`): each account's id, name and stored rating, the best first (equal ratings: the older
        account first)."""
        limit = max(0, min(limit, BOARD_SIZE - offset))
        if limit == 0:
            return []
        query = (sa.select(ratings, accounts.c.name).join(accounts, accounts.c.id == ratings.c.account_id)
                 .where(*_on_board(game, now)).order_by(ratings.c.rating.desc(), ratings.c.account_id)
                 .offset(offset).limit(limit))
        with database_errors(f"cannot read the leaderboard of {game}"):
            async with self.engine.connect() as connection:
                rows = (await connection.execute(query)).mappings().all()
        return [(int(r["account_id"]), str(r["name"]), _rating(r)) for r in rows]

    async def board_count(self, game: str, now: float) -> int:
        """How many ratings of ``game`` stand on its leaderboard at ``now`` (all of them, past the best 100 too)."""
        query = (sa.select(sa.func.count()).select_from(ratings).join(accounts, accounts.c.id == ratings.c.account_id)
                 .where(*_on_board(game, now)))
        with database_errors(f"cannot count the leaderboard of {game}"):
            async with self.engine.connect() as connection:
                return int((await connection.execute(query)).scalar_one())

    async def place(self, account_id: int, game: str, now: float) -> int | None:
        """The account's place in ``game``'s ranking at ``now`` (1: the best; past 100 too), or None while its
        rating is provisional (or it has none)."""
        mine = (await self.standings([account_id], game))
        if not mine:
            return None
        me = mine[0].rating
        ahead = sa.or_(ratings.c.rating > me.rating,
                       sa.and_(ratings.c.rating == me.rating, ratings.c.account_id < account_id))
        listed = (sa.select(sa.func.count()).select_from(ratings).join(accounts, accounts.c.id == ratings.c.account_id)
                  .where(*_on_board(game, now), ratings.c.account_id == account_id))
        query = (sa.select(sa.func.count()).select_from(ratings).join(accounts, accounts.c.id == ratings.c.account_id)
                 .where(*_on_board(game, now), ahead))
        with database_errors(f"cannot read a place on the leaderboard of {game}"):
            async with self.engine.connect() as connection:
                if int((await connection.execute(listed)).scalar_one()) == 0:
                    return None
                return int((await connection.execute(query)).scalar_one()) + 1


__all__ = [
    "BOARD_SIZE",
    "ENDED",
    "Change",
    "Played",
    "Rated",
    "RatedRoom",
    "RatingStore",
    "Standing",
    "score_of",
]
