"""posts: each post remembers the digest of its last listed message (a re-crawl skips unchanged ones)

Revision ID: posts_0003
Revises: posts_0002
Create Date: 2026-12-02
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "posts_0003"
down_revision: str | Sequence[str] | None = "posts_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Empty for every stored post: the next crawl extracts each listed message once more and notes it.
    with op.batch_alter_table("post") as batch:
        batch.add_column(sa.Column("listing_digest", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("post") as batch:
        batch.drop_column("listing_digest")
