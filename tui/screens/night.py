"""8 夜晚: enter the night's submissions, watch the settlement preview follow, confirm once.

The director types ``行动者 技能 目标…`` (→ completes player and skill names), sees the post's steps,
refusals with their reasons, deaths, the private feedback to paste and the 公示 draft update after
each change, and confirms with ``c`` (the dialog's focus starts on 取消). `a` opens the entry line
(Esc leaves it), `[`/`]` change the night, `d` withdraws the highlighted submission. Every read and write runs in a thread worker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.suggester import Suggester
from textual.widgets import DataTable, Input, Static

from tracker.engine.events import given
from tracker.engine.night.desk import phase_key
from tracker.reports.night_settlement import sections
from tui.literal import literal
from tui.screens.dialogs import ConfirmDialog
from tui.screens.pane import Pane
from tui.widgets.lines import Col, compose, fill

if TYPE_CHECKING:
    from tracker.service.night_desk import NightPreview

COLUMNS = (Col("#", 5), Col("行动者", 16), Col("技能", 10), Col("目标"))


class WordSuggester(Suggester):
    """Completes the word being typed: a skill in second place, a player's name elsewhere."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.players: tuple[str, ...] = ()
        self.skills: tuple[str, ...] = ()

    async def get_suggestion(self, value: str) -> str | None:
        words = value.split(" ")
        last = words[-1]
        if not last:
            return None
        pool = self.skills if len(words) == 2 else self.players
        if len(words) == 1 and last.startswith("狼群"):
            return None
        for cand in pool:
            if cand.startswith(last) and cand != last:
                return " ".join([*words[:-1], cand])
        return None


_TONES = {"plain": "", "bad": "red", "warn": "yellow", "good": "bold magenta"}


def preview_text(p: NightPreview) -> Text:
    """The settlement as the CLI prints it (tracker.reports.night_settlement), coloured by section."""
    out = Text()
    for section in sections(p.result):
        out.append(f"{section.title}\n", "bold")
        for line in section.lines:
            out.append_text(literal(f"  {line}\n", _TONES[section.tone]))
    return out


class NightPane(Pane):
    KEY = "night"
    TITLE = "夜晚"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left_square_bracket", "night(-1)", "上一夜"),
        Binding("right_square_bracket", "night(1)", "下一夜"),
        Binding("a", "focus_input", "提交"),
        Binding("d", "withdraw", "撤回"),
        Binding("c", "confirm", "确认结算"),
    ]

    DEFAULT_CSS = """
    NightPane #night-body { height: 1fr; }
    NightPane #night-submitted { width: 2fr; }
    NightPane #night-preview-box { width: 3fr; border-left: solid $accent; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.night = 1
        self.preview: NightPreview | None = None
        self.suggester = WordSuggester()

    def compose(self) -> ComposeResult:
        yield Static(Text("夜晚", "bold"), id="night-title", classes="pane-title")
        yield Input(placeholder="提交行动：行动者 技能 目标…（→ 补全；团队写 狼群(甲,乙) 杀人 丙）",
                    id="night-input", suggester=self.suggester)
        with Horizontal(id="night-body"):
            table: DataTable[Text | str] = DataTable(id="night-submitted", cursor_type="row", zebra_stripes=True)
            yield table
            with VerticalScroll(id="night-preview-box"):
                yield Static(id="night-preview")

    def on_mount(self) -> None:
        fill(self.query_one(DataTable), compose(COLUMNS, []))

    def focus_main(self) -> None:
        self.query_one(DataTable).focus()

    def reload(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="night", exit_on_error=False)
    def load(self) -> None:
        try:
            if self.preview is None:
                self.night = self.gateway.night_default()
            words = self.gateway.night_words()
            preview = self.service.night_desk.preview(phase_key(night=self.night))
        except Exception as exc:
            self.app.call_from_thread(self.fail, exc)
            return
        self.deliver(self.show, preview, words)

    def show(self, preview: NightPreview, words: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
        self.preview = preview
        self.suggester.players, self.suggester.skills = words
        state = "已确认" if preview.confirmed is not None else "预览，未确认"
        title = Text(f"夜晚 · {preview.words}（{state}）", "bold")
        title.append("   [ ] 换夜 · a 提交 · d 撤回 · c 确认结算", "dim")
        self.set_text("#night-title", title)
        rows = [(Text(str(e.seq), "dim"), literal(str(e.payload.actor)), literal(str(e.payload.skill), "bold"),
                 literal("、".join(given(e.payload.targets, ())) + (f"（{e.payload.choice}）" if e.payload.choice else "")))
                for e in preview.submitted]
        fill(self.query_one(DataTable), compose(COLUMNS, rows), keys=[str(e.seq) for e in preview.submitted])
        self.query_one("#night-preview", Static).update(preview_text(preview))

    # -- the director's actions ------------------------------------------------------------------
    def action_night(self, step: int) -> None:
        self.night = max(1, self.night + step)
        self.load()

    def action_focus_input(self) -> None:
        self.query_one("#night-input", Input).focus()

    def key_escape(self) -> None:
        self.focus_main()  # back from the entry line to the keys of the screen

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        if line:
            self.submit(line)

    @work(thread=True, exclusive=True, group="night-write", exit_on_error=False)
    def submit(self, line: str) -> None:
        try:
            said = self.gateway.night_add(self.night, line)
        except Exception as exc:
            self.app.call_from_thread(self.fail, exc)
            return
        self.app.call_from_thread(self._written, said, True)

    def _written(self, said: str, clear: bool) -> None:
        if clear:
            self.query_one("#night-input", Input).value = ""
            # back to the screen's keys (d 撤回, c 确认): typed into the entry line they would be text
            self.focus_main()
        self.notify(said, timeout=3, markup=False)
        self.load()

    def action_withdraw(self) -> None:
        table = self.query_one(DataTable)
        if self.preview is None or not self.preview.submitted or table.cursor_row < 0:
            return
        event = self.preview.submitted[min(table.cursor_row, len(self.preview.submitted) - 1)]
        self.withdraw(str(event.payload.actor), str(event.payload.skill))

    @work(thread=True, exclusive=True, group="night-write", exit_on_error=False)
    def withdraw(self, actor: str, skill: str) -> None:
        try:
            said = self.gateway.night_remove(self.night, actor, skill)
        except Exception as exc:
            self.app.call_from_thread(self.fail, exc)
            return
        self.app.call_from_thread(self._written, said, False)

    def action_confirm(self) -> None:
        p = self.preview
        if p is None:
            return
        if p.confirmed is not None:
            self.notify(f"{p.words}已经确认过结算", timeout=3)
            return
        body = preview_text(p)
        self.app.push_screen(ConfirmDialog(Text(f"确认{p.words}的结算并写入事件？", "bold"), body, ok_label="确认结算"),
                             self._confirmed)

    def _confirmed(self, ok: bool | None) -> None:
        if ok:
            self.confirm()

    @work(thread=True, exclusive=True, group="night-write", exit_on_error=False)
    def confirm(self) -> None:
        try:
            said = self.gateway.night_confirm(self.night)
        except Exception as exc:
            self.app.call_from_thread(self.fail, exc)
            return
        self.app.call_from_thread(self._written, said, False)
