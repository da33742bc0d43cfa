"""Enter on a ballot: the voter's ballots that day (every thread) above the post as the forum showed it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.literal import literal
from tui.tally_view import BallotRow
from tui.widgets.ballot_table import history_text
from tui.widgets.post_view import PostLike, PostView


class BallotDetail(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q", "close", "关闭")]
    DEFAULT_CSS = """
    BallotDetail { align: center middle; }
    BallotDetail > Vertical { width: 90%; height: 90%; border: round $accent; background: $surface; }
    BallotDetail #ballot-history { height: auto; max-height: 12; padding: 0 1; border-bottom: hkey $primary; }
    """

    def __init__(self, ballot: BallotRow, history: tuple[BallotRow, ...], post: PostLike | None) -> None:
        super().__init__()
        self.ballot, self.history, self.post = ballot, history, post

    def compose(self) -> ComposeResult:
        head = Text("投票人 ", "bold")
        head.append_text(literal(self.ballot.voter, "bold cyan", line=True))
        head.append(f" 当日的全部投票（{len(self.history)} 帖）· Esc 关闭\n", "bold")
        head.append_text(history_text(self.history))
        with Vertical():
            yield Static(head, id="ballot-history")
            yield PostView(id="ballot-post", placeholder="（帖子不在本地库中）")

    def on_mount(self) -> None:
        note = None
        if self.ballot.earlier_text is not None:
            note = Text("最初的内容：", "yellow")
            note.append_text(literal(" ".join(self.ballot.earlier_text.split())[:200], "yellow"))
        self.query_one(PostView).show(self.post, note=note)

    def action_close(self) -> None:
        self.dismiss(None)
