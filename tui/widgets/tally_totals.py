"""The totals of each vote thread as bars: public count beside the true count (director-only, `t`).

The public column is what players may know (警长 ×1.5, an announced +2); the true column adds the
hidden effects. With the true column hidden the rows are ordered by the public count, so the order
itself never gives the hidden count away on a shared screen.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tui.literal import literal
from tui.tally_view import TallySheet, TallyView
from tui.zone import zone

BAR_WIDTH = 30
_EIGHTHS = " ▏▎▍▌▋▊▉"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def bar(value: float, top: float, width: int = BAR_WIDTH) -> str:
    """One cell per vote while the leader fits, else scaled to ``width``; eighths for the fraction."""
    if value <= 0 or top <= 0:
        return ""
    cells = value if top <= width else value / top * width
    whole = int(cells)
    frac = round((cells - whole) * 8)
    if frac == 8:
        whole, frac = whole + 1, 0
    return "█" * whole + (_EIGHTHS[frac] if frac else "")


def sheet_header(s: TallySheet, *, many: bool) -> Text:
    out = Text()
    out.append(f"投票帖 tid {s.tid}", "bold")
    out.append(f" · {s.purpose}")
    out.append(f" · 关门 {s.closes.astimezone(zone()):%m-%d %H:%M}", "dim")
    if s.accelerated:
        out.append(" · 已加速", "yellow")
    if many:
        out.append(f" · 无效票 {s.invalid}", "red" if s.invalid else "dim")
    return out


def totals_table(s: TallySheet, *, show_true: bool) -> Table:
    t = Table(box=None, expand=True, show_edge=False, pad_edge=False, header_style="bold")
    t.add_column("对象", no_wrap=True, width=10)
    t.add_column("公开票数", no_wrap=True, ratio=3)
    if show_true:
        t.add_column("│ 实际票数（t 切换）", no_wrap=True, ratio=2)
    rows = s.totals if show_true else tuple(sorted(s.totals, key=lambda r: -r.public))
    top = max((r.public for r in rows), default=0.0)
    for r in rows:
        public = Text(bar(r.public, top), "green" if r.public == top and top > 0 else "cyan")
        public.append(f" {_num(r.public)}", "bold")
        cells: list[RenderableType] = [literal(r.player), public]
        if show_true:
            true = Text("│ ", "dim")
            true.append(_num(r.true), "bold yellow" if r.true != r.public else "bold")
            if r.note:
                true.append("  ")
                true.append_text(literal(f"({r.note})", "dim"))
            cells.append(true)
        t.add_row(*cells)
    if not rows:
        t.add_row(Text("无有效票", "dim"), Text(""), *([Text("")] if show_true else []))
    return t


def who_did_not(s: TallySheet) -> Text:
    out = Text()
    word = s.abstain_word  # the ruleset's word: werewolf-12 "视为弃票"
    for label, names in ((word, s.abstained), (f"未投票，视为{word}", s.auto_abstain), ("未投票", s.no_vote),
                         ("仅有无效票", s.only_invalid)):
        if names:
            if out:
                out.append(" · ", "dim")
            out.append(f"{label}：", "dim")
            out.append_text(literal("、".join(names)))
    return out


class TallyTotals(Static):
    DEFAULT_CSS = "TallyTotals { height: auto; padding: 0 1; }"

    def show(self, view: TallyView | None, *, show_true: bool) -> None:
        if view is None:
            self.update(Text(""))
            return
        parts: list[RenderableType] = []
        many = len(view.sheets) > 1
        for s in view.sheets:
            parts.append(sheet_header(s, many=many))
            parts.append(totals_table(s, show_true=show_true))
            line = who_did_not(s)
            if line:
                parts.append(line)
        if not show_true:
            parts.append(Text("只显示公开票数（按 t 显示导演才可见的真实票数）", "dim italic"))
        self.update(Group(*parts))
