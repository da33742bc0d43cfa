"""2 票型: the day's totals as bars (public │ true), every ballot with its verdict, the outcome.

`t` hides/shows the director-only true count, `[`/`]` change the day, Enter shows a ballot's post
and the voter's history, `y` records the outcome as game events (after a confirm dialog; the
service refuses a second time), `b` copies the BBCode announcement and saves it in the reports dir.
The count runs in a thread worker; the screen shows 计算中… until it arrives.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from tui.literal import literal
from tui.messages import DataChanged
from tui.screens.ballot_detail import BallotDetail
from tui.screens.dialogs import ConfirmDialog
from tui.screens.pane import Pane, reported
from tui.tally_view import BallotRow, TallyView
from tui.widgets.ballot_table import BallotTable
from tui.widgets.tally_totals import TallyTotals


def outcome_text(view: TallyView) -> Text:
    out = Text()
    for s in view.sheets:
        if out:
            out.append("\n")
        out.append("结果：", "bold")
        if len(view.sheets) > 1:
            out.append(f"[{s.purpose}] ", "dim")
        out.append_text(literal(s.outcome, "bold"))
        if s.confirmed:
            out.append("（已确认）", "bold green")
        elif view.closed:
            out.append("（待确认 y）", "bold yellow")
        else:
            out.append("（尚未关门，按目前的票计；关门后按 y 确认）", "yellow")
        if s.public_differs:
            out.append("  公开票数的结果与此不同", "bold red")
        for note in s.notes:
            out.append("\n")
            out.append_text(literal(note, "dim"))
    return out


class TallyPane(Pane):
    KEY = "tally"
    TITLE = "票型"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "toggle_true", "公开/实际"),
        Binding("left_square_bracket", "day(-1)", "前一日"),
        Binding("right_square_bracket", "day(1)", "后一日"),
        Binding("y", "confirm", "确认结果"),
        Binding("b", "bbcode", "复制BBCode"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.day: int | None = None
        self.view: TallyView | None = None
        self.show_true = True

    def compose(self) -> ComposeResult:
        yield Static(Text("票型", "bold"), id="tally-title", classes="pane-title")
        yield Static(id="tally-status", classes="pane-status")
        yield TallyTotals(id="tally-totals")
        yield BallotTable(id="ballots")
        yield Static(id="tally-outcome", classes="pane-status")

    def focus_main(self) -> None:
        self.query_one(BallotTable).focus()

    def _default_day(self) -> int | None:
        days = self.gateway.vote_days()
        if not days:
            return None
        today = self.gateway.today()
        past = [d for d in days if today is not None and d <= today]
        return past[-1] if past else days[0]

    def reload(self) -> None:
        if self.day is None:
            self.day = self._default_day()
        if self.day is None:
            self.query_one("#tally-status", Static).update(Text("游戏文件中没有配置投票帖", "yellow"))
            return
        self._title()
        if self.view is None or self.view.day != self.day:
            self.query_one("#tally-status", Static).update(Text("计算中…", "cyan"))
        self.load(self.day)

    def _title(self) -> None:
        t = Text(f"票型 第{self.day}日", "bold")
        t.append("   [ ] 换日 · t 公开/实际 · Enter 看帖 · y 确认 · b BBCode", "dim")
        self.query_one("#tally-title", Static).update(t)

    @work(thread=True, exclusive=True, group="tally", exit_on_error=False)
    def load(self, day: int) -> None:
        try:
            view = self.gateway.tally(day)
        except Exception as exc:  # the count failed: said on the status line too
            self.app.call_from_thread(self.fail_status, exc)
            return
        self.deliver(self.show, view)

    def fail_status(self, exc: BaseException) -> None:
        self.query_one("#tally-status", Static).update(literal(getattr(exc, "message", None) or str(exc), "red"))
        self.fail(exc)

    def show(self, view: TallyView) -> None:
        if view.day != self.day:
            return  # the director moved on to another day while this one was counted
        status = Text()
        if view.invalid:
            status.append(f"无效票 {view.invalid} 张", "bold red")
        else:
            status.append("没有无效票", "green")
        status.append(f" · 共 {sum(len(s.ballots) for s in view.sheets)} 帖投票", "dim")
        self.set_text("#tally-status", status)
        if view == self.view:
            return  # unchanged: keep the table (and its cursor) as it is
        self.view = view
        self.query_one(TallyTotals).show(view, show_true=self.show_true)
        self.query_one(BallotTable).show(view)
        self.query_one("#tally-outcome", Static).update(outcome_text(view))

    # -- keys -------------------------------------------------------------------------------------
    def action_toggle_true(self) -> None:
        self.show_true = not self.show_true
        self.query_one(TallyTotals).show(self.view, show_true=self.show_true)

    def action_day(self, step: int) -> None:
        days = self.gateway.vote_days()
        if self.day is None or self.day not in days:
            return
        i = days.index(self.day) + step
        if not 0 <= i < len(days):
            self.app.bell()
            return
        self.day = days[i]
        self.reload()

    def on_data_table_row_selected(self, event: BallotTable.RowSelected) -> None:
        event.stop()
        b = self.query_one(BallotTable).current
        if b is not None and self.view is not None:
            self.open_ballot(b, self.view)

    @work(thread=True, exclusive=True, group="tally-post", exit_on_error=False)
    @reported
    def open_ballot(self, b: BallotRow, view: TallyView) -> None:
        post = self.service.browsing.post(b.pid)
        self.app.call_from_thread(self.app.push_screen, BallotDetail(b, view.history(b.voter), post))

    def action_confirm(self) -> None:
        view = self.view
        if view is None or view.day != self.day:
            self.app.bell()
            return
        if view.sheets and all(s.confirmed for s in view.sheets):
            # nothing to confirm: no dialog whose Enter could only be refused
            self.app.bell()
            self.notify(f"第{view.day}日结果已确认过", title="确认结果", timeout=4, markup=False)
            return
        title = Text(f"确认第{view.day}日的投票结果？", "bold")
        body = outcome_text(view)
        body.append("\n\n将记为游戏事件（出局 / 当选，不在论坛发帖），之后的计票以此为准。", "")
        if not view.closed:
            body.append("\n投票尚未关门：现在确认会按目前的票记录结果。", "bold yellow")
        self.app.push_screen(ConfirmDialog(title, body, ok_label="确认结果"), self._confirmed)

    def _confirmed(self, ok: bool | None) -> None:
        if ok and self.view is not None:
            self.write_confirm(self.view.day)

    @work(thread=True, exclusive=True, group="tally-decision", exit_on_error=False)
    def write_confirm(self, day: int) -> None:
        try:
            lines = self.gateway.confirm_day(day)
        except Exception as exc:
            self.app.call_from_thread(self.fail, exc)
            self.post_message(DataChanged("confirm"))
            return
        msg = "\n".join(x for x in lines if x) or f"第{day}日结果已确认"
        self.app.call_from_thread(self.notify, msg, title="已确认", timeout=6, markup=False)
        self.post_message(DataChanged("confirm"))

    def action_bbcode(self) -> None:
        if self.day is not None:
            self.write_bbcode(self.day)

    @work(thread=True, exclusive=True, group="tally-bbcode", exit_on_error=False)
    @reported
    def write_bbcode(self, day: int) -> None:
        text, path = self.gateway.tally_bbcode(day)

        def done() -> None:
            self.app.copy_to_clipboard(text)
            self.notify(f"已复制第{day}日票型 BBCode（终端不支持时请用文件）：\n{path}", title="BBCode",
                        timeout=8, markup=False)

        self.app.call_from_thread(done)
