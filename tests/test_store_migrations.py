"""The migrations build exactly the tables the code declares, on SQLite and PostgreSQL.

This guards every area's alembic branch: a table or column added to a model without its migration
(or the reverse) shows up here as a difference.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from tracker.errors import StoreError
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
        assert "posts_0003" in heads
    finally:
        store.close()


def test_packaged_revisions_are_alembics_own() -> None:
    """The text-read heads that let an up-to-date open skip alembic are the ones alembic computes."""
    from alembic.script import ScriptDirectory

    from tracker.store.db import alembic_config, packaged_revisions

    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    known, heads = packaged_revisions()
    assert heads == set(script.get_heads())
    assert known == {r.revision for r in script.walk_revisions()}


def test_one_revision_behind_is_upgraded(tmp_path: Path) -> None:
    """A database from the previous tracker is still brought to the heads (the fast path must not skip it)."""
    from alembic import command

    from tracker.store.db import alembic_config, packaged_revisions

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store.open(url)
    with store.engine.begin() as conn:
        cfg = alembic_config(url)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "penalties_0001")
    assert "penalties_0002" not in store.stored_revisions()
    store.close()
    store = Store.open(url)
    try:
        assert store.stored_revisions() == packaged_revisions()[1]
    finally:
        store.close()


def test_database_from_a_newer_tracker_is_refused_and_kept(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    Store.open(url).close()
    store = Store.open(url, migrate=False)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'posts_0099' WHERE version_num LIKE 'posts_%'"))
    store.close()
    with pytest.raises(StoreError) as err:
        Store.open(url)
    assert "更新版本" in str(err.value) and "posts_0099" in str(err.value)
    store = Store.open(url, migrate=False)
    try:
        assert "posts_0099" in store.stored_revisions()
    finally:
        store.close()


def test_up_to_date_open_does_not_import_alembic(tmp_path: Path) -> None:
    """Every read-only command opens the store: at the heads it must cost one query, not an alembic run."""
    url = f"sqlite:///{tmp_path / 'g.db'}"
    Store.open(url).close()
    code = (f"import sys; from tracker.store.db import Store; Store.open({url!r}).close(); "
            "print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"



def test_posts_stored_before_the_listing_digest_keep_their_rows_and_get_an_empty_digest(tmp_path: Path) -> None:
    """posts_0003 adds ``post.listing_digest`` to a store that holds posts: they stay, the digest empty
    (the next crawl extracts their listed messages once and notes it)."""
    from datetime import UTC, datetime

    from alembic import command
    from sqlalchemy import insert

    from tracker.records import Post
    from tracker.store.db import alembic_config
    from tracker.store.posts import _new_row, content_key
    from tracker.store.tables import post_t, thread_t

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store.open(url)
    with store.engine.begin() as conn:
        cfg = alembic_config(url)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "posts_0002")
    assert "listing_digest" not in {c["name"] for c in inspect(store.engine).get_columns("post")}
    at = datetime(2025, 4, 12, 5, tzinfo=UTC)
    post = Post(pid=7, tid=3, floor=1, author="泡泡", uid=2, posted_at=at, html="投票对象：包子",
                text="投票对象：包子", source="mobile")
    row = _new_row(post, content_key(post), at)
    del row["listing_digest"]  # the row as posts_0002's tracker wrote it
    with store.engine.begin() as conn:
        conn.execute(insert(thread_t).values(tid=3, subject="", first_seen=at, updated_at=at))
        conn.execute(insert(post_t).values(**row))
    store.close()
    store = Store.open(url)
    try:
        with store.engine.connect() as conn:
            rows = conn.execute(text("SELECT pid, text, listing_key, listing_digest FROM post")).all()
        assert [(r[0], r[1], r[2], r[3]) for r in rows] == [(7, "投票对象：包子", content_key(post), None)]
    finally:
        store.close()
