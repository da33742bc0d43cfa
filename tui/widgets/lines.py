"""Rows composed into one line each, for DataTables whose every frame must be cheap.

Why: a DataTable renders each cell through Rich (padding, cropping, styles), and re-renders every
visible cell whenever a screen is shown (its caches are keyed on focus). With one cell per row the
帖子 screen's frame after its key took ~48 ms instead of ~98 ms on this 2-core machine. The
columns are laid out here instead, in terminal cells (a CJK character is two), with widths taken
from the rows themselves so a long name is never cut more than the cap says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.text import Text

if TYPE_CHECKING:
    from textual.widgets import DataTable


@dataclass(frozen=True, slots=True)
class Col:
    title: str
    cap: int = 0  # widest the column may grow, in cells; 0: the last column, never padded
    justify: Literal["left", "right"] = "left"


def _fit(text: Text, width: int) -> tuple[Text, str]:
    """The cell cut to ``width`` cells, and the unstyled padding that fills it out."""
    t = text.copy()
    if t.cell_len > width:
        t.truncate(width, overflow="ellipsis")
    return t, " " * (width - t.cell_len)


def compose(cols: Sequence[Col], rows: Sequence[Sequence[Text | str]]) -> tuple[Text, list[Text]]:
    """(header, one Text per row): pure, so a worker thread builds them and the UI only adds rows."""
    cells = [[c if isinstance(c, Text) else Text(c) for c in row] for row in rows]
    widths = []
    for i, col in enumerate(cols):
        if not col.cap:
            widths.append(0)
            continue
        widest = max([Text(col.title).cell_len, *(row[i].cell_len for row in cells)])
        widths.append(min(widest, col.cap))

    def line(row: Sequence[Text]) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
        for i, (col, cell) in enumerate(zip(cols, row, strict=True)):
            if i:
                out.append("  ")
            if not widths[i]:
                out.append_text(cell)
                continue
            fitted, pad = _fit(cell, widths[i])
            if col.justify == "right":
                out.append(pad)
            out.append_text(fitted)
            if col.justify != "right":
                out.append(pad)
        return out

    header = line([Text(c.title, "bold") for c in cols])
    return header, [line(row) for row in cells]


Lines = tuple[Text, list[Text]]


def fill(table: DataTable[Text], lines: Lines, keys: Sequence[str] | None = None) -> None:
    """Put composed rows in a DataTable: one column whose label is the header line. A new column
    each time, because its width comes from these rows.

    The width is given, not left to the table: an auto-sized column is measured on the table's next
    idle, and a frame drawn before it (a busy machine, a snapshot) showed the column at the header's
    width with its rows cut — the 80×24 snapshot of 7 caught that in a full CI run."""
    header, rows = lines
    table.clear(columns=True)
    table.add_column(header, width=max([header.cell_len, *(row.cell_len for row in rows)]))
    if keys is None:
        table.add_rows([(row,) for row in rows])
    else:
        for row, key in zip(rows, keys, strict=True):
            table.add_row(row, key=key)


def sized_columns(table: DataTable[Text], headers: Sequence[str], rows: Sequence[Sequence[Text]]) -> None:
    """Columns as wide as their widest cell, given rather than left to the table (see :func:`fill`): the 潜水
    table caught in a full CI run with 花千树 shown as 花千 and its bars cut, the frame drawn before the idle."""
    table.clear(columns=True)
    for i, header in enumerate(headers):
        table.add_column(header, width=max([Text(header).cell_len, *(row[i].cell_len for row in rows)]))
