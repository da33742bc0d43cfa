"""4 判罚: each player's standing, the ledger (every entry, revocations included), one card's audit trail.

Enter shows the selected entry's audit trail; `x` revokes it with a reason (a new entry: nothing in
the ledger is ever edited or deleted).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from tracker.penalties.ledger import ACTION_WORDS  # the ledger's own words, as `tracker cards` prints them
from tracker.penalties.ledger import Entry as LedgerEntry
from tui.literal import literal
from tui.messages import DataChanged
from tui.screens.dialogs import CardChoice, CardForm, IssueCardForm, NewCard, ReasonDialog
from tui.screens.overview import cards_text, status_text
from tui.screens.pane import Pane, reported
from tui.views import StandingRow
from tui.widgets.lines import sized_columns
from tui.zone import zone

if TYPE_CHECKING:
    from tracker.service.cards import CardDecision, LedgerAudit

COLOR_WORDS = {"blue": ("蓝牌", "bold white on blue"), "yellow": ("黄牌", "bold black on yellow"),
               "red": ("红牌", "bold white on red")}


def color_text(color: str | None) -> Text:
    if not color:
        return Text("—", "dim")
    word, style = COLOR_WORDS.get(color, (color, ""))
    return Text(f" {word} ", style)


def _short(text: str, n: int) -> str:
    """A long clause cut with an ellipsis (the audit trail below shows it whole)."""
    return text if len(text) <= n else text[: n - 1] + "…"


def standing_table(rows: list[StandingRow]) -> Table:
    t = Table(box=None, expand=True, header_style="bold", title="牌况", title_justify="left")
    for col in ("玩家", "牌", "状态"):
        t.add_column(col, no_wrap=True)
    for r in rows:
        t.add_row(literal(r.player), cards_text(r.blue, r.yellow, r.red), status_text(r.status))
    return t


LEDGER_COLUMNS = ("#", "日", "动作", "玩家", "牌", "条款", "帖·楼", "理由", "记于")


class CardsPane(Pane):
    KEY = "cards"
    TITLE = "判罚"
    # the ledger needs the width (day, place, reason); the standings are three short columns
    DEFAULT_CSS = """
    CardsPane #ledger-alarm { display: none; color: $text; background: $error; text-style: bold; }
    CardsPane #ledger-alarm.-broken { display: block; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "trail", "审计记录"),
        Binding("x", "revoke", "撤销"),
        Binding("i", "issue", "发牌"),
        Binding("e", "amend", "更正"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[LedgerEntry] = []

    def compose(self) -> ComposeResult:
        yield Static(Text("判罚", "bold"), classes="pane-title")
        yield Static(id="ledger-alarm")
        with Horizontal(classes="split"):
            with Vertical(classes="left"):
                table: DataTable[Text] = DataTable(id="ledger-table", cursor_type="row", zebra_stripes=True)
                yield table
                yield Static(id="card-trail", classes="pane-status")
            with VerticalScroll(classes="right"):
                yield Static(id="standing")

    def on_mount(self) -> None:
        # the ledger needs the width (day, place, reason); the standings are three short columns
        # (inline: the app's stylesheet gives every split 2:3, which squeezed the ledger)
        if not self.app.has_class("-narrow"):
            self.query_one(".split > .left").styles.width = "1fr"
            self.query_one(".split > .right").styles.width = 34
        self.query_one(DataTable).add_columns(*LEDGER_COLUMNS)

    def focus_main(self) -> None:
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="cards", exit_on_error=False)
    @reported
    def load(self) -> None:
        ledger, standing = self.gateway.cards()
        check = self.service.cards.audit()
        places = self.service.cards.post_places([e.post for e in ledger])
        self.deliver(self.show, ledger, standing, check, places)

    def show(self, ledger: list[LedgerEntry], standing: list[StandingRow], check: LedgerAudit | None = None,
             places: dict[int, tuple[int, int, datetime]] | None = None) -> None:
        self.entries = ledger
        alarm = self.query_one("#ledger-alarm", Static)
        broken = check is not None and not check.ok
        alarm.set_class(broken, "-broken")
        if check is not None and broken:  # as loud as the CLI: a ledger changed behind the tool's back
            alarm.update(Text(f"！！！记牌账本已损坏：{'；'.join(check.problems)}。以下判罚与牌况不可信；"
                              "用 tracker cards GAME.toml verify 查看，从备份恢复数据库。"))
        rows: list[tuple[Text, ...]] = []
        for e in ledger:
            place = (places or {}).get(e.post) if e.post is not None else None
            where = f"{place[0]}·{place[1]}楼" if place else ("—" if e.post is None else f"pid {e.post}")
            rows.append((Text(str(e.id)), Text(str(e.day) if e.day is not None else "—"),
                         Text(ACTION_WORDS.get(e.action, e.action)), literal(e.player), color_text(e.color),
                         literal(_short(e.clause or "", 10)), Text(where, "dim"), literal(" ".join(e.reason.split())[:40]),
                         Text(f"{e.at.astimezone(zone()):%m-%d %H:%M}", "dim")))
        table = self.query_one(DataTable)
        sized_columns(table, LEDGER_COLUMNS, rows)
        for e, row in zip(ledger, rows, strict=True):
            table.add_row(*row, key=str(e.id))
        if ledger:
            table.move_cursor(row=len(ledger) - 1)
        self.query_one("#standing", Static).update(standing_table(standing))
        if not ledger:
            self.query_one("#card-trail", Static).update(Text("账本为空：还没有发过牌", "dim"))

    @property
    def current(self) -> LedgerEntry | None:
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
        trail = self.service.cards.card_history(card_id)
        places = self.service.cards.post_places([e.post for e in trail])
        self.app.call_from_thread(self.show_trail, card_id, trail, places)

    def show_trail(self, card_id: int, trail: list[LedgerEntry],
                   places: dict[int, tuple[int, int, datetime]] | None = None) -> None:
        """One entry per block, each field on its own line: a clause or a reason never breaks in
        the middle of a phrase to continue after the previous field."""
        out = Text(f"第 {card_id} 条的审计记录\n", "bold")
        for e in trail:
            out.append(f"#{e.id} 记于 {e.at.astimezone(zone()):%m-%d %H:%M} ", "dim")
            out.append(ACTION_WORDS.get(e.action, e.action), "bold")
            out.append(" ")
            out.append_text(color_text(e.color))
            out.append(" ")
            out.append_text(literal(e.player, "bold"))
            where = []
            if e.day is not None:
                where.append(f"第{e.day}日")
            place = (places or {}).get(e.post) if e.post is not None else None
            if place is not None:
                where.append(f"帖 {place[0]} 第 {place[1]} 楼")
            elif e.post is not None:
                where.append(f"pid {e.post}")
            where.append("自动" if e.issuer == "ladder" else e.issuer)
            out.append_text(literal(" · " + " · ".join(where), "dim"))
            if e.clause:
                out.append("\n  条款：", "dim")
                out.append_text(literal(e.clause))
            out.append("\n  理由：", "dim")
            out.append_text(literal(e.reason))
            out.append(f"\n  哈希 {e.hash[:10]}\n", "dim")
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

    # -- i: a new card; e: correct the selected one (as `tracker card issue` / `amend`) -------------
    def action_issue(self) -> None:
        self.app.push_screen(IssueCardForm(), self._issued)

    def _issued(self, card: NewCard | None) -> None:
        if card is not None:
            self.write_issue(card)

    @work(thread=True, exclusive=True, group="card-decision", exit_on_error=False)
    @reported
    def write_issue(self, card: NewCard) -> None:
        decision = self.gateway.issue_card(card.player, card.color, card.clause, card.reason, card.post)
        self._told("发牌", decision)
        self.post_message(DataChanged("card"))

    def action_amend(self) -> None:
        e = self.current
        if e is None or e.action not in ("issue", "amend"):
            self.app.bell()
            return
        form = CardForm(player=e.player, color=e.color or "blue", clause=e.clause or "", reason="",
                        why=f"更正第 {e.id} 条：改牌色或条款，理由写更正的原因", verb="更正判罚：",
                        ok_label="确认更正")
        self.app.push_screen(form, lambda choice: self._amended(e, choice))

    def _amended(self, e: LedgerEntry, choice: CardChoice | None) -> None:
        if choice is not None:
            self.write_amend(e.id, choice, e.color, e.clause or "")

    @work(thread=True, exclusive=True, group="card-decision", exit_on_error=False)
    @reported
    def write_amend(self, card_id: int, choice: CardChoice, color: str | None, clause: str) -> None:
        decision = self.gateway.amend_card(card_id, choice.reason,
                                           color=choice.color if choice.color != color else None,
                                           clause=choice.clause if choice.clause != clause else None)
        self._told("更正", decision)
        self.post_message(DataChanged("amend"))

    def _told(self, title: str, decision: CardDecision) -> None:
        extra = "；".join(decision.events)
        msg = f"第 {decision.entry.id} 条：{decision.entry.player}" + (f"；{extra}" if extra else "")
        self.app.call_from_thread(self.notify, msg, title=title, timeout=4, markup=False)
