"""The crawl's statements on the stdlib sqlite3 (issue 22, item 9): the rows they write are the rows
SQLAlchemy's Core and ORM readers read, and what they read back is what those readers give.

The crawl writes through ``sqlite3`` (no SQLAlchemy import, no per-statement compiling); every other
command reads the same file through SQLAlchemy. A time stored in another text form would compare
wrongly in every ``posted_at >= …`` query; a column converted by the wrong kind would read a list
as text. The kinds are named in :mod:`tracker.store.sql` by column name: checked here against the
tables, the one definition of each column.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import JSON, Boolean, insert

from tracker.store.column_types import JSONList, UTCDateTime
from tracker.store.db import LiteUnit, Store
from tracker.store.posts import last_crawl, save_thread, start_crawl, thread_state
from tracker.store.sql import BOOL_COLUMNS, DATETIME_COLUMNS, JSON_COLUMNS, LIST_COLUMNS
from tracker.store.tables import crawl_t, event_t, post_t, raw_t, thread_t, version_t

CST = timezone(timedelta(hours=8))


def test_each_column_of_the_crawls_tables_is_converted_as_its_type_says() -> None:
    kinds = {UTCDateTime: DATETIME_COLUMNS, JSONList: LIST_COLUMNS, Boolean: BOOL_COLUMNS, JSON: JSON_COLUMNS}
    for table in (thread_t, post_t, version_t, crawl_t, raw_t, event_t):
        for column in table.columns:
            expected = next((names for t, names in kinds.items() if isinstance(column.type, t)), None)
            for names in kinds.values():
                assert (column.name in names) is (names is expected), (table.name, column.name)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'g.db'}")


def test_a_migrated_sqlite_file_gives_units_on_sqlite3(store: Store) -> None:
    with store.unit() as s:
        assert isinstance(s, LiteUnit)
    store.close()


def test_a_time_written_through_sqlite3_is_the_text_sqlalchemy_writes(store: Store, tmp_path: Path) -> None:
    at = datetime(2025, 3, 1, 20, 0, 0, tzinfo=CST)  # 12:00 UTC, no microseconds: still six digits
    with store.unit() as s:
        save_thread(s, 1, "经由 sqlite3", 10, 11, 1, seen_at=at)
    with store.engine.begin() as conn:
        conn.execute(insert(thread_t).values(tid=2, subject="经由 SQLAlchemy", first_seen=at, updated_at=at))
    raw = sqlite3.connect(tmp_path / "g.db")
    texts = dict(raw.execute("SELECT tid, first_seen FROM thread").fetchall())
    raw.close()
    assert texts == {1: "2025-03-01 12:00:00.000000", 2: "2025-03-01 12:00:00.000000"}
    with store.unit() as s:
        state = thread_state(s, 1)
    assert (state.subject, state.replies, state.maxposition, state.pages) == ("经由 sqlite3", 10, 11, 1)
    store.close()


def test_a_query_the_crawl_does_not_make_runs_on_the_same_connection_and_transaction(store: Store) -> None:
    """A SQLAlchemy query given a sqlite3 unit (a function the crawl does not call) shares its
    transaction: each sees what the other wrote before anything is committed."""
    started = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    with store.unit() as s:
        crawl_id = start_crawl(s, [7, 8], started_at=started)
        record = last_crawl(s)
        s.connection().execute(insert(thread_t).values(tid=3, subject="未提交", first_seen=started,
                                                       updated_at=started))
        assert thread_state(s, 3).subject == "未提交"
    assert record is not None
    assert (record.id, record.threads, record.started_at, record.status) == (crawl_id, [7, 8], started, "running")
    with store.session() as orm:
        assert thread_state(orm, 3).subject == "未提交"  # committed with the unit
    store.close()
