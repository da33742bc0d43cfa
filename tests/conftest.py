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


@pytest.fixture(scope="session")
def demo_crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo game crawled from its replay forum and night 1 settled (阿狸 and 老王 out), built once a
    session: the crawl is the slow part, and module fixtures copy ``demo.toml`` and ``demo.db`` out of
    it (``tests.demo_game.copy_demo``) so no test sees another's writes. The forum stays up for the session because
    the copied game file points at it."""
    from tracker.cli import main
    from tracker.demo.nights import play_demo_nights
    from tracker.demo.run import prepare
    from tracker.demo.server import DEMO_PAGES, ReplayForum

    root = tmp_path_factory.mktemp("demo-crawled")
    with ReplayForum(DEMO_PAGES) as forum:
        game = prepare(root, forum.base_url)
        assert main(["crawl", str(game), "--json"]) == 0
        play_demo_nights(game)
        yield root



@pytest.fixture(scope="session")
def demo_job(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """``tracker demo --json`` run once a session (the whole job: both days confirmed, both nights
    settled, flags detected, reports written): its summary, and its directory as ``workdir``. Tests
    copy the directory before they write to it (``tests.demo_game``)."""
    import contextlib
    import io
    import json

    from tracker.cli import main

    workdir = tmp_path_factory.mktemp("demo-job")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--json", "--dir", str(workdir)]) == 0
    return dict(json.loads(out.getvalue()), workdir=str(workdir))
