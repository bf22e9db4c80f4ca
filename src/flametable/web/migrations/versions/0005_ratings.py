"""Ratings (issue 23): ``rated_rooms`` (a room made rated by a signed-in creator, and the account that joined it
asking for a rated match too), ``ratings`` (one Glicko-2 rating per account per game) and ``rating_history`` (one
row per rated match per account: the rating before and after, the opponent, the score; its key, the match and the
account, is what makes a match rated at most once). Nothing of the tables of 0001-0004 changes.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rated_rooms",
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("joiner_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_rated_rooms_room_id_rooms", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["creator_id"], ["accounts.id"], name="fk_rated_rooms_creator_id_accounts"),
        sa.ForeignKeyConstraint(["joiner_id"], ["accounts.id"], name="fk_rated_rooms_joiner_id_accounts"),
        sa.PrimaryKeyConstraint("room_id", name="pk_rated_rooms"),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("rd", sa.Double(), nullable=False),
        sa.Column("volatility", sa.Double(), nullable=False),
        sa.Column("rated_at", sa.Double(), nullable=True),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_ratings_account_id_accounts"),
        sa.PrimaryKeyConstraint("account_id", "game", name="pk_ratings"),
    )
    op.create_index("ix_ratings_game_rating", "ratings", ["game", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Double(), nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=False),
        sa.Column("rd_before", sa.Double(), nullable=False),
        sa.Column("volatility_before", sa.Double(), nullable=False),
        sa.Column("rating_after", sa.Double(), nullable=False),
        sa.Column("rd_after", sa.Double(), nullable=False),
        sa.Column("volatility_after", sa.Double(), nullable=False),
        sa.Column("at", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_rating_history_match_id_matches",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_rating_history_account_id_accounts"),
        sa.ForeignKeyConstraint(["opponent_id"], ["accounts.id"], name="fk_rating_history_opponent_id_accounts"),
        sa.PrimaryKeyConstraint("match_id", "account_id", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_account_id_game_at", "rating_history", ["account_id", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_account_id_game_at", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("rated_rooms")
