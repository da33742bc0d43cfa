"""3 违规: the queue of flags on the left, the post as the forum showed it on the right.

`c` issues a card prefilled from the flag (colour, clause, reason) after a small confirm form,
`d` dismisses with a reason, `n`/`p` move along the queue. Writes go through the service in a
worker; the app reloads the badges afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from tracker.penalties.findings import KIND_WORDS
from tui.literal import literal
from tui.messages import DataChanged
from tui.screens.dialogs import CardChoice, CardForm, ReasonDialog
from tui.screens.pane import Pane, reported
from tui.widgets.lines import Col, Lines, compose, fill
from tui.widgets.post_view import PostView
from tui.zone import zone

if TYPE_CHECKING:
    from tracker.penalties.review import Flag

STATUS_WORDS = {"open": ("待审", "bold yellow"), "dismissed": ("已驳回", "dim"), "carded": ("已判罚", "red")}
# One composed cell per row (tui/widgets/lines.py): a frame of this screen costs half as much.
COLUMNS = (Col("状态", 6), Col("类型", 8), Col("作者", 16), Col("楼", 5, "right"), Col("帖", 7), Col("摘录"))


def flag_cells(f: Flag) -> tuple[Text | str, ...]:
    word, style = STATUS_WORDS.get(f.status, (f.status, ""))
    return (Text(word, style), KIND_WORDS.get(f.kind, f.kind), literal(f.author), str(f.floor), str(f.tid),
            literal(" ".join(f.excerpt.split())[:30]))


CATEGORY_WORDS = {"font": "字体", "account": "账号回帖", "chat_log": "贴证", "kidnap": "绑架", "spam": "水帖"}


class FlagsPane(Pane):
    KEY = "flags"
    TITLE = "违规"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "card", "发牌"),
        Binding("d", "dismiss_flag", "驳回"),
        Binding("n", "move(1)", "下一条"),
        Binding("p", "move(-1)", "上一条"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.flags: list[Flag] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("违规", "bold"), classes="pane-title")
        yield Static(id="flags-status", classes="pane-status")
        with Horizontal(classes="split"):
            with Vertical(classes="left"):
                table: DataTable[Text] = DataTable(id="flags-table", cursor_type="row", zebra_stripes=True)
                yield table
            with Vertical(classes="right"):
                yield Static(id="flag-detail", classes="pane-status")
                yield PostView(id="flag-post")

    def on_mount(self) -> None:
        fill(self.query_one(DataTable), compose(COLUMNS, []))

    def focus_main(self) -> None:
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        if not self.flags:
            self.query_one("#flags-status", Static).update(Text("读取中…", "cyan"))
        self.load()

    @work(thread=True, exclusive=True, group="flags", exit_on_error=False)
    @reported
    def load(self) -> None:
        flags = self.gateway.flags()
        lines = compose(COLUMNS, [flag_cells(f) for f in flags])  # here, off the UI thread
        self.deliver(self.show, flags, lines)

    def show(self, flags: list[Flag], lines: Lines) -> None:
        table = self.query_one(DataTable)
        keep = self.current.id if self.current is not None else None
        if flags and _same(flags, self.flags):
            return  # the queue did not change: keep the table, the cursor and the post on screen
        self.flags = flags
        fill(table, lines, keys=[str(f.id) for f in flags])
        open_n = sum(1 for f in flags if f.status == "open")
        self.tracker.set_badge("flags", open_n)  # the queue just read: the badge agrees with it
        self.query_one("#flags-status", Static).update(
            Text.assemble(("待审 ", "dim"), (str(open_n), "bold yellow"), (f"  共 {len(flags)} 条", "dim")))
        if flags:
            row = next((i for i, f in enumerate(flags) if f.id == keep), None)
            if row is None:
                row = next((i for i, f in enumerate(flags) if f.status == "open"), 0)
            table.move_cursor(row=row)
            self._show_flag(flags[row])
        else:
            self.query_one(PostView).show(None)
            self.query_one("#flag-detail", Static).update(Text("没有违规记录", "dim"))

    @property
    def current(self) -> Flag | None:
        table = self.query_one(DataTable)
        if not self.flags or not (0 <= table.cursor_row < len(self.flags)):
            return None
        return self.flags[table.cursor_row]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self.flags):
            self._show_flag(self.flags[event.cursor_row])

    def _show_flag(self, f: Flag) -> None:
        detail = Text()
        detail.append(KIND_WORDS.get(f.kind, f.kind), "bold red")
        # the category's Chinese word; a word list's file name (oath, insult …) is not shown: the clause names it
        category = CATEGORY_WORDS.get(f.category)
        detail.append(f"  {category + ' · ' if category else ''}{f.clause}", "")
        detail.append(f"  检出 {f.detected_at.astimezone(zone()):%m-%d %H:%M}", "dim")
        if f.status != "open":
            detail.append("\n")
            detail.append(STATUS_WORDS.get(f.status, (f.status, ""))[0], "bold")
            detail.append_text(literal(f"：{f.decision_reason or ''}（{f.decided_by or ''}）"))
        if f.evidence:
            detail.append("\n")
            detail.append_text(literal(f.evidence[:200], "dim"))
        self.query_one("#flag-detail", Static).update(detail)
        # The HTML as first detected: a player who edits the violation away does not erase it.
        post = _FlagPost(f)
        words = (f.matched,) if f.matched else ()
        self.query_one(PostView).show(post, highlight=words)

    def action_move(self, step: int) -> None:
        table = self.query_one(DataTable)
        if self.flags:
            table.move_cursor(row=max(0, min(len(self.flags) - 1, table.cursor_row + step)))

    # -- decisions ----------------------------------------------------------------------------------
    def action_card(self) -> None:
        f = self.current
        if f is None:
            self.app.bell()
            return
        if f.status != "open":
            # a decided flag: say what became of it rather than a bare bell
            said = (f"违规 #{f.id} 已判罚（第 {f.card} 条）：判罚界面 x 可撤销该牌" if f.status == "carded"
                    else f"违规 #{f.id} 已驳回，不能再发牌")
            self.notify(said, timeout=4, markup=False)
            return
        self.open_card_form(f.id)

    @work(thread=True, exclusive=True, group="flag-decision", exit_on_error=False)
    @reported
    def open_card_form(self, flag_id: int) -> None:
        sug = self.service.flag_review.suggest_card(flag_id)

        def push() -> None:
            form = CardForm(player=sug.player, color=sug.color, clause=sug.clause, reason=sug.reason, why=sug.why)
            self.app.push_screen(form, lambda choice: self._carded(flag_id, choice))

        self.app.call_from_thread(push)

    def _carded(self, flag_id: int, choice: CardChoice | None) -> None:
        if choice is not None:
            self.write_card(flag_id, choice)

    @work(thread=True, exclusive=True, group="flag-decision", exit_on_error=False)
    @reported
    def write_card(self, flag_id: int, choice: CardChoice) -> None:
        decision = self.gateway.card_from_flag(flag_id, choice.color, choice.clause, choice.reason)
        extra = "；".join(decision.events)
        msg = f"已发牌给 {decision.entry.player}" + (f"；{extra}" if extra else "")
        self.app.call_from_thread(self.notify, msg, title="发牌", timeout=4, markup=False)
        self.post_message(DataChanged("card"))

    def action_dismiss_flag(self) -> None:
        f = self.current
        if f is None or f.status != "open":
            self.app.bell()
            return
        title = Text("驳回违规 ")
        title.append_text(literal(f"{f.author} {f.floor} 楼（{KIND_WORDS.get(f.kind, f.kind)}）", "bold"))
        self.app.push_screen(ReasonDialog(title), lambda reason: self._dismissed(f.id, reason))

    def _dismissed(self, flag_id: int, reason: str | None) -> None:
        if reason:
            self.write_dismissal(flag_id, reason)

    @work(thread=True, exclusive=True, group="flag-decision", exit_on_error=False)
    @reported
    def write_dismissal(self, flag_id: int, reason: str) -> None:
        self.gateway.dismiss_flag(flag_id, reason)
        self.post_message(DataChanged("flag"))


def _same(a: list[Flag], b: list[Flag]) -> bool:
    return [(f.id, f.status) for f in a] == [(f.id, f.status) for f in b]


class _FlagPost:
    """The flagged post as PostView reads it, from the flag's stored evidence (HTML at detection)."""

    def __init__(self, f: Flag) -> None:
        self.pid, self.tid, self.floor, self.author, self.posted_at = f.pid, f.tid, f.floor, f.author, f.posted_at
        self.html = f.html or ""
        self.text = f.excerpt
        self.edited_at = None
        self.blocked = False
