"""The ``tracker watch`` loop: crawl on a schedule, write each report slot exactly once, survive restarts.

The planning is in :mod:`tracker.schedule` (pure); this module only sequences it against a clock,
the store's lock and slot records, and two callables (crawl, write a slot's reports), so tests
drive a whole day with a fake clock and no network. A crawl that fails (forum down, login
expired) is logged and retried at the next interval: the watcher keeps the reports coming from
what is already stored rather than dying.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from tracker.clock import Clock
from tracker.config import DayConfig, ScheduleConfig
from tracker.errors import TrackerError
from tracker.schedule import Slot, crawl_due, day_slots, due_slots, next_wake, waiting_days
from tracker.store.db import Store
from tracker.store.schedule import (
    STALE_AFTER,
    acquire_lock,
    heartbeat,
    holds_lock,
    mark_slot_written,
    release_lock,
    written_slots,
)

Sleeper = Callable[[float, asyncio.Event], Awaitable[None]]
_log = logging.getLogger(__name__)
# The lock counts as abandoned after STALE_AFTER without a heartbeat: beat well inside it, on a timer
# of its own, whatever the crawl interval and however long a crawl takes.
HEARTBEAT_EVERY = STALE_AFTER.total_seconds() / 5


class LockLostError(TrackerError):
    """Another watcher took the game's lock over: this one stops before writing or posting anything."""

    exit_code = 8


async def sleep_or_stop(seconds: float, stop: asyncio.Event) -> None:
    """Sleep, but wake at once when asked to stop (SIGINT/SIGTERM set the event)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=max(0.0, seconds))


@dataclass
class WatchLog:
    """What the watcher did, in order: the tests read it, and the ``tracker`` log (the systemd
    journal under ``tracker watch``) gets every line at its level."""

    lines: list[str] = field(default_factory=list)
    echo: Callable[[str], None] | None = None

    def __call__(self, msg: str, level: int = logging.INFO) -> None:
        self.lines.append(msg)
        _log.log(level, msg)
        if self.echo is not None:
            self.echo(msg)


@dataclass
class Watcher:
    """``days`` are the effective days (a delayed day closes later); ``refresh_days``, when given,
    re-reads them before every pass, so a 延时 recorded while the watcher runs moves its slots."""

    days: Sequence[DayConfig]
    schedule: ScheduleConfig
    store: Store
    clock: Clock
    crawl: Callable[[], Awaitable[object]]
    write: Callable[[Slot], list[str]]
    name: str = "game"
    holder: str = field(default_factory=lambda: os.environ.get("USER", "director"))
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)
    sleep: Sleeper = sleep_or_stop
    log: WatchLog = field(default_factory=WatchLog)
    last_crawl: datetime | None = None
    refresh_days: Callable[[], Sequence[DayConfig]] | None = None
    crawl_deadline: float = 3600.0  # seconds; a crawl still running then is abandoned, reports still written
    beat_every: float = HEARTBEAT_EVERY
    beat_sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    keep_watching: bool = False
    """True (`tracker watch`): with every slot written the watcher keeps going, re-reading the days
    every ``interval_minutes``, since the director adds days to the game file while it runs."""
    tz: tzinfo | None = None
    """The game's time zone, for the times in the log."""
    game_over: Callable[[], str | None] | None = None
    """After each pass: the game's result in words once a faction has won (the fold's win check),
    else None. A game that is over has no more slots worth waiting for: the watcher writes the
    final reports of every day begun and not yet reported, and stops."""

    def __post_init__(self) -> None:
        self.slots = day_slots(self.days, self.schedule)
        self.holding = False  # True once run() holds the game's lock: then it is checked before every write
        self.lost = False  # the heartbeat found the lock taken over

    def _when(self, at: datetime) -> str:
        """A time as the director reads it: in the game's zone."""
        return (at.astimezone(self.tz) if self.tz is not None else at).strftime("%Y-%m-%d %H:%M")

    def _refresh(self) -> None:
        if self.refresh_days is None:
            return
        try:
            days = list(self.refresh_days())
        except TrackerError as exc:
            self.log(f"读取日程失败：{exc}（沿用上次的关门时间）", logging.WARNING)
            return
        moved = [d for d in days for old in self.days if old.day == d.day and old.closes != d.closes]
        for d in moved:
            self.log(f"第 {d.day} 日关门时间改为 {self._when(d.closes)}")
        before = {d.day: d for d in self.days}
        for d in days:
            old_day = before.get(d.day)
            if d.discussion is not None and (old_day is None or old_day.discussion is None):
                self.log(f"第 {d.day} 日的帖子已配置（讨论帖 {d.discussion}），开始跟进")
            elif d.discussion is None and old_day is None:
                self.log(f"第 {d.day} 日尚未配置帖子：等待（不写报告、不判潜水）")
        self.days = days
        self.slots = day_slots(days, self.schedule)

    async def run(self, stop: asyncio.Event) -> None:
        with self.store.session() as s:
            acquire_lock(s, name=self.name, holder=self.holder, host=self.host, pid=self.pid, now=self.clock.now())
        self.holding = True
        self.log(f"开始监视（{self.holder}@{self.host}，进程 {self.pid}）")
        for day in waiting_days(self.days):
            self.log(f"第 {day} 日尚未配置帖子：等待（不写报告、不判潜水）")
        beat = asyncio.create_task(self._beat(stop))
        try:
            idle = False
            while not stop.is_set():
                wake = await self.step()
                over = self._over()
                if over is not None:
                    self._finish(over)
                    return
                if wake is None:
                    if not self.keep_watching:
                        self.log("所有日程已完成，退出监视")
                        return
                    if not idle:
                        self.log("所有日程已完成；继续监视，游戏文件中新增的日子会被接上（Ctrl-C 停止）")
                    idle = True
                    wake = self.clock.now() + timedelta(minutes=self.schedule.interval_minutes)
                else:
                    idle = False
                await self.sleep((wake - self.clock.now()).total_seconds(), stop)
            if self.lost:
                self._check_owner()  # raises LockLostError (exit 8): the takeover is not a clean stop
        finally:
            beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beat
            with self.store.session() as s:
                release_lock(s, name=self.name, host=self.host, pid=self.pid)
            self.log("监视已停止")

    def _over(self) -> str | None:
        if self.game_over is None:
            return None
        try:
            return self.game_over()
        except TrackerError as exc:
            self.log(f"读取胜负失败：{exc}（继续监视）", logging.WARNING)
            return None

    def _finish(self, over: str) -> None:
        """The game is over: the final reports of each day begun and not yet reported, written now."""
        now = self.clock.now()
        with self.store.session() as s:
            done = written_slots(s)
        begun = {d.day for d in self.days if d.opens <= now}
        for slot in self.slots:
            if slot.kind == "final" and slot.day in begun and slot.key not in done:
                self._write(slot)
        self.log(f"游戏已结束：{over}。最终报告已写出，退出监视")

    async def _beat(self, stop: asyncio.Event) -> None:
        """The heartbeat, on its own timer: a long crawl or a 30-minute interval never lets the lock go stale."""
        while not stop.is_set():
            await self.beat_sleep(self.beat_every)
            with self.store.session() as s:
                ours = heartbeat(s, name=self.name, host=self.host, pid=self.pid, now=self.clock.now())
            if not ours:
                self.log("监视锁已被另一个 watch 接管，本进程停止（不再写报告或发帖）", logging.WARNING)
                self.lost = True
                stop.set()
                return

    def _check_owner(self) -> None:
        if not self.holding:
            return  # step() driven without run(): no lock was taken, none to lose
        with self.store.session() as s:
            ours = holds_lock(s, name=self.name, host=self.host, pid=self.pid)
        if not ours:
            raise LockLostError("监视锁已被另一个 watch 接管，本进程不再写报告或发帖",
                                hint="同一局只运行一个 tracker watch；用 Ctrl-C 停掉多余的那个")

    async def step(self) -> datetime | None:
        """One pass: crawl if due, write every due slot not yet written; return when to wake next."""
        self._refresh()
        now = self.clock.now()
        with self.store.session() as s:
            ours = heartbeat(s, name=self.name, host=self.host, pid=self.pid, now=now)
            done = written_slots(s)
        if not ours:
            self._check_owner()  # raises LockLostError when someone took the game over
        pending = due_slots(self.slots, done, now)
        needs_fresh = any(self.last_crawl is None or self.last_crawl < slot.due for slot in pending)
        if needs_fresh or crawl_due(self.days, self.schedule, now, self.last_crawl):
            await self._crawl(now)
        for slot in pending:
            self._write(slot)
        now = self.clock.now()
        with self.store.session() as s:
            done = written_slots(s)
        return next_wake(self.days, self.schedule, self.slots, done, now, self.last_crawl)

    async def _crawl(self, now: datetime) -> None:
        try:
            report = await asyncio.wait_for(self.crawl(), timeout=self.crawl_deadline)
        except TimeoutError:
            self.log(f"抓取超过 {self.crawl_deadline / 60:g} 分钟仍未完成，已放弃本次抓取（报告基于已存数据）",
                     logging.WARNING)
        except TrackerError as exc:
            self.log(f"抓取失败：{exc}（下次按时重试，报告基于已存数据）", logging.WARNING)
        else:
            self.log(f"抓取完成 {self._when(now)}{_found(report)}")
        self.last_crawl = now

    def _write(self, slot: Slot) -> None:
        self._check_owner()  # right before writing (and posting): a watcher that lost the lock stops here
        try:
            files = self.write(slot)
        except LockLostError:
            raise
        except TrackerError as exc:
            # a report the game file cannot give yet (a thread id missing) is retried on the next
            # pass, after the director fixed the file; the watcher does not die into a restart loop
            self.log(f"第 {slot.day} 日 {_SLOT_NAMES[slot.kind]} 未能写出：{exc}（下次重试）")
            return
        with self.store.session() as s:
            fresh = mark_slot_written(s, key=slot.key, day=slot.day, kind=slot.kind, due_at=slot.due,
                                      now=self.clock.now(), files=files)
        if fresh:
            self.log(f"第 {slot.day} 日 {_SLOT_NAMES[slot.kind]} 已写出：{', '.join(files)}")


_SLOT_NAMES = {"lurker_warning": "关门前潜水预警", "final": "关门后结算报告"}


def _found(report: object) -> str:
    """What a crawl found, from its report (posts new / changed / deleted), for the log."""
    new = getattr(report, "posts_new", None)
    if new is None:
        return ""
    return (f"：新帖 {new}，改动 {getattr(report, 'posts_changed', 0)}，"
            f"删除 {getattr(report, 'posts_deleted', 0)}")
