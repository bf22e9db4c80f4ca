"""The first tables: rooms, their seats, their matches and each match's actions.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("creator", sa.String(128), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("current", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_rooms"),
    )
    op.create_index("ix_rooms_created_at", "rooms", ["created_at"])
    op.create_index("ix_rooms_creator", "rooms", ["creator"])
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_seats_room_id_rooms", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "player", name="pk_seats"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(64), nullable=False),
        sa.Column("content_id", sa.String(128), nullable=False),
        sa.Column("content_hash", sa.String(128), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(20), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("first_player", sa.Integer(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("base", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_matches_room_id_rooms", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
        sa.UniqueConstraint("room_id", "number", name="uq_matches_room_id_number"),
    )
    op.create_table(
        "actions",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("notation", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_actions_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "idx", name="pk_actions"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("matches")
    op.drop_table("seats")
    op.drop_index("ix_rooms_creator", table_name="rooms")
    op.drop_index("ix_rooms_created_at", table_name="rooms")
    op.drop_table("rooms")
