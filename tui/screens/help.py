"""`?`: every key in the director's words. Keys are the same on every screen."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEYS: tuple[tuple[str, str, str], ...] = (
    ("全局", "1–8", "切换界面：概览 票型 违规 判罚 潜水 玩家 帖子 夜晚"),
    ("全局", "r", "立即抓取（后台进行，界面不卡）"),
    ("全局", "ctrl+p", "命令面板"),
    ("全局", "?", "本帮助"),
    ("全局", "q", "退出"),
    ("票型", "t", "公开票数 / 实际票数 切换"),
    ("票型", "[ ]", "前一日 / 后一日"),
    ("票型", "Enter", "查看该票的帖子和投票人的历史"),
    ("票型", "b", "复制 BBCode 公告"),
    ("票型", "y", "确认结果（记为游戏事件，不发帖）"),
    ("违规", "n / p", "下一条 / 上一条"),
    ("违规", "c", "按此违规发牌（颜色、条款已预填，确认后生效）"),
    ("违规", "d", "驳回（需填写理由）"),
    ("判罚", "Enter", "查看该牌的审计记录"),
    ("判罚", "x", "撤销该牌（需填写理由）"),
    ("判罚", "i", "发牌（玩家、颜色、条款、理由，可写帖子）"),
    ("判罚", "e", "更正该牌的颜色或条款（需填写理由）"),
    ("潜水", "[ ]", "前一日 / 后一日"),
    ("潜水", "c / C", "给所选玩家 / 当日全部待判罚的潜水发牌（确认后生效）"),
    ("玩家", "Enter", "查看该玩家：状态、身份、阵营、标签、牌与账本记录"),
    ("玩家", "v", "为该玩家记录事件（出局、挂机、标记 …）"),
    ("夜晚", "[ ]", "上一夜 / 下一夜"),
    ("夜晚", "a", "提交行动：行动者 技能 目标…（Enter 提交，Esc 返回）"),
    ("夜晚", "d", "撤回所选的行动"),
    ("夜晚", "c", "确认本夜的结算（写入事件）"),
    ("帖子", "/", "搜索：作者、帖子、日、正文"),
    ("帖子", "[ ]", "上一页 / 下一页（按页从数据库读取）"),
)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "dismiss", "关闭")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 76; max-width: 100%; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        table = Table(box=None, show_header=True, header_style="bold", expand=True)
        table.add_column("界面", no_wrap=True)
        table.add_column("按键", no_wrap=True, style="bold cyan")
        table.add_column("作用")
        for where, key, what in KEYS:
            table.add_row(where, key, what)
        with VerticalScroll():
            yield Static(Text("帮助 · 按 Esc 关闭", "bold"))
            yield Static(table)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
