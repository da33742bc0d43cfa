"""5 潜水: each player's posts today against the minimum, the three-day run, the vote, the time left.

Red rows are under the minimum right now; exemptions (加速, 被绑架, 死亡未出局) are shown with their
reason; the penalties the count would give at the close are listed below. `[`/`]` change the day.
The count (seconds on a big game) runs in a thread worker; the screen says 计算中… meanwhile.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from tui.literal import literal
from tui.lurk_view import LurkerRow, LurkView
from tui.screens.pane import Pane, reported
from tui.widgets.countdown import Countdown


def posts_cell(r: LurkerRow, v: LurkView) -> Text:
    under = v.under(r)
    style = "bold red" if under else ("yellow" if r.exempt and r.posts < v.min_posts else "green")
    out = Text(f"{r.posts:>3}/{v.min_posts} ", style)
    filled = min(r.posts, v.min_posts)
    out.append("█" * filled, style)
    out.append("░" * (v.min_posts - filled), "dim")
    if r.posts > v.min_posts:
        out.append("+", style)
    return out


def streak_cell(r: LurkerRow, v: LurkView) -> Text:
    if "连续三日发言不足" in r.penalties:
        return Text(f"{v.three_day_span}/{v.three_day_span} 判罚", "bold red")
    if r.streak == 0:
        return Text("—", "dim")
    return Text(f"{r.streak}/{v.three_day_span}", "bold yellow" if r.streak >= v.three_day_span - 1 else "yellow")


def vote_cell(r: LurkerRow) -> Text:
    if r.voted is None:
        return Text("—", "dim")
    if r.voted:
        return Text("✓", "bold green")
    return Text("✗ 投票均无效" if r.invalid_only else "✗ 未投票", "bold red")


def status_line(v: LurkView) -> Text:
    out = Text()
    out.append(f"讨论帖 tid {v.discussion or '—'}", "bold")
    out.append(f" · 每日最少 {v.min_posts} 帖 · 连续 {v.three_day_span} 日不足 {v.three_day_min} 帖判罚", "dim")
    if v.accelerated:
        out.append("\n加速日：发言不足与未投票不判罚", "bold yellow")
        if v.accelerated_cause:
            out.append_text(literal(f"（{v.accelerated_cause}）", "yellow"))
    under = v.under_count
    out.append("\n")
    out.append(f"现在低于最少发言数：{under} 人", "bold red" if under else "green")
    return out


def penalties_text(v: LurkView) -> Text:
    out = Text("判罚", "bold")
    if not v.penalties:
        out.append("：无", "green")
        return out
    for p in v.penalties:
        out.append("\n")
        out.append_text(literal(p.player, "bold"))
        out.append(f"  {p.words}", "bold red")
        detail = f"（{p.detail}）" if p.detail and p.detail != p.words else ""
        out.append_text(literal(f"{detail}  {p.clause}", "dim"))
    return out


class LurkersPane(Pane):
    KEY = "lurkers"
    TITLE = "潜水"
    DEFAULT_CSS = "LurkersPane #lurk-penalties { max-height: 10; overflow-y: auto; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "day(-1)", "前一日"),
        Binding("right_square_bracket", "day(1)", "后一日"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.day: int | None = None
        self.view: LurkView | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("潜水", "bold"), id="lurk-title", classes="pane-title")
        yield Countdown(self.gateway.clock, id="lurk-countdown")
        yield Static(id="lurk-status", classes="pane-status")
        table: DataTable[Any] = DataTable(id="lurk-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="lurk-penalties", classes="pane-status")

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("玩家", "今日发言", "连续不足", "投票", "豁免", "判罚")

    def focus_main(self) -> None:
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        if self.day is None:
            self.day = self.gateway.today()
        if self.day is None:
            self.query_one("#lurk-status", Static).update(Text("游戏文件中没有配置日程", "yellow"))
            return
        title = Text(f"潜水 第{self.day}日", "bold")
        title.append("   [ ] 换日", "dim")
        self.query_one("#lurk-title", Static).update(title)
        if self.view is None or self.view.day != self.day:
            self.query_one("#lurk-status", Static).update(Text("计算中…", "cyan"))
        self.load(self.day)

    @work(thread=True, exclusive=True, group="lurkers", exit_on_error=False)
    @reported
    def load(self, day: int) -> None:
        view = self.gateway.lurkers(day)
        self.deliver(self.show, view)

    def show(self, view: LurkView) -> None:
        if view.day != self.day:
            return
        self.query_one(Countdown).set_day(view.opens, view.closes, "（按目前计，关门后为准）")
        self.set_text("#lurk-status", status_line(view))
        if view == self.view:
            return
        self.view = view
        table = self.query_one(DataTable)
        table.clear()
        for r in view.rows:
            name = literal(r.player, "bold red" if view.under(r) else "")
            table.add_row(name, posts_cell(r, view), streak_cell(r, view), vote_cell(r),
                          literal(r.exempt or "", "yellow"), Text("、".join(r.penalties), "red"), key=r.player)
        self.query_one("#lurk-penalties", Static).update(penalties_text(view))

    def action_day(self, step: int) -> None:
        days = [d.day for d in self.gateway.game.days]
        if self.day is None or self.day not in days:
            return
        i = days.index(self.day) + step
        if not 0 <= i < len(days):
            self.app.bell()
            return
        self.day = days[i]
        self.reload()
