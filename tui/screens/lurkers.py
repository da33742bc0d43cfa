"""5 潜水: each player's posts today against the minimum, the three-day run, the vote, the time left.

Red rows are under the minimum right now; exemptions (加速, 被绑架, 死亡未出局) are shown with their
reason; the penalties the count would give at the close are listed below. `[`/`]` change the day.
The count (seconds on a big game) runs in a thread worker; the screen says 计算中… meanwhile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from tui.literal import literal
from tui.lurk_view import LurkerRow, LurkView
from tui.messages import DataChanged
from tui.screens.dialogs import ConfirmDialog
from tui.screens.pane import Pane, reported
from tui.widgets.countdown import Countdown
from tui.widgets.lines import sized_columns

if TYPE_CHECKING:
    from tracker.penalties.lurk_cards import LurkFinding


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
    rules = [f" · 每日最少 {v.min_posts} 帖"] if v.min_posts else []
    if v.three_day_min:  # only where the ruleset has the three-day rule
        rules.append(f" · 连续 {v.three_day_span} 日不足 {v.three_day_min} 帖判罚")
    if rules:
        out.append("".join(rules), "dim")
    if v.accelerated:
        out.append("\n加速日：发言不足与未投票不判罚", "bold yellow")
        if v.accelerated_cause:
            out.append_text(literal(f"（{v.accelerated_cause}）", "yellow"))
    under = v.under_count
    out.append("\n")
    out.append(f"现在低于最少发言数：{under} 人", "bold red" if under else "green")
    return out


def penalties_text(v: LurkView, findings: list[LurkFinding] | None = None) -> Text:
    """The penalties the count gives, each with its card's status (待判罚 until `c`/`C` cards it)."""
    out = Text("判罚", "bold")
    if not v.penalties:
        out.append("：无", "green")
        return out
    status = {(f.penalty.player, f.penalty.words): f.status_words for f in findings or ()}
    if any(w == "待判罚" for w in status.values()):
        out.append("   c 给所选玩家发牌 · C 当日全部发牌", "dim")
    for p in v.penalties:
        out.append("\n")
        out.append_text(literal(p.player, "bold"))
        out.append(f"  {p.words}", "bold red")
        detail = f"（{p.detail}）" if p.detail and p.detail != p.words else ""
        out.append_text(literal(f"{detail}  {p.clause}", "dim"))
        words = status.get((p.player, p.words))
        if words:
            out.append(f"  {words}", "yellow" if words == "待判罚" else "green")
    return out


COLUMNS = ("玩家", "今日发言", "连续不足", "投票", "豁免", "判罚")


class LurkersPane(Pane):
    KEY = "lurkers"
    TITLE = "潜水"
    DEFAULT_CSS = "LurkersPane #lurk-penalties { max-height: 10; overflow-y: auto; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "day(-1)", "前一日"),
        Binding("right_square_bracket", "day(1)", "后一日"),
        Binding("c", "card(False)", "发牌"),
        Binding("C", "card(True)", "全部发牌"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.day: int | None = None
        self.view: LurkView | None = None
        self.findings: list[LurkFinding] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("潜水", "bold"), id="lurk-title", classes="pane-title")
        yield Countdown(self.gateway.clock, id="lurk-countdown")
        yield Static(id="lurk-status", classes="pane-status")
        table: DataTable[Text] = DataTable(id="lurk-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="lurk-penalties", classes="pane-status")

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns(*COLUMNS)

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
        from tracker.service.lurk_cards import day_lurk_findings

        findings = day_lurk_findings(self.service, day)  # 待判罚 / 已判罚 第 N 条
        self.deliver(self.show, view, findings)

    def show(self, view: LurkView, findings: list[LurkFinding] | None = None) -> None:
        if view.day != self.day:
            return
        self.query_one(Countdown).set_day(view.opens, view.closes, "（按目前计，关门后为准）")
        self.set_text("#lurk-status", status_line(view))
        if findings is not None and findings != self.findings:
            self.findings = findings
            self.query_one("#lurk-penalties", Static).update(penalties_text(view, findings))
        if view == self.view:
            return
        self.view = view
        rows = [(literal(r.player, "bold red" if view.under(r) else ""), posts_cell(r, view), streak_cell(r, view),
                 vote_cell(r), literal(r.exempt or "", "yellow"), Text("、".join(r.penalties), "red")) for r in view.rows]
        table = self.query_one(DataTable)
        sized_columns(table, COLUMNS, rows)
        for r, row in zip(view.rows, rows, strict=True):
            table.add_row(*row, key=r.player)
        self.query_one("#lurk-penalties", Static).update(penalties_text(view, self.findings))

    def action_day(self, step: int) -> None:
        days = [d.day for d in self.service.game.days]
        if self.day is None or self.day not in days:
            return
        i = days.index(self.day) + step
        if not 0 <= i < len(days):
            self.app.bell()
            return
        self.day = days[i]
        self.reload()

    # -- 发牌 ----------------------------------------------------------------------------------------
    def action_card(self, whole_day: bool) -> None:
        """A lurk penalty is a finding like a flag: `c` cards the selected player's, `C` the day's."""
        todo = [f for f in self.findings if f.card is None]
        if not whole_day:
            table = self.query_one(DataTable)
            row = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None
            todo = [f for f in todo if f.penalty.player == row]
        if self.day is None or not todo:
            self.app.bell()
            self.notify("没有待判罚的潜水", title="潜水", timeout=3, markup=False)
            return
        day = self.day
        players = tuple(dict.fromkeys(f.penalty.player for f in todo))
        body = Text()
        for f in todo:
            body.append_text(literal(f"{f.penalty.player}  {f.penalty.words}  {f.clause}\n"))
        title = Text(f"第{day}日潜水发牌：{len(todo)} 张", "bold")
        def decided(ok: bool | None) -> None:
            if ok:
                self.write_cards(day, () if whole_day else players)

        self.app.push_screen(ConfirmDialog(title, body, ok_label="发牌"), decided)

    @work(thread=True, exclusive=True, group="lurk-decision", exit_on_error=False)
    def write_cards(self, day: int, players: tuple[str, ...]) -> None:
        try:
            decisions = self.gateway.card_lurkers(day, players)
        except Exception as exc:
            self.app.call_from_thread(self.fail, exc)
            return
        extra = "；".join(e for d in decisions for e in d.events)
        msg = f"第{day}日潜水：发牌 {len(decisions)} 张" + (f"；{extra}" if extra else "")
        self.app.call_from_thread(self.notify, msg, title="发牌", timeout=4, markup=False)
        self.post_message(DataChanged("card"))
