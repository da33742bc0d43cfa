"""Crawling: what ``tracker crawl`` and the TUI's crawl call.

``crawl`` runs the async crawl on a fresh loop (CLI); ``crawl_async`` is for a Textual worker,
which already has a loop. Both report progress through the same callback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tracker.service.context import GameContext

if TYPE_CHECKING:  # the crawler (httpx, selectolax) is loaded by the commands that crawl, not by `tracker state`
    from tracker.scraper.crawl import CrawlProgress, CrawlReport

_log = logging.getLogger(__name__)


def _summary(report: CrawlReport) -> CrawlReport:
    """The crawl's counts in the log (the watcher's journal): requests, pages, posts, threads that failed."""
    failed = [t.tid for t in report.threads if t.status != "ok"]
    _log.info("抓取 %s：%d 个帖子，%d 次请求，%d 页，新帖 %d，变化 %d%s", report.status, len(report.threads),
              report.requests, report.pages_fetched, sum(t.posts_new for t in report.threads),
              sum(t.posts_changed for t in report.threads), f"；未完成的帖子 {failed}" if failed else "")
    return report


class Crawling:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    def crawl(self, *, progress: Callable[[CrawlProgress], None] | None = None,
              tids: Sequence[int] | None = None) -> CrawlReport:
        from tracker.scraper.crawl import crawl_game_sync

        return _summary(crawl_game_sync(self.ctx.game, self.ctx.store, clock=self.ctx.clock, progress=progress,
                                        tids=tids))

    async def crawl_async(self, *, progress: Callable[[CrawlProgress], None] | None = None,
                          tids: Sequence[int] | None = None) -> CrawlReport:
        from tracker.scraper.crawl import crawl_game

        return _summary(await crawl_game(self.ctx.game, self.ctx.store, clock=self.ctx.clock, progress=progress,
                                         tids=tids))
