"""The top line: game · ruleset · day on the left, countdowns and the last crawl on the right.

Counts down every second from the service's clock (a FrozenClock in tests gives the same line every
time); the crawl part shows a spinner while a crawl runs and ✗ with the reason when it failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tracker.clock import Clock
from tracker.config import DayConfig
from tui.literal import literal
from tui.timing import day_timing, format_span

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
CrawlState = Literal["never", "running", "ok", "failed"]


@dataclass(frozen=True, slots=True)
class CrawlStatus:
    state: CrawlState = "never"
    at: datetime | None = None
    detail: str = ""


class GameHeader(Widget):
    """Attributes down: the app sets ``crawl`` and the header redraws; the clock ticks it each second."""

    DEFAULT_CSS = "GameHeader { height: 1; }"

    crawl: reactive[CrawlStatus] = reactive(CrawlStatus)
    _frame: reactive[int] = reactive(0)

    def __init__(self, *, title: str, ruleset: str, days: tuple[DayConfig, ...], freeze_minutes: int | None,
                 clock: Clock, tz_name: str, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game_title = title
        self.ruleset_id = ruleset
        self.days = days
        self.freeze_minutes = freeze_minutes
        self.clock = clock
        self.tz_name = tz_name

    def on_mount(self) -> None:
        self.set_interval(1.0, self.refresh)
        self.set_interval(0.2, self._spin)

    def _spin(self) -> None:
        if self.crawl.state == "running":
            self._frame = (self._frame + 1) % len(SPINNER)

    def _left(self, day: int | None) -> Text:
        out = literal(self.game_title, "bold", line=True)
        out.append(f" · {self.ruleset_id}")
        if day is not None:
            out.append(f" · 第{day}日", "bold")
            if any(d.day == day and d.accelerated for d in self.days):
                out.append(" · 已加速", "bold yellow")
        return out

    def _right(self, compact: bool) -> Text:
        from zoneinfo import ZoneInfo

        now = self.clock.now()
        t = day_timing(self.days, now, self.freeze_minutes)
        out = Text()
        if t.state == "before":
            out.append(f"{'距开门' if not compact else '开门'} ", "dim")
            first = next(d for d in self.days if d.day == t.day)
            out.append(format_span(first.opens - now), "bold")
        elif t.state == "closed":
            out.append("已关门", "bold red")
        elif t.state != "none":
            out.append("距关门 " if not compact else "关门 ", "dim")
            out.append(format_span(t.to_close), "bold")
            if self.freeze_minutes:
                out.append(" · ")
                if t.to_freeze is None:
                    out.append("改票已冻结" if not compact else "已冻结", "bold yellow")
                else:
                    out.append("改票冻结 " if not compact else "冻结 ", "dim")
                    out.append(format_span(t.to_freeze), "yellow")
        out.append(" · 抓取 " if not compact else " · ", "dim")
        c = self.crawl
        when = c.at.astimezone(ZoneInfo(self.tz_name)).strftime("%H:%M") if c.at else ""
        if c.state == "never":
            out.append("未抓取", "dim")
        elif c.state == "running":
            out.append(f"{SPINNER[self._frame]} {c.detail or '抓取中'}", "cyan")
        elif c.state == "ok":
            out.append(f"{when} ✓", "green")
        else:
            out.append(f"{when} ✗ ", "bold red")
            out.append_text(literal(c.detail[:40], "red", line=True))
        return out

    def render(self) -> Text:
        width = self.size.width
        compact = width < 100
        t = day_timing(self.days, self.clock.now(), self.freeze_minutes)
        left, right = self._left(t.day), self._right(compact)
        gap = width - cell_len(left.plain) - cell_len(right.plain)
        if gap < 1:
            left.truncate(max(0, width - cell_len(right.plain) - 1), overflow="ellipsis")
            gap = max(1, width - cell_len(left.plain) - cell_len(right.plain))
        return Text.assemble(left, " " * gap, right)
