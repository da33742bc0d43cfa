"""When the watcher crawls and which reports are due: pure planning over the game's days.

The rule posts give players until close to reach their post minimum, and the director warns
lurkers a few hours before, so each day has two report slots: a lurker warning at close − offset
and the final reports (tally, lurkers, cards) just after close. A slot is identified by a stable
key and written once; a slot missed while the watcher was down is caught up on the next start.
Crawls run on an interval that gets denser near a close, when votes and last posts arrive.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from tracker.config import DayConfig, ScheduleConfig

SlotKind = Literal["lurker_warning", "final"]

#: Discuz's clock and ours differ by seconds; a post at 22:00:30 must be in before the final count.
FINAL_GRACE = timedelta(minutes=5)
#: Within this span before a close, crawl at the near-close interval.
NEAR_CLOSE = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Slot:
    day: int
    kind: SlotKind
    due: datetime
    reports: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"day{self.day}:{self.kind}"


def day_slots(days: Sequence[DayConfig], schedule: ScheduleConfig) -> list[Slot]:
    """The report slots of the days whose threads are configured.

    A day with its times set but no thread ids yet (the director fills them in when the threads
    are opened) is waiting, not an error: it has no slot until its discussion thread is in the game
    file, so nobody is warned or carded for posts in a thread that does not exist, and the final
    reports name only what the day has (no tally without a vote thread)."""
    offset = timedelta(hours=schedule.lurker_report_before_close_hours)
    slots: list[Slot] = []
    for d in days:
        if d.discussion is None:
            continue
        warn = max(d.closes - offset, d.opens)
        slots.append(Slot(d.day, "lurker_warning", warn, ("lurkers",)))
        final = ("tally", "lurkers", "cards") if d.vote else ("lurkers", "cards")
        slots.append(Slot(d.day, "final", d.closes + FINAL_GRACE, final))
    return sorted(slots, key=lambda s: (s.due, s.day, s.kind))


def waiting_days(days: Sequence[DayConfig]) -> list[int]:
    """Days whose times are set but whose discussion thread is not (yet) in the game file."""
    return [d.day for d in days if d.discussion is None]


def due_slots(slots: Sequence[Slot], done: Collection[str], now: datetime) -> list[Slot]:
    """Slots whose time has come and that were never written, oldest first (the catch-up order)."""
    return [s for s in slots if s.due <= now and s.key not in done]


def open_day(days: Sequence[DayConfig], now: datetime) -> DayConfig | None:
    for d in days:
        if d.opens <= now <= d.closes + FINAL_GRACE:
            return d
    return None


def crawl_interval(days: Sequence[DayConfig], schedule: ScheduleConfig, now: datetime) -> timedelta | None:
    """How long until the next crawl; None when no day is open (nothing to follow)."""
    day = open_day(days, now)
    if day is None:
        return None
    if day.closes - NEAR_CLOSE <= now <= day.closes + FINAL_GRACE:
        return timedelta(minutes=schedule.near_close_interval_minutes)
    return timedelta(minutes=schedule.interval_minutes)


def next_wake(days: Sequence[DayConfig], schedule: ScheduleConfig, slots: Sequence[Slot], done: Collection[str],
              now: datetime, last_crawl: datetime | None) -> datetime | None:
    """The next moment the watcher has something to do, or None when the game is over and all is written."""
    candidates: list[datetime] = [s.due for s in slots if s.key not in done and s.due > now]
    interval = crawl_interval(days, schedule, now)
    if interval is not None:
        candidates.append(now if last_crawl is None else max(now, last_crawl + interval))
    else:
        upcoming = [d.opens for d in days if d.opens > now]
        if upcoming:
            candidates.append(min(upcoming))
    # A near-close boundary may come before the plain interval ends: wake there to densify.
    for d in days:
        boundary = d.closes - NEAR_CLOSE
        if now < boundary:
            candidates.append(boundary)
    return min(candidates) if candidates else None


def crawl_due(days: Sequence[DayConfig], schedule: ScheduleConfig, now: datetime,
              last_crawl: datetime | None) -> bool:
    interval = crawl_interval(days, schedule, now)
    if interval is None:
        return False
    return last_crawl is None or now - last_crawl >= interval
