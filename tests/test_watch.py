"""The watch loop under a controllable clock: each report slot written once, at its time, across restarts."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tracker.clock import SHANGHAI, FrozenClock
from tracker.config import DayConfig, ScheduleConfig
from tracker.errors import NetworkError
from tracker.schedule import Slot, crawl_interval, day_slots
from tracker.store.db import Store
from tracker.store.schedule import WatchLockedError
from tracker.watch import Watcher


def at(day: int, hh: int, mm: int = 0) -> datetime:
    return datetime(2025, 3, day, hh, mm, tzinfo=SHANGHAI)


DAYS = (
    DayConfig(day=1, discussion=3, vote=(4,), opens=at(1, 10), closes=at(2, 22)),
    DayConfig(day=2, discussion=5, vote=(6,), opens=at(3, 10), closes=at(4, 22)),
)
SCHED = ScheduleConfig(interval_minutes=30, near_close_interval_minutes=5, lurker_report_before_close_hours=3)


class Harness:
    """A fake world: the clock only moves when the watcher sleeps; crawls and writes are recorded."""

    def __init__(self, store: Store, clock: FrozenClock, stop_at: datetime | None, *, pid: int = 1,
                 fail_crawls: bool = False) -> None:
        self.clock = clock
        self.stop_at = stop_at
        self.crawls: list[datetime] = []
        self.writes: list[tuple[str, datetime]] = []
        self.fail_crawls = fail_crawls
        self.watcher = Watcher(days=DAYS, schedule=SCHED, store=store, clock=clock, crawl=self.crawl,
                               write=self.write, pid=pid, host="test", sleep=self.sleep)

    async def crawl(self) -> None:
        self.crawls.append(self.clock.now())
        if self.fail_crawls:
            raise NetworkError("论坛无法访问")

    def write(self, slot: Slot) -> list[str]:
        self.writes.append((slot.key, self.clock.now()))
        return [f"day{slot.day}-{slot.kind}.md"]

    async def sleep(self, seconds: float, stop: asyncio.Event) -> None:
        await asyncio.sleep(0)  # a real suspension point, as a real sleep would be
        target = self.clock.now() + timedelta(seconds=max(seconds, 0))
        if self.stop_at is not None and target >= self.stop_at:
            self.clock.at = self.stop_at
            stop.set()
            return
        self.clock.at = target

    def run(self) -> None:
        asyncio.run(self.watcher.run(asyncio.Event()))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(f"sqlite:///{tmp_path / 'watch.db'}")


def test_slots_are_a_warning_before_close_and_a_final_after_close() -> None:
    slots = day_slots(DAYS, SCHED)
    assert [(s.key, s.due) for s in slots] == [
        ("day1:lurker_warning", at(2, 19)),
        ("day1:final", at(2, 22, 5)),
        ("day2:lurker_warning", at(4, 19)),
        ("day2:final", at(4, 22, 5)),
    ]


def test_crawls_get_denser_near_close_and_stop_between_days() -> None:
    assert crawl_interval(DAYS, SCHED, at(2, 12)) == timedelta(minutes=30)
    assert crawl_interval(DAYS, SCHED, at(2, 21, 30)) == timedelta(minutes=5)
    assert crawl_interval(DAYS, SCHED, at(3, 2)) is None


def test_a_day_with_a_restart_writes_every_slot_once_at_its_time(store: Store) -> None:
    # First run: from noon of day 1's second day until 21:00, then the watcher is stopped.
    first = Harness(store, FrozenClock(at(2, 12)), stop_at=at(2, 21))
    first.run()
    assert first.writes == [("day1:lurker_warning", at(2, 19))]
    assert first.crawls[0] == at(2, 12)
    # A crawl precedes the warning so it counts the latest posts.
    assert at(2, 19) in first.crawls

    # Down over the close; restarted the next morning: the missed final slot is caught up first.
    second = Harness(store, FrozenClock(at(3, 8)), stop_at=None, pid=2)
    second.run()
    assert second.writes == [
        ("day1:final", at(3, 8)),
        ("day2:lurker_warning", at(4, 19)),
        ("day2:final", at(4, 22, 5)),
    ]
    # The final reports come after a crawl made at or after the close.
    assert any(c >= at(4, 22, 5) for c in second.crawls)
    # Near close the crawls are 5 minutes apart.
    near = [c for c in second.crawls if at(4, 21) <= c <= at(4, 22)]
    assert len(near) >= 10

    # A third start writes nothing again.
    third = Harness(store, FrozenClock(at(5, 9)), stop_at=None, pid=3)
    third.run()
    assert third.writes == []


def test_a_second_watcher_is_told_who_holds_the_game(store: Store) -> None:
    holder = Harness(store, FrozenClock(at(2, 12)), stop_at=at(2, 13), pid=10)

    async def parked(seconds: float, stop: asyncio.Event) -> None:
        await stop.wait()

    holder.watcher.sleep = parked

    async def both() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(holder.watcher.run(stop))
        await asyncio.sleep(0)
        other = Harness(store, FrozenClock(at(2, 12)), stop_at=None, pid=11)
        with pytest.raises(WatchLockedError, match="另一个 watch 正在运行"):
            await other.watcher.run(asyncio.Event())
        stop.set()
        await task

    asyncio.run(both())


def test_a_failing_forum_does_not_stop_the_reports(store: Store) -> None:
    h = Harness(store, FrozenClock(at(2, 18)), stop_at=at(2, 23), fail_crawls=True)
    h.run()
    assert [k for k, _ in h.writes] == ["day1:lurker_warning", "day1:final"]
    assert any("抓取失败" in line for line in h.watcher.log.lines)


def test_a_crawl_that_never_ends_does_not_hold_back_the_reports(store: Store) -> None:
    h = Harness(store, FrozenClock(at(2, 18)), stop_at=at(2, 23))

    async def stuck() -> None:
        h.crawls.append(h.clock.now())
        await asyncio.Event().wait()  # a forum trickling for ever

    h.watcher.crawl = stuck
    h.watcher.crawl_deadline = 0.05
    h.run()
    assert [k for k, _ in h.writes] == ["day1:lurker_warning", "day1:final"]
    assert any("仍未完成" in line for line in h.watcher.log.lines)


def test_the_heartbeat_keeps_the_lock_through_a_long_crawl(store: Store) -> None:
    """A crawl (or an interval) longer than STALE_AFTER: a second watcher still finds the lock alive."""
    from tracker.store.schedule import STALE_AFTER, acquire_lock

    clock = FrozenClock(at(2, 12))
    h = Harness(store, clock, stop_at=at(2, 13), pid=20)
    h.watcher.beat_every = 0.01
    second_refused: list[str] = []

    async def long_crawl() -> None:
        for _ in range(3):  # 3 x 6 minutes: past STALE_AFTER, beating all along
            clock.at += STALE_AFTER * 0.6
            await asyncio.sleep(0.05)
        with store.session() as s:
            try:
                acquire_lock(s, name="game", holder="b", host="test", pid=21, now=clock.now())
            except WatchLockedError as exc:
                second_refused.append(str(exc))

    h.watcher.crawl = long_crawl
    h.run()
    assert second_refused and "另一个 watch 正在运行" in second_refused[0]


def test_a_watcher_whose_lock_was_taken_writes_nothing(store: Store) -> None:
    """The first watcher was silent for too long and a second one took over: the first must not
    write (or post) the report the second will write."""
    from tracker.store.schedule import STALE_AFTER, acquire_lock
    from tracker.watch import LockLostError

    clock = FrozenClock(at(2, 19, 5))  # the warning is due: crawl first, then write it
    h = Harness(store, clock, stop_at=None, pid=30)

    async def crawl_while_taken_over() -> None:
        clock.at += STALE_AFTER * 1.1
        with store.session() as s:
            acquire_lock(s, name="game", holder="b", host="test", pid=31, now=clock.now())

    h.watcher.crawl = crawl_while_taken_over
    h.watcher.beat_every = 3600  # the timer never fires in this test: the check before writing must hold
    with pytest.raises(LockLostError, match="已被另一个 watch 接管"):
        h.run()
    assert h.writes == []
    with store.session() as s:
        from tracker.store.schedule import lock_holder

        holder = lock_holder(s, "game")
        assert holder is not None and holder.pid == 31  # the new holder's lock is left alone


def test_a_watcher_whose_heartbeat_finds_the_lock_taken_stops_with_exit_8(store: Store) -> None:
    from sqlalchemy import text

    from tracker.watch import LockLostError

    clock = FrozenClock(at(2, 12))
    h = Harness(store, clock, stop_at=None, pid=40)
    h.watcher.beat_every = 0.01

    async def taken_over_during_a_long_crawl() -> None:
        with store.session() as s:
            s.execute(text("UPDATE watch_lock SET pid = 41"))
        await asyncio.sleep(0.2)  # the heartbeat notices meanwhile

    h.watcher.crawl = taken_over_during_a_long_crawl
    with pytest.raises(LockLostError) as err:
        h.run()
    assert err.value.exit_code == 8 and h.writes == []
    assert any("已被另一个 watch 接管" in line for line in h.watcher.log.lines)
