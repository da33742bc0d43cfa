"""The screen list 1–8 with a badge of what waits on each (open flags, players under the minimum).

Narrow terminals collapse it to the numbers and badges (``compact``). Clicking a line asks the app
to switch: messages up, the app decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

SCREENS: tuple[tuple[str, str], ...] = (
    ("overview", "概览"),
    ("tally", "票型"),
    ("flags", "违规"),
    ("cards", "判罚"),
    ("lurkers", "潜水"),
    ("players", "玩家"),
    ("posts", "帖子"),
    ("night", "夜晚"),
)


class Sidebar(Widget):
    @dataclass
    class Chosen(Message):
        key: str

    current: reactive[str] = reactive("overview")
    # A count (0 hides the badge) or a mark such as "!" (an outcome waits for confirmation).
    badges: reactive[dict[str, int | str]] = reactive(dict, always_update=True)
    compact: reactive[bool] = reactive(False)

    def render(self) -> Text:
        out = Text()
        for i, (key, label) in enumerate(SCREENS, 1):
            style = "reverse bold" if key == self.current else ""
            line = Text(f" {i}", style=style)
            if not self.compact:
                line.append(f" {label}", style=style)
            n = self.badges.get(key, 0)
            if n:
                line.append(" ")
                word = n if isinstance(n, str) else (f"{n}" if n < 100 else "99+")
                line.append(word, "bold white on red")
            out.append_text(line)
            out.append("\n")
        out.rstrip()
        return out

    def on_click(self, event: events.Click) -> None:
        row = event.y
        if 0 <= row < len(SCREENS):
            self.post_message(self.Chosen(SCREENS[row][0]))
