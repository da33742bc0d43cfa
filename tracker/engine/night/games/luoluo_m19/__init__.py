"""M19『少年落落之烦恼』(luoluo-m19): the steps of its post that data cannot say.

The skills, their generic limits and the post's settlement order are data
(``rulesets/night/luoluo-m19.toml``): the generic engine walks its ``[[steps]]`` — 总体流程 1–2
(the setup choices; 遇难's is data), 总体流程 4（1）–（7） by night and 6 by day, a
new <设计> target, the 公示 — and hands each step written ``hook`` to the function of the
same name here. The code of those steps: the night's (:mod:`.night`), the setup choices and day
exits (:mod:`.day`), every exit's cascades (:mod:`.cascade`), the morning 公示 and exit notices
(:mod:`.report`), and the refusals only this post states (:mod:`.refusals`). ``HOOKED`` says per
skill which clause keeps it in code and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tracker.engine.night.board import Board, SettlementOver
from tracker.engine.night.games import GameHooks, StepHook
from tracker.engine.night.games.luoluo_m19 import cascade, day, night, report
from tracker.engine.night.games.luoluo_m19.common import Ctx
from tracker.engine.night.games.luoluo_m19.refusals import refuse
from tracker.engine.night.model import Action

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Step
    from tracker.engine.night.flow import Flow

KEY = "luoluo-m19"


def _ctx(flow: Flow) -> Ctx:
    """The settlement's own record, made at its first hook step: the cascades listen from then on."""
    ctx = flow.game.get(KEY)
    if not isinstance(ctx, Ctx):
        b = flow.board
        ctx = Ctx(board=b, actions=list(flow.actions), pool=flow.pool,
                  dead_at_start=[p.name for p in b.table.players.values() if not p.alive])
        cascade.install(ctx)
        flow.game[KEY] = ctx
    return ctx


def _step(body: Callable[[Ctx], None]) -> StepHook:
    """A step of the post's order settled by ``body``. A win stops the settlement where it happens
    ("宣布阵营获得胜利会立即终止一切结算"); the notices of the exits so far are still written."""

    def hook(flow: Flow, step: Step, actions: Sequence[Action], /) -> None:
        ctx = _ctx(flow)
        try:
            body(ctx)
        except SettlementOver:
            report.finish(ctx)
            raise

    hook.__doc__ = body.__doc__
    return hook


def _close(flow: Flow, step: Step, actions: Sequence[Action], /) -> None:
    """公示: a 殉职 by a sheriff who did not go out is refused; then the 公示 and the notices. Every
    submission has been settled by a step of this game (a night's 投降 waits for the day)."""
    ctx = _ctx(flow)
    try:
        day.leftovers(ctx, flow.done)
    except SettlementOver:
        report.finish(ctx)
        raise
    flow.done.update(a.index for a in flow.actions)
    report.finish(ctx)


def named(board: Board, actions: Sequence[Action]) -> None:
    """Lovers named before the game (``setup 情侣``, a scenario's ``state.情侣`` without their tags):
    made lovers by the arrow's steps "游戏开始时" — at the desk when recorded (``setup``), in a
    settlement before the refusals (``prepare``: the eloped wolf has no <杀人> that night)."""
    day.named_lovers(Ctx(board=board, actions=list(actions)))


STEPS: dict[str, StepHook] = {
    "开局": _step(day.setup),
    "绑架结束": _step(night.dusk),
    "狼人行动": _step(night.kills),
    "指杀结算": _step(night.step6),
    "公示": _close,
}

_CASCADE = ("出局连锁：每次出局（夜晚、投票、红牌、技能）后依次结算殉情、遇难→遗志、激励、设计重选、殉职，再判定胜负 —— "
            "连锁依出局原因（红牌除外）与情侣关系，并改变阵营")
_PAIR = "情侣关系（攻/受、主人/忠犬）由开局的双歧之箭决定"
HOOKED: dict[str, str] = {
    "恋爱": "情侣中有且只有一名狼人则失去<杀人>且不共群；绑匪和狼成为情侣时绑匪入狼群、丘比特入狼人阵营 —— " + _PAIR,
    "私奔": "情侣不属于同一个阵营时均脱离各自阵营，形成黑情侣阵营 —— 依情侣双方的阵营改变三人的阵营",
}

def _finish(board: Board) -> None:
    """A win stopped the settlement at a data step (the (7) ``resolve``, 牺牲 …): the 公示 and notices."""
    ctx = board.game.get(KEY)
    if isinstance(ctx, Ctx):
        report.finish(ctx)


HOOKS = GameHooks(
    steps=STEPS, refuse=refuse, void=night.gone_target, prepare=named, setup=named, hooked=HOOKED, finish=_finish,
    holders={"杀人": "寡妇刀（黑情侣）、忠犬（主人出局后的下一夜）：数据写入 uses；丘比特接刀：狼群之外持有<杀人>的，"
                   "由 refuse 判定"},
    why={
        "开局": "总体流程 1–2：双歧之箭的开局选择，随后恋爱、私奔、逃脱、背叛定阵营 —— 阵营随情侣组合改变，效果词汇写不出",
        "绑架结束": "绑架“执行上述效果直到下一个游戏日结束”：夜晚开始时解除",
        "狼人行动": "总体流程 4（1）：杀人 —— 谁此时持有（狼群、黑情侣、忠犬、接刀的丘比特）、激励之夜两次，"
                   "指杀在（6）才结算 —— " + _CASCADE,
        "void": "绑架“夜晚行动中若绑匪选择的目标仍存活”：第(5)步时目标已出局则没有效果（次数照样用掉）",
        "指杀结算": "总体流程 4（6）：一、救治目标或攻指杀无效；二、救药目标不出局；三、出局；弱受穿透任何保护",
        "公示": "白天开始时公示前一天投票出局、夜晚出局名单、当日警长；遗言数量等于狼人的数量",
        "prepare": "恋爱<强制> —— 开局设定的情侣在结算前成为情侣（拒绝依据结算开始时的阵营）",
        "setup": "恋爱<强制> —— 游戏开始时被丘比特选择的两名角色成为情侣 —— 导演以开局设定记下的情侣，"
                 "立即按双歧之箭的同一步骤（恋爱、私奔、双民变民）定阵营",
        "finish": "宣布阵营获得胜利会立即终止一切结算 —— 公示与出局通知仍照写（数据步骤上的获胜也一样）",
        "refuse": "情侣技能的持有条件 —— 依赖开局设定与情侣关系，键写不出",
    })
