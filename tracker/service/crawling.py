"""Crawling: what ``tracker crawl`` and the TUI's crawl call.

``crawl`` runs the async crawl on a fresh loop (CLI); ``crawl_async`` is for a Textual worker,
which already has a loop. Both report progress through the same callback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tracker.scraper.crawl import CrawlProgress, CrawlReport, crawl_game, crawl_game_sync
from tracker.service.context import GameContext


class Crawling:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    def crawl(self, *, progress: Callable[[CrawlProgress], None] | None = None,
              tids: Sequence[int] | None = None, **kw: Any) -> CrawlReport:
        return crawl_game_sync(self.ctx.game, self.ctx.store, clock=self.ctx.clock, progress=progress, tids=tids,
                               **kw)

    async def crawl_async(self, *, progress: Callable[[CrawlProgress], None] | None = None,
                          tids: Sequence[int] | None = None, **kw: Any) -> CrawlReport:
        return await crawl_game(self.ctx.game, self.ctx.store, clock=self.ctx.clock, progress=progress, tids=tids,
                                **kw)
