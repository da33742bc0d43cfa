"""Which day it is and how long until it closes / until the change freeze: pure, driven by a Clock.

The header shows these every second; they come from the game file's ``[[days]]`` and the ruleset's
freeze minutes, never from the wall clock directly, so a frozen clock gives the same screen twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tracker.config import DayConfig


@dataclass(frozen=True, slots=True)
class DayTiming:
    """The day the director is working on and the time left on its two deadlines (None = passed)."""

    day: int | None
    to_close: timedelta | None
    to_freeze: timedelta | None
    state: str  # "open" | "frozen" | "closed" | "before" | "none"


def current_day(days: tuple[DayConfig, ...], now: datetime) -> DayConfig | None:
    """The day the director is working on (:func:`tracker.engine.days.day_now`); before the first
    opens, the first (the header counts down to it)."""
    from tracker.engine.days import day_now

    return day_now(days, now) or (days[0] if days else None)


def day_timing(days: tuple[DayConfig, ...], now: datetime, freeze_minutes: int | None) -> DayTiming:
    d = current_day(days, now)
    if d is None:
        return DayTiming(None, None, None, "none")
    to_close = d.closes - now if now < d.closes else None
    to_freeze: timedelta | None = None
    if freeze_minutes and not d.accelerated:
        freeze_at = d.closes - timedelta(minutes=freeze_minutes)
        to_freeze = freeze_at - now if now < freeze_at else None
    if now < d.opens:
        state = "before"
    elif to_close is None:
        state = "closed"
    elif freeze_minutes and (d.accelerated or to_freeze is None):
        state = "frozen"
    else:
        state = "open"
    return DayTiming(d.day, to_close, to_freeze, state)


def format_span(span: timedelta | None) -> str:
    """``H:MM:SS`` (days folded into hours, as the director counts to the deadline); ``—`` once passed."""
    if span is None:
        return "—"
    total = max(0, int(span.total_seconds()))
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"
