"""Small forms for the director's decisions: a reason to type, a card to confirm.

Each is a ModalScreen that returns its answer through ``dismiss`` (None = cancelled); nothing is
written until the director confirms, and the screen that opened it does the writing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from tui.literal import append_literal, literal

T = TypeVar("T")

COLORS = (("蓝牌", "blue"), ("黄牌", "yellow"), ("红牌", "red"))

_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 70; max-width: 100%; height: auto; border: round $accent;
    background: $surface; padding: 0 1; }}
{name} Input, {name} Select {{ margin-bottom: 1; }}
{name} Horizontal {{ height: auto; align-horizontal: right; }}
{name} Button {{ margin-left: 1; }}
"""


class _Form(ModalScreen[T]):
    """What every form shares: Enter in a field or the ok button submits, escape or cancel dismisses
    with None; each form says in ``_submit`` what its answer is."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "取消")]

    def _submit(self) -> None:
        raise NotImplementedError

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "ok":
            self._submit()
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReasonDialog(_Form[str | None]):
    DEFAULT_CSS = _CSS.format(name="ReasonDialog")

    def __init__(self, title: Text, *, placeholder: str = "理由（必填）") -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text)
            yield Input(placeholder=self.placeholder, id="reason")
            with Horizontal():
                yield Button("取消", id="cancel")
                yield Button("确认", id="ok", variant="primary")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _submit(self) -> None:
        value = self.query_one(Input).value.strip()
        if not value:
            self.notify("请填写理由", severity="warning", timeout=3)
            return
        self.dismiss(value)



@dataclass(frozen=True, slots=True)
class CardChoice:
    color: str
    clause: str
    reason: str


class CardForm(_Form[CardChoice | None]):
    """The `c` key's form: colour, clause and reason prefilled from the flag, changed if need be."""

    DEFAULT_CSS = _CSS.format(name="CardForm")

    def __init__(self, *, player: str, color: str, clause: str, reason: str, why: str = "") -> None:
        super().__init__()
        self.player, self.color, self.clause, self.reason, self.why = player, color, clause, reason, why

    def compose(self) -> ComposeResult:
        head = Text("发牌给 ", "bold")
        append_literal(head, self.player, "bold cyan")  # a player's name may carry escapes or bidi marks
        with Vertical():
            yield Static(head)
            if self.why:
                yield Static(literal(self.why, "dim"))
            yield Label("颜色")
            yield Select(COLORS, value=self.color, allow_blank=False, id="color")
            yield Label("条款")
            yield Input(value=self.clause, id="clause")
            yield Label("理由")
            yield Input(value=self.reason, id="reason")
            with Horizontal():
                yield Button("取消", id="cancel")
                yield Button("确认发牌", id="ok", variant="error")

    def on_mount(self) -> None:
        # Focus starts on 取消: Enter right after opening must not write game events.
        self.query_one("#cancel", Button).focus()

    def _submit(self) -> None:
        color = self.query_one("#color", Select).value
        clause = self.query_one("#clause", Input).value.strip()
        reason = self.query_one("#reason", Input).value.strip()
        if not reason:
            self.notify("请填写理由", severity="warning", timeout=3)
            return
        self.dismiss(CardChoice(str(color), clause, reason))


class ConfirmDialog(ModalScreen[bool]):
    """Yes or no before a decision that writes game events (`y` on 票型); Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,n", "cancel", "取消"), Binding("y", "ok", "确认")]
    DEFAULT_CSS = _CSS.format(name="ConfirmDialog")

    def __init__(self, title: Text, body: Text, *, ok_label: str = "确认") -> None:
        super().__init__()
        self.title_text, self.body, self.ok_label = title, body, ok_label

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text)
            yield Static(self.body)
            with Horizontal():
                yield Button("取消", id="cancel")
                yield Button(self.ok_label, id="ok", variant="error")

    def on_mount(self) -> None:
        # Focus starts on 取消: Enter right after opening must not write game events.
        self.query_one("#cancel", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "ok")

    def action_ok(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
