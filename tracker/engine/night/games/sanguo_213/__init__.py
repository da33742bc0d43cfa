"""213 三国演义 (ruleset ``sanguo-213``): the settlement order of its rule post.

The skills' generic limits are data (``rulesets/night/sanguo-213.toml``); this package walks the
post's 总体流程 — a night's (1)–(9), the first day's 竞选, 晨曦 (1)–(4); a day's 正午 and 黄昏
(1)–(5) — and holds the refusals only this post states (:func:`refuse`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine.night.board import Board
from tracker.engine.night.games import GameHooks
from tracker.engine.night.games.sanguo_213.core import heirs_in_order, in_pack, knife_heir_mark, pack_alive
from tracker.engine.night.games.sanguo_213.day import day_phase, resolve_day
from tracker.engine.night.games.sanguo_213.night import parse_disguise, resolve_night
from tracker.engine.night.model import Action, Table

#: Skills that act by themselves: a submission of one is a mistake, not a choice.
AUTOMATIC = ("主宰黑夜", "灵通", "长寿之命", "村镇之殇", "坚强", "绝笔", "带队", "接刀")


#: What each phase of the 总体流程 settles; a legal submission for another phase is refused, never dropped.
SETTLED = {
    "night": frozenset({"伪装", "守护", "查验", "预言", "通灵", "杀人", "悬赏", "捕杀", "救药", "毒药", "恶魔之眼",
                        "竞选", "红牌", "投降"}),
    "晨曦": frozenset({"报复", "殉职", "殉道", "红牌", "投降"}),
    "正午": frozenset({"决斗", "坚强出局", "红牌", "投降"}),
    "黄昏": frozenset({"投票", "坚强出局", "报复", "亲传", "殉职", "殉道", "红牌", "投降"}),
}
PHASE_NAMES = {"night": "夜晚", "关门": "黄昏"}


def resolve(board: Board, actions: Sequence[Action]) -> None:
    """A night scenario settles the night and its 晨曦; a day scenario its 正午 and 黄昏 (or a 晨曦)."""
    phases: tuple[str, ...]
    if board.night is not None:
        phases = ("night", "晨曦")
    elif board.table.phase == "晨曦":
        phases = ("晨曦",)
    else:
        phases = ("正午", "黄昏")
    kept: list[Action] = []
    for a in actions:
        phase = day_phase(a, board.table.phase) if board.night is None else (a.phase or "night")
        phase = "黄昏" if phase == "关门" else phase
        if phase in phases and a.skill in SETTLED[phase]:
            kept.append(a)
        else:
            where = "、".join(PHASE_NAMES.get(p, p) for p in phases)
            board.reject(a, f"<{a.skill}>不在本次结算的阶段（{where}）中结算", board.skill(a.skill).clause)
    if board.night is not None:
        resolve_night(board, kept)
    else:
        resolve_day(board, kept)


def refuse(table: Table, action: Action) -> str | None:
    """The refusals 213 states beyond the generic keys (净化, 群内/接刀, 悬赏成功, 翻牌 …)."""
    skill = action.skill
    if skill in AUTOMATIC:
        return f"<{skill}>无需发动：技能效果自动结算"
    seats = [table.players[m] for m in action.members if m in table.players]
    if skill not in ("投降", "红牌", "投票", "竞选", "坚强出局"):
        for s in seats:
            if "净化" in s.status:
                return f"{s.name}处于[净化]状态，不能发动任何技能"
    if skill == "杀人":
        return _knife(table, action)
    if skill == "捕杀":
        last = table.state.get("悬赏上次")
        n = table.night
        if not (isinstance(last, dict) and n is not None and last.get("night") == n - 1 and last.get("成功") is True):
            return "<捕杀>需要前一天反馈<悬赏成功>"
    if skill == "伪装":
        parsed = parse_disguise(action.choice)
        if parsed is None:
            return "<伪装>需要选择下列一项（1）–（5）"
        option, words = parsed
        done = table.players[action.actor].fields.get("伪装") or []
        if any(isinstance(d, dict) and d.get("option") == option for d in done):
            return f"<伪装>（{option}）已经选择过，效果持续至游戏结束"
        if option == 2 and len(words) < 2:
            return "<伪装>（2）需要写明表面阵营和表面身份（如 “2 村民 预言家”）"
        if option == 2 and words[0].removesuffix("阵营") not in ("村民", "狼人"):
            return (f"<伪装>（2）的表面阵营应是村民或狼人（写的是 {words[0]}）："
                    "写成 “2 村民 预言家” 或 “2 表面阵营=村民 表面身份=预言家”")
    if skill == "亲传":
        t = table.players[action.targets[0]]
        if not in_pack(t) or t.faction != "狼人":
            return f"<亲传>只能选择狼人阵营[群内]的角色（{t.name}不是）"
        if "报复" in t.uses:
            return f"<亲传>两次发动需选择不同的狼人（{t.name}已获得过<报复>）"
    if skill == "决斗":
        if table.day == 1:
            return "竞选日不可发动<决斗>"
        if table.players[action.actor].fields.get("已翻牌"):
            return "骑士的实际身份已经公开，无法发动[翻牌]技能<决斗>"
    if skill == "竞选" and (action.choice or "").strip() not in ("警长", "牧首"):
        return "<竞选>的 choice 应写 警长 或 牧首"
    if skill == "坚强出局" and table.players[action.targets[0]].role != "中箭勇者":
        return f"{action.targets[0]}不是中箭勇者，没有延后的出局"
    return None


def _knife(table: Table, action: Action) -> str | None:
    """<杀人> belongs to the [群内] wolves; once all are out, to the [接刀] heir (石像鬼 first)."""
    alive = pack_alive(table.players.values())
    heirs = heirs_in_order(list(table.players.values()))
    for m in action.members:
        seat = table.players[m]
        if in_pack(seat):
            continue
        if knife_heir_mark(seat) and not alive:
            if heirs and heirs[0].name != m:
                return f"{m}（{seat.role}）的接刀顺序在{heirs[0].name}（{heirs[0].role}）之后"
            continue
        if knife_heir_mark(seat):
            return f"{m}（{seat.role}）[接刀]：仍有[群内]狼存活，不能发动<杀人>"
        return f"{m}（{seat.role}）不在狼群（[群内]），不能参与<杀人>"
    return None


HOOKS = GameHooks(
    resolve=resolve, refuse=refuse,
    why={
        "resolve": "总体流程：夜晚（1）—（9）、竞选、晨曦（1）—（4）、正午与黄昏（1）—（5）：指杀/穿透/守护的强弱、"
                   "接刀顺序、伪装的表面身份、报复与殉职/殉道 —— 伪装改变查验所见、接刀按出局顺序传递，效果词汇写不出",
        "refuse": "接刀者何时能杀人、翻牌技能需未翻牌、决斗与悬赏的条件 —— 依赖出局顺序与公开信息，键写不出",
    })
