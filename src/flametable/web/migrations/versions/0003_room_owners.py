"""The owners of rooms (issue 22): several server processes share one database, each room driven by one of them at a
time, its owner, holding a lease that ends at ``expires`` (by the database's clock); ``fence`` is raised each time the
room changes hands, and every write of a match checks it, so that a process that lost its lease never writes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "room_owners",
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("owner", sa.String(128), nullable=False),
        sa.Column("fence", sa.BigInteger(), nullable=False),
        sa.Column("expires", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_room_owners_room_id_rooms", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", name="pk_room_owners"),
    )


def downgrade() -> None:
    op.drop_table("room_owners")
