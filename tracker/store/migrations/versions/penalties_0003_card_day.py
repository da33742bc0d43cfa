"""penalties: a ledger entry names the game day of its violation (cards announced on that day)

Revision ID: penalties_0003
Revises: penalties_0002
Create Date: 2026-11-30
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "penalties_0003"
down_revision: str | Sequence[str] | None = "penalties_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("card_ledger") as batch:
        batch.add_column(sa.Column("day", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("card_ledger") as batch:
        batch.drop_column("day")
