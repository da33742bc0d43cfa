"""Tables of the posts area: threads, posts, every version of a post, crawls, raw responses.

A post row holds the latest observation merged across sources (desktop pages know sizes, fonts and
the edit marker; the mobile API knows positions); a ``post_version`` row is written whenever what a
post says changes, is blocked/unblocked or comes back after a deletion, so a player who edits a
violation away never erases the evidence. Nothing here is ever deleted: a post that disappears
from a complete listing is flagged ``deleted``.

Plain SQLAlchemy Core ``Table``s, the one definition of each: `tracker crawl` writes and reads only
these, and so loads neither the ORM, nor sqlmodel, nor pydantic for the store (~0.27 s of every
crawl's start-up, which a fetch-and-parse floor does not pay; ``tests/test_crawl_loads.py``).
Datetimes are aware and stored in UTC (:class:`UTCDateTime`); list-valued columns are JSON
(:class:`JSONList`). The migration ``migrations/versions/*_posts_*.py`` mirrors these definitions
exactly (a test compares them with alembic's autogenerate).
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, Integer, LargeBinary, String, Table, Text

from tracker.store.column_types import JSONList, UTCDateTime
from tracker.store.metadata import metadata


def _list(name: str) -> Column[list[object]]:
    return Column(name, JSONList, nullable=False)


#: A thread as last listed: the counters the crawler compares to decide what to fetch.
thread_t = Table(
    "thread", metadata,
    Column("tid", Integer, primary_key=True, autoincrement=False),
    Column("fid", Integer, nullable=True),
    Column("subject", Text, nullable=False),
    Column("replies", Integer, nullable=True),
    Column("maxposition", Integer, nullable=True),
    Column("pages", Integer, nullable=True),
    Column("first_seen", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    # When the last complete listing of the thread was compared with the store (mark_deleted).
    Column("listed_at", UTCDateTime, nullable=True),
)

#: The current state of one post (by pid; floors renumber, pids never do).
post_t = Table(
    "post", metadata,
    Column("pid", Integer, primary_key=True, autoincrement=False),
    Column("tid", Integer, ForeignKey("thread.tid"), nullable=False),
    Column("floor", Integer, nullable=False),
    Column("position", Integer, nullable=True),
    Column("author", String(255), nullable=False),
    Column("uid", Integer, nullable=True),
    Column("posted_at", UTCDateTime, nullable=False),
    Column("html", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("edited_by", String(255), nullable=True),
    Column("edited_at", UTCDateTime, nullable=True),
    Column("blocked", Boolean, nullable=False),
    Column("from_mobile", Boolean, nullable=False),
    _list("quotes"), _list("colors"), _list("sizes"), _list("fonts"), _list("images"), _list("smilies"),
    # The source that last wrote the content (text/html).
    Column("source", String(16), nullable=False),
    Column("content_key", String(64), nullable=False),
    Column("html_hash", String(64), nullable=False),
    # True when the current content has been seen on a desktop page (sizes, fonts, edit marker known).
    Column("has_desktop", Boolean, nullable=False),
    # The content key of the last mobile listing's rendering of this post. The listing is compared with
    # this, not with the desktop's key: the two renderings of badly formed BBCode may not agree, and a
    # comparison across them would see an edit, store a version and fetch the page on every crawl.
    Column("listing_key", String(64), nullable=True),
    # The digest of the message that listing showed (tracker.scraper.mobile.message_digest), written with
    # listing_key whenever it is: a listing showing the same message again is not extracted again.
    Column("listing_digest", String(64), nullable=True),
    Column("deleted", Boolean, nullable=False),
    Column("deleted_seen_at", UTCDateTime, nullable=True),
    Column("first_seen", UTCDateTime, nullable=False),
    Column("last_seen", UTCDateTime, nullable=False),
    # How many distinct contents were seen (1 for a post never edited).
    Column("versions", Integer, nullable=False),
    Index("ix_post_tid_author_posted_at", "tid", "author", "posted_at"),
)

#: One observed state of a post: its first sighting, each edit, each block/unblock/restore.
#: ``kind``: ``first`` | ``edit`` | ``blocked`` | ``unblocked`` | ``restored``.
version_t = Table(
    "post_version", metadata,
    Column("id", Integer, primary_key=True),
    Column("pid", Integer, ForeignKey("post.pid"), nullable=False),
    Column("seen_at", UTCDateTime, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("source", String(16), nullable=False),
    Column("content_key", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("html", Text, nullable=False),
    _list("quotes"), _list("colors"), _list("sizes"),
    Column("edited_by", String(255), nullable=True),
    Column("edited_at", UTCDateTime, nullable=True),
    Column("blocked", Boolean, nullable=False),
    Column("crawl_id", Integer, ForeignKey("crawl.id"), nullable=True),
    Index("ix_post_version_pid_id", "pid", "id"),
)

#: One crawl run; ``finished_at`` stays empty when the process was killed.
crawl_t = Table(
    "crawl", metadata,
    Column("id", Integer, primary_key=True),
    Column("started_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime, nullable=True),
    _list("threads"),
    Column("requests", Integer, nullable=False),
    Column("pages", Integer, nullable=False),
    Column("posts_new", Integer, nullable=False),
    Column("posts_changed", Integer, nullable=False),
    _list("errors"),
    Column("status", String(16), nullable=False),
)

#: A response body as fetched, gzip-compressed, so a parser fix can re-parse a game offline.
raw_t = Table(
    "raw_page", metadata,
    Column("id", Integer, primary_key=True),
    Column("url", Text, nullable=False),
    Column("status", Integer, nullable=False),
    Column("content_type", String(255), nullable=True),
    Column("size", Integer, nullable=False),
    Column("body_gz", LargeBinary, nullable=False),
    Column("fetched_at", UTCDateTime, nullable=False),
    Column("crawl_id", Integer, ForeignKey("crawl.id"), nullable=True),
    Index("ix_raw_page_url_fetched_at", "url", "fetched_at"),
)

#: The game's append-only event log (:mod:`tracker.store.events`); the crawl's roster check reads it.
event_t = Table(
    "event", metadata,
    Column("seq", Integer, primary_key=True),
    Column("at", UTCDateTime, nullable=False),
    Column("kind", String(32), nullable=False, index=True),
    Column("player", String(255), nullable=True),
    Column("data", JSON, nullable=False),
    Column("recorded_by", String(255), nullable=False),
    Column("recorded_at", UTCDateTime, nullable=False),
)
