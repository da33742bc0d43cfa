"""The crawl's statements, each written once, in SQL that SQLite and PostgreSQL both read.

Run by :func:`tracker.store.sql.statements` (``sqlite3`` on SQLite, SQLAlchemy's ``text()`` elsewhere)
over the tables :mod:`tracker.store.tables` defines. Portable on purpose: booleans are tested as
``NOT deleted`` / ``has_desktop`` (SQLite's 0/1, PostgreSQL's boolean), a parameter that may be NULL
in ``… IS NULL`` is cast (PostgreSQL must know its type), ``IN :in_…`` takes a list.

The guards in the WHERE clauses are the store's rules for when a light write may stand in for the full
merge (:func:`tracker.store.posts.upsert_posts`); each function there says why its guard suffices.
"""

from __future__ import annotations

from functools import lru_cache

# -- posts ------------------------------------------------------------------------------------------

SELECT_POSTS = "SELECT * FROM post WHERE pid IN :in_pids"
SELECT_TIDS = "SELECT tid FROM thread WHERE tid IN :in_tids"

# What says whether a desktop observation is the stored post unchanged (posts._as_stored).
PROBE_POSTS = ("SELECT pid, html_hash, content_key, floor, has_desktop, source, deleted, blocked, from_mobile, "
               "edited_by, edited_at, colors, sizes, fonts, images, smilies FROM post WHERE pid IN :in_pids")

_LISTING_SAID = ("last_seen = :b_seen, position = coalesce(:b_position, position), "
                 "listing_key = coalesce(CAST(:b_listed AS VARCHAR), listing_key), "
                 "listing_digest = CASE WHEN CAST(:b_listed AS VARCHAR) IS NULL THEN listing_digest "
                 "ELSE CAST(:b_digest AS VARCHAR) END")
_AS_STORED = ("pid = :b_pid AND html_hash = :b_hash AND floor = :b_floor AND from_mobile = :b_mobile "
              "AND has_desktop AND source = 'desktop' AND NOT deleted AND NOT blocked")

# A desktop observation the probe found unchanged: last_seen and what the listing just said.
TOUCH = f"UPDATE post SET {_LISTING_SAID} WHERE {_AS_STORED} AND content_key = :b_key"
# A desktop post whose message HTML is the one stored (tracker.records.SeenAsStored): TOUCH without
# the content key, which the stored HTML of a desktop-sourced row already vouches for.
TOUCH_AS_STORED = f"UPDATE post SET {_LISTING_SAID} WHERE {_AS_STORED}"

# A listed post that only moved (posts.moved_only); the WHERE is the state the caller compared with.
REFLOOR = ("UPDATE post SET floor = :b_floor, position = coalesce(:b_position, position), last_seen = :b_seen, "
           "listing_digest = coalesce(CAST(:b_digest AS VARCHAR), listing_digest) "
           "WHERE pid = :b_pid AND NOT deleted AND blocked = :b_blocked AND (blocked OR listing_key = :b_listed)")
# A post listed with the message last stored (tracker.records.ListedPost): its place, nothing else.
MOVE_LISTED = ("UPDATE post SET floor = :b_floor, position = coalesce(:b_position, position), last_seen = :b_seen "
               "WHERE pid = :b_pid AND NOT deleted AND NOT blocked AND listing_digest = :b_digest")
# A listed message that says what the stored listing key says, but whose digest was not stored (a
# store from before the digest) or differs (a change that leaves the text and quotes as they were).
NOTE_DIGEST = "UPDATE post SET listing_digest = :b_digest WHERE pid = :b_pid AND listing_key = :b_listed"

LIVE_PIDS = "SELECT pid FROM post WHERE tid = :tid AND NOT deleted"
MARK_DELETED = "UPDATE post SET deleted = TRUE, deleted_seen_at = :seen_at WHERE pid IN :in_pids"

# The pid, then tracker.store.posts.KnownPost's fields in its order.
KNOWN_POSTS = ("SELECT pid, content_key, floor, position, has_desktop, blocked, deleted, listing_key, "
               "listing_digest, CASE WHEN source = 'desktop' THEN html_hash END AS desktop_digest "
               "FROM post WHERE tid = :tid")

POSTS_PER_AUTHOR = ("SELECT author, count(*) AS n FROM post WHERE tid IN :in_tids AND NOT deleted "
                    "GROUP BY author")

# -- threads ----------------------------------------------------------------------------------------

SELECT_THREAD = "SELECT * FROM thread WHERE tid = :tid"
THREAD_EXISTS = "SELECT tid FROM thread WHERE tid = :tid"
THREAD_LISTED = "UPDATE thread SET listed_at = :seen_at WHERE tid = :tid"

# -- crawls -----------------------------------------------------------------------------------------

CLOSE_STALE_CRAWLS = ("UPDATE crawl SET status = 'failed', finished_at = :finished_at, errors = :errors "
                      "WHERE status = 'running' AND started_at < :started_before")
FINISH_CRAWL = ("UPDATE crawl SET finished_at = :finished_at, requests = :requests, pages = :pages, "
                "posts_new = :posts_new, posts_changed = :posts_changed, errors = :errors, status = :status "
                "WHERE id = :id")

# -- the event log ----------------------------------------------------------------------------------

EVENTS = "SELECT * FROM event ORDER BY seq"


# -- rows whose columns are the dict's keys ---------------------------------------------------------

@lru_cache(maxsize=64)
def insert_into(table: str, columns: tuple[str, ...]) -> str:
    """An INSERT of one row given as a dict of its columns (a new post, a version, a raw page)."""
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(f':{c}' for c in columns)})"


@lru_cache(maxsize=64)
def update_where(table: str, columns: tuple[str, ...], key: str) -> str:
    """An UPDATE setting the dict's columns of the row whose ``key`` is the parameter ``b_<key>``."""
    return f"UPDATE {table} SET {', '.join(f'{c} = :{c}' for c in columns)} WHERE {key} = :b_{key}"
