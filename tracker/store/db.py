"""The store: one SQLAlchemy engine per game, migrated by alembic on open.

SQLite (WAL, foreign keys, a busy timeout so a watcher and the TUI can share the file) by default;
any SQLAlchemy URL (PostgreSQL) for a shared, multi-director setup. The engine is built here from
the game file and ``--db``, never at import time. Migrations are alembic branches, one per area
(posts, events, penalties, schedule), upgraded together to ``heads``.

A store on a plain SQLite file (``sqlite:///PATH``) that is already migrated gives units of work on
the stdlib ``sqlite3`` (:class:`LiteUnit`): `tracker crawl`, every few minutes from cron, then never
imports SQLAlchemy (0.3 s of CPU, a fifth of a 3,150-post re-crawl), and its statements
(:mod:`tracker.store.sql`) skip SQLAlchemy's per-statement work. The engine is built on first use
(an ORM session, alembic, another database).
"""

from __future__ import annotations

import os
import re
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from tracker.errors import StoreError, os_error_words
from tracker.store.sql import LiteStatements

if TYPE_CHECKING:  # the ORM loads with the first ORM session: `tracker crawl` opens none
    from sqlalchemy.engine import Connection, Engine
    from sqlmodel import Session

MIGRATIONS = Path(__file__).with_name("migrations")

# What SQLite says, in the director's words (the driver's text is kept after them).
_SQLITE_WORDS = (
    ("readonly", "数据库是只读的，无法写入", "检查数据库文件及其所在目录的写权限（SQLite 还要在同一目录写 -wal/-shm 文件）"),
    ("malformed", "数据库文件已损坏", "从备份恢复数据库，或换一个 --db 重新抓取"),
    ("not a database", "这个文件不是 SQLite 数据库", "检查 --db 的路径；从备份恢复，或换一个 --db 重新抓取"),
    ("locked", "数据库被另一个程序占用（锁住）", "稍后重试；检查是否有另一个 tracker 正在写同一个数据库"),
    ("unable to open", "无法打开数据库文件", "检查路径是否存在、是否有读写权限"),
    ("disk is full", "磁盘已满，无法写入数据库", "腾出磁盘空间后重试"),
    ("disk i/o", "读写数据库文件时磁盘出错", "检查磁盘，或从备份恢复数据库"),
)


def store_error(exc: BaseException) -> StoreError | None:
    """The director's message for a database failure (read-only, corrupt, locked, unreachable), or
    None for anything else (a constraint or a programming error is a bug, not the director's to fix).

    Whatever was stored before is untouched: the failing unit of work is rolled back.
    """
    if isinstance(exc, sqlite3.Error):  # a unit on sqlite3 (LiteUnit)
        if not (isinstance(exc, sqlite3.OperationalError) or type(exc) is sqlite3.DatabaseError):
            return None
        return _words(str(exc).strip() or type(exc).__name__)
    sa = sys.modules.get("sqlalchemy.exc")  # not loaded: the error cannot be one of SQLAlchemy's
    if sa is None or not isinstance(exc, sa.DatabaseError):
        return None
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    detail = text.splitlines()[0] if text else type(exc).__name__
    if isinstance(exc, sa.ProgrammingError) and "permission denied" in detail.lower():
        # PostgreSQL's read-only account (InsufficientPrivilege); any other ProgrammingError is a bug.
        return StoreError(f"数据库账号没有写权限（{detail}）。已保存的数据没有改动",
                          hint="用有写权限的账号连接（--db 里的用户名），或请管理员授予 INSERT/UPDATE 权限")
    if not (isinstance(exc, sa.OperationalError) or type(exc) is sa.DatabaseError):
        return None
    return _words(detail)


def _words(detail: str) -> StoreError:
    low = detail.lower()
    for needle, words, hint in _SQLITE_WORDS:
        if needle in low:
            return StoreError(f"{words}（{detail}）。已保存的数据没有改动", hint=hint)
    return StoreError(f"数据库出错：{detail}。已保存的数据没有改动",
                      hint="检查数据库是否可以连接、是否有写权限；--db 可指定另一个数据库")


_PG_MIGRATION_LOCK = 0x7472_6163_6B65_72  # "tracker": one advisory lock id for every tracker database


@contextmanager
def _migration_file_lock(url: str) -> Iterator[None]:
    """An exclusive ``flock`` on ``GAME.db.migrate.lock`` for a SQLite file; nothing for other URLs.

    SQLite's own locking does not cover alembic's check-then-create ("table … already exists" when
    two first runs race); the lock file is left in place (removing it would race too).
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    db = parsed.database
    if parsed.get_backend_name() != "sqlite" or not db or db == ":memory:" or db.startswith("file:"):
        yield
        return
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no flock; SQLite's busy timeout is all we have
        yield
        return
    path = f"{db}.migrate.lock"
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as exc:
        raise StoreError(f"无法创建数据库的迁移锁文件 {path}：{os_error_words(exc)}",
                         hint="检查数据库所在目录的写权限") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _sqlite_file(url: str) -> str | None:
    """The file of a plain ``sqlite:///PATH`` URL, which :class:`LiteUnit` can open itself; None for
    anything else (another database, memory, a URI, options or escapes SQLAlchemy would read)."""
    if not url.startswith("sqlite:///") or any(c in url for c in "?%"):
        return None
    path = url[len("sqlite:///"):]
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return path


def _sqlite_pragmas(dbapi_conn: Any, _record: Any = None) -> None:
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


_REVISION = re.compile(r"^revision(?::[^=]*)?=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision(?::[^=]*)?=\s*(.+)$", re.M)


@cache
def packaged_revisions() -> tuple[frozenset[str], frozenset[str]]:
    """(every revision this tracker ships, the heads among them), read from the migration files.

    Read as text so that a command on an up-to-date database never imports alembic (a third of a
    read-only command's start-up); a test checks the result equals alembic's own view.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for f in (MIGRATIONS / "versions").glob("*.py"):
        body = f.read_text("utf-8")
        rev = _REVISION.search(body)
        if rev is None:
            continue
        revisions.add(rev.group(1))
        down = _DOWN.search(body)
        if down is not None:
            parents.update(re.findall(r"['\"]([^'\"]+)['\"]", down.group(1)))
    return frozenset(revisions), frozenset(revisions - parents)


class UnitOfWork(Protocol):
    """What the Core queries (the posts area, the event log) need of a unit of work: its connection
    and its commit. An ORM :class:`Session` is one; :meth:`Store.unit` gives one without the ORM."""

    def connection(self) -> Connection: ...

    def commit(self) -> None: ...


class CoreUnit:
    """A unit of work on one Core connection, for callers that use only Core tables (the crawl):
    the same transactions as an ORM session (each ``commit`` ends one, the next statement begins
    the next), without loading the ORM (~0.1 s of a fresh process's start-up)."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def connection(self) -> Connection:
        return self._conn

    def commit(self) -> None:
        self._conn.commit()


class LiteUnit:
    """:class:`CoreUnit`'s unit of work on a ``sqlite3`` connection: the crawl's statements
    (:func:`tracker.store.sql.statements`) run on it directly; a SQLAlchemy query (a function the
    crawl does not call) gets :meth:`connection`, over the same connection and transaction."""

    def __init__(self, conn: sqlite3.Connection, store: Store) -> None:
        self.raw = conn
        self.statements = LiteStatements(conn, store)
        self._core: Connection | None = None

    def connection(self) -> Connection:
        if self._core is None:
            from sqlalchemy import create_engine
            from sqlalchemy.pool import StaticPool

            raw = self.raw
            engine = create_engine("sqlite://", creator=lambda: raw, poolclass=StaticPool, pool_reset_on_return=None)
            self._core = engine.connect()
        return self._core

    def commit(self) -> None:
        if self._core is not None:
            self._core.commit()  # SQLAlchemy's transaction ends with the connection's, not after it
        else:
            self.raw.commit()

    def end(self) -> None:
        """Let go of the SQLAlchemy connection, if any: back to its pool unreset (the sqlite3
        connection stays open and ours); what it had not committed is rolled back."""
        if self._core is not None:
            self._core.close()
            self._core = None


class Store:
    """A migrated database. Open with :meth:`open`; use :meth:`session` (ORM) or :meth:`unit` (Core
    only) for a unit of work."""

    def __init__(self, engine: Engine | None, url: str) -> None:
        if engine is not None:
            self.__dict__["engine"] = engine
        self.url = url
        self._file = _sqlite_file(url)
        self._lite = False  # units on sqlite3: set by open() once the schema is known to be current
        self._idle: list[sqlite3.Connection] = []

    @cached_property
    def engine(self) -> Engine:
        """The SQLAlchemy engine, built on first use (never by a crawl of a migrated SQLite file)."""
        return self._engine()

    def _engine(self) -> Engine:
        from sqlalchemy import event
        from sqlalchemy.engine import create_engine, make_url
        from sqlalchemy.exc import ArgumentError, SQLAlchemyError

        parsed = make_url(self.url)
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            kwargs["connect_args"] = {"timeout": 10}
        try:
            engine = create_engine(self.url, **kwargs)
        except (ArgumentError, ImportError, SQLAlchemyError) as exc:
            raise StoreError(f"无法打开数据库 {parsed.render_as_string(hide_password=True)}：{exc}") from exc
        if parsed.get_backend_name() == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine

    def _connect_lite(self) -> sqlite3.Connection:
        """What the engine's pool would connect (the same timeout and pragmas); handed to one unit at a time."""
        assert self._file is not None
        conn = sqlite3.connect(self._file, timeout=10, check_same_thread=False)
        _sqlite_pragmas(conn)
        return conn

    @classmethod
    def open(cls, url: str, *, migrate: bool = True) -> Store:
        db: str | None = _sqlite_file(url)
        if db is None:
            from sqlalchemy.engine import make_url
            from sqlalchemy.exc import ArgumentError

            try:
                parsed = make_url(url)
            except (ArgumentError, ValueError) as exc:  # ValueError: a port that is not a number
                shown = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)  # never the password
                raise StoreError(f"数据库地址无效：{shown}",
                                 hint="例如 sqlite:///game.db 或 postgresql+psycopg://user:pw@host/db") from exc
            db = parsed.database if parsed.get_backend_name() == "sqlite" else None
        if db and db != ":memory:" and not db.startswith("file:"):
            parent = Path(db).parent
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"无法创建数据库所在的目录 {parent}：{os_error_words(exc)}",
                                 hint="检查路径和写权限，或用 --db 指定另一个位置") from exc
        store = cls(None, url)
        if store._file is None:
            store.engine  # noqa: B018 - a bad driver or URL is said now, not at the first query
        if migrate:
            store.migrate()
        return store

    def stored_revisions(self) -> frozenset[str]:
        """The revisions the database says it is at (empty for a new database): one query."""
        if self._file is not None:
            lite = self._connect_lite()
            try:
                if lite.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
                                ).fetchone() is None:
                    return frozenset()
                return frozenset(r[0] for r in lite.execute("SELECT version_num FROM alembic_version"))
            finally:
                self._idle.append(lite)  # the crawl's first unit of work takes it
        from sqlalchemy import inspect, text

        with self.engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return frozenset()
            return frozenset(r[0] for r in conn.execute(text("SELECT version_num FROM alembic_version")))

    def migrate(self) -> None:
        """Bring the schema to every branch head; one query when it is there already.

        A database written by a newer tracker (a revision this one does not ship) is refused: an
        older schema reader would misread it, and downgrading would lose the newer data. Safe from
        several processes at once: the upgrade runs under a lock (a file beside a SQLite database,
        an advisory lock on PostgreSQL), so a second first run waits, then finds nothing to do.
        """
        known, heads = packaged_revisions()
        try:
            stored = self.stored_revisions()
        except Exception as exc:
            err = store_error(exc)
            if err is None:
                raise
            raise StoreError(f"无法连接或升级数据库：{err.message}", hint=err.hint) from None
        if stored - known:
            raise StoreError(f"数据库来自更新版本的 tracker（架构版本 {', '.join(sorted(stored - known))} 本版本不认识）",
                             hint="升级 tracker（pip install -U …）后再打开；已保存的数据没有改动")
        if stored == heads:
            self._lite = self._file is not None
            return
        from alembic import command
        from sqlalchemy import text
        from sqlalchemy.exc import DatabaseError, OperationalError

        cfg = alembic_config(self.url)
        try:
            with _migration_file_lock(self.url), self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "heads")
        except (OperationalError, DatabaseError) as exc:
            err = store_error(exc)
            if err is None:
                raise
            raise StoreError(f"无法连接或升级数据库：{err.message}", hint=err.hint) from exc
        self._lite = self._file is not None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A unit of work: committed on success, rolled back on any error (stored data is never half-written)."""
        from sqlalchemy.exc import SQLAlchemyError
        from sqlmodel import Session

        with Session(self.engine, expire_on_commit=False) as s:
            try:
                yield s
                s.commit()
            except BaseException as exc:
                # The connection may be gone (corrupt or vanished file): report the first error.
                with suppress(SQLAlchemyError):
                    s.rollback()
                err = store_error(exc)
                if err is not None:
                    raise err from exc
                raise

    @contextmanager
    def unit(self) -> Iterator[CoreUnit | LiteUnit]:
        """:meth:`session`'s unit of work on a Core connection: the same commit on success, rollback
        and director's message on any error, for code that reads and writes only Core tables. On a
        migrated SQLite file, a :class:`LiteUnit` (no SQLAlchemy)."""
        if self._lite:
            with self._lite_unit() as unit:
                yield unit
            return
        from sqlalchemy.exc import SQLAlchemyError

        try:
            with self.engine.connect() as conn:  # connecting may fail too (a server gone): the same message
                try:
                    yield CoreUnit(conn)
                    conn.commit()
                except BaseException:
                    with suppress(SQLAlchemyError):
                        conn.rollback()
                    raise
        except BaseException as exc:
            err = store_error(exc)
            if err is not None:
                raise err from exc
            raise

    @contextmanager
    def _lite_unit(self) -> Iterator[LiteUnit]:
        try:
            conn = self._idle.pop() if self._idle else self._connect_lite()
        except sqlite3.Error as exc:
            err = store_error(exc)
            if err is not None:
                raise err from exc
            raise
        unit = LiteUnit(conn, self)
        try:
            yield unit
            unit.commit()
            unit.end()
        except BaseException as exc:
            with suppress(sqlite3.Error):
                unit.end()
                conn.rollback()
            with suppress(sqlite3.Error):
                conn.close()  # not handed out again: it may be what failed
            err = store_error(exc)
            if err is not None:
                raise err from exc
            raise
        self._idle.append(conn)

    def close(self) -> None:
        while self._idle:
            self._idle.pop().close()
        if "engine" in self.__dict__:
            self.engine.dispose()
