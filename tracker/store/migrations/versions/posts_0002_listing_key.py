"""posts: each post remembers the content key of its last mobile listing (a stable listing comparison)

Revision ID: posts_0002
Revises: posts_0001
Create Date: 2026-11-30
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "posts_0002"
down_revision: str | Sequence[str] | None = "posts_0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("post") as batch:
        batch.add_column(sa.Column("listing_key", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("post") as batch:
        batch.drop_column("listing_key")
