"""213 三国演义 (ruleset ``sanguo-213``): the steps of its rule post that data cannot say.

The skills' limits and the post's order are data (``rulesets/night/sanguo-213.toml``): the generic
engine walks its ``[[steps]]`` and settles the checks (查验, 预言, 通灵, 恶魔之眼) from their
``inspect`` effects, reading the 表面 through :func:`.core.surface`, tells the witch her <灵通> (a
``tell`` step), remembers the <悬赏> target (``watch``) and tells <悬赏成功> at 晨曦 (a ``feedback``
step). The steps written ``hook`` are settled here — a night's (1) and (9), 晨曦 (1)–(2)
and (3)–(4); a day's 正午 and 黄昏 (1)–(5) — with the refusals only this post states
(:func:`refuse`); ``HOOKED`` says per skill which clause keeps it in code and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from tracker.engine.night.board import Board
from tracker.engine.night.games import GameHooks
from tracker.engine.night.games.sanguo_213.core import (
    Ctx,
    heirs_in_order,
    in_pack,
    judged,
    knife_heir_mark,
    pack_alive,
    surface,
)
from tracker.engine.night.games.sanguo_213.day import day_phase, resolve_day
from tracker.engine.night.games.sanguo_213.night import (
    Night,
    close_night,
    dawn_end,
    dawn_start,
    open_night,
    parse_disguise,
)
from tracker.engine.night.model import Action, Table

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Step
    from tracker.engine.night.flow import Flow

#: When a point not reached in this settlement comes: the 晨曦 after the night.
WAIT_DAWN = "晨曦（出局后下一个可发动技能的时间点）"

#: Skills that act by themselves: a submission of one is a mistake, not a choice.
AUTOMATIC = ("主宰黑夜", "灵通", "长寿之命", "坚强", "接刀")


#: What each phase of the 总体流程 settles; a legal submission for another phase is refused, never dropped.
SETTLED = {
    "night": frozenset({"伪装", "守护", "查验", "预言", "通灵", "杀人", "悬赏", "捕杀", "救药", "毒药", "恶魔之眼",
                        "竞选", "红牌", "投降"}),
    "晨曦": frozenset({"报复", "殉职", "殉道", "红牌", "投降"}),
    "正午": frozenset({"决斗", "坚强出局", "红牌", "投降"}),
    "黄昏": frozenset({"投票", "坚强出局", "报复", "亲传", "殉职", "殉道", "红牌", "投降"}),
}
PHASE_NAMES = {"night": "夜晚", "关门": "黄昏"}


def _kept(board: Board, actions: Sequence[Action]) -> list[Action]:
    """A night scenario settles the night and its 晨曦; a day scenario its 正午 and 黄昏 (or a 晨曦):
    a submission for another phase is refused, never dropped."""
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
    return kept


def _night_open(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """夜(1) (and what comes before it); the refused submissions of other phases are settled here."""
    kept = _kept(flow.board, flow.actions)
    flow.done.update(a.index for a in flow.actions if a not in kept)
    flow.game["213"] = open_night(flow.board, kept, flow.settle)


def _night_close(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    # 晨曦's submissions are settled in its steps; 4. 竞选 in the night file's step after this one
    flow.done.update(a.index for a in flow.actions if a.skill != "竞选" or a.phase not in (None, "night", "夜晚"))
    close_night(flow.board, flow.game["213"], flow.pool, flow.clashes)


def _dawn(flow: Flow) -> tuple[Night, list[Action], bool]:
    """The 晨曦 being settled: the night's own (its submissions marked 晨曦), or one settled alone at
    the desk after the night (every kept submission is 晨曦's; the others are refused here, once)."""
    if flow.board.night is None and "213" not in flow.game:
        kept = _kept(flow.board, flow.actions)
        flow.done.update(a.index for a in flow.actions)
        flow.game["213"] = Night(Ctx("晨曦"), kept)
    night: Night = flow.game["213"]
    alone = flow.board.night is None
    return night, (list(night.actions) if alone else [a for a in night.actions if a.phase == "晨曦"]), alone


def _dawn_start(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    night, acts, alone = _dawn(flow)
    dawn_start(flow.board, night.ctx, acts, alone, flow.settle)


def _dawn_end(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """晨曦 (3) is the point after the night for <殉职> (a ``next_point`` trigger of the night file); a night
    scenario with no 晨曦 submission has not reached it yet (see :func:`.night.dawn_start`)."""
    night, acts, alone = _dawn(flow)
    reached = bool(acts) or alone
    flow.points("晨曦(3)", acts, follows_night=True, pending=None if reached else WAIT_DAWN)
    dawn_end(flow.board, night.ctx, acts, alone)


def _day_phases(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    kept = _kept(flow.board, flow.actions)
    flow.done.update(a.index for a in flow.actions)
    resolve_day(flow.board, kept, partial(flow.points, follows_night=False), flow.settle)


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
    if skill == "决斗":
        if table.day == 1:
            return "竞选日不可发动<决斗>"
        if table.players[action.actor].fields.get("已翻牌"):
            return "骑士的实际身份已经公开，无法发动[翻牌]技能<决斗>"
    if skill == "竞选" and (action.choice or "").strip() not in ("警长", "牧首"):
        return "<竞选>的 choice 应写 警长 或 牧首"
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


_EXITS = ("出局后的下一个可发动技能的时点、因何出局（投票、<杀人>、<报复>；狼人阵营技能）决定能否发动 —— "
          "依赖出局原因与时点，trigger 写不出")
HOOKED = {
    "伪装": "伪装（1）–（5）：接刀标签、表面阵营与表面身份、名单与马甲 —— 五选一、每项一次、改变别的技能所见，效果词汇写不出",
    "接刀": "所有[群内]狼出局时，[接刀]的角色获得<杀人>（石像鬼先于隐狼）—— 按出局顺序传递技能，键写不出",
    "报复": _EXITS,
    "殉道": _EXITS + "；效果2仅当因狼人阵营技能出局时可选，不选则随机",
    "决斗": "[翻牌]：目标实际阵营为狼人则[穿透]并使当天放逐投票无效，否则骑士受[致死伤害] —— 条件分支与作废投票",
}

HOOKS = GameHooks(
    steps={"夜晚开始": _night_open, "夜晚出局": _night_close, "晨曦报复": _dawn_start, "晨曦": _dawn_end,
           "白天": _day_phases},
    refuse=refuse, surface=surface, judged=judged, hooked=HOOKED,
    holders={"杀人": "接刀：所有[群内]狼出局时，[接刀]的角色获得<杀人>（石像鬼先于隐狼）"},
    why={
        "夜晚开始": "总体流程 3（1）伪装（及其前的红牌、投降、接刀通知）—— 伪装五选一、每项一次，效果词汇写不出",
        "夜晚出局": "总体流程 3（9）出局名单：指杀/穿透/守护等在强弱阶梯上比较（伤害的 strength 即阶梯位置；"
                "主宰黑夜、长寿之命、坚强是 standing 的 protect），电梯楼顺序 —— 依出局原因与时点的连锁",
        "晨曦报复": "总体流程 5：晨曦（1）通知出局（2）<报复>及其连锁 —— 依出局原因与时点",
        "晨曦": "总体流程 5：晨曦（3）<殉道>（<殉职>是夜晚文件的 next_point 触发，在此时点由通用引擎结算）（4）遗言；"
                "无晨曦提交时留待晨曦结算 —— 依出局原因与时点",
        "白天": "正午与黄昏（1）—（5）：决斗、放逐投票、报复与殉道（殉职在黄昏(4)、亲传在黄昏(4)之前由通用引擎结算）—— 依出局原因与时点的连锁",
        "refuse": "接刀者何时能杀人、翻牌技能需未翻牌、决斗与悬赏的条件 —— 依赖出局顺序与公开信息，键写不出",
        "surface": "伪装（2）设置自己的表面阵营、表面身份：预言、通灵、恶魔之眼读的表面，由伪装的记录给出",
        "judged": "伪装（4）在实际阵营为[村民阵营]的以[实际阵营]判断的技能中，以自己为村民阵营进行判定：村镇之殇的出局原因"
                  "与[净化]的对象按它计入村民阵营，由伪装的记录给出",
    })
