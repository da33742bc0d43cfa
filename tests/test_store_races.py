"""Concurrent first runs on one new database: migrations under a lock, flag inserts idempotent."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import BACKENDS
from tracker.penalties.findings import Finding
from tracker.store.db import Store
from tracker.store.penalties import add_flags, list_flags

OPEN = "import sys; from tracker.store.db import Store; Store.open(sys.argv[1]).close(); print('ok')"


@pytest.fixture(params=BACKENDS)
def new_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each backend (PostgreSQL when TRACKER_TEST_PG_URL is set)."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:///{tmp_path / 'new.db'}"


def test_six_concurrent_first_opens_all_migrate_cleanly(new_db: str) -> None:
    url = new_db
    procs = [subprocess.Popen([sys.executable, "-c", OPEN, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(6)]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [err[-400:] for _, err in results]
    assert all(out.strip() == "ok" for out, _ in results)
    store = Store.open(url)  # and the schema is whole
    with store.session() as s:
        assert list_flags(session=s) == []
    store.close()


def finding(pid: int) -> Finding:
    return Finding(kind="keyword", category="insult", clause="第 3 条", pid=pid, tid=4, floor=pid, author="泡泡",
                   posted_at=datetime(2025, 3, 1, 12, tzinfo=UTC), excerpt="……", matched="笨蛋", html_hash="h",
                   evidence="")


def test_the_same_finding_stored_twice_concurrently_is_one_flag_and_no_error(tmp_path: Path) -> None:
    """Two detections that both saw the key as new (read before either wrote) both insert it."""
    url = f"sqlite:///{tmp_path / 'game.db'}"
    a, b = Store.open(url), Store.open(url)
    now = datetime(2025, 3, 1, 13, tzinfo=UTC)
    with a.session() as s:
        first = add_flags([finding(7), finding(8)], html_by_pid={}, detected_at=now, session=s)
    with b.session() as s:
        second = add_flags([finding(8), finding(9)], html_by_pid={}, detected_at=now, session=s)
    assert [f.pid for f in first] == [7, 8] and [f.pid for f in second] == [9]
    with a.session() as s:
        assert sorted(f.pid for f in list_flags(session=s)) == [7, 8, 9]
    a.close()
    b.close()
