"""The one facade the CLI and the TUI share; each area of the job is a mixin in its own module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from tracker.engine.events import Event
from tracker.errors import GameRuleError
from tracker.service.base import ServiceBase
from tracker.service.browsing import BrowseOps
from tracker.service.crawling import CrawlOps
from tracker.service.penalties import DetectionRun, PenaltyOps
from tracker.service.reporting import ReportOps
from tracker.service.state import StateOps
from tracker.service.votes import VoteOps

if TYPE_CHECKING:
    from tracker.scraper.crawl import CrawlProgress, CrawlReport
    from tracker.service.night import NightDesk


class Service(CrawlOps, VoteOps, StateOps, PenaltyOps, ReportOps, BrowseOps, ServiceBase):
    """Everything a director can ask of the tracker, over one game file and one store."""

    def crawl_and_detect(self, *, progress: Callable[[CrawlProgress], None] | None = None,
                         tids: Sequence[int] | None = None) -> tuple[CrawlReport, DetectionRun]:
        """Crawl, then run the detectors on what is new or changed (`tracker crawl --detect`, and
        the TUI's crawl in its child process). The detectors run also when the crawl failed: the
        posts stored before the failure still get scanned; the crawl's error is raised after."""
        from tracker.scraper.crawl import CrawlProgress

        try:
            report = self.crawl(progress=progress, tids=tids)
        finally:
            if progress is not None:
                progress(CrawlProgress("step", None, 0, 0, 0, 0, "检测违规"))
            detection = self.detect_flags()
        return report, detection

    def night_desk(self) -> NightDesk:
        """The night desk over this game's log (``tracker night``, the TUI's 夜晚 screen)."""
        from tracker.engine.events import EventDraft
        from tracker.engine.state import fold
        from tracker.service.night import NightDesk
        from tracker.store.events import append_event

        def append(drafts: Sequence[EventDraft]) -> list[Event]:
            with self.store.session() as session:
                return [append_event(session, d, recorded_at=self.clock.now()) for d in drafts]

        def window(day: int) -> tuple[datetime, datetime]:
            found = [d for d in self.effective_days() if d.day == day]
            if not found:
                raise GameRuleError(f"游戏文件中没有第 {day} 日", hint="在 [[days]] 中加上这一天（开门、关门时间）")
            return found[0].opens, found[0].closes

        return NightDesk(self.ruleset, log=self.all_events,
                         fold=lambda events: fold(self.ruleset, self.game.players, events, self.game.days),
                         append=append, window=window, now=self.clock.now, director=self.director())


__all__ = ["Service"]
