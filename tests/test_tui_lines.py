"""Rows composed into one line: columns line up in terminal cells, CJK counting two."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from tui.widgets.lines import Col, compose

COLS = (Col("楼", 4, "right"), Col("作者", 8), Col("内容"))


def test_columns_line_up_in_cells_with_wide_characters() -> None:
    header, rows = compose(COLS, [("7", "泡泡", "你好"), ("123", "ab", Text("投票对象：包子"))])
    lines = [header.plain, *(r.plain for r in rows)]
    # each column as wide as its widest cell (here under the cap): 楼 3 cells, 作者 4
    assert lines[1].startswith("  7  泡泡") and lines[2].startswith("123  ab  ")
    # the third column starts at the same cell on every line, the header's too
    third = {cell_len(line[: line.index(word)]) for line, word in zip(lines, ("内容", "你好", "投票"), strict=True)}
    assert third == {3 + 2 + 4 + 2}


def test_a_column_never_grows_past_its_cap_and_says_it_was_cut() -> None:
    _, rows = compose(COLS, [("1", "一个特别特别长的名字", "x")])
    name = rows[0].plain[4:]  # after 楼 (2 cells, its title) and two spaces
    assert name.startswith("一个特") and "…" in name
    assert cell_len(rows[0].plain[: rows[0].plain.index("x")]) == 2 + 2 + 8 + 2


def test_styles_survive_composition() -> None:
    _, rows = compose(COLS, [("1", Text("红", "red"), "x")])
    spans = [s for s in rows[0].spans if s.style == "red"]
    assert spans and rows[0].plain[spans[0].start:spans[0].end] == "红"


async def test_a_filled_table_is_as_wide_as_its_rows_before_its_first_idle() -> None:
    """An auto-sized DataTable column is measured on the table's next idle; a frame drawn before that
    (a busy machine, a snapshot in a full run) cut the rows to the header's width. ``fill`` gives the width."""
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable

    from tui.widgets.lines import fill

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield DataTable[Text]()

    async with One().run_test() as pilot:
        table = pilot.app.query_one(DataTable)
        lines = compose(COLS, [("1", "泡泡", "投票对象：一个很长很长很长很长的名字")])
        fill(table, lines)  # no pause: the table has not been idle since
        (column,) = table.ordered_columns
        assert column.width == lines[1][0].cell_len > lines[0].cell_len
