"""The one facade the CLI and the TUI share, composed of small services.

Each area of the job is a service of its own, given what it needs in its constructor:

    GameContext  the game file, the store, the clock, the ruleset
    GameLog      the event log, read once and folded once per request (ctx)
    Votes        the count of each vote thread and its confirmation (ctx, log)
    Penalties    the card ledger and its announcement (ctx, log)
    Flags        the detectors and the review of their flags (ctx, log, penalties)
    Lurking      潜水 (ctx, log, votes)
    Reports      the day's reports and the director's posts (ctx, log, votes, lurking, penalties, flags)
    Crawling, Browsing   the forum and the stored posts (ctx)
    NightDesk    night submissions and their settlement (the log's read, fold and append, the days' closes)

:class:`Service` builds each on first use (so a command loads only the areas it asks about: `tracker
state` no night engine, report renderers or post search) and answers each call inside one
:meth:`GameLog.request`, so a call reads the event log once and folds each state it needs once,
however many services it crosses. Its methods only delegate: the decisions live in the services.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from tracker.service.context import GameContext

if TYPE_CHECKING:
    # Each service's module is loaded when the service is first asked for (the properties below):
    # `tracker state` pays for no night engine, no report renderers, no post search.
    from sqlmodel import Session

    from tracker.clock import Clock
    from tracker.config import DayConfig, GameConfig
    from tracker.engine.days import DayStatus
    from tracker.engine.events import Event, EventDraft
    from tracker.engine.ruleset import Ruleset
    from tracker.engine.state import GameState
    from tracker.penalties import ledger as L
    from tracker.penalties.lurk import LurkReport
    from tracker.penalties.review import CardSuggestion, Flag
    from tracker.reports.model import DayReport
    from tracker.scraper.crawl import CrawlProgress, CrawlReport  # loaded by the commands that crawl
    from tracker.service.browsing import Browsing, PostSearch
    from tracker.service.crawling import Crawling
    from tracker.service.flags import DetectionRun, Flags
    from tracker.service.gamelog import GameLog
    from tracker.service.lurking import Lurking
    from tracker.service.night import NightDesk
    from tracker.service.penalties import CardDecision, Penalties, PlayerStanding
    from tracker.service.reporting import Attention, Reports
    from tracker.service.status import GameSummary
    from tracker.service.votes import ConfirmResult, DayTally, Votes
    from tracker.store.db import Store
    from tracker.store.posts import StoredPost

P = ParamSpec("P")
R = TypeVar("R")


def _one_request(method: Callable[Concatenate[Service, P], R]) -> Callable[Concatenate[Service, P], R]:
    """The call reads the event log once and folds each state once (see :meth:`GameLog.request`)."""
    @functools.wraps(method)
    def within(self: Service, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.log.request():
            return method(self, *args, **kwargs)
    return within


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
    def penalties(self) -> Penalties:
        from tracker.service.penalties import Penalties

        return Penalties(self.ctx, self.log, desk=self._desk_in)

    @cached_property
    def flag_review(self) -> Flags:
        from tracker.service.flags import Flags

        return Flags(self.ctx, self.log, self.penalties)

    @cached_property
    def lurking(self) -> Lurking:
        from tracker.service.lurking import Lurking

        return Lurking(self.ctx, self.log, self.votes)

    @cached_property
    def reports(self) -> Reports:
        from tracker.service.reporting import Reports

        return Reports(self.ctx, self.log, self.votes, self.lurking, self.penalties, self.flag_review)

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

    def director(self) -> str:
        return self.ctx.director()

    def request(self) -> AbstractContextManager[None]:
        """One request across several calls (a TUI screen asks for a tally, its day and what is
        confirmed): the event log is read once and each state folded once for all of them."""
        return self.log.request()

    def close(self) -> None:
        self.ctx.close()

    def night_desk(self) -> NightDesk:
        """The night desk over this game's log (``tracker night``, the TUI's 夜晚 screen): given the
        log's read, fold and append, so it plugs in as one more service. Built once (its catalog of
        skills with it); it keeps nothing else between calls."""
        return self._night_desk

    @cached_property
    def _night_desk(self) -> NightDesk:
        from tracker.service.night import NightDesk

        log = self.log

        def append(drafts: Sequence[EventDraft]) -> list[Event]:
            with self.store.session() as session:
                return log.append(session, drafts)

        return NightDesk(self.ruleset, log=log.events, fold=log.fold, append=append, window=self._day_window,
                         now=self.clock.now, director=self.director())

    def _day_window(self, day: int) -> tuple[datetime, datetime]:
        from tracker.errors import GameRuleError

        found = [d for d in self.log.effective_days() if d.day == day]
        if not found:
            raise GameRuleError(f"游戏文件中没有第 {day} 日", hint="在 [[days]] 中加上这一天（开门、关门时间）")
        return found[0].opens, found[0].closes

    def _desk_in(self, session: Session) -> NightDesk:
        """The night desk inside a caller's transaction (a vote's or a red card's exit settles with
        the events that record it, all or nothing)."""
        from tracker.service.night import NightDesk

        log = self.log
        return NightDesk(self.ruleset, log=lambda: log.events_in(session), fold=log.fold,
                         append=lambda drafts: log.append(session, drafts), window=self._day_window,
                         now=self.clock.now, director=self.director())

    # -- crawling and posts -----------------------------------------------------------------------
    def crawl(self, *, progress: Callable[[CrawlProgress], None] | None = None,
              tids: Sequence[int] | None = None, **kw: Any) -> CrawlReport:
        return self.crawling.crawl(progress=progress, tids=tids, **kw)

    async def crawl_async(self, *, progress: Callable[[CrawlProgress], None] | None = None,
                          tids: Sequence[int] | None = None, **kw: Any) -> CrawlReport:
        return await self.crawling.crawl_async(progress=progress, tids=tids, **kw)

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

    def posts(self, tid: int, *, include_deleted: bool = True) -> list[StoredPost]:
        return self.browsing.posts(tid, include_deleted=include_deleted)

    def search_posts(self, *, author: str | None = None, tid: int | None = None, day: int | None = None,
                     text: str | None = None, offset: int = 0, limit: int = 50) -> PostSearch:
        return self.browsing.search_posts(author=author, tid=tid, day=day, text=text, offset=offset, limit=limit)

    def post(self, pid: int) -> StoredPost | None:
        return self.browsing.post(pid)

    # -- the game log -------------------------------------------------------------------------------
    @_one_request
    def all_events(self) -> list[Event]:
        return self.log.events()

    @_one_request
    def game_state(self, at: datetime | None = None) -> GameState:
        return self.log.state(at)

    @_one_request
    def day_status(self, day: int, *, ruleset: Ruleset | None = None, requests: bool = True,
                   events: Sequence[Event] | None = None) -> DayStatus:
        return self.log.day_status(day, ruleset=ruleset, requests=requests, events=events)

    @_one_request
    def day_statuses(self, *, requests: bool = True) -> list[DayStatus]:
        return self.log.day_statuses(requests=requests)

    @_one_request
    def effective_days(self) -> list[DayConfig]:
        return self.log.effective_days()

    @_one_request
    def record_event(self, kind: str, player: str | None = None, data: dict[str, Any] | None = None, *,
                     at: datetime | None = None, recorded_by: str | None = None) -> Event:
        return self.log.record_event(kind, player, data, at=at, recorded_by=recorded_by)

    @_one_request
    def undo_event(self, seq: int, reason: str = "", *, recorded_by: str | None = None) -> Event:
        return self.log.undo_event(seq, reason, recorded_by=recorded_by)

    @_one_request
    def undo_notes(self, seq: int) -> list[str]:
        return self.log.undo_notes(seq)

    @_one_request
    def events_json(self) -> list[dict[str, Any]]:
        return self.log.events_json()

    @_one_request
    def state(self) -> GameSummary:
        """The game state with each player's cards (`tracker state`, the TUI's 玩家 screen)."""
        from tracker.service.status import summary

        return summary(self.log, self.penalties)

    # -- votes -----------------------------------------------------------------------------------
    @property
    def ballot_memo_size(self) -> int:
        return self.votes.ballot_memo_size

    @ballot_memo_size.setter
    def ballot_memo_size(self, size: int) -> None:
        self.votes.ballot_memo_size = size

    @_one_request
    def tally_day(self, day: int, *, ruleset_id: str | None = None) -> list[DayTally]:
        return self.votes.tally_day(day, ruleset_id=ruleset_id)

    @_one_request
    def confirmed_tids(self) -> set[int]:
        return self.votes.confirmed_tids()

    @_one_request
    def confirm_day(self, day: int, *, recorded_by: str | None = None) -> list[ConfirmResult]:
        return self.votes.confirm_day(day, recorded_by=recorded_by)

    @_one_request
    def lurkers(self, day: int) -> LurkReport:
        return self.lurking.lurkers(day)

    @_one_request
    def lurkers_announcement(self, day: int) -> str:
        return self.lurking.lurkers_announcement(day)

    # -- cards --------------------------------------------------------------------------------------
    def ledger(self) -> list[L.Entry]:
        return self.penalties.ledger()

    def verify_ledger(self) -> L.Verification:
        return self.penalties.verify_ledger()

    def card_history(self, card_id: int) -> list[L.Entry]:
        return self.penalties.card_history(card_id)

    @_one_request
    def standing(self) -> dict[str, PlayerStanding]:
        return self.penalties.standing()

    @_one_request
    def issue_card(self, player: str, color: str, clause: str | None, reason: str, *,
                   post: int | str | None = None, by: str | None = None, flag: int | None = None,
                   day: int | None = None, at: datetime | None = None) -> CardDecision:
        return self.penalties.issue_card(player, color, clause, reason, post=post, by=by, flag=flag, day=day, at=at)

    @_one_request
    def revoke_card(self, card_id: int, reason: str, *, by: str | None = None) -> CardDecision:
        return self.penalties.revoke_card(card_id, reason, by=by)

    @_one_request
    def amend_card(self, card_id: int, reason: str, *, color: str | None = None, clause: str | None = None,
                   by: str | None = None) -> CardDecision:
        return self.penalties.amend_card(card_id, reason, color=color, clause=clause, by=by)

    @_one_request
    def cards_announcement(self, day: int) -> str:
        return self.penalties.cards_announcement(day)

    def post_places(self, pids: Sequence[int | None]) -> dict[int, tuple[int, int, datetime]]:
        return self.penalties.post_places(pids)

    # -- flags -------------------------------------------------------------------------------------
    @_one_request
    def detect_flags(self) -> DetectionRun:
        return self.flag_review.detect_flags()

    @_one_request
    def flags(self, *, detect: bool = True, status: str | None = None) -> list[Flag]:
        return self.flag_review.flags(detect=detect, status=status)

    def flag_count(self, *, status: str | None = None) -> int:
        return self.flag_review.flag_count(status=status)

    def flag(self, flag_id: int) -> Flag:
        return self.flag_review.flag(flag_id)

    def dismiss_flag(self, flag_id: int, reason: str, *, by: str | None = None) -> Flag:
        return self.flag_review.dismiss_flag(flag_id, reason, by=by)

    def suggest_card(self, flag_id: int, *, reported: bool = False) -> CardSuggestion:
        return self.flag_review.suggest_card(flag_id, reported=reported)

    @_one_request
    def card_from_flag(self, flag_id: int, *, color: str | None = None, clause: str | None = None,
                       reason: str | None = None, by: str | None = None, day: int | None = None,
                       reported: bool = False) -> CardDecision:
        return self.flag_review.card_from_flag(flag_id, color=color, clause=clause, reason=reason, by=by, day=day,
                                               reported=reported)

    # -- reports ------------------------------------------------------------------------------------
    def reports_dir(self) -> Path:
        return self.reports.reports_dir()

    def write_report_file(self, name: str, text: str) -> Path:
        return self.reports.write_file(name, text)

    @_one_request
    def current_day(self) -> int:
        return self.reports.current_day()

    @_one_request
    def day_report(self, day: int, kinds: Sequence[str] = ("tally", "lurkers", "cards"), *,
                   final: bool | None = None) -> DayReport:
        return self.reports.day_report(day, kinds, final=final)

    @_one_request
    def report_bbcode(self, day: int, kind: str) -> str:
        return self.reports.report_bbcode(day, kind)

    @_one_request
    def attention(self, day: int, kind: str) -> Attention:
        return self.reports.attention(day, kind)

    @_one_request
    def write_reports(self, day: int, kinds: Sequence[str] = ("tally", "lurkers", "cards"), *,
                      final: bool | None = None, suffix: str = "", force: bool = False,
                      beside: bool = False) -> list[Path]:
        return self.reports.write_reports(day, kinds, final=final, suffix=suffix, force=force, beside=beside)

    @_one_request
    def elevator_bbcode(self, day: int) -> str:
        return self.reports.elevator_bbcode(day)

    @_one_request
    def day_announcement_bbcode(self, day: int) -> str:
        return self.reports.day_announcement_bbcode(day)


__all__ = ["Service"]
