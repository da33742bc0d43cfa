"""Shared fixtures: where the fixture files are, and a migrated ``store`` on every backend we support.

``store`` runs on SQLite always and, when ``TRACKER_TEST_PG_URL`` points at a PostgreSQL server
(``.ci/run`` starts one), also on PostgreSQL: each PostgreSQL test gets a database of its own,
created before and dropped after, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tracker.store.db import Store

FIXTURES = Path(__file__).parent / "fixtures"
PG_URL = os.environ.get("TRACKER_TEST_PG_URL")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture
def discuz_dir() -> Path:
    return FIXTURES / "discuz"


@pytest.fixture
def growth_dir() -> Path:
    return FIXTURES / "discuz" / "growth"


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database (URL), dropped afterwards."""
    assert PG_URL is not None
    name = f"tracker_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL on each backend (not yet migrated)."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("pg_database")
        return url
    return f"sqlite:///{tmp_path / 'game.db'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A migrated store on each backend."""
    s = Store.open(db_url)
    try:
        yield s
    finally:
        s.close()
