"""Where and when a violation happened: the game day a card belongs to and the post it names.

A card is announced on the day of its violation, not the day the director got round to it (a
flag on day 1's discussion thread carded on day 2 is day 1's card), and the 公示 names 帖 and 楼
once. Pure: the game's days in, a day out; the service looks the post up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tracker.config import DayConfig
from tracker.errors import GameRuleError
from tracker.penalties.ledger import Entry

_TID_FLOOR = re.compile(r"^\s*(\d+)\s*[#＃]\s*(\d+)\s*$")
_PID = re.compile(r"^\s*(?:pid\s*)?(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class PostRef:
    """What the director typed for ``--post``: a pid, or a thread and floor (``TID#FLOOR``)."""

    pid: int | None = None
    tid: int | None = None
    floor: int | None = None


def parse_post_ref(text: str) -> PostRef:
    """``12345`` (a pid) or ``3#17`` (thread 3, floor 17), the two ways a director names a post."""
    m = _TID_FLOOR.match(text)
    if m:
        return PostRef(tid=int(m.group(1)), floor=int(m.group(2)))
    m = _PID.match(text)
    if m:
        return PostRef(pid=int(m.group(1)))
    raise GameRuleError(f"看不懂帖子位置 {text!r}",
                        hint="写帖子的 pid（如 12345），或 帖子编号#楼层（如 3#17：帖 3 第 17 楼）")


def day_of_post(days: Sequence[DayConfig], tid: int, posted_at: datetime) -> int | None:
    """The game day a post belongs to: the day whose discussion or vote thread holds it; for another
    thread (the 进程帖), the day whose open..close holds its time, else the last day opened before it."""
    for d in days:
        if tid == d.discussion or tid in d.vote:
            return d.day
    return day_at(days, posted_at)


def day_at(days: Sequence[DayConfig], when: datetime) -> int | None:
    """The day open at ``when``, else the last one opened before it (its night), else None."""
    for d in days:
        if d.opens <= when <= d.closes:
            return d.day
    before = [d for d in days if d.opens <= when]
    return max(before, key=lambda d: d.opens).day if before else None


def place_words(tid: int | None, floor: int | None) -> str:
    """帖 3 第 17 楼: the one way a card names its post, in the CLI, the TUI and the 公示."""
    if tid is None:
        return ""
    return f"帖 {tid} 第 {floor} 楼" if floor is not None else f"帖 {tid}"


def decided_on(days: Sequence[DayConfig], entry_day: int | None, at: datetime) -> int | None:
    """The day an entry is announced on: its own day when it has one, else the day its decision
    fell in (a day runs from its opening to the next day's opening, night included)."""
    if entry_day is not None:
        return entry_day
    opened = [d for d in days if d.opens <= at]
    return max(opened, key=lambda d: d.opens).day if opened else None


def announced_split(entries: Sequence[Entry], days: Sequence[DayConfig], day: int) -> tuple[list[Entry], list[Entry]]:
    """(the entries the day's 公示 lists, the entries its standings fold).

    The standings fold every entry of this day or an earlier one, plus the entries those name (the
    cards a merge consumed, the card a revocation takes back), so a day-1 card issued after day 2's
    cards still shows in day 1's standings without day 2's cards, and a fold never meets a merge
    without its cards."""
    order = {d.day: i for i, d in enumerate(sorted(days, key=lambda d: d.opens))}
    mine = order.get(day, len(order))
    todays = [e for e in entries if decided_on(days, e.day, e.at) == day]
    by_id = {e.id: e for e in entries}
    keep = {e.id for e in entries
            if (k := decided_on(days, e.day, e.at)) is not None and order.get(k, len(order)) <= mine}
    todo = list(keep)
    while todo:
        e = by_id[todo.pop()]
        for other in (*e.consumed, *((e.ref,) if e.ref is not None else ())):
            if other not in keep and other in by_id:
                keep.add(other)
                todo.append(other)
    return todays, [e for e in entries if e.id in keep]
