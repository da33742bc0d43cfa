"""The one facade the CLI and the TUI share; each area of the job is a mixin in its own module."""

from __future__ import annotations

from tracker.service.base import ServiceBase
from tracker.service.browsing import BrowseOps
from tracker.service.crawling import CrawlOps
from tracker.service.penalties import PenaltyOps
from tracker.service.reporting import ReportOps
from tracker.service.state import StateOps
from tracker.service.votes import VoteOps


class Service(CrawlOps, VoteOps, StateOps, PenaltyOps, ReportOps, BrowseOps, ServiceBase):
    """Everything a director can ask of the tracker, over one game file and one store."""


__all__ = ["Service"]
