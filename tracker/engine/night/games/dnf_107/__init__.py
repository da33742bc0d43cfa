"""107 地下城与勇士: the steps of its rule post that data cannot say yet.

The post's order is data: ``rulesets/night/dnf-107.toml`` lists its ``[[steps]]`` — the night's
(1)–(17), the day's (18), the vote, (19)–(20) and the day's end — and the generic engine walks them
(:mod:`tracker.engine.night.flow`). The steps written ``hook`` are settled here, in the post's order:
a night's in :mod:`.night`, a day's in :mod:`.day`, the 致死伤害结算流程 in :mod:`.flow`, and what they
share (what a 翻转身份 sets off, the relic, the 出局 effects, the win check's view) in :mod:`.common`. ``refuse``
holds the refusals only this post states (藏匿 on the first day, 牵制 once every two days counted in
days, 夜之牙's one dead and one living target, 推选首领 among the 恶徒). ``HOOKED`` says per skill
which clause keeps it in code and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tracker.engine.night.board import Board
from tracker.engine.night.flow import applies
from tracker.engine.night.games import GameHooks, StepHook
from tracker.engine.night.games.dnf_107 import day as days
from tracker.engine.night.games.dnf_107.common import flipped, win_view
from tracker.engine.night.games.dnf_107.night import Night, aim, close_night, open_night, prepare_night
from tracker.engine.night.model import Action, Table

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Step
    from tracker.engine.night.flow import Flow


def _data_skills(flow: Flow) -> set[str]:
    """The skills a step of this phase settles from their ``effects`` (not a hook step), and the exit
    triggers (传承, 权势, 虚体, 腐化, and 权术 on its target's exit): left to the generic walk."""
    steps = {n for st in flow.catalog.steps if st.hook is None and applies(st, flow.board) for n in st.skills}
    return steps | {n for n, s in flow.catalog.skills.items() if s.trigger is not None}


def _open(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """After the red cards (data, the phase's first step): the phase's other submissions the hook steps
    settle are taken off the generic walk here, once, and the night's (or day's) shared state begins."""
    data = _data_skills(flow)
    flow.done.update(a.index for a in flow.actions if a.skill not in data)
    rest = [a for a in flow.actions if a.skill != "红牌罚下"]
    if flow.board.night is not None:
        flow.game["107"] = open_night(flow.board, rest)
    else:
        flow.game["107"] = days.open_day(flow.board, rest)


def _night(call: Callable[[Night], None]) -> StepHook:
    def hook(flow: Flow, step: Step, _: Sequence[Action]) -> None:
        night = flow.game["107"]
        assert isinstance(night, Night)
        night.take(flow.pool)
        call(night)
    return hook


def _lethal(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """(8) 夜之牙: its hits kept for (13)."""
    night = flow.game["107"]
    assert isinstance(night, Night)
    night.take(flow.pool)
    night.lethal(step.n, step.skills[0])


def _preview(flow: Flow) -> list[str]:
    """(11) 初步结算: the pending hits (the data's too) through the 致死伤害结算流程 run dry."""
    night = flow.game["107"]
    assert isinstance(night, Night)
    night.take(flow.pool)
    return night.preview()


def _void(flow: Flow, action: Action, step: str) -> bool:
    """A night skill settled from data meets the night's voids (:meth:`.night.Night.voided`)."""
    night = flow.game.get("107")
    return isinstance(night, Night) and night.voided(action, step)


def _day(call: Callable[[days.Day], None]) -> StepHook:
    def hook(flow: Flow, step: Step, _: Sequence[Action]) -> None:
        day = flow.game["107"]
        assert isinstance(day, days.Day)
        call(day)
    return hook


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


_FLOW = ("致死伤害结算流程的出局后：陷阱连锁 —— 出局后立即受到的致死伤害在同一次结算中连锁（（1）—（5）告死者、祝福、防反、初拥、"
         "死灵咒由数据的 protect/cover/damage 回答，钩子按帖子的顺序询问）")
_VOID = "失效的规则（翻转身份失去技能、牵制、潜行、超度/拓印当晚其他技能失效、蓄力斩使剑痕失效）在同一处判定"
HOOKED = {
    "诅咒": "（1）“游戏日夜晚开始时”翻转持有者身份，次数3起、灵能/神恩增减，神恩/虔诚/神眷者/教化免疫 —— 翻转身份与圣物次数",
    "教化": "圣殿阵营的目标当夜免疫诅咒并可转交圣物 —— 诅咒的豁免与圣物转交",
    "潜行": "（2）当晚不受任何其他角色的技能效果影响、其他技能失效 —— " + _VOID,
    "神启": "（3）获知目标当晚发动的所有非团队且非锁定技能及其反馈 —— 读整晚的提交与反馈，在夜晚最后回答",
    "拓印": "（3）/（4）按两名目标是否人类获得技能或翻转自身 —— 获得技能与翻转身份",
    "陷阱": "（4）游荡者该夜受致死伤害或次日被投票出局后对目标造成致死伤害 —— 出局连锁，" + _FLOW,
    "超度": "（4）获得已出局非亡灵角色的一个非团队技能 —— 获得技能",
    "夜之牙": "（8）已出局的亡灵角色换一次致死伤害，亡灵因此出局则中立判胜人数+2 —— 一个目标的阵营决定对另一个目标的伤害，"
              "伤害的结果改变判胜人数",
    "天谴": "加入游戏时选定阵营，随机一名该阵营存活角色当夜结束时出局 —— 随机与延后出局",
    "认主": "（17）以人类身份持有圣物连续两个完整夜晚 —— 跨夜计数",
}

HOOKS = GameHooks(
    steps={
        "开始": _open,
        "(1)": _night(Night.step1_curse),
        "(2)": _night(Night.step2_stealth),
        "(3)": _night(Night.step3),
        "(4)": _night(Night.step4),
        "致死伤害": _lethal,
        "(13)": _night(Night.step13),
        "(14)": _night(Night.step14),
        "(17)": _night(close_night),
        "(18)": _day(days.dawn),
        "白天": _day(days.day_skills),
        "投票": _day(days.exile),
        "(20)": _day(days.last_words),
        "白天结束": _day(days.day_end),
    },
    refuse=refuse, void=_void, aim=aim, preview=_preview, prepare=prepare, win_view=win_view, hooked=HOOKED, flipped=flipped,
    why={
        "win_view": "夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营、亡灵·负“场上无法产生新的亡灵”、夜之牙“中立阵营判胜"
                    "所需人数+2” —— 桌面上的这些事实交给 [[win]] 的条件（守夜人所属阵营、圣物诅咒次数、中立判胜人数）",
        "开始": "红牌（数据）之后：本阶段由钩子结算的提交从通用结算中取出，钩子步骤共享的夜晚/白天状态从这里开始",
        "(1)": "（1）诅咒：翻转持有者身份、圣物次数、神恩/虔诚/神眷者/教化的豁免 —— 翻转身份，效果词汇写不出",
        "(2)": "（2）潜行：当晚不受任何其他角色的技能效果影响、其他技能失效 —— " + _VOID,
        "(3)": "（3）神启、拓印 —— " + _VOID,
        "(4)": "（4）陷阱、超度（恩典是数据：<祝福>的 on_use） —— " + _VOID,
        "aim": "<潜行>“当晚游荡者不受任何其他角色的技能效果影响”：多目标的数据技能（诈骗、暗日）对潜行者无效、对其他目标照常 —— 潜行是钩子步骤（2）的",
        "致死伤害": "（8）夜之牙；（5）—（7）、（9）、（10）的致死伤害（数据）与它一起在（13）按致死伤害结算流程结算 —— " + _FLOW,
        "void": "失效：" + _VOID + "；由数据结算的技能也先经此判定",
        "(13)": "（13）按顺序结算致死伤害以及出局效应，天谴于当夜结束时出局 —— " + _FLOW,
        "preview": "（11）初步结算：致死伤害结算流程（钩子）预演到第（4）步，给出数据的<告死>告知、<死灵咒>可选的即将出局者名单",
        "(14)": "（14）出局通知与遗言、恶徒首领的票数、离群 —— 出局连锁（权术、馈赠、传承、权势是数据的 trigger，at 这一步，随后结算，权术在馈赠之前）",
        "(17)": "（17）认主；神启的回答、早晨的公示、夜之躯加入阵营 —— 跨夜计数，其后是胜负判定",
        "(18)": "第一天白天开始时慰魂师的<灵魂链接>名单（（18）的夜之心、追踪是其前的数据步骤） —— 游戏开始时的告知",
        "白天": "白天的技能：教化（诅咒的豁免与圣物转交）；牵制的当晚失效是数据（夜晚第一步的 block），白天只记录其日期与待结算 —— 诅咒的豁免与圣物转交",
        "投票": "投票出局（数据，诡辩的 redirect 之后；虚体是数据的 trigger）之后：陷阱 —— 出局连锁",
        "(20)": "（20）被投票出局的角色遗言、恶徒首领的票数、离群 —— 出局连锁（权术、馈赠、传承、权势是数据的 trigger，at 这一步，随后结算，权术在馈赠之前）",
        "白天结束": "天谴的延后出局；白天结束的胜负判定（守夜人先加入首个全部出局的阵营） —— 延后出局与胜负判定前的阵营",
        "flipped": "翻转身份引起的：告死者、天谴、认主重新计数 —— 新身份在本局引起的事，[flip] 只说翻转本身",
        "prepare": "（1）诅咒“游戏日夜晚开始时” —— 在任何人选择技能之前结算，先于拒绝检查",
        "refuse": "藏匿仅第一日、牵制每两个游戏日（按天计）、夜之牙一死一生两个目标、首领由恶徒推选 —— 目标之间的关系，键写不出",
    })
