"""M65 加速世界 (accel-m65): a night or a day phase settled in the post's 优先级判定.

The order (rule post, 胜负判定 · 优先级判定): "0、黑王绝对切割 1、掠夺者技能掠夺得到的绝对切割
2、绿王绝对防御 3、紫王天璇紫后、银鸦飞行头槌 4、红王最后一枪 5、蓝王天枢剑圣、深桩深青之桩
X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中。" is the night file's ``[[steps]]``, walked by the
generic engine; (3)'s blocks are data (``block``, their day casts at the step ``sent = "day"``); (4) and the 增益 are hook steps here (``STEP_HOOKS``), sharing one :class:`Walk`; (0)/(1)'s
<绝对切割> and (5)'s marks are data, their casts passing :func:`aim` and their users :func:`void` as every cast does. The 增益
and information skills the list leaves out follow in submission order ("增益技能生效时间按照私聊导演的
具体时间先后为准"); then the morning (<四眼预知>, a data ``tell`` step) and the win check. 2 and X act inside every step
that casts a skill on a player (:func:`.cast.land`) — why the skills stay code (``HOOKED``); 判负 is
judged silently on every death by the ruleset's ``[[win]]`` (:mod:`.verdict`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from tracker.engine.night.board import Board
from tracker.engine.night.checks import holds
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action, Seat, Table

from . import steps, verdict
from .cast import Ctx, land
from .rules import (
    C_OUT,
    MARKS,
    REACTIONS,
    catalog,
    exhaust_active,
    game_day,
    holds_gun_skill,
    options,
    parse_role,
    rewound_skill,
    stealable,
)

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Step
    from tracker.engine.night.effects import Use
    from tracker.engine.night.flow import Flow


_BUFFS = {
    "时间回溯": steps.time_rewind, "机械制造": steps.make_gun,
    "技能掠夺": steps.steal,
}
_PASSIVE = ("绝对防御", "四眼预知", "天罡护体")


def grants(table: Table) -> dict[str, tuple[str, ...]]:
    """<技能掠夺>: "如果猜测正确……下一夜晚你可以使用该角色的任一非强制技能" — lent to the 掠夺者
    on the night after a right guess (state 技能掠夺上次), and only then."""
    last = table.state.get("技能掠夺上次")
    if table.night is None or not isinstance(last, dict) or not last.get("成功") \
            or last.get("night") != table.night - 1 or last.get("target") not in table.players:
        return {}
    skills = stealable(catalog(), table.players[str(last["target"])].role)
    return {p.name: skills for p in table.players.values() if p.role == "掠夺者"}


def _declaring(action: Action) -> bool:
    text = action.choice or ""
    return "枯竭" in text and "反弹" not in text and not action.targets


def refuse(table: Table, action: Action) -> str | None:
    """The limits the post states for one skill only (the generic ones are data: checks.py)."""
    members = action.members
    if not members or members[0] not in table.players:
        return None
    seat = table.players[members[0]]
    skill, targets, choice = action.skill, action.targets, action.choice or ""
    day = game_day(table)
    target: Seat | None = table.players.get(targets[0]) if targets else None
    if skill == "技能掠夺":
        if parse_role(choice) is None:
            return "<技能掠夺>需说明猜测的具体身份（choice，如“猜测身份：黄王”）"
        if targets and targets[0] in (seat.fields.get("掠夺成功") or []):
            return f"技能掠夺成功后不可再次对该角色使用（{targets[0]}已掠夺成功）"
    if skill == "时间回溯" and not choice:
        return "<时间回溯>需要说明指定目标的几号技能（choice）"
    if skill == "缥缈永恒" and target is not None:
        out = target.fields.get("出局")
        if target.faction != seat.faction:
            return f"<缥缈永恒>只能指定自己阵营的玩家（{target.name}不属于{seat.faction}）"
        if not isinstance(out, dict) or out.get("cause") != "投票" or "day" not in out:
            return f"<缥缈永恒>只能指定白天被投票出局的玩家（{target.name}不是）"
    if skill in REACTIONS:
        if _declaring(action):
            if table.night is None:
                return f"<{skill}>（枯竭）需在提前一天的夜晚向导演说明"
            if "枯竭" not in options(seat, skill):
                return f"{seat.name}没有枯竭型<{skill}>"
            if seat.uses.get(skill) in (0, False):
                return f"<{skill}>（枯竭）只能使用一次，已没有使用次数"
        elif not exhaust_active(table.state, seat.name, day):
            if options(seat, skill) == {"持续"}:
                return f"<{skill}>（持续）无需发动"
            return f"<{skill}>（枯竭）未在本游戏日生效（需提前一天夜晚向导演说明）"
        elif skill == "净化之焰" and "反弹" not in choice:
            return "<净化之焰>（枯竭）的应对只有反弹（choice 写“反弹”）"
        elif skill == "辐射炫惑" and not targets:
            return "<辐射炫惑>（枯竭）需给出新的施放目标"
    if skill == "抉择":
        if seat.fields.get("choice"):
            return f"{seat.name}已完成抉择（{seat.fields['choice']}）"
        if not any(o in choice for o in ("持续", "枯竭")):
            return "抉择需选择持续或枯竭（choice）"
    return None


#: The day's exits in the shared words (no player submits them: 放逐投票, 导演).
DAY_EXITS = ("投票出局", "红牌罚下")


def _effective(ctx: Ctx, actions: Sequence[Action]) -> list[Action]:
    """Once a day per skill ("每天限一次"; night skills likewise, as <时间回溯>'s "当日次数" implies),
    plus the <时间回溯> extra use; and one stolen skill ("任一非强制技能")."""
    b = ctx.board
    last = b.state.get("时间回溯上次")
    count: Counter[tuple[str, str]] = Counter()
    stolen = False
    out: list[Action] = []
    for act in actions:
        if act.skill in REACTIONS or act.skill in _PASSIVE or act.skill in ("抉择", "最后一枪", *DAY_EXITS):
            out.append(act)
            continue
        if not holds(b.seat(act.members[0]), ctx.cat.skill(act.skill)):
            if stolen:
                b.reject(act, "技能掠夺所得：下一夜晚只能使用该角色的任一非强制技能（已使用一个）",
                         ctx.cat.skill("技能掠夺").clause)
                continue
            stolen = True
        key = (act.actor, act.skill)
        extra = int(isinstance(last, dict) and last.get("target") == act.members[0]
                    and rewound_skill(ctx.cat, b.seat(act.members[0]), last) == act.skill
                    and last.get("night") == ctx.day - 1)
        if count[key] >= 1 + extra:
            b.reject(act, f"<{act.skill}>当日已使用（每天限一次；时间回溯的额外一次也已用完）" if extra
                     else f"<{act.skill}>当日已使用（每天限一次）", ctx.cat.skill(act.skill).clause)
            continue
        if count[key] == 1:
            ctx.extra.add(act.index)
            b.note(f"<时间回溯>：{act.members[0]}今天额外使用<{act.skill}>一次，不计入原本的使用次数")
        count[key] += 1
        out.append(act)
    return out


@dataclass(slots=True)
class Walk:
    """What the step hooks of one settlement hand on to each other: the context and the
    submissions that count (:func:`_effective`), in submission order."""

    ctx: Ctx
    acts: list[Action]

    def of(self, *names: str) -> list[Action]:
        return [a for a in self.acts if a.skill in names]


def _walk(flow: Flow) -> Walk:
    walk = flow.game.get("m65")
    assert isinstance(walk, Walk), "the first step (抉择) starts every M65 settlement"
    return walk


#: The settlement each board is walked in, for the hooks the generic engine asks with the board only (aim).
_WALKS: WeakKeyDictionary[Board, Walk] = WeakKeyDictionary()

#: The skills data settles that take effect when submitted before their user's death (C_BUFF); a 枯竭
#: declaration is settled first thing, as it was submitted the night before the day it holds for.
_DATA_BUFFS = frozenset({"数据收集", "缥缈永恒", "空之瞭望", "抉择", *REACTIONS})
#: The 增益 skills data settles whose effect a later 增益 of the same phase may meet (缥缈永恒's template: a
#: 时间回溯 or 空之瞭望 on the 白王 after it meets its <绝对防御>) or that may meet an earlier one's (空之瞭望 sent
#: after a 缥缈永恒 that gave its target <绝对防御>), handed to the generic engine in submission order.
_DATA_IN_ORDER = frozenset({"缥缈永恒", "空之瞭望"})


def _label(step: str) -> str:
    return step or "(增益)"


def void(flow: Flow, action: Action, step: str) -> bool:
    """A skill data settles meets the rules every M65 skill meets when its step comes: its user is
    still in the game ("角色出局后，不能继续……行使特权"; a 增益 skill submitted before his death still
    takes effect). A (3) block (data: ``block`` with its exceptions) is asked by the generic engine before this."""
    walk = _walk(flow)
    if action.skill in DAY_EXITS:  # in the day, before any of this phase's submissions
        walk.ctx.current = -1
        return False
    walk.ctx.current = action.index
    return not steps.can_act(walk.ctx, action, _label(step), buff=action.skill in _DATA_BUFFS)


def aim(board: Board, use: Use, target: str) -> str | None:
    """Where a skill data settles lands: "X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中" and 2 绿王
    <绝对防御> — every cast on a player passes :func:`.cast.land` (voided, perceived, reflected or
    redirected); a player already out takes nothing."""
    walk = _WALKS.get(board)
    if walk is None or use.skill.name in DAY_EXITS:  # the day's exits are no skill cast on a player
        return target
    if not board.seat(target).alive:
        if use.skill.target_dead:  # 缥缈永恒 "指定一名白天被投票出局的……玩家": no shield or reaction of his is in play
            return target
        board.note(f"{_label(use.step)} <{use.skill.name}>：{target}已出局，不再生效")
        return None
    daytime = not walk.ctx.night or use.action.phase == "day"
    return land(walk.ctx, use.actor, use.skill.name, target, daytime=daytime)


def _start(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """Before 0: who counts (每天限一次, 时间回溯, one stolen skill), the 枯竭 answers (kept for the
    nested X), <最后一枪> chosen in advance (<四眼预知> at the start of the game is the next step's data ``tell``)."""
    board = flow.board
    ctx = Ctx(board=board, cat=board.catalog, day=game_day(board.table), night=board.night is not None,
              pool=flow.pool)

    def on_death(b: Board, seat: Seat, cause: str) -> None:
        b.tell(seat.name, "出局通知")
        b.note(f"{seat.name}收到出局通知（{C_OUT}遗言数量等于0）")
        ctx.death_at[seat.name] = ctx.current
        if holds_gun_skill(seat):
            ctx.guns.append((seat.name, cause, ctx.current))

    board.on_death.append(on_death)  # then the win check judges losses ([win_policy] losses_at "death")
    board.on_lost.append(verdict.stay_in)
    walk = Walk(ctx, _effective(ctx, flow.actions))
    flow.game["m65"] = walk
    _WALKS[board] = walk
    counted = {a.index for a in walk.acts}
    flow.done.update(a.index for a in flow.actions if a.index not in counted)  # refused in _effective
    flow.uncounted.update(ctx.extra)  # the 时间回溯 extra use of a skill data settles: "不计入该技能原本的使用次数"
    ctx.reactions = list(flow.answers)  # 枯竭 answers, for the nested X (``reacts``); declarations are data
    for a in walk.of("最后一枪"):
        ctx.gun_orders[a.members[0]] = a.targets[0]
        seat = board.seat(a.members[0])
        out = seat.fields.get("出局")
        if not seat.alive and isinstance(out, dict) and out.get("day") == ctx.day:
            # went out in the day (投票 …) before this settlement: the shot is taken now, as of then
            ctx.guns.append((seat.name, str(out.get("cause", "出局")), -1))


def _gun(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """(4) 红王<最后一枪>, unlocked by <机械制造> (a 机械制造 submitted now arms a later death)."""
    walk = _walk(flow)
    for a in walk.of("机械制造"):
        by = walk.ctx.stopped(a.members[0], a.skill)
        if by is None:
            walk.ctx.made_guns[a.members[0]] = a.index
        else:
            steps.refuse_blocked(walk.ctx, a, by, "(4)")
    steps.guns(walk.ctx)


def _buff(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """The 增益 and information skills the list leaves out, in submission order (C_BUFF)."""
    walk = _walk(flow)
    for a in walk.acts:
        if a.skill in _BUFFS:
            _BUFFS[a.skill](walk.ctx, a)
        elif a.skill in _DATA_IN_ORDER:  # its effects are data; its turn is its place among the private messages
            flow.settle(a, "(增益)")


def _end(flow: Flow, step: Step, _: Sequence[Action]) -> None:
    """The 强制 skills submitted by mistake, <最后一枪> chosen but not set off, the next day's 暗记; every
    submission is settled by now (<四眼预知> at the start of the next day is the next step's data ``tell``)."""
    walk, board = _walk(flow), flow.board
    ctx = walk.ctx
    steps.passive(ctx, walk.of(*_PASSIVE))
    for seat_name, shooter in ctx.gun_orders.items():
        if board.seat(seat_name).alive:
            board.note(f"<最后一枪>：{seat_name}未出局，预先选择的{shooter}不触发")
    marks: dict[str, list[str]] = {}  # (5)'s 暗记, settled from data as vote marks for the next day
    for m in board.result.vote_marks:
        if m.name in MARKS and m.day == ctx.day + 1:
            marks.setdefault(m.player, []).append(m.name)
    if marks:
        board.result.state_after[f"第{ctx.day + 1}天暗记"] = {
            p: "被投票数加倍" if len(s) == 1 else f"被投票数加倍（{'、'.join(s)}，各加倍一次）"
            for p, s in marks.items()}
    flow.done.update(a.index for a in flow.actions)
    # the win check ends the phase ([win_policy] checks_at "end": the settlement runs it)


_WHY_ORDER = ("胜负判定·优先级判定：X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中 —— 每一步对玩家施放的技能都先经"
              "<绝对防御>、感知与反弹/更改目标（cast.land），并受(3)的封锁；这些嵌套的判定 effects 写不出")
STEP_HOOKS = {
    "开始": _start, "最后一枪": _gun, "增益": _buff, "结束": _end,
}

_CAST = "；对玩家施放时先经<绝对防御>与嵌套的 X（感知、反弹、更改目标），受(3)封锁 —— 嵌套判定，effects 写不出"
#: Per skill: the clause that keeps it in code and why data cannot say it.
HOOKED = {
    "时间回溯": "次日指定的几号技能额外使用一次、不计入次数、对掠夺者无效 —— 改写别的技能的次数" + _CAST,
    "机械制造": "解锁<最后一枪>，保存到下一个夜晚 —— 解锁并限定期限的另一技能",
    "最后一枪": "(4) 非红牌出局时立即带走一名玩家，需机械制造解锁且未失效，可被辐射炫惑更改目标 —— 依出局原因与解锁期限",
    "技能掠夺": "猜测身份，猜中则下一夜晚可使用该角色的任一非强制技能 —— 技能随猜测结果转移，不受任何干扰和反弹",
}

HOOKS = GameHooks(
    steps=STEP_HOOKS, refuse=refuse, grants=grants, win_view=verdict.win_view, hooked=HOOKED, void=void, aim=aim,
    why={
        **dict.fromkeys(STEP_HOOKS, _WHY_ORDER),
        "refuse": "宣言类技能、一夜一技能、技能掠夺所得技能的使用条件 —— 依赖掠夺记录与宣言内容，键写不出",
        "void": "角色出局后不能行使特权（出局前提交的增益技能仍生效）—— 由数据结算的技能也先经此判定；出局前后依提交顺序"
                "（(3) 的封锁是数据：block 的 spares，由通用引擎先判定）",
        "aim": "2 绿王<绝对防御>与嵌套的 X（劫火净化之焰、黄王辐射炫惑：感知、反弹、更改目标）—— 由数据结算的技能对玩家施放时"
               "先经 cast.land；反应依前一夜的声明与当时的答复",
        "grants": "技能掠夺：猜测成功后下一夜晚可使用该角色的任一非强制技能 —— 技能随掠夺结果变化",
        "win_view": "加速研究社胜1 成功完成对四个不同角色的技能掠夺 —— 夜晚的掠夺成功记录在掠夺者的 掠夺成功 上，"
                    "交给 [[win]] 的 hook 条件 four_distinct_steals（白天读记录的行动）",
    })
