"""The one facade the CLI and the TUI share, composed of small services.

Each area of the job is a service of its own, given what it needs in its constructor:

    GameContext  the game file, the store, the clock, the ruleset
    GameLog      the event log, read once and folded once per request (ctx)
    Votes        the count of each vote thread and its confirmation (ctx, log)
    Cards        the card ledger and its announcement (ctx, log)
    FlagReview   the detectors and the review of their flags (ctx, log, cards)
    Lurking      潜水 (ctx, log, votes)
    Reports      the day's reports and the director's posts (ctx, log, votes, lurking, cards, flag_review)
    Crawling, Browsing   the forum and the stored posts (ctx)
    NightDesk    night submissions and their settlement (the log's read, fold and append, the days' closes)

:class:`Service` builds each on first use (so a command loads only the areas it asks about: `tracker
state` no night engine, report renderers or post search). Callers reach each service directly
(``svc.votes.confirm_day(1)``, ``svc.log.state()``): there is no layer of forwards. Each service's
public call opens one :meth:`GameLog.request` itself (:func:`~tracker.service.request.one_request`),
so a call reads the event log once and folds each state it needs once, however many services it
crosses; a caller that asks several questions at once wraps them in ``svc.log.request()``. What
Service itself answers crosses services (:meth:`crawl_and_detect`, :meth:`summary`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.service.context import GameContext
from tracker.service.request import one_request

if TYPE_CHECKING:
    # Each service's module is loaded when the service is first asked for (the properties below):
    # `tracker state` pays for no night engine, no report renderers, no post search.
    from sqlmodel import Session

    from tracker.clock import Clock
    from tracker.config import GameConfig
    from tracker.engine.events import Event, EventDraft
    from tracker.engine.ruleset import Ruleset
    from tracker.scraper.crawl import CrawlProgress, CrawlReport  # loaded by the commands that crawl
    from tracker.service.browsing import Browsing
    from tracker.service.cards import Cards
    from tracker.service.crawling import Crawling
    from tracker.service.flag_review import DetectionRun, FlagReview
    from tracker.service.gamelog import GameLog
    from tracker.service.lurking import Lurking
    from tracker.service.night_desk import NightDesk
    from tracker.service.reporting import Reports
    from tracker.service.status import GameSummary
    from tracker.service.votes import Votes
    from tracker.store.db import Store

class Service:
    """Everything a director can ask of the tracker, over one game file and one store."""

    def __init__(self, game: GameConfig, store: Store, clock: Clock | None = None, *,
                 ruleset: Ruleset | None = None) -> None:
        self.ctx = GameContext(game, store, clock, ruleset=ruleset)

    @cached_property
    def log(self) -> GameLog:
        """The event log and its folds (with the engine's state and days), loaded on first use:
        `tracker crawl` reads no log when it holds no substitution."""
        from tracker.service.gamelog import GameLog

        return GameLog(self.ctx)

    # The services, each built (and its module loaded) on first use: a command pays only for the
    # areas it asks about. Each is built once and given the same log, so one request still reads
    # the event log once however many services it crosses.
    @cached_property
    def votes(self) -> Votes:
        from tracker.service.votes import Votes

        return Votes(self.ctx, self.log, desk=self._desk_in)

    @cached_property
    def cards(self) -> Cards:
        from tracker.service.cards import Cards

        return Cards(self.ctx, self.log, desk=self._desk_in)

    @cached_property
    def flag_review(self) -> FlagReview:
        from tracker.service.flag_review import FlagReview

        return FlagReview(self.ctx, self.log, self.cards)

    @cached_property
    def lurking(self) -> Lurking:
        from tracker.service.lurking import Lurking

        return Lurking(self.ctx, self.log, self.votes)

    @cached_property
    def reports(self) -> Reports:
        from tracker.service.reporting import Reports

        return Reports(self.ctx, self.log, self.votes, self.lurking, self.cards, self.flag_review)

    @cached_property
    def crawling(self) -> Crawling:
        from tracker.service.crawling import Crawling

        return Crawling(self.ctx)

    @cached_property
    def browsing(self) -> Browsing:
        from tracker.service.browsing import Browsing

        return Browsing(self.ctx)

    @classmethod
    def open(cls, game_path: str | Path, db_url: str | None = None, clock: Clock | None = None, *,
             check_ruleset: bool = True) -> Service:
        """The game file read and its ruleset checked before the database is touched (not checked,
        but loaded on first use, with ``check_ruleset=False``: :meth:`GameContext.open`)."""
        ctx = GameContext.open(game_path, db_url, clock, check_ruleset=check_ruleset)
        return cls(ctx.game, ctx.store, ctx.clock, ruleset=ctx.ruleset if check_ruleset else None)

    # -- what every caller reads -------------------------------------------------------------------
    @property
    def game(self) -> GameConfig:
        return self.ctx.game

    @property
    def store(self) -> Store:
        return self.ctx.store

    @property
    def clock(self) -> Clock:
        return self.ctx.clock

    @property
    def ruleset(self) -> Ruleset:
        return self.ctx.ruleset

    def close(self) -> None:
        self.ctx.close()

    @cached_property
    def night_desk(self) -> NightDesk:
        """The night desk over this game's log (``tracker night``, the TUI's 夜晚 screen): given the
        log's read, fold and append, so it plugs in as one more service. Built once (its catalog of
        skills with it); it keeps nothing else between calls."""
        from tracker.service.night_desk import NightDesk

        log = self.log

        def append(drafts: Sequence[EventDraft]) -> list[Event]:
            with self.store.session() as session:
                return log.append(session, drafts)

        return NightDesk(self.ruleset, log=log.events, fold=log.fold, append=append, window=self._day_window,
                         now=self.clock.now, director=self.ctx.director())

    def _day_window(self, day: int) -> tuple[datetime, datetime]:
        from tracker.errors import GameRuleError

        found = [d for d in self.log.effective_days() if d.day == day]
        if not found:
            raise GameRuleError(f"游戏文件中没有第 {day} 日", hint="在 [[days]] 中加上这一天（开门、关门时间）")
        return found[0].opens, found[0].closes

    def _desk_in(self, session: Session) -> NightDesk:
        """The night desk inside a caller's transaction (a vote's or a red card's exit)."""
        log = self.log
        return self.night_desk.within(log=lambda: log.events_in(session), append=lambda drafts: log.append(session, drafts))

    # -- what crosses services ---------------------------------------------------------------------
    def crawl_and_detect(self, *, progress: Callable[[CrawlProgress], None] | None = None,
                         tids: Sequence[int] | None = None) -> tuple[CrawlReport, DetectionRun]:
        """Crawl, then run the detectors on what is new or changed (`tracker crawl --detect`, and
        the TUI's crawl in its child process). The detectors run also when the crawl failed: the
        posts stored before the failure still get scanned; the crawl's error is raised after."""
        from tracker.scraper.crawl import CrawlProgress

        try:
            report = self.crawling.crawl(progress=progress, tids=tids)
        finally:
            if progress is not None:
                progress(CrawlProgress("step", None, 0, 0, 0, 0, "检测违规"))
            detection = self.flag_review.detect_flags()
        return report, detection

    @one_request
    def summary(self) -> GameSummary:
        """The game state with each player's cards (`tracker state`, the TUI's 玩家 screen)."""
        from tracker.service.status import summary

        return summary(self.log, self.cards)


__all__ = ["Service"]
