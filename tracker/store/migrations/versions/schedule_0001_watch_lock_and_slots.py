"""schedule: the watcher's lock and written report slots

Revision ID: schedule_0001
Revises:
Create Date: 2026-11-29
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "schedule_0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = ("schedule",)
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "watch_lock",
        sa.Column("name", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("holder", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("host", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("acquired_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("heartbeat_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_watch_lock")),
    )
    op.create_table(
        "report_slot",
        sa.Column("key", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("day", sa.Integer(), nullable=False),
        sa.Column("kind", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.Column("due_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("written_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("files", sqlmodel.sql.sqltypes.AutoString(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_report_slot")),
    )


def downgrade() -> None:
    op.drop_table("report_slot")
    op.drop_table("watch_lock")
