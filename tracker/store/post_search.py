"""Posts a page at a time, filtered by author, thread and text: what the TUI's 帖子 screen browses.

Why its own query: a game has tens of thousands of posts; the screen must never load them all, so
it asks for one page (``LIMIT/OFFSET`` in forum order) and the total, served by the post indexes.
The page is found on the keys alone (pid ordered by time) and only its rows are then read whole:
sorting 30,000 full rows (HTML included) to keep 50 cost 4x more than sorting their keys.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import func, select

from tracker.store.db import UnitOfWork
from tracker.store.posts import StoredPost, _stored
from tracker.store.tables import post_t


def _escape_like(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _where(q: Any, author: str | None, tids: Collection[int] | None, text: str | None) -> Any:
    if author:
        q = q.where(post_t.c.author == author)
    if tids is not None:
        q = q.where(post_t.c.tid.in_(list(tids)))
    if text:
        q = q.where(post_t.c.text.like(f"%{_escape_like(text)}%", escape="\\"))
    return q


def search_posts(session: UnitOfWork, *, author: str | None = None, tids: Collection[int] | None = None,
                 text: str | None = None, offset: int = 0, limit: int = 50) -> tuple[int, list[StoredPost]]:
    """``(total, page)``: how many posts match and the ``limit`` of them from ``offset`` in forum order."""
    conn = session.connection()
    total = conn.execute(_where(select(func.count()).select_from(post_t), author, tids, text)).scalar_one()
    order = (post_t.c.posted_at, post_t.c.pid)
    keys = _where(select(post_t.c.pid), author, tids, text).order_by(*order)
    page = keys.offset(max(0, offset)).limit(max(1, limit)).subquery()
    q = select(post_t).where(post_t.c.pid.in_(select(page.c.pid))).order_by(*order)
    rows = conn.execute(q).mappings()
    return int(total), [_stored(m) for m in rows]


def post_by_pid(session: UnitOfWork, pid: int) -> StoredPost | None:
    m = session.connection().execute(select(post_t).where(post_t.c.pid == pid)).mappings().first()
    return _stored(m) if m is not None else None
