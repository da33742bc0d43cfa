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
from datetime import datetime

from tracker.clock import Clock
from tracker.config import DayConfig, ScheduleConfig
from tracker.errors import TrackerError
from tracker.schedule import Slot, crawl_due, day_slots, due_slots, next_wake
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

    def __post_init__(self) -> None:
        self.slots = day_slots(self.days, self.schedule)
        self.holding = False  # True once run() holds the game's lock: then it is checked before every write
        self.lost = False  # the heartbeat found the lock taken over

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
            self.log(f"第 {d.day} 日关门时间改为 {d.closes.isoformat(timespec='minutes')}")
        self.days = days
        self.slots = day_slots(days, self.schedule)

    async def run(self, stop: asyncio.Event) -> None:
        with self.store.session() as s:
            acquire_lock(s, name=self.name, holder=self.holder, host=self.host, pid=self.pid, now=self.clock.now())
        self.holding = True
        self.log(f"开始监视（{self.holder}@{self.host}，进程 {self.pid}）")
        beat = asyncio.create_task(self._beat(stop))
        try:
            while not stop.is_set():
                wake = await self.step()
                if wake is None:
                    self.log("所有日程已完成，退出监视")
                    return
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
            await asyncio.wait_for(self.crawl(), timeout=self.crawl_deadline)
        except TimeoutError:
            self.log(f"抓取超过 {self.crawl_deadline / 60:g} 分钟仍未完成，已放弃本次抓取（报告基于已存数据）",
                     logging.WARNING)
        except TrackerError as exc:
            self.log(f"抓取失败：{exc}（下次按时重试，报告基于已存数据）", logging.WARNING)
        else:
            self.log(f"抓取完成 {now.isoformat(timespec='minutes')}")
        self.last_crawl = now

    def _write(self, slot: Slot) -> None:
        self._check_owner()  # right before writing (and posting): a watcher that lost the lock stops here
        files = self.write(slot)
        with self.store.session() as s:
            fresh = mark_slot_written(s, key=slot.key, day=slot.day, kind=slot.kind, due_at=slot.due,
                                      now=self.clock.now(), files=files)
        if fresh:
            self.log(f"第 {slot.day} 日 {_SLOT_NAMES[slot.kind]} 已写出：{', '.join(files)}")


_SLOT_NAMES = {"lurker_warning": "关门前潜水预警", "final": "关门后结算报告"}
