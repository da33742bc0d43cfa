"""The column types of the Core tables: an aware UTC datetime and a JSON list.

``UTCDateTime`` behaves exactly as sqlmodel's type of the same name, which the migrations and the
sqlmodel areas use (the same ``DateTime(timezone=True)`` in the database, aware datetimes in and out,
UTC back), so the crawl's tables declare their datetimes without importing sqlmodel. Both convert
with the functions the crawl's own statements use (:mod:`tracker.store.sql`): one rule for each.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import DateTime, Dialect, Interval, Text
from sqlalchemy.sql.operators import OperatorType
from sqlalchemy.types import TypeDecorator, TypeEngine

from tracker.store.sql import dump_list, load_list, utc


class UTCDateTime(TypeDecorator[datetime]):
    """An aware datetime, stored in UTC and read back in UTC (a naive one is refused: a time
    without its zone is a bug, never a guess)."""

    impl = DateTime
    cache_ok = True

    def __init__(self) -> None:
        super().__init__(timezone=True)

    def __repr__(self) -> str:
        return "UTCDateTime()"

    def coerce_compared_value(self, op: OperatorType | None, value: Any) -> TypeEngine[Any]:
        if isinstance(value, timedelta):
            return Interval()
        return self

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else utc(value)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:  # SQLite stores UTC without an offset
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class JSONList(TypeDecorator[list[Any]]):
    """A list as JSON text. Not ``sa.JSON``: most lists here are empty, and a bulk ingest of 30,000 posts
    spent a sixth of its time in ``json.dumps([])`` through nine generic JSON processors per post."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: list[Any] | None, dialect: Dialect) -> str:
        return dump_list(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> list[Any]:
        return load_list(value)
