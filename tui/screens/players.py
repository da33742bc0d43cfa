"""6 玩家: the roster as the game state has it (status, role, faction, tags, cards)."""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from tui.literal import literal
from tui.screens.overview import cards_text, status_text
from tui.screens.pane import Pane, reported
from tui.views import PlayerRow
from tui.widgets.lines import Col, compose, fill

# One composed cell per row (tui/widgets/lines.py): the screen is drawn twice as fast.
COLUMNS = (Col("玩家", 16), Col("状态", 10), Col("身份", 12), Col("阵营", 8), Col("标签", 16), Col("牌"))


class PlayersPane(Pane):
    KEY = "players"
    TITLE = "玩家"

    def __init__(self) -> None:
        super().__init__()
        self.rows: tuple[PlayerRow, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("玩家", "bold"), classes="pane-title")
        table: DataTable[Text | str] = DataTable(id="players-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="players-status", classes="pane-status")

    def on_mount(self) -> None:
        fill(self.query_one(DataTable), compose(COLUMNS, []))

    def focus_main(self) -> None:
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="players", exit_on_error=False)
    @reported
    def load(self) -> None:
        rows = self.gateway.players()
        self.deliver(self.show, rows)

    def show(self, rows: tuple[PlayerRow, ...]) -> None:
        if rows == self.rows:
            return  # unchanged: no rebuild, no re-layout
        self.rows = rows
        table = self.query_one(DataTable)
        fill(table, compose(COLUMNS, [(literal(p.name), status_text(p.status), literal(p.role or "—"),
                                       literal(p.faction or "—"), literal("、".join((*p.tags, *p.marks))),
                                       cards_text(p.blue, p.yellow, p.red)) for p in rows]),
             keys=[p.name for p in rows])
        alive = sum(1 for p in rows if p.status == "alive")
        self.set_text("#players-status", Text(f"共 {len(rows)} 人，存活 {alive} 人", "dim"))
