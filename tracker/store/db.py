"""The store: one SQLAlchemy engine per game, migrated by alembic on open.

SQLite (WAL, foreign keys, a busy timeout so a watcher and the TUI can share the file) by default;
any SQLAlchemy URL (PostgreSQL) for a shared, multi-director setup. The engine is built here from
the game file and ``--db``, never at import time. Migrations are alembic branches, one per area
(posts, events, penalties, schedule), upgraded together to ``heads``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError
from sqlmodel import Session, create_engine

from tracker.errors import StoreError

MIGRATIONS = Path(__file__).with_name("migrations")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


class Store:
    """A migrated database. Open with :meth:`open`; use :meth:`session` for a unit of work."""

    def __init__(self, engine: Engine, url: str) -> None:
        self.engine = engine
        self.url = url

    @classmethod
    def open(cls, url: str, *, migrate: bool = True) -> Store:
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise StoreError(f"数据库地址无效：{url}", hint="例如 sqlite:///game.db 或 postgresql+psycopg://user:pw@host/db") from None
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            db = parsed.database
            if db and db != ":memory:":
                Path(db).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": 10}
        try:
            engine = create_engine(url, **kwargs)
        except (ArgumentError, ImportError, SQLAlchemyError) as exc:
            raise StoreError(f"无法打开数据库 {parsed.render_as_string(hide_password=True)}：{exc}") from None
        if parsed.get_backend_name() == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        store = cls(engine, url)
        if migrate:
            store.migrate()
        return store

    def migrate(self) -> None:
        """Bring the schema to every branch head; safe to run on every open."""
        from alembic import command

        cfg = alembic_config(self.url)
        try:
            with self.engine.begin() as conn:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "heads")
        except OperationalError as exc:
            raise StoreError(f"无法连接或升级数据库：{exc.orig}") from None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A unit of work: committed on success, rolled back on any error (stored data is never half-written)."""
        with Session(self.engine, expire_on_commit=False) as s:
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise

    def close(self) -> None:
        self.engine.dispose()
