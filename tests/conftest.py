"""Shared fixtures: where the fixture files are, and a migrated ``store`` on every backend we support.

``store`` runs on SQLite always and, when ``TRACKER_TEST_PG_URL`` points at a PostgreSQL server
(``.ci/run`` starts one), also on PostgreSQL: each PostgreSQL test gets a schema of its own,
created before and dropped after, so tests never see each other's rows.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager
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


@contextmanager
def _pg_schema() -> Iterator[str]:
    """A PostgreSQL schema of its own, as a URL whose connections use it; dropped afterwards.

    A schema rather than a database: creating a database costs a second or more per test here.
    """
    assert PG_URL is not None
    name = f"tracker_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{name}"'))
    try:
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={name}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        admin.dispose()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """An empty PostgreSQL schema's URL."""
    with _pg_schema() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL on each backend (not yet migrated)."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return f"sqlite:///{tmp_path / 'game.db'}"


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A migrated store on each backend, empty."""
    with ExitStack() as stack:
        if request.param == "postgresql":
            url = stack.enter_context(_pg_schema())
        else:
            url = f"sqlite:///{tmp_path / 'game.db'}"
        s = stack.enter_context(closing(Store.open(url)))
        yield s
