"""One line counting down to a day's opening or close, redrawn each second without a re-layout.

A Static updated every second would re-lay out the whole screen each time; this widget only
repaints its own line (as the header does).
"""

from __future__ import annotations

from datetime import datetime

from rich.text import Text
from textual.widget import Widget

from tracker.clock import Clock
from tui.timing import format_span


class Countdown(Widget):
    DEFAULT_CSS = "Countdown { height: 1; padding: 0 1; }"

    def __init__(self, clock: Clock, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = clock
        self.opens: datetime | None = None
        self.closes: datetime | None = None
        self.suffix = ""

    def on_mount(self) -> None:
        self.set_interval(1.0, self.refresh)

    def set_day(self, opens: datetime, closes: datetime, suffix: str = "") -> None:
        self.opens, self.closes, self.suffix = opens, closes, suffix
        self.refresh()

    def render(self) -> Text:
        if self.opens is None or self.closes is None:
            return Text("")
        now = self.clock.now()
        if now < self.opens:
            return Text.assemble(("距开门 ", "dim"), (format_span(self.opens - now), "bold"))
        if now < self.closes:
            return Text.assemble(("距关门 ", "dim"), (format_span(self.closes - now), "bold"), (self.suffix, "dim"))
        return Text("已关门", "bold red")
