"""Every ballot of the day, valid or not: floor, voter, form, target, and the verdict in the rule posts' words.

✓ green for a ballot that counts, ✗ red with the reason for one that does not, "改票 引用 N 楼" for
a change, ⚠ yellow for a ballot that counts but needs the director's eye (edited, noon exception).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from tui.literal import literal
from tui.tally_view import BallotRow, TallyView
from tui.zone import zone

KIND_WORDS = {"vote": "投票", "change": "改票", "proxy": "代投"}


def kind_word(b: BallotRow) -> str:
    if b.kind == "proxy":
        return "代投改票" if b.change else "代投"
    return "改票" if b.change else KIND_WORDS.get(b.kind, b.kind)


def verdict_text(b: BallotRow) -> Text:
    out = Text()
    if not b.valid:
        out.append("✗ ", "bold red")
        out.append_text(literal(b.reason or "无效", "red"))
        return out
    out.append("✓", "bold green" if b.final else "green dim")
    if b.change:
        where = "、".join(f"{f} 楼" for f in b.quoted_floors) or "—"
        out.append(f" 改票 引用 {where}", "green" if b.final else "dim")
    if not b.final:
        out.append("（已被后来的改票取代）", "dim")
    if b.proxy_by:
        out.append_text(literal(f"（{b.proxy_by} 代投）", "dim"))
    for f in b.flags:
        out.append(" ⚠ ", "bold yellow")
        out.append_text(literal(f, "yellow"))
    return out


def ballot_cells(b: BallotRow, *, with_thread: bool) -> list[Text | str]:
    cells: list[Text | str] = [Text(str(b.floor), justify="right"), literal(b.voter), kind_word(b),
                        literal(b.target or "—", "" if b.valid else "dim")]
    if with_thread:
        cells.insert(0, str(b.tid))
    cells.append(verdict_text(b))
    return cells


def history_text(rows: tuple[BallotRow, ...]) -> Text:
    """A voter's ballots of the day, one line each: floor, time, form, target, verdict."""
    out = Text()
    for b in rows:
        if out:
            out.append("\n")
        when = f"{b.posted_at.astimezone(zone()):%m-%d %H:%M}" if b.posted_at else ""
        out.append(f"{b.floor:>4} 楼 {when}  ", "dim")
        out.append(f"{kind_word(b)} ")
        out.append_text(literal(b.target or "—", "bold"))
        out.append("  ")
        out.append_text(verdict_text(b))
    return out


class BallotTable(DataTable[Text | str]):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.rows_: tuple[BallotRow, ...] = ()
        self._with_thread: bool | None = None

    def show(self, view: TallyView) -> None:
        """Replace the rows (and the columns when the number of threads changed); keep the cursor's ballot."""
        keep = self.current.pid if self.current is not None else None
        with_thread = len(view.sheets) > 1
        rows = tuple(b for s in view.sheets for b in s.ballots)
        if with_thread != self._with_thread:
            self.clear(columns=True)
            self.add_columns(*(("帖",) if with_thread else ()), "楼", "投票人", "类型", "对象", "结果")
            self._with_thread = with_thread
        else:
            self.clear()
        self.rows_ = rows
        for b in rows:
            self.add_row(*ballot_cells(b, with_thread=with_thread), key=str(b.pid))
        row = next((i for i, b in enumerate(rows) if b.pid == keep), 0)
        if rows:
            self.move_cursor(row=row)

    @property
    def current(self) -> BallotRow | None:
        if not self.rows_ or not (0 <= self.cursor_row < len(self.rows_)):
            return None
        return self.rows_[self.cursor_row]
