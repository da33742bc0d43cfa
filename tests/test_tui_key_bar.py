"""The key bar: the focused screen's keys in one line, redrawn only when they change, clickable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.binding import ActiveBinding, Binding
from tui_demo import open_demo

from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.help import HelpScreen
from tui.widgets.key_bar import PALETTE_WORD, KeyBar, key_items


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = open_demo(tmp_path)
    yield svc
    svc.close()


def _display(b: Binding) -> str:
    return b.key.upper()


def test_one_key_per_action_hidden_ones_left_out_and_the_palette_last() -> None:
    node: Any = object()
    bindings = {
        "ctrl+p": ActiveBinding(node, Binding("ctrl+p", "command_palette", "palette"), True),
        "n": ActiveBinding(node, Binding("n", "move(1)", "下一条"), True),
        "j": ActiveBinding(node, Binding("j", "move(1)", "下一条"), True),  # same action: shown once
        "1": ActiveBinding(node, Binding("1", "show('overview')", "概览", show=False), True),
        "c": ActiveBinding(node, Binding("c", "card", "发牌"), False),
    }
    items = key_items(bindings, _display, "ctrl+p")
    assert [(i.key, i.display, i.description, i.enabled) for i in items] == [
        ("n", "N", "下一条", True), ("c", "C", "发牌", False), ("ctrl+p", "CTRL+P", PALETTE_WORD, True)]
    assert key_items(bindings, _display, None)[-1].key == "c"  # palette disabled: not listed


async def test_the_bar_follows_the_screen_and_does_not_redraw_for_the_same_keys(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        bar = app.query_one(KeyBar)
        await pilot.press("3")
        await pilot.pause()
        line = bar.render().plain
        assert "发牌" in line and "驳回" in line and "抓取" in line and PALETTE_WORD in line
        await pilot.press("6")
        await pilot.pause()
        assert "发牌" not in bar.render().plain and "抓取" in bar.render().plain
        before = bar.items
        await pilot.press("7", "6")  # 帖子 has other keys; back on 玩家 the same tuple is kept
        await pilot.pause()
        assert bar.items == before


async def test_clicking_a_key_presses_it(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        bar = app.query_one(KeyBar)
        line = bar.render().plain
        x = cell_len(line[: line.index("帮助")]) - 2  # on the "?" of " ? 帮助" (cells: CJK is two wide)
        await pilot.click(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
