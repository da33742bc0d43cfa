"""events: the append-only game event log

Revision ID: events_0001
Revises:
Create Date: 2026-11-29
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "events_0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = ("events",)
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "event",
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=255), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("recorded_by", sa.String(length=255), nullable=False),
        sa.Column("recorded_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_event")),
    )
    op.create_index(op.f("ix_event_kind"), "event", ["kind"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_event_kind"), table_name="event")
    op.drop_table("event")
