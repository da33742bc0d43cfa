"""Which pane answers which key; imported lazily so start-up only pays for the first screen."""

from __future__ import annotations

from importlib import import_module

from tui.screens.pane import Pane

PANES: dict[str, tuple[str, str]] = {
    "overview": ("tui.screens.overview", "OverviewPane"),
    "tally": ("tui.screens.tally", "TallyPane"),
    "flags": ("tui.screens.flags", "FlagsPane"),
    "cards": ("tui.screens.cards", "CardsPane"),
    "lurkers": ("tui.screens.lurkers", "LurkersPane"),
    "players": ("tui.screens.players", "PlayersPane"),
    "posts": ("tui.screens.posts", "PostsPane"),
}


def make_pane(key: str) -> Pane:
    module, name = PANES[key]
    cls: type[Pane] = getattr(import_module(module), name)
    return cls()
