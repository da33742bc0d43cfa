"""The crawl's SQL, run on SQLite through the stdlib ``sqlite3`` and on PostgreSQL through SQLAlchemy.

`tracker crawl` runs every few minutes in a fresh process: importing SQLAlchemy was 0.3 s of CPU, a
fifth of a 3,150-post re-crawl, and its statement machinery (compiling, processing each parameter)
another 0.1 s (issue 22 item 9). The crawl's statements (:mod:`tracker.store.crawl_statements`) are
written once, in SQL both backends read, and run here by :func:`statements`:

- on SQLite, on the unit's own ``sqlite3`` connection (a :class:`~tracker.store.db.Store` opened on a
  SQLite file gives units without SQLAlchemy; an ORM session or a Core connection lends its DBAPI
  connection, so the statement is part of the caller's transaction either way);
- on any other database (PostgreSQL's shared mode), through SQLAlchemy's ``text()`` on the unit's
  connection.

Values are converted as the Core tables' column types do (:mod:`tracker.store.column_types` calls the
same functions): an aware datetime is stored in UTC, in SQLAlchemy's SQLite text format on SQLite (the
rows the ORM and Core readers write and read are the same rows); a list is JSON text; booleans are
SQLite's 0/1. Results are converted back by column name (:data:`DATETIME_COLUMNS` and its siblings;
a test checks them against the tables). A parameter named ``in_…`` is a list for ``IN :in_…``.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection
    from sqlalchemy.sql.elements import TextClause

    from tracker.store.db import UnitOfWork

# The crawl's tables' columns by kind (thread, post, post_version, crawl, raw_page, event): names
# that mean one kind in every table, so a result column is converted by its name alone.
DATETIME_COLUMNS = frozenset({"posted_at", "edited_at", "deleted_seen_at", "first_seen", "last_seen", "updated_at",
                              "listed_at", "seen_at", "started_at", "finished_at", "fetched_at", "at",
                              "recorded_at"})
LIST_COLUMNS = frozenset({"quotes", "colors", "sizes", "fonts", "images", "smilies", "threads", "errors"})
BOOL_COLUMNS = frozenset({"blocked", "from_mobile", "has_desktop", "deleted"})
JSON_COLUMNS = frozenset({"data"})  # the event's data: any JSON value (sa.JSON)

_IN = re.compile(r":(in_\w+)")
_PLAIN = frozenset({int, str, bool, float, bytes, type(None)})  # bound as they are


def utc(value: datetime) -> datetime:
    """An aware datetime in UTC; a naive one is refused (a time without its zone is a bug, never a guess)."""
    if value.utcoffset() is None:
        raise ValueError("Datetime values must have timezone information")
    return value.astimezone(UTC)


@lru_cache(maxsize=256)
def sqlite_time(value: datetime) -> str:
    """How SQLAlchemy's SQLite ``DateTime`` stores a time (in UTC here): the text every reader compares.
    Memoised: a batch's rows are seen at one time (``last_seen`` of 3,000 rows is one value)."""
    v = utc(value)
    return (f"{v.year:04d}-{v.month:02d}-{v.day:02d} {v.hour:02d}:{v.minute:02d}:{v.second:02d}."
            f"{v.microsecond:06d}")


def from_sqlite_time(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def dump_list(value: Sequence[Any] | None) -> str:
    """A list column's text: most lists are empty, so ``[]`` without a JSON encoder."""
    if not value:
        return "[]"
    return json.dumps(list(value), ensure_ascii=False, separators=(",", ":"))


def load_list(value: str | None) -> list[Any]:
    if not value or value == "[]":
        return []
    result: list[Any] = json.loads(value)
    return result


_BIND: dict[type, Callable[[Any], str]] = {datetime: sqlite_time, list: dump_list, tuple: dump_list}


class Statements(Protocol):
    """What the crawl's store functions ask of a unit of work, whatever the database."""

    @property
    def owner(self) -> object:
        """The database (its engine or its store): what a cache of the database's facts is kept per."""

    def rows(self, sql: str, params: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]: ...

    def dicts(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]: ...

    def run(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Execute one statement; its row count."""

    def many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> int:
        """Execute one statement per parameter set (one ``executemany``); the rows it changed."""

    def insert(self, sql: str, params: Mapping[str, Any]) -> int:
        """Execute one INSERT; the ``id`` the database gave the row."""


def _converters(names: Sequence[str], time: Callable[[Any], Any]) -> list[tuple[int, Callable[[Any], Any]]]:
    out: list[tuple[int, Callable[[Any], Any]]] = []
    for i, name in enumerate(names):
        if name in DATETIME_COLUMNS:
            out.append((i, time))
        elif name in LIST_COLUMNS:
            out.append((i, load_list))
        elif name in BOOL_COLUMNS:
            out.append((i, bool))
        elif name in JSON_COLUMNS:
            out.append((i, lambda v: json.loads(v) if isinstance(v, str) else v))
    return out


def _convert(raw: list[Any], names: Sequence[str], time: Callable[[Any], Any]) -> list[tuple[Any, ...]]:
    conv = _converters(names, time)
    if not conv:
        return [tuple(r) for r in raw]
    out = []
    for r in raw:
        row = list(r)
        for i, f in conv:
            if row[i] is not None:
                row[i] = f(row[i])
        out.append(tuple(row))
    return out


class LiteStatements:
    """The statements on a ``sqlite3`` connection."""

    def __init__(self, conn: sqlite3.Connection, owner: object) -> None:
        self.conn = conn
        self._owner = owner

    @property
    def owner(self) -> object:
        return self._owner

    @staticmethod
    def _value(v: Any) -> Any:
        if isinstance(v, datetime):
            return sqlite_time(v)
        if isinstance(v, list | tuple):
            return dump_list(v)
        return v

    def _bind(self, sql: str, params: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
        if not params:
            return sql, {}
        out = {k: self._value(v) for k, v in params.items() if not k.startswith("in_")}
        if "in_" in sql:
            def expand(m: re.Match[str]) -> str:
                items = list(params[m.group(1)])
                for i, item in enumerate(items):
                    out[f"{m.group(1)}_{i}"] = item
                return "(" + ", ".join(f":{m.group(1)}_{i}" for i in range(len(items))) + ")" if items else "(NULL)"
            sql = _IN.sub(expand, sql)
        return sql, out

    def _execute(self, sql: str, params: Mapping[str, Any] | None) -> sqlite3.Cursor:
        text, bound = self._bind(sql, params)
        return self.conn.execute(text, bound)

    def rows(self, sql: str, params: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
        cur = self._execute(sql, params)
        return _convert(cur.fetchall(), [d[0] for d in cur.description], from_sqlite_time)

    def dicts(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        cur = self._execute(sql, params)
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in _convert(cur.fetchall(), names, from_sqlite_time)]

    def run(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        return self._execute(sql, params).rowcount

    def many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> int:
        """A first crawl binds 3,150 new posts of 31 columns, a dozen lists and times each: the row
        is copied once and only those values converted, by their exact type (another type, such
        as a subclass, goes the long way)."""
        value, plain, bind = self._value, _PLAIN, _BIND
        bound = []
        for r in rows:
            row = dict(r)
            for k, v in r.items():
                t = type(v)
                if t not in plain:
                    f = bind.get(t)
                    row[k] = f(v) if f is not None else value(v)
            bound.append(row)
        return self.conn.executemany(sql, bound).rowcount

    def insert(self, sql: str, params: Mapping[str, Any]) -> int:
        rowid = self._execute(sql, params).lastrowid
        assert rowid is not None
        return rowid


class CoreStatements:
    """The statements through SQLAlchemy (PostgreSQL): ``text()`` with ``IN`` lists expanded."""

    _texts: ClassVar[dict[str, TextClause]] = {}

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    @property
    def owner(self) -> object:
        return self.conn.engine

    def _text(self, sql: str) -> TextClause:
        clause = self._texts.get(sql)
        if clause is None:
            from sqlalchemy import bindparam, text

            clause = text(sql).bindparams(*(bindparam(n, expanding=True) for n in _IN.findall(sql)))
            self._texts[sql] = clause
        return clause

    @staticmethod
    def _value(k: str, v: Any) -> Any:
        if isinstance(v, datetime):
            return utc(v)
        if isinstance(v, list | tuple) and not k.startswith("in_"):
            return dump_list(v)
        return v

    def _params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        return {k: self._value(k, v) for k, v in (params or {}).items()}

    @staticmethod
    def _time(v: Any) -> Any:
        return v.astimezone(UTC) if isinstance(v, datetime) else from_sqlite_time(v)

    def rows(self, sql: str, params: Mapping[str, Any] | None = None) -> list[tuple[Any, ...]]:
        result = self.conn.execute(self._text(sql), self._params(params))
        return _convert(list(result), list(result.keys()), self._time)

    def dicts(self, sql: str, params: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        result = self.conn.execute(self._text(sql), self._params(params))
        names = list(result.keys())
        return [dict(zip(names, r, strict=True)) for r in _convert(list(result), names, self._time)]

    def run(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        return int(self.conn.execute(self._text(sql), self._params(params)).rowcount)

    def many(self, sql: str, rows: Sequence[Mapping[str, Any]]) -> int:
        return int(self.conn.execute(self._text(sql), [self._params(r) for r in rows]).rowcount)

    def insert(self, sql: str, params: Mapping[str, Any]) -> int:
        return int(self.conn.execute(self._text(sql + " RETURNING id"), self._params(params)).scalar_one())


def statements(session: UnitOfWork) -> Statements:
    """The statements of a unit of work: its own ``sqlite3`` connection (a store opened without
    SQLAlchemy), the DBAPI connection under a SQLAlchemy one on SQLite, or SQLAlchemy itself."""
    own: Statements | None = getattr(session, "statements", None)
    if own is not None:
        return own
    conn = session.connection()
    if conn.dialect.name == "sqlite":
        raw = conn.connection.dbapi_connection
        assert isinstance(raw, sqlite3.Connection)
        return LiteStatements(raw, conn.engine)
    return CoreStatements(conn)
