"""4 判罚: each player's standing, the ledger (every entry, revocations included), one card's audit trail.

Enter shows the selected entry's audit trail; `x` revokes it with a reason (a new entry: nothing in
the ledger is ever edited or deleted).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from tracker.clock import SHANGHAI
from tui.literal import literal
from tui.messages import DataChanged
from tui.screens.dialogs import ReasonDialog
from tui.screens.overview import cards_text, status_text
from tui.screens.pane import Pane, reported
from tui.views import StandingRow

COLOR_WORDS = {"blue": ("蓝牌", "bold white on blue"), "yellow": ("黄牌", "bold black on yellow"),
               "red": ("红牌", "bold white on red")}
ACTION_WORDS = {"issue": "发牌", "revoke": "撤销", "amend": "修改", "convert": "升级", "unconvert": "撤销升级"}


def color_text(color: str | None) -> Text:
    if not color:
        return Text("—", "dim")
    word, style = COLOR_WORDS.get(color, (color, ""))
    return Text(f" {word} ", style)


def standing_table(rows: list[StandingRow]) -> Table:
    t = Table(box=None, expand=True, header_style="bold", title="牌况", title_justify="left")
    for col in ("玩家", "牌", "状态"):
        t.add_column(col, no_wrap=True)
    for r in rows:
        t.add_row(literal(r.player), cards_text(r.blue, r.yellow, r.red), status_text(r.status))
    return t


class CardsPane(Pane):
    KEY = "cards"
    TITLE = "判罚"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "trail", "审计记录"),
        Binding("x", "revoke", "撤销"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("判罚", "bold"), classes="pane-title")
        with Horizontal(classes="split"):
            with Vertical(classes="left"):
                table: DataTable[Any] = DataTable(id="ledger-table", cursor_type="row", zebra_stripes=True)
                yield table
                yield Static(id="card-trail", classes="pane-status")
            with VerticalScroll(classes="right"):
                yield Static(id="standing")

    def on_mount(self) -> None:
        self.query_one(DataTable).add_columns("#", "动作", "玩家", "牌", "条款", "理由", "时间")

    def focus_main(self) -> None:
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="cards", exit_on_error=False)
    @reported
    def load(self) -> None:
        ledger, standing = self.gateway.cards()
        self.deliver(self.show, ledger, standing)

    def show(self, ledger: list[Any], standing: list[StandingRow]) -> None:
        self.entries = ledger
        table = self.query_one(DataTable)
        table.clear()
        for e in ledger:
            table.add_row(str(e.id), ACTION_WORDS.get(e.action, e.action), literal(e.player), color_text(e.color),
                          literal(e.clause or ""), literal(" ".join(e.reason.split())[:24]),
                          Text(f"{e.at.astimezone(SHANGHAI):%m-%d %H:%M}", "dim"), key=str(e.id))
        if ledger:
            table.move_cursor(row=len(ledger) - 1)
        self.query_one("#standing", Static).update(standing_table(standing))
        if not ledger:
            self.query_one("#card-trail", Static).update(Text("账本为空：还没有发过牌", "dim"))

    @property
    def current(self) -> Any:
        table = self.query_one(DataTable)
        if not self.entries or not (0 <= table.cursor_row < len(self.entries)):
            return None
        return self.entries[table.cursor_row]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_trail()

    def action_trail(self) -> None:
        e = self.current
        if e is not None:
            self.load_trail(e.id)

    @work(thread=True, exclusive=True, group="card-trail", exit_on_error=False)
    @reported
    def load_trail(self, card_id: int) -> None:
        trail = self.gateway.card_history(card_id)
        self.app.call_from_thread(self.show_trail, card_id, trail)

    def show_trail(self, card_id: int, trail: list[Any]) -> None:
        out = Text(f"第 {card_id} 条的审计记录\n", "bold")
        for e in trail:
            out.append(f"#{e.id} {e.at.astimezone(SHANGHAI):%m-%d %H:%M} ", "dim")
            out.append(ACTION_WORDS.get(e.action, e.action), "bold")
            out.append(" ")
            out.append_text(color_text(e.color))
            out.append(" ")
            out.append_text(literal(f"{e.player} · {e.clause or '—'} · {e.reason} · {e.issuer}"))
            if e.post is not None:
                out.append(f" · pid {e.post}", "dim")
            out.append(f" · {e.hash[:10]}", "dim")
            out.append("\n")
        out.rstrip()
        self.query_one("#card-trail", Static).update(out)

    def action_revoke(self) -> None:
        e = self.current
        if e is None or e.action not in ("issue", "amend"):
            self.app.bell()
            return
        title = Text("撤销 ")
        title.append_text(literal(f"#{e.id} {e.player} 的{COLOR_WORDS.get(e.color or '', (e.color or '',))[0]}", "bold"))
        self.app.push_screen(ReasonDialog(title), lambda reason: self._revoked(e.id, reason))

    def _revoked(self, card_id: int, reason: str | None) -> None:
        if reason:
            self.write_revoke(card_id, reason)

    @work(thread=True, exclusive=True, group="card-decision", exit_on_error=False)
    @reported
    def write_revoke(self, card_id: int, reason: str) -> None:
        self.gateway.revoke_card(card_id, reason)
        self.post_message(DataChanged("revoke"))
