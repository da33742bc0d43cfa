"""The TUI's one door to the tracker: every read and every decision goes through the Service.

Why a layer at all: the panes run these calls in thread workers and must get plain values back;
keeping every service call in one module means the screens never learn how the store works, and
an import-hygiene test can check that nothing under ``tui/`` imports ``tracker.store``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from tracker.clock import Clock
from tracker.config import DayConfig
from tracker.engine.days import DayStatus
from tracker.engine.night.desk import phase_key, settled_event
from tracker.errors import TrackerError
from tracker.penalties.ledger import Entry as LedgerEntry
from tracker.penalties.review import Flag
from tracker.scraper.crawl import CrawlProgress
from tracker.service import Service
from tracker.service.cards import CardDecision
from tracker.service.night_desk import parse_entry_line
from tracker.service.reporting import tally_bbcode
from tui.lurk_view import LurkView, lurk_view
from tui.memo import Memo
from tui.tally_view import TallyView, sheet_from
from tui.timing import current_day
from tui.views import Overview, PlayerRow, PostPage, PostQuery, StandingRow

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CrawlLine:
    """A crawl progress line from the child process (the shape of tracker.scraper.crawl.CrawlProgress)."""

    event: str
    tid: int | None
    threads_done: int
    threads_total: int
    requests: int
    pages_fetched: int
    detail: str = ""


class Gateway:
    def __init__(self, service: Service, clock: Clock | None = None) -> None:
        self.service = service
        self.clock: Clock = clock or service.clock
        # Thread workers call in concurrently; flag detection writes as it reads and decisions append
        # to a hash chain, so those run one at a time. Plain reads do not wait behind them.
        self.lock = threading.RLock()
        # Slow answers (tally, 潜水) kept until the store changes: the app clears it after a crawl
        # and after every decision, so the badge and the screen share one computation.
        self.memo = Memo()

    def invalidate(self) -> None:
        self.memo.clear()

    def header_days(self) -> tuple[DayConfig, ...]:
        """The days as the game has them now: the recorded delays' closes and the 加速 in force
        (the game file's ``[[days]]`` when the state cannot be read)."""
        try:
            statuses = {s.day: s for s in self.service.summary().days}
        except TrackerError:
            return tuple(self.service.game.days)
        return tuple(replace(d, opens=statuses[d.day].opens, closes=statuses[d.day].closes,
                             accelerated=bool(statuses[d.day].accelerated)) if d.day in statuses else d
                     for d in self.service.game.days)

    def freeze_minutes(self) -> int | None:
        """The ruleset's change freeze; None when the ruleset cannot be loaded (the header says so)."""
        try:
            return int(self.service.ruleset.voting.freeze_minutes)
        except TrackerError:
            return None

    def ruleset_name(self) -> str:
        try:
            return str(self.service.ruleset.id)
        except TrackerError:
            return self.service.game.ruleset

    # -- crawling -------------------------------------------------------------------------------------
    async def crawl(self, progress: Callable[[CrawlProgress | CrawlLine], None]) -> None:
        """Crawl in a child process (`python -m tracker crawl`), following its JSON progress lines.

        Parsing pages, writing them and the violation detectors after them (``--detect``) run in
        another interpreter, so they never take the GIL from the screen: keys are answered while a
        30k-post game is fetched and scanned. The child shares the store
        (SQLite WAL or the same server) and the environment; its stdin is closed, so a login that
        needs a password takes it from TRACKER_PASSWORD and no prompt appears under the TUI.
        Raises TrackerError with the child's own Chinese message when the crawl fails.
        """
        import asyncio
        import json
        import sys

        if self.service.game.path is None:  # a service built in memory: crawl and detect here, on a worker thread
            def crawl_and_detect() -> None:
                with self.lock:  # detection writes flags, as decisions do
                    self.service.crawl_and_detect(progress=progress)

            await asyncio.to_thread(crawl_and_detect)
            return
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tracker", "crawl", str(self.service.game.path), "--db", self.service.store.url,
            "--json", "--detect", "--progress-jsonl", stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        said: list[str] = []
        assert proc.stderr is not None
        try:
            async for raw in proc.stderr:
                line = raw.decode("utf-8", "replace").strip()
                if line.startswith("{"):
                    try:
                        progress(CrawlLine(**json.loads(line)))
                        continue
                    except (ValueError, TypeError):
                        pass
                if line:
                    said.append(line)
            code = await proc.wait()
        except asyncio.CancelledError:
            proc.terminate()  # the app is closing: the child's transactions keep the store whole
            raise
        if code != 0:
            message = next((x.removeprefix("错误：") for x in said if x.startswith("错误：")), None)
            raise TrackerError(message or (said[-1] if said else f"抓取进程退出，代码 {code}"))

    # -- reads (thread workers call these) ----------------------------------------------------------
    def today(self) -> int | None:
        d = current_day(self.service.game.days, self.clock.now())
        return d.day if d is not None else None

    def players(self) -> tuple[PlayerRow, ...]:
        """The roster with status and cards from the game state."""
        s = self.service.summary()
        return tuple(PlayerRow(name=p.name, status=p.status, role=p.role, faction=p.faction, tags=tuple(sorted(p.tags)),
                               marks=tuple(m for m in s.marks.get(name, ()) if m not in p.tags),
                               blue=s.cards[name].blue, yellow=s.cards[name].yellow, red=s.cards[name].red)
                     for name, p in s.state.players.items())

    def player_detail(self, name: str) -> tuple[PlayerRow, list[LedgerEntry]]:
        """One player's row and every ledger entry naming them (the 玩家 screen's Enter)."""
        with self.service.log.request():
            row = next(p for p in self.players() if p.name == name)
            entries = [e for e in self.service.cards.ledger() if e.player == name]
        return row, entries

    def overview(self) -> Overview:
        problems: list[str] = []

        def attempt(fn: Callable[[], T]) -> T | None:
            try:
                return fn()
            except TrackerError as exc:
                problems.append(exc.message)
            return None

        players = attempt(self.players) or ()
        # open flags as stored: the crawl's child process runs the detectors, never this one
        flags = attempt(lambda: self.service.flag_review.flag_count(status="open"))
        outcome = attempt(self._outcome_words)
        return Overview(players=players, open_flags=flags, posts=attempt(lambda: self.search_posts(
            PostQuery(), 0, 1).total), outcome=outcome, problems=tuple(problems))

    def _outcome_words(self) -> str:
        """The win check as `tracker state` says it: the winner, 尚未分出, or 不判定 and why."""
        from tracker.service.roster_check import roster_errors

        errors = roster_errors(self.service.ctx)
        if errors:
            return f"不判定（配置错误：{'；'.join(errors)}）"
        o = self.service.summary().state.outcome
        return f"{o.reason}（{o.clause}）" if o else "尚未分出"

    def search_posts(self, query: PostQuery, offset: int, limit: int) -> PostPage:
        found = self.service.browsing.search_posts(author=query.author, tid=query.tid, day=query.day,
                                          text=query.text, offset=offset, limit=limit)
        return PostPage(query=query, offset=found.offset, limit=limit, total=found.total, posts=found.posts)

    def lurker_count(self) -> int | None:
        """Players under the day's minimum right now (the 潜水 badge); None before any day."""
        day = self.today()
        if day is None:
            return None
        return self.lurkers(day).under_count

    def tally_badge(self) -> int | str | None:
        """The 票型 badge: ``!`` when a closed day's outcome waits for `y`, else the invalid ballots."""
        day = self.today()
        if day is None or not self.service.game.day(day).vote:
            return None
        view = self.tally(day)
        return "!" if view.waiting else view.invalid

    # -- 票型 ---------------------------------------------------------------------------------------
    def vote_days(self) -> tuple[int, ...]:
        return tuple(d.day for d in self.service.game.days if d.vote)

    def tally(self, day: int) -> TallyView:
        """The day's vote thread(s) as the screen draws them (the count is kept until the store changes)."""
        with self.service.log.request():  # one read of the event log for the count, the day and what is confirmed
            dts = self.memo.get(("tally", day), lambda: self.service.votes.tally_day(day))
            confirmed = frozenset(self.service.votes.confirmed_tids())
            closes = self.day_status(day).closes
        sheets = tuple(sheet_from(dt, confirmed=confirmed, floor_of=self._floor) for dt in dts)
        return TallyView(day=day, sheets=sheets, closed=self.clock.now() >= closes)

    def _floor(self, pid: int) -> int | None:
        post = self.service.browsing.post(pid)
        return int(post.floor) if post is not None else None

    def confirm_day(self, day: int) -> list[str]:
        """Record the day's outcome(s) as game events; the service refuses a second confirmation
        and a roster the ruleset contradicts (`Votes.confirm_day`)."""
        try:
            with self.lock:
                results = self.service.votes.confirm_day(day)
        finally:
            self.invalidate()
        from tracker.engine.night.desk import phase_words
        from tracker.reports.night_settlement import exit_lines

        lines: list[str] = []
        for r in results:
            lines.append(r.explanation or r.tally_outcome or "")
            if r.settlement is not None and r.phase is not None:  # what the exile set off (殉情 …)
                lines += [f"  {line}" for line in exit_lines(phase_words(r.phase), r.settlement)]
        return lines

    def tally_bbcode(self, day: int) -> tuple[str, Path]:
        """The announcement BBCode (the same text `tracker report` writes), saved in the reports dir."""
        dts = self.memo.get(("tally", day), lambda: self.service.votes.tally_day(day))
        text = tally_bbcode(dts, self.service.game.tz)
        return text, self.service.reports.write_file(f"day{day}-tally.bbcode", text)

    def day_status(self, day: int) -> DayStatus:
        """Effective open/close and 加速 in force (GameLog.day_status; the 进程帖 is not read)."""
        return self.memo.get(("status", day), lambda: self.service.log.day_status(day, requests=False))

    # -- 潜水 ---------------------------------------------------------------------------------------
    def lurkers(self, day: int) -> LurkView:
        with self.service.log.request():  # one read of the event log for the count and the day
            rep = self.memo.get(("lurk", day), lambda: self.service.lurking.lurkers(day))
            status = self.day_status(day)
        d = self.service.game.day(day)
        return lurk_view(rep, status=status, discussion=d.discussion, has_vote=bool(d.vote),
                         rules=self.service.ruleset.lurk)

    # -- flags and cards ------------------------------------------------------------------------------
    def flags(self) -> list[Flag]:
        """Open flags first (the queue), then the decided ones, each group in forum order.

        Only reads: detection runs in the crawl's child process (``tracker crawl --detect``), so
        showing this screen never scans posts in the process that draws the screen.
        """
        flags = self.service.flag_review.flags(detect=False)
        return sorted(flags, key=lambda f: (f.status != "open", f.posted_at, f.pid, f.id))

    def card_from_flag(self, flag_id: int, color: str, clause: str, reason: str) -> CardDecision:
        with self.lock:
            return self.service.flag_review.card_from_flag(flag_id, color=color, clause=clause, reason=reason)

    def dismiss_flag(self, flag_id: int, reason: str) -> Flag:
        with self.lock:
            return self.service.flag_review.dismiss_flag(flag_id, reason)

    def cards(self) -> tuple[list[LedgerEntry], list[StandingRow]]:
        ledger = self.service.cards.ledger()
        standing = self.service.cards.standing()
        rows = [StandingRow(s.player, s.blue, s.yellow, s.red, s.status) for s in standing.values()]
        return ledger, rows

    def revoke_card(self, card_id: int, reason: str) -> CardDecision:
        with self.lock:
            return self.service.cards.revoke_card(card_id, reason)

    def issue_card(self, player: str, color: str, clause: str, reason: str, post: str = "") -> CardDecision:
        """A card typed at the 判罚 screen, as `tracker card issue` writes it."""
        with self.lock:
            return self.service.cards.issue_card(player, color, clause or None, reason, post=post or None)

    def amend_card(self, card_id: int, reason: str, *, color: str | None, clause: str | None) -> CardDecision:
        with self.lock:
            return self.service.cards.amend_card(card_id, reason, color=color, clause=clause)

    def record_event(self, kind: str, player: str, data: dict[str, str]) -> str:
        """An event for ``player`` (the 玩家 screen's `v`), said back as `tracker event` says it."""
        from tracker.reports.event_lines import event_line

        with self.lock:
            e = self.service.log.record_event(kind, player, dict(data))
        said = f"已记录事件 #{e.seq}：{event_line(e.kind, e.player, dict(e.data))}"
        if e.kind in ("eliminated", "died"):
            said += "（手动记录的出局不触发连锁；投票出局请确认结果，技能出局请在夜晚界面提交）"
        return said

    def card_lurkers(self, day: int, players: tuple[str, ...] = ()) -> list[CardDecision]:
        """Card the day's uncarded 潜水 penalties (all, or those of ``players``): the 潜水 screen's c / C."""
        from tracker.service.lurk_cards import card_lurkers

        with self.lock:
            return card_lurkers(self.service, day, players)

    # -- 夜晚 ---------------------------------------------------------------------------------------
    def night_default(self) -> int:
        """The night to open on: the first not yet confirmed, else the last the game file allows."""
        events = self.service.log.events()
        last = max((d.day for d in self.service.game.days), default=1)
        for n in range(1, last + 1):
            if settled_event(events, phase_key(night=n)) is None:
                return n
        return last

    def night_words(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(player names, skill names): what the entry line completes."""
        desk = self.service.night_desk
        return tuple(p.name for p in self.service.game.players), tuple(desk.catalog.names())

    def night_add(self, night: int, line: str) -> str:
        """``行动者 技能 目标…`` (a choice after ``--``: ``掠夺者 技能掠夺 P04 -- 黄王``)."""
        entry = parse_entry_line(line)
        with self.lock:
            ev = self.service.night_desk.add(phase_key(night=night), entry.actor, entry.skill, entry.targets,
                                             choice=entry.choice)
        from tracker.reports.night_settlement import submitted_line

        return submitted_line(ev.seq, entry.actor, str(ev.payload.skill), entry.targets)

    def night_remove(self, night: int, actor: str, skill: str) -> str:
        with self.lock:
            ev = self.service.night_desk.remove(phase_key(night=night), actor, skill)
        from tracker.reports.night_settlement import withdrawn_line

        return withdrawn_line(ev.seq, actor, skill)

    def night_confirm(self, night: int) -> str:
        with self.lock:
            preview, recorded = self.service.night_desk.confirm(phase_key(night=night))
        self.invalidate()
        return f"已确认{preview.words}的结算：写入 {len(recorded)} 个事件"

