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

    def __init__(self, *, player: str, color: str, clause: str, reason: str, why: str = "",
                 verb: str = "发牌给 ", ok_label: str = "确认发牌") -> None:
        super().__init__()
        self.player, self.color, self.clause, self.reason, self.why = player, color, clause, reason, why
        self.verb, self.ok_label = verb, ok_label

    def compose(self) -> ComposeResult:
        head = Text(self.verb, "bold")
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
                yield Button(self.ok_label, id="ok", variant="error")

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


@dataclass(frozen=True, slots=True)
class NewCard:
    """A card typed at the 判罚 screen (`i`): the ledger entry `tracker card issue` writes."""

    player: str
    color: str
    clause: str
    reason: str
    post: str = ""  # a pid or 帖#楼, or empty


class IssueCardForm(_Form[NewCard | None]):
    """`i` on 判罚: a card for any player, as `tracker card issue` takes it (the post is optional)."""

    DEFAULT_CSS = _CSS.format(name="IssueCardForm")

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("发牌", "bold"))
            yield Label("玩家")
            yield Input(placeholder="玩家名（论坛账号）", id="player")
            yield Label("颜色")
            yield Select(COLORS, value="blue", allow_blank=False, id="color")
            yield Label("条款")
            yield Input(placeholder="如 6-(1)", id="clause")
            yield Label("理由")
            yield Input(placeholder="理由（必填）", id="reason")
            yield Label("帖子（可选）")
            yield Input(placeholder="pid，或 帖#楼（如 3#17）", id="post")
            with Horizontal():
                yield Button("取消", id="cancel")
                yield Button("确认发牌", id="ok", variant="error")

    def on_mount(self) -> None:
        self.query_one("#player", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # Enter moves to the next field; only the button writes a card
        self.focus_next()

    def _submit(self) -> None:
        value = {k: self.query_one(f"#{k}", Input).value.strip() for k in ("player", "clause", "reason", "post")}
        if not value["player"] or not value["reason"]:
            self.notify("请填写玩家和理由", severity="warning", timeout=3)
            return
        self.dismiss(NewCard(value["player"], str(self.query_one("#color", Select).value), value["clause"],
                             value["reason"], value["post"]))


@dataclass(frozen=True, slots=True)
class NewEvent:
    kind: str
    data: dict[str, str]


#: What the 玩家 screen's `v` records, in the rule posts' words (`tracker event` takes every kind).
EVENT_CHOICES = (("出局", "eliminated"), ("死亡（未出局）", "died"), ("挂机", "benched"), ("恢复（取消挂机）", "unbenched"),
                 ("获得标记", "tag_given"), ("失去标记", "tag_removed"), ("备注", "note"))
CAUSE_CHOICES = (("投票", "vote"), ("夜晚", "night"), ("技能", "skill"), ("红牌", "red_card"))


class EventForm(_Form[NewEvent | None]):
    """`v` on 玩家: an event for the selected player, as `tracker event` records it."""

    DEFAULT_CSS = _CSS.format(name="EventForm")

    def __init__(self, player: str) -> None:
        super().__init__()
        self.player = player

    def compose(self) -> ComposeResult:
        head = Text("记录事件：", "bold")
        append_literal(head, self.player, "bold cyan")
        with Vertical():
            yield Static(head)
            yield Label("事件")
            yield Select(EVENT_CHOICES, value="eliminated", allow_blank=False, id="kind")
            yield Label("出局原因（出局时）")
            yield Select(CAUSE_CHOICES, value="vote", allow_blank=False, id="cause")
            yield Label("标记 / 备注（标记事件、备注时）")
            yield Input(placeholder="如 警长", id="text")
            with Horizontal():
                yield Button("取消", id="cancel")
                yield Button("记录", id="ok", variant="error")

    def on_mount(self) -> None:
        # Focus starts on 取消: Enter right after opening must not write game events.
        self.query_one("#cancel", Button).focus()

    def _submit(self) -> None:
        kind = str(self.query_one("#kind", Select).value)
        text = self.query_one("#text", Input).value.strip()
        data: dict[str, str] = {}
        if kind == "eliminated":
            data["cause"] = str(self.query_one("#cause", Select).value)
        elif kind in ("tag_given", "tag_removed"):
            if not text:
                self.notify("请填写标记", severity="warning", timeout=3)
                return
            data["tag"] = text
        elif kind == "note" and text:
            data["reason"] = text
        self.dismiss(NewEvent(kind, data))


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
