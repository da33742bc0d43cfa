"""Crawling and reading stored posts: what ``tracker crawl`` / ``tracker posts`` and the TUI call.

``crawl`` runs the async crawl on a fresh loop (CLI); ``crawl_async`` is for a Textual worker,
which already has a loop. Both report progress through the same callback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import tzinfo
from typing import TYPE_CHECKING, Any

from tracker.service.base import ServiceBase

if TYPE_CHECKING:
    from tracker.scraper.crawl import CrawlProgress, CrawlReport
    from tracker.store.posts import StoredPost


def post_json(p: StoredPost, tz: tzinfo) -> dict[str, Any]:
    """The ``tracker posts --json`` shape (DESIGN.md): times in the forum's zone, deleted posts marked."""
    return {
        "pid": p.pid, "tid": p.tid, "floor": p.floor, "position": p.position, "author": p.author, "uid": p.uid,
        "posted_at": p.posted_at.astimezone(tz).isoformat(),
        "edited_at": p.edited_at.astimezone(tz).isoformat() if p.edited_at else None,
        "blocked": p.blocked, "deleted": p.deleted, "versions": p.versions, "text": p.text,
        "quotes": [{"pid": q.pid, "author": q.author, "text": q.text} for q in p.quotes],
        "colors": list(p.colors), "sizes": list(p.sizes),
    }


class CrawlOps(ServiceBase):
    def crawl(self, *, progress: Callable[[CrawlProgress], None] | None = None,
              tids: Sequence[int] | None = None, **kw: Any) -> CrawlReport:
        from tracker.scraper.crawl import crawl_game_sync

        return crawl_game_sync(self.game, self.store, clock=self.clock, progress=progress, tids=tids, **kw)

    async def crawl_async(self, *, progress: Callable[[CrawlProgress], None] | None = None,
                          tids: Sequence[int] | None = None, **kw: Any) -> CrawlReport:
        from tracker.scraper.crawl import crawl_game

        return await crawl_game(self.game, self.store, clock=self.clock, progress=progress, tids=tids, **kw)

    def posts(self, tid: int, *, include_deleted: bool = True) -> list[StoredPost]:
        """A thread's stored posts in posting order (pid), deleted ones included and marked."""
        from tracker.store.posts import posts_for_thread

        with self.store.session() as s:
            return posts_for_thread(s, tid, include_deleted=include_deleted)

    def posts_json(self, tid: int) -> list[dict[str, Any]]:
        tz = self.game.tz
        return [post_json(p, tz) for p in self.posts(tid)]
