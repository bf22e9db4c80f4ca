"""Quick pairing in the server (issue 24): what a seek needs once the server pairs it. ``secret_hash``, the
SHA-256 of the seek's secret (its client alone holds the secret, which becomes its seat token once paired, so the
seat's stored ``token_hash`` is this hash); ``account_id``, the signed-in player's account (NULL: a guest);
``room_id`` and ``seat``, the room made for the pair and the seek's seat in it; ``seen``, when its client last
asked after it by the database's clock (a seek nobody asks after is expired); ``paired_at``, when it was paired (the
pairing transaction's start: the pairs of one step share it). Nothing else of the tables of
0001-0007 changes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("secret_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("room_id", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seat", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("seen", sa.Double(), nullable=True))
        batch.add_column(sa.Column("paired_at", sa.Double(), nullable=True))
    op.create_index("ix_seeks_room_id", "seeks", ["room_id"])


def downgrade() -> None:
    op.drop_index("ix_seeks_room_id", "seeks")
    with op.batch_alter_table("seeks") as batch:
        for name in ("paired_at", "seen", "seat", "room_id", "account_id", "secret_hash"):
            batch.drop_column(name)
