"""Command palette (ctrl+p): every screen and action by its Chinese name or its English key."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from tui.widgets.sidebar import SCREENS

if TYPE_CHECKING:
    from tui.app import TrackerApp


class TrackerCommands(Provider):
    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = cast("TrackerApp", self.app)  # the palette of this app only (TrackerApp.COMMANDS)
        out: list[tuple[str, Callable[[], object], str]] = [
            (f"{i} {label}（{key}）", partial(app.action_show, key), f"切换到{label}界面")
            for i, (key, label) in enumerate(SCREENS, 1)
        ]
        out.append(("立即抓取（crawl）", app.action_crawl, "在后台抓取所有游戏帖"))
        out.append(("帮助（help）", app.action_help, "所有按键"))
        out.append(("退出（quit）", app.action_quit, "关闭导演台（已保存的数据不受影响）"))
        return out

    async def discover(self) -> Hits:
        for name, run, help_text in self._commands():
            yield DiscoveryHit(name, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, run, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), run, help=help_text)
