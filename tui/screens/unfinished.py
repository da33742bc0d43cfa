"""A screen whose service area has not been merged yet says so plainly (never a fake table)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from tui.screens.pane import Pane
from tui.widgets.sidebar import SCREENS


class UnfinishedPane(Pane):
    def compose(self) -> ComposeResult:
        label = dict(SCREENS).get(self.KEY, self.KEY)
        yield Static(Text(label, "bold"), classes="pane-title")
        yield Static(Text(f"「{label}」界面尚未接入：它依赖的服务功能还没有合并。", "yellow"), classes="pane-status")

    def focus_main(self) -> None:
        pass


def unfinished_pane(key: str) -> Pane:
    cls: type[Pane] = type(f"Unfinished_{key}", (UnfinishedPane,), {"KEY": key, "TITLE": key})
    return cls()
