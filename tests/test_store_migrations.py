"""The migrations build exactly the tables the code declares, on SQLite and PostgreSQL.

This guards every area's alembic branch: a table or column added to a model without its migration
(or the reverse) shows up here as a difference.
"""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from tracker.store.db import Store
from tracker.store.metadata import load_all_tables, metadata


def test_upgrade_empty_database_matches_metadata(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        load_all_tables()
        with store.engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True, "render_as_batch": True})
            diff = compare_metadata(ctx, metadata)
        assert diff == [], "\n".join(map(str, diff))
        names = set(inspect(store.engine).get_table_names())
        assert {"thread", "post", "post_version", "crawl", "raw_page"} <= names
    finally:
        store.close()


def test_open_twice_is_a_no_op(db_url: str) -> None:
    Store.open(db_url).close()
    store = Store.open(db_url)
    try:
        with store.engine.connect() as conn:
            heads = set(MigrationContext.configure(conn).get_current_heads())
        assert "posts_0002" in heads
    finally:
        store.close()
