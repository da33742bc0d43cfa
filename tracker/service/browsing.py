"""Browsing the stored posts a page at a time (the TUI's 帖子 screen; any other reader too)."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.service.context import GameContext
from tracker.store.post_search import post_by_pid, search_posts
from tracker.store.posts import StoredPost, posts_for_thread

__all__ = ["Browsing", "PostSearch", "StoredPost"]


@dataclass(frozen=True, slots=True)
class PostSearch:
    total: int
    offset: int
    posts: tuple[StoredPost, ...]


class Browsing:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    def search_posts(self, *, author: str | None = None, tid: int | None = None, day: int | None = None,
                     text: str | None = None, offset: int = 0, limit: int = 50) -> PostSearch:
        """One page of posts in forum order; ``day`` means the posts of that day's threads."""
        tids: set[int] | None = None
        if day is not None:
            d = self.ctx.game.day(day)
            tids = {*(t for t in (d.discussion,) if t is not None), *d.vote}
        if tid is not None:
            tids = {tid} if tids is None else tids & {tid}
        with self.ctx.store.session() as s:
            total, page = search_posts(s, author=author or None, tids=tids, text=text or None,
                                       offset=offset, limit=limit)
        return PostSearch(total=total, offset=offset, posts=tuple(page))

    def post(self, pid: int) -> StoredPost | None:
        with self.ctx.store.session() as s:
            return post_by_pid(s, pid)

    def posts(self, tid: int, *, include_deleted: bool = True) -> list[StoredPost]:
        """A thread's stored posts in posting order (pid), deleted ones included and marked."""
        with self.ctx.store.session() as s:
            return posts_for_thread(s, tid, include_deleted=include_deleted)
