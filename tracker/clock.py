"""Time as a dependency: every "now" goes through a Clock so schedules and freezes are testable."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

SHANGHAI = ZoneInfo("Asia/Shanghai")


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware datetime."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class FrozenClock:
    """A clock the tests move by hand."""

    at: datetime = field(default_factory=lambda: datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI))

    def now(self) -> datetime:
        return self.at

    def advance(self, **kw: float) -> datetime:
        self.at = self.at + timedelta(**kw)
        return self.at
