"""Clocks (issue 24): ``matches.clock``, a match's time control (``{"kind": "fischer", "minutes": 3, "increment":
2}``, ``{"kind": "turn", "days": 3}``; NULL: untimed, as every match before), and ``actions.spent_ms``, the time the
decision took by the server's clock, stamped when the action was stored (NULL in an untimed match and for the
actions of before). A match's clocks are these stamps replayed, so a restart loses none of them. Nothing else of
the tables of 0001-0005 changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("spent_ms", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("spent_ms")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("clock")
