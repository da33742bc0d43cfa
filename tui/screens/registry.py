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
    "night": ("tui.screens.night", "NightPane"),
}


def make_pane(key: str) -> Pane:
    module, name = PANES[key]
    try:
        cls: type[Pane] = getattr(import_module(module), name)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        from tui.screens.unfinished import unfinished_pane

        return unfinished_pane(key)
    return cls()
