"""6 玩家: the roster as the game state has it (status, role, faction, tags, cards)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from tracker.penalties.ledger import ACTION_WORDS, COLOR_WORDS
from tui.literal import literal
from tui.messages import DataChanged
from tui.screens.dialogs import EventForm, NewEvent
from tui.screens.overview import cards_text, status_text
from tui.screens.pane import Pane, reported
from tui.views import PlayerRow
from tui.widgets.lines import Col, compose, fill
from tui.zone import zone

if TYPE_CHECKING:
    from tracker.penalties.ledger import Entry as LedgerEntry

# One composed cell per row (tui/widgets/lines.py): the screen is drawn twice as fast.
COLUMNS = (Col("玩家", 16), Col("状态", 10), Col("身份", 12), Col("阵营", 8), Col("标签", 16), Col("牌"))


class PlayersPane(Pane):
    KEY = "players"
    TITLE = "玩家"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("v", "event", "记录事件")]

    def __init__(self) -> None:
        super().__init__()
        self.rows: tuple[PlayerRow, ...] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("玩家", "bold"), classes="pane-title")
        table: DataTable[Text | str] = DataTable(id="players-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="players-status", classes="pane-status")
        yield Static(id="player-detail")

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
        self.set_text("#players-status", Text(f"共 {len(rows)} 人，存活 {alive} 人 · Enter 查看玩家 · v 记录事件", "dim"))

    # -- Enter: one player -------------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.row_key.value is not None:
            self.load_player(str(event.row_key.value))

    @work(thread=True, exclusive=True, group="player-detail", exit_on_error=False)
    @reported
    def load_player(self, name: str) -> None:
        row, entries = self.gateway.player_detail(name)
        self.deliver(self.show_player, row, entries)

    def show_player(self, row: PlayerRow, entries: list[LedgerEntry]) -> None:
        """The player's facts and every ledger entry naming them (the 判罚 screen's lines, 记于 time)."""
        out = literal(row.name, "bold")
        out.append("  ")
        out.append_text(status_text(row.status))
        out.append(f"  身份 {row.role or '—'} · 阵营 {row.faction or '—'} · 标签 {'、'.join(row.tags) or '无'}  ")
        out.append_text(cards_text(row.blue, row.yellow, row.red))
        out.append("\n")
        if not entries:
            out.append("账本中没有此玩家的记录", "dim")
        for e in entries:
            day = f"第{e.day}日 " if e.day is not None else ""
            out.append(f"#{e.id} {day}记于 {e.at.astimezone(zone()):%m-%d %H:%M} ", "dim")
            out.append(f"{ACTION_WORDS.get(e.action, e.action)} {COLOR_WORDS.get(e.color or '', '')}")
            out.append_text(literal(f"{' [' + e.clause + ']' if e.clause else ''}：{' '.join(e.reason.split())}\n"))
        self.query_one("#player-detail", Static).update(out)

    # -- v: an event for the selected player (as `tracker event`) -----------------------------------
    def action_event(self) -> None:
        table = self.query_one(DataTable)
        if not self.rows or not (0 <= table.cursor_row < len(self.rows)):
            self.app.bell()
            return
        name = self.rows[table.cursor_row].name
        self.app.push_screen(EventForm(name), lambda ev: self._recorded(name, ev))

    def _recorded(self, name: str, event: NewEvent | None) -> None:
        if event is not None:
            self.write_event(name, event)

    @work(thread=True, exclusive=True, group="player-event", exit_on_error=False)
    @reported
    def write_event(self, name: str, event: NewEvent) -> None:
        said = self.gateway.record_event(event.kind, name, event.data)
        self.app.call_from_thread(self.notify, said, title="事件", timeout=5, markup=False)
        self.post_message(DataChanged("event"))
