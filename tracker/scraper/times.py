"""Discuz's time strings -> aware datetimes in the forum's zone.

Discuz prints times with no zone and no zero padding (``2025-3-1 10:20:00``), drops the seconds in
quote headers and edit markers (``2025-3-1 15:10``), and for recent posts prints a relative phrase
whose absolute value sits in a ``title`` attribute (``2026-11-30 00:03:19``). Relative phrases
alone are never parsed: without the capture moment they are ambiguous.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

_ABSOLUTE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})\s+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?", re.A)


def parse_forum_time(text: str, tz: tzinfo) -> datetime | None:
    """The first ``Y-n-j H:i[:s]`` in ``text`` as an aware datetime, or ``None``."""
    m = _ABSOLUTE.search(text)
    if m is None:
        return None
    year, month, day, hour, minute, second = m.groups()
    try:
        return datetime(int(year), int(month), int(day), int(hour), int(minute),
                        int(second) if second else 0, tzinfo=tz)
    except ValueError:
        return None


def from_epoch(value: str | int | float | None, tz: tzinfo) -> datetime | None:
    """Epoch seconds (the mobile API's ``dbdateline``, a string) in the forum zone."""
    if value is None or value == "":
        return None
    try:
        return datetime.fromtimestamp(int(value), tz)
    except (ValueError, OverflowError, OSError, TypeError):
        return None
