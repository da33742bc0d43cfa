"""penalties: the scan watermark also remembers the HTML hash and the blocked flag (compared in SQL)

Revision ID: penalties_0002
Revises: penalties_0001
Create Date: 2026-11-29
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "penalties_0002"
down_revision: str | Sequence[str] | None = "penalties_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("flag_scan") as batch:
        batch.add_column(sa.Column("html_hash", sa.String(length=64), server_default="", nullable=False))
        batch.add_column(sa.Column("blocked", sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("flag_scan") as batch:
        batch.drop_column("blocked")
        batch.drop_column("html_hash")
