"""The keys of what has focus, on one line at the bottom, clickable like Textual's Footer.

Why not Textual's Footer: it unmounts and mounts one widget per key on every change of focus, and
a screen switch changes focus twice (blur, then focus): measured here at ~35 ms each on a 2-core
machine, most of the time a switch key took before the new screen could be drawn. This bar is one
widget that re-renders one line, and only when the keys shown actually differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar, NamedTuple

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import ActiveBinding, Binding
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget

PALETTE_WORD = "命令"


class KeyItem(NamedTuple):
    key: str  # what a click presses (the binding's key)
    display: str  # what the bar shows ("/", "^p")
    description: str
    enabled: bool


def key_items(active_bindings: Mapping[str, ActiveBinding], key_display: Callable[[Binding], str],
              palette_key: str | None) -> tuple[KeyItem, ...]:
    """The keys to show, one per action (the first key bound to it), the command palette last.

    Pure over Textual's ``Screen.active_bindings`` mapping, so it is tested without an app.
    """
    seen: set[str] = set()
    out: list[KeyItem] = []
    palette: KeyItem | None = None
    for key, (_node, binding, enabled, _tooltip) in active_bindings.items():
        if palette_key is not None and key == palette_key:
            palette = KeyItem(binding.key, key_display(binding), PALETTE_WORD, enabled)
            continue
        if not binding.show or binding.action in seen:
            continue
        seen.add(binding.action)
        out.append(KeyItem(binding.key, key_display(binding), binding.description, enabled))
    if palette is not None:
        out.append(palette)
    return tuple(out)


class KeyBar(Widget):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; }
    KeyBar > .key-bar--key { color: $footer-key-foreground; background: $footer-key-background; text-style: bold; }
    KeyBar > .key-bar--description { color: $footer-description-foreground; background: $footer-description-background; }
    """

    items: reactive[tuple[KeyItem, ...]] = reactive(tuple)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, str]] = []  # (first column, end column, key) for clicks

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        palette = self.app.COMMAND_PALETTE_BINDING if self.app.ENABLE_COMMAND_PALETTE else None
        items = key_items(screen.active_bindings, self.app.get_key_display, palette)
        if items != self.items:  # the same keys again (most focus changes): no repaint at all
            self.items = items

    def render(self) -> Text:
        key_style = self.get_component_rich_style("key-bar--key")
        desc_style = self.get_component_rich_style("key-bar--description")
        out = Text(no_wrap=True, overflow="ellipsis")
        self._spans = []
        for item in self.items:
            start = out.cell_len
            dim = Style() if item.enabled else Style(dim=True)
            out.append(f" {item.display} ", key_style + dim)
            out.append(f"{item.description} ", desc_style + dim)
            self._spans.append((start, out.cell_len, item.key))
        return out

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                event.stop()
                self.app.simulate_key(key)
                return
