"""107 地下城与勇士: the night's steps (1)–(17) and the day's (18)–(20), as the post orders them.

``resolve`` settles a night (:mod:`.night`) or a day (:mod:`.day`); ``refuse`` holds the refusals
only this post states (藏匿 on the first day, 牵制 once every two days counted in days, 夜之牙's
one dead and one living target, 推选首领 among the 恶徒). The shared flows — 翻转身份, the relic, the
出局 effects, the win check — are in :mod:`.common`; the 致死伤害结算流程 in :mod:`.flow`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine.night.board import Board
from tracker.engine.night.exits import bench
from tracker.engine.night.games import GameHooks
from tracker.engine.night.games.dnf_107.common import win_view
from tracker.engine.night.games.dnf_107.day import resolve_day
from tracker.engine.night.games.dnf_107.night import prepare_night, resolve_night
from tracker.engine.night.model import Action, Table


def resolve(board: Board, actions: Sequence[Action]) -> None:
    """A red card first, day or night ("被红牌罚下的角色自动进入挂机状态": he does not go out), then the
    phase in the post's order."""
    rest = [a for a in actions if a.skill != "红牌罚下"]
    for a in actions:
        if a.skill == "红牌罚下":
            bench(board, a, board.skill("红牌罚下").clause)
    if board.night is not None:
        resolve_night(board, rest)
    else:
        resolve_day(board, rest)


def prepare(board: Board, actions: Sequence[Action]) -> None:
    """Step (1) <诅咒> happens "游戏日夜晚开始时", before the skills are chosen."""
    if board.night is not None:
        prepare_night(board, list(actions))


def refuse(table: Table, action: Action) -> str | None:
    """Refusals the generic keys cannot say; None lets the submission into settlement."""
    day = table.day if table.day is not None else table.night
    skill = action.skill
    if skill == "藏匿":
        if day != 1:
            return "<藏匿>在游戏第一日白天结束时发动"
        if table.players[action.targets[0]].role == "恶徒":
            return "<藏匿>须选择一名恶徒以外的角色"
    if skill == "当选神眷者" and day != 1:
        return "神眷者在第一天讨论日结束时选出"
    if skill == "投票出局" and day == 1:
        return "第一天白天的投票选出神眷者，不是放逐"
    if skill == "推选首领" and table.players[action.targets[0]].role != "恶徒":
        return "首领由恶徒推选，须为恶徒"
    if skill == "牵制" and day is not None:
        last = table.state.get("牵制上次")
        if isinstance(last, dict) and isinstance(last.get("day"), int) and day - last["day"] < 2:
            return f"<牵制>每两个游戏日最多发动一次（上次：第{last['day']}天）"
    if skill == "夜之牙":
        gone, living = (table.players[t] for t in action.targets)
        if gone.alive or not living.alive:
            return "<夜之牙>须依次选择一名已出局的角色和一名存活角色"
    if skill in ("陷阱", "诡辩", "潜行") and table.night is None and action.phase != "night":
        return f"<{skill}>是夜晚技能；白天结算时写 phase = \"夜晚\" 表示前一夜的提交"
    return None


HOOKS = GameHooks(
    resolve=resolve, refuse=refuse, prepare=prepare, win_view=win_view,
    why={
        "win_view": "夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营、亡灵·负“场上无法产生新的亡灵”、夜之牙“中立阵营判胜"
                    "所需人数+2” —— 桌面上的这些事实交给 [[win]] 的条件（守夜人所属阵营、圣物诅咒次数、中立判胜人数）",
        "resolve": "夜晚（1）—（17）与致死伤害结算流程（1）—（5）：防反转移、初拥与死灵咒翻转身份、陷阱连锁、"
                   "亡灵圣物的认主与诅咒 —— 伤害在结算中改道、改阵营，效果词汇写不出",
        "prepare": "（1）诅咒“游戏日夜晚开始时” —— 在任何人选择技能之前结算，先于拒绝检查",
        "refuse": "藏匿仅第一日、牵制每两个游戏日（按天计）、夜之牙一死一生两个目标、首领由恶徒推选 —— 目标之间的关系，键写不出",
    })
