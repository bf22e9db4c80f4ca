"""Accounts (issue 23): ``accounts`` (a name and its NFKC-casefolded key, unique, an Argon2id hash; a deleted account
keeps its row without name or hash, so that the seats it held still name it), ``sessions`` (the SHA-256 of each
session cookie's id) and ``seat_accounts`` (the seats that belong to an account). Nothing of the rooms, seats or
matches changes: a database of 0003 keeps them all.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-16
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(128), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("deleted_at", sa.Double(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("last_seen", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_sessions_account_id_accounts",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash", name="pk_sessions"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "seat_accounts",
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_seat_accounts_account_id_accounts"),
        sa.ForeignKeyConstraint(["room_id", "player"], ["seats.room_id", "seats.player"],
                                name="fk_seat_accounts_room_id_seats", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "player", name="pk_seat_accounts"),
    )
    op.create_index("ix_seat_accounts_account_id", "seat_accounts", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seat_accounts_account_id", table_name="seat_accounts")
    op.drop_table("seat_accounts")
    op.drop_index("ix_sessions_account_id", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
