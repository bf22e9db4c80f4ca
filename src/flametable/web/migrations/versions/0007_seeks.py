"""Quick pairing (issue 24): ``seeks``, the players waiting in a pool (a game, a time control, rated or casual),
each with its rating and when it was made by the database's clock; at most one waiting seek of a player per pool
(a unique index on the waiting ones). Nothing else of the tables of 0001-0006 changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None

WAITING = sa.text("status = 'waiting'")


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("pool", sa.String(200), nullable=False),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("since", sa.Double(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("partner", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_seeks"),
    )
    op.create_index("ix_seeks_waiting", "seeks", ["pool", "since"], postgresql_where=WAITING, sqlite_where=WAITING)
    op.create_index("uq_seeks_one_per_pool", "seeks", ["pool", "player"], unique=True, postgresql_where=WAITING,
                    sqlite_where=WAITING)


def downgrade() -> None:
    op.drop_index("uq_seeks_one_per_pool", "seeks")
    op.drop_index("ix_seeks_waiting", "seeks")
    op.drop_table("seeks")
