"""penalties: flags under review, the hash-chained card ledger and its head, the scan watermark

Revision ID: penalties_0001
Revises:
Create Date: 2026-11-29
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision: str = "penalties_0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = ("penalties",)
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "flag",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("category", sa.String(length=64), nullable=False),
        sa.Column("clause", sa.Text(), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("tid", sa.Integer(), nullable=False),
        sa.Column("floor", sa.Integer(), nullable=False),
        sa.Column("author", sa.String(length=255), nullable=False),
        sa.Column("posted_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("excerpt", sa.Text(), nullable=False),
        sa.Column("matched", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("html_hash", sa.String(length=64), nullable=False),
        sa.Column("evidence", sa.Text(), nullable=False),
        sa.Column("related_pids", sa.JSON(), nullable=False),
        sa.Column("detected_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("decided_by", sa.String(length=255), nullable=True),
        sa.Column("decided_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column("decision_reason", sa.Text(), nullable=True),
        sa.Column("card_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_flag")),
        sa.UniqueConstraint("key", name=op.f("uq_flag_key")),
    )
    op.create_index("ix_flag_status_pid", "flag", ["status", "pid"], unique=False)
    op.create_table(
        "card_ledger",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("player", sa.String(length=255), nullable=False),
        sa.Column("color", sa.String(length=16), nullable=True),
        sa.Column("clause", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("issuer", sa.String(length=255), nullable=False),
        sa.Column("at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column("post", sa.Integer(), nullable=True),
        sa.Column("flag", sa.Integer(), nullable=True),
        sa.Column("ref", sa.Integer(), nullable=True),
        sa.Column("consumed", sa.JSON(), nullable=False),
        sa.Column("evidence", sa.String(length=64), nullable=True),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_card_ledger")),
    )
    op.create_index(op.f("ix_card_ledger_player"), "card_ledger", ["player"], unique=False)
    op.create_table(
        "card_ledger_head",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_card_ledger_head")),
    )
    op.create_table(
        "flag_scan",
        sa.Column("pid", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("content_key", sa.String(length=64), nullable=False),
        sa.Column("context_key", sa.String(length=64), nullable=False),
        sa.Column("scanned_at", sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("pid", name=op.f("pk_flag_scan")),
    )


def downgrade() -> None:
    op.drop_table("flag_scan")
    op.drop_table("card_ledger_head")
    op.drop_index(op.f("ix_card_ledger_player"), table_name="card_ledger")
    op.drop_table("card_ledger")
    op.drop_index("ix_flag_status_pid", table_name="flag")
    op.drop_table("flag")
