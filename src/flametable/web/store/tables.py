"""The database's tables (the migrations in ``migrations/versions`` make the same: tests/web compare them), and
the rows of :mod:`.rows` to and from their columns."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from flametable.bots.registry import HUMAN
from flametable.web.store.rows import MatchRow, RoomRow, SeatRow

metadata = sa.MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})
JSON = sa.JSON(none_as_null=True)  # a Python None is SQL NULL, not the JSON null

rooms = sa.Table(
    "rooms", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", JSON, nullable=False),
    sa.Column("creator", sa.String(128), nullable=False),
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("current", sa.Integer(), nullable=False),  # the number of the room's current match
    sa.Index(None, "created_at"),  # waiting_rooms: the newest first
    sa.Index(None, "creator"),  # open_rooms_by
)
seats = sa.Table(
    "seats", metadata,
    sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("player", sa.Integer(), primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
)
matches = sa.Table(
    "matches", metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    sa.Column("number", sa.Integer(), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("rules_version", sa.String(64), nullable=False),
    sa.Column("content_id", sa.String(128), nullable=False),
    sa.Column("content_hash", sa.String(128), nullable=False),
    sa.Column("options", JSON, nullable=False),
    sa.Column("seed", sa.String(20), nullable=False),  # decimal text: up to 2**64 - 1
    sa.Column("players", JSON, nullable=False),
    sa.Column("first_player", sa.Integer(), nullable=False),
    sa.Column("setup", JSON, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("result", JSON, nullable=True),
    sa.Column("base", sa.Integer(), nullable=False),
    sa.Column("clock", JSON, nullable=True),  # the time control (issue 24); NULL: untimed
    sa.UniqueConstraint("room_id", "number"),  # also the index of a room's current match
    sa.Index(None, "status"),  # the matches still playing (the sweep of waiting rooms), not every one ever played
)
actions = sa.Table(
    "actions", metadata,
    sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer(), primary_key=True),
    sa.Column("notation", sa.Text(), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("spent_ms", sa.Integer(), nullable=True),  # the decision's time by the server's clock; NULL: untimed
)
room_owners = sa.Table(  # the lease of the process that drives a room (see :mod:`.leases`)
    "room_owners", metadata,
    sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("owner", sa.String(128), nullable=False),  # the owning process's id
    sa.Column("fence", sa.BigInteger(), nullable=False),  # raised each time the room changes hands
    sa.Column("expires", sa.Double(), nullable=False),  # the lease's end, seconds since 1970 by the database's clock
)


def match_values(match: MatchRow, room_id: str) -> dict[str, Any]:
    values = {"room_id": room_id, "number": match.number, "game": match.game, "rules_version": match.rules_version,
              "content_id": match.content_id, "content_hash": match.content_hash, "options": match.options,
              "seed": str(match.seed), "players": match.players, "first_player": match.first_player,
              "setup": match.setup, "status": match.status, "result": match.result, "base": match.base}
    if match.clock is not None:  # an untimed match's row names no column of 0006 (NULL by default)
        values["clock"] = match.clock
    return values


def match_row(row: Any, prefix: str = "") -> MatchRow:
    def get(name: str) -> Any:
        return row[prefix + name]

    return MatchRow(room_id=get("room_id"), number=get("number"), game=get("game"),
                    rules_version=get("rules_version"), content_id=get("content_id"),
                    content_hash=get("content_hash"), options=get("options"), seed=int(get("seed")),
                    players=list(get("players")), first_player=get("first_player"), setup=get("setup"),
                    status=get("status"), result=get("result"), base=get("base"), id=get("id"),
                    clock=get("clock"))


def room_row(row: Any, seat_rows: list[SeatRow], match: MatchRow, prefix: str = "") -> RoomRow:
    return RoomRow(id=row[prefix + "id"], game=row[prefix + "game"], options=row[prefix + "options"],
                   creator=row[prefix + "creator"], created_at=row[prefix + "created_at"], seats=seat_rows,
                   match=match)


def current_match() -> sa.ColumnElement[bool]:
    return sa.and_(matches.c.room_id == rooms.c.id, matches.c.number == rooms.c.current)


def open_seat() -> sa.Exists:
    """The room (of the enclosing query) has a person's seat nobody took."""
    return sa.exists().where(seats.c.room_id == rooms.c.id, seats.c.kind == HUMAN, seats.c.token_hash.is_(None))


# --- accounts (issue 23): :mod:`.accounts` reads and writes them --------------------------------------------------

accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
    # the name as shown (its NFKC form, case kept) and its key (NFKC, casefolded: one name whatever its case or
    # width), unique; both NULL once the account is deleted, the row kept as a tombstone its seats still name
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("name_key", sa.String(128), nullable=True),
    sa.Column("password_hash", sa.String(255), nullable=True),  # Argon2id, PHC string; NULL once deleted
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("deleted_at", sa.Double(), nullable=True),
    sa.UniqueConstraint("name_key"),  # NULLs (deleted accounts) do not collide, in SQLite and PostgreSQL alike
)
sessions = sa.Table(
    "sessions", metadata,
    sa.Column("id_hash", sa.String(64), primary_key=True),  # the SHA-256 of the cookie's random id, never the id
    sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("last_seen", sa.Double(), nullable=False),
    sa.Index(None, "account_id"),  # every session of an account: revoked together
)
seat_accounts = sa.Table(  # a person's seat that belongs to an account (a seat of a guest has no row)
    "seat_accounts", metadata,
    sa.Column("room_id", sa.String(64), primary_key=True),
    sa.Column("player", sa.Integer(), primary_key=True),
    sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
    sa.ForeignKeyConstraint(["room_id", "player"], ["seats.room_id", "seats.player"], ondelete="CASCADE"),
    sa.Index(None, "account_id"),  # an account's matches
)


# --- ratings (issue 23): :mod:`.ratings` reads and writes them ----------------------------------------------------

rated_rooms = sa.Table(  # a room made rated by a signed-in creator; ``joiner_id`` the account that joined asking too
    "rated_rooms", metadata,
    sa.Column("room_id", sa.String(64), sa.ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("creator_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("joiner_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("created_at", sa.Double(), nullable=False),
)
ratings = sa.Table(  # one Glicko-2 rating per account per game (a new player has no row: 1500/350/0.06)
    "ratings", metadata,
    sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), primary_key=True),
    sa.Column("rating", sa.Double(), nullable=False),
    sa.Column("rd", sa.Double(), nullable=False),
    sa.Column("volatility", sa.Double(), nullable=False),
    sa.Column("rated_at", sa.Double(), nullable=True),  # when last updated (seconds since 1970); NULL: never
    sa.Column("matches", sa.Integer(), nullable=False),  # the rated matches played
    sa.Index(None, "game", "rating"),  # the leaderboard: a game's best first
)
rating_history = sa.Table(  # one row per rated match per account; its key makes a match rated at most once
    "rating_history", metadata,
    sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("opponent_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("score", sa.Double(), nullable=False),  # 1 a win, 0.5 a draw, 0 a loss (a resignation: a loss)
    sa.Column("rating_before", sa.Double(), nullable=False),
    sa.Column("rd_before", sa.Double(), nullable=False),
    sa.Column("volatility_before", sa.Double(), nullable=False),
    sa.Column("rating_after", sa.Double(), nullable=False),
    sa.Column("rd_after", sa.Double(), nullable=False),
    sa.Column("volatility_after", sa.Double(), nullable=False),
    sa.Column("at", sa.Double(), nullable=False),  # when the match was rated (seconds since 1970)
    sa.Index(None, "account_id", "game", "at"),  # a profile's chart
)


seeks = sa.Table(  # quick pairing (issue 24): a player waiting in a pool (see :mod:`.seeks`)
    "seeks", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("pool", sa.String(200), nullable=False),  # game, time control, rated or casual
    sa.Column("player", sa.String(128), nullable=False),  # "account:ID", or a guest's "client:ID"
    sa.Column("rating", sa.Double(), nullable=False),
    sa.Column("since", sa.Double(), nullable=False),  # made at, seconds since 1970 by the database's clock
    sa.Column("status", sa.String(16), nullable=False),  # waiting, paired, cancelled
    sa.Column("partner", sa.String(64), nullable=True),  # the seek it was paired with
    # migration 0008: the server's pairing (web/seeking.py)
    sa.Column("secret_hash", sa.String(64), nullable=True),  # the SHA-256 of the seek's secret (its seat token)
    sa.Column("account_id", sa.Integer(), nullable=True),  # the signed-in player's account; NULL: a guest
    sa.Column("room_id", sa.String(64), nullable=True),  # the room made for the pair
    sa.Column("seat", sa.Integer(), nullable=True),  # the seek's seat in it
    sa.Column("seen", sa.Double(), nullable=True),  # when its client last asked after it (the database's clock)
    sa.Column("paired_at", sa.Double(), nullable=True),  # when paired (the pairing step's transaction's start)
    sa.Index("ix_seeks_waiting", "pool", "since", postgresql_where=sa.text("status = 'waiting'"),
             sqlite_where=sa.text("status = 'waiting'")),
    sa.Index("uq_seeks_one_per_pool", "pool", "player", unique=True, postgresql_where=sa.text("status = 'waiting'"),
             sqlite_where=sa.text("status = 'waiting'")),
    sa.Index("ix_seeks_room_id", "room_id"),
)


# --- direct challenges (issue 24): :mod:`.challenges` reads and writes them ----------------------------------------

challenges = sa.Table(  # a signed-in player's challenge of another account (see :mod:`.challenges`)
    "challenges", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("from_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("to_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    sa.Column("game", sa.String(100), nullable=False),
    sa.Column("options", sa.JSON(), nullable=False),  # the game's options, the challenger's own deck among them
    sa.Column("clock", sa.JSON(), nullable=True),  # the time control's JSON; NULL: untimed
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # pending, accepted, declined, cancelled
    sa.Column("created_at", sa.Double(), nullable=False),
    sa.Column("room_id", sa.String(64), nullable=True),  # the room made when it was accepted
    sa.Index(None, "from_id", "created_at"),  # the challenges an account sent
    sa.Index(None, "to_id", "created_at"),  # ...and received
)
