"""Direct challenges (issue 24, point 6): ``challenges``, a signed-in player's challenge of another account to a
match with chosen options (the challenger's own deck among them: secret), time control and rated or not; pending
until the challenged accepts (the room made, its id kept), declines, or the challenger cancels. Nothing else of the
tables of 0001-0008 changes.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("from_id", sa.Integer(), nullable=False),
        sa.Column("to_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(100), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("room_id", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["from_id"], ["accounts.id"], name="fk_challenges_from_id_accounts",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["to_id"], ["accounts.id"], name="fk_challenges_to_id_accounts", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_challenges"),
    )
    op.create_index("ix_challenges_from_id_created_at", "challenges", ["from_id", "created_at"])
    op.create_index("ix_challenges_to_id_created_at", "challenges", ["to_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_challenges_to_id_created_at", "challenges")
    op.drop_index("ix_challenges_from_id_created_at", "challenges")
    op.drop_table("challenges")
