"""The one facade the CLI and the TUI share; each area of the job is a mixin in its own module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tracker.service.base import ServiceBase
from tracker.service.browsing import BrowseOps
from tracker.service.crawling import CrawlOps
from tracker.service.penalties import DetectionRun, PenaltyOps
from tracker.service.reporting import ReportOps
from tracker.service.state import StateOps
from tracker.service.votes import VoteOps

if TYPE_CHECKING:
    from tracker.scraper.crawl import CrawlProgress, CrawlReport


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


__all__ = ["Service"]
