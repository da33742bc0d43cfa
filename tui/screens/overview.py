"""1 概览: the days and their threads, who is alive, what waits for the director today."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.literal import literal
from tui.screens.pane import Pane
from tui.timing import current_day
from tui.views import Overview, PlayerRow
from tui.zone import zone

if TYPE_CHECKING:
    from tracker.config import DayConfig, GameConfig


def day_mark(d: DayConfig, today: int | None, now: datetime | None) -> Text:
    """Which day the screen follows, in words that stay true: 进行中 only while it is open; a day
    closed long ago is 最近关门, not 今日; before the first opening, 下一日."""
    if d.day != today:
        return Text("")
    if now is None or d.opens <= now < d.closes:
        return Text("◀ 进行中", "bold green")
    if now >= d.closes:
        return Text("◀ 最近关门", "yellow")
    return Text("◀ 下一日", "cyan")


def days_table(game: GameConfig, today: int | None, now: datetime | None = None) -> Table:
    t = Table(title="日程", title_justify="left", expand=True, box=None, header_style="bold")
    for col in ("日", "讨论帖", "投票帖", "开门", "关门", ""):
        t.add_column(col, no_wrap=True)
    for d in game.days:
        mark = day_mark(d, today, now)
        t.add_row(f"第{d.day}日", str(d.discussion or "—"), ", ".join(map(str, d.vote)) or "—",
                  f"{d.opens.astimezone(zone()):%m-%d %H:%M}", f"{d.closes.astimezone(zone()):%m-%d %H:%M}",
                  Text.assemble(Text("加速 ", "yellow") if d.accelerated else "", mark))
    return t


def roster_table(players: tuple[PlayerRow, ...]) -> Table:
    t = Table(title="玩家", title_justify="left", expand=True, box=None, header_style="bold")
    for col in ("玩家", "状态", "身份", "阵营", "牌"):
        t.add_column(col, no_wrap=True)
    for p in players:
        t.add_row(literal(p.name), status_text(p.status), literal(p.role or "—"), literal(p.faction or "—"),
                  cards_text(p.blue, p.yellow, p.red))
    return t


STATUS_WORDS = {"alive": ("存活", "green"), "out": ("出局", "red"), "eliminated": ("出局", "red"),
                "benched": ("挂机", "yellow"), "dead": ("死亡", "red")}


def status_text(status: str | None) -> Text:
    word, style = STATUS_WORDS.get(status or "alive", (status or "—", ""))
    return Text(word, style)


def cards_text(blue: int, yellow: int, red: int) -> Text:
    out = Text()
    for n, label, style in ((blue, "蓝", "bold white on blue"), (yellow, "黄", "bold black on yellow"),
                            (red, "红", "bold white on red")):
        if n:
            out.append(f" {label}{n} ", style)
            out.append(" ")
    return out


class OverviewPane(Pane):
    KEY = "overview"
    TITLE = "概览"

    def compose(self) -> ComposeResult:
        yield Static(Text("概览", "bold"), classes="pane-title")
        with VerticalScroll(id="overview-body"):
            yield Static(id="overview-summary", classes="pane-status")
            yield Static(id="overview-days")
            yield Static(id="overview-roster")

    def focus_main(self) -> None:
        self.query_one("#overview-body").focus()

    def reload(self) -> None:
        game = self.service.game
        now = self.gateway.clock.now()
        today = current_day(game.days, now)
        self.query_one("#overview-days", Static).update(days_table(game, today.day if today else None, now))
        self.load()

    @work(thread=True, exclusive=True, group="overview", exit_on_error=False)
    def load(self) -> None:
        summary = self.gateway.overview()
        self.deliver(self.show, summary)

    def show(self, summary: Overview) -> None:
        lines = Text()
        for label, value, style in (("待审违规", summary.open_flags, "bold red"),
                                    ("帖子", summary.posts, "bold"),
                                    ("胜负", summary.outcome, "bold")):
            lines.append(f"{label}：", "dim")
            lines.append("—" if value is None else str(value), style if value else "")
            lines.append("   ")
        for problem in summary.problems:
            lines.append("\n")
            lines.append_text(literal(problem, "red"))
        self.query_one("#overview-summary", Static).update(lines)
        self.query_one("#overview-roster", Static).update(roster_table(summary.players))
