"""Tables of the posts area: threads, posts, every version of a post, crawls, raw responses.

A post row holds the latest observation merged across sources (desktop pages know sizes, fonts and
the edit marker; the mobile API knows positions); a :class:`PostVersion` row is written whenever
what a post says changes, is blocked/unblocked or comes back after a deletion, so a player who
edits a violation away never erases the evidence. Nothing here is ever deleted: a post that
disappears from a complete listing is flagged ``deleted``.

Datetimes are aware and stored in UTC (sqlmodel's ``UTCDateTime``); list-valued fields are JSON.
The migration ``migrations/versions/*_posts_*.py`` mirrors these definitions exactly (a test
compares them with alembic's autogenerate).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Dialect, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from tracker.store.metadata import DEFERRED  # (the naming convention must be set before any table)


class JSONList(TypeDecorator[list[Any]]):
    """A list as JSON text. Not ``sa.JSON``: most lists here are empty, and a bulk ingest of 30,000 posts
    spent a sixth of its time in ``json.dumps([])`` through nine generic JSON processors per post."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: list[Any] | None, dialect: Dialect) -> str:
        if not value:
            return "[]"
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def process_result_value(self, value: str | None, dialect: Dialect) -> list[Any]:
        if not value or value == "[]":
            return []
        result: list[Any] = json.loads(value)
        return result


def _json() -> Any:
    return Field(default_factory=list, sa_type=JSONList)


class ThreadRow(SQLModel, table=True):
    """A thread as last listed: the counters the crawler compares to decide what to fetch."""

    model_config = DEFERRED
    __tablename__ = "thread"

    tid: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    fid: int | None = None
    subject: str = Field(default="", sa_type=Text)
    replies: int | None = None
    maxposition: int | None = None
    pages: int | None = None
    first_seen: datetime
    updated_at: datetime
    # When the last complete listing of the thread was compared with the store (mark_deleted).
    listed_at: datetime | None = None


class PostRow(SQLModel, table=True):
    """The current state of one post (by pid; floors renumber, pids never do)."""

    model_config = DEFERRED
    __tablename__ = "post"
    __table_args__ = (Index("ix_post_tid_author_posted_at", "tid", "author", "posted_at"),)

    pid: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    tid: int = Field(sa_column=Column(Integer, ForeignKey("thread.tid"), nullable=False))
    floor: int
    position: int | None = None
    author: str = Field(sa_type=String(255))
    uid: int | None = None
    posted_at: datetime
    html: str = Field(sa_type=Text)
    text: str = Field(sa_type=Text)
    edited_by: str | None = Field(default=None, sa_type=String(255))
    edited_at: datetime | None = None
    blocked: bool = False
    from_mobile: bool = False
    quotes: list[Any] = _json()
    colors: list[Any] = _json()
    sizes: list[Any] = _json()
    fonts: list[Any] = _json()
    images: list[Any] = _json()
    smilies: list[Any] = _json()
    # The source that last wrote the content (text/html).
    source: str = Field(sa_type=String(16))
    content_key: str = Field(sa_type=String(64))
    html_hash: str = Field(sa_type=String(64))
    # True when the current content has been seen on a desktop page (sizes, fonts, edit marker known).
    has_desktop: bool = False
    # The content key of the last mobile listing's rendering of this post. The listing is compared with
    # this, not with the desktop's key: the two renderings of badly formed BBCode may not agree, and a
    # comparison across them would see an edit, store a version and fetch the page on every crawl.
    listing_key: str | None = Field(default=None, sa_type=String(64))
    deleted: bool = False
    deleted_seen_at: datetime | None = None
    first_seen: datetime
    last_seen: datetime
    # How many distinct contents were seen (1 for a post never edited).
    versions: int = 1


class PostVersion(SQLModel, table=True):
    """One observed state of a post: its first sighting, each edit, each block/unblock/restore.

    ``kind``: ``first`` | ``edit`` | ``blocked`` | ``unblocked`` | ``restored``.
    """

    model_config = DEFERRED
    __tablename__ = "post_version"
    __table_args__ = (Index("ix_post_version_pid_id", "pid", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    pid: int = Field(sa_column=Column(Integer, ForeignKey("post.pid"), nullable=False))
    seen_at: datetime
    kind: str = Field(sa_type=String(16))
    source: str = Field(sa_type=String(16))
    content_key: str = Field(sa_type=String(64))
    text: str = Field(sa_type=Text)
    html: str = Field(sa_type=Text)
    quotes: list[Any] = _json()
    colors: list[Any] = _json()
    sizes: list[Any] = _json()
    edited_by: str | None = Field(default=None, sa_type=String(255))
    edited_at: datetime | None = None
    blocked: bool = False
    crawl_id: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("crawl.id"), nullable=True))


class CrawlRow(SQLModel, table=True):
    """One crawl run; ``finished_at`` stays empty when the process was killed."""

    model_config = DEFERRED
    __tablename__ = "crawl"

    id: int | None = Field(default=None, primary_key=True)
    started_at: datetime
    finished_at: datetime | None = None
    threads: list[Any] = _json()
    requests: int = 0
    pages: int = 0
    posts_new: int = 0
    posts_changed: int = 0
    errors: list[Any] = _json()
    status: str = Field(default="running", sa_type=String(16))


class RawPageRow(SQLModel, table=True):
    """A response body as fetched, gzip-compressed, so a parser fix can re-parse a game offline."""

    model_config = DEFERRED
    __tablename__ = "raw_page"
    __table_args__ = (Index("ix_raw_page_url_fetched_at", "url", "fetched_at"),)

    id: int | None = Field(default=None, primary_key=True)
    url: str = Field(sa_type=Text)
    status: int
    content_type: str | None = Field(default=None, sa_type=String(255))
    size: int
    body_gz: bytes = Field(sa_type=LargeBinary)
    fetched_at: datetime
    crawl_id: int | None = Field(default=None, sa_column=Column(Integer, ForeignKey("crawl.id"), nullable=True))
