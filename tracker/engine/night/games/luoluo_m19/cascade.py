"""Every exit's consequences, in one place, whatever caused the exit (night, vote, card, skill).

Registered as :attr:`Board.on_death` listeners in the post's words (殉情 itself is the night file's 立即
trigger, ``at = "now"``, right after the exit's record, 遇难 its ``chosen_exit`` trigger, and the 忠犬 who waits for
his night its ``partner_exit`` trigger): the 人质 out by 遇难 leaves his 遗志, the 绑匪's <设计> freed (激励 and 殉职 are the night file's ``trigger``, settled by the generic engine after the step; a
red-carded 警长's badge given at random is the red card's ``send_off``), and last the win check, which the post runs
after every change ("游戏状态满足某阵营胜利条件之一，游戏立即结束"; "宣布阵营获得胜利会立即终止一切结算").
"""

from __future__ import annotations

from tracker.engine.night.games.luoluo_m19.common import (
    Ctx,
    held,
)
from tracker.engine.night.model import Seat


def install(ctx: Ctx) -> None:
    b = ctx.board
    # when and how first, before the night file's 立即 triggers (殉情, ``at = "now"``) the engine put first
    b.on_death.insert(0, lambda _b, seat, cause: _record(ctx, seat, cause))
    b.on_death.extend([
        lambda _b, seat, cause: _hostage(ctx, seat, cause),
        lambda _b, seat, cause: _design(ctx, seat),
    ])  # then the win check ([win_policy] checks_at "death"), run by the board after every death


DAY_CAUSES = {"投票出局": "投票", "红牌罚下": "红牌"}


def _record(ctx: Ctx, seat: Seat, cause: str) -> None:
    """When and how: the 忠犬's last night and the 遗言 count read it later."""
    b = ctx.board
    when: dict[str, object] = {"night": b.night} if b.night is not None else {"day": b.table.day}
    # the scenario vocabulary's words for the day's own exits (when.cause: 投票 / 红牌), which the
    # morning 公示 ("因投票出局") and the 遗言 count read
    when["cause"] = DAY_CAUSES.get(cause, cause)
    seat.fields["出局"] = when
    # who went out first within one day or night ("靠前出局" decides the 遗言), kept in the table
    b.state["出局顺序"] = [*(b.state.get("出局顺序") or []), seat.name]
    if cause == b.catalog.exile_skill:  # the day's out list goes where the first exile by vote happened
        if not ctx.exiled:
            ctx.exile_at = len(ctx.extra_lines)
        ctx.exiled.append(seat.name)


def _hostage(ctx: Ctx, seat: Seat, cause: str) -> None:
    """遗志 "当遇难发动导致人质出局时": the 人质 out by <遇难> (data: its ``chosen_exit`` trigger took him out inside
    the 英雄's exit) settles his <遗志> now, or is asked for it."""
    if cause.split("（", 1)[0] == "遇难":
        will(ctx, seat.name)


def will(ctx: Ctx, hostage: str) -> None:
    """遗志: the 人质's choice, if submitted, settles at once; otherwise it waits for the 人质."""
    b = ctx.board
    mine = [a for a in ctx.actions if a.skill == "遗志" and a.members == (hostage,) and a.index not in ctx.used]
    if not mine:
        b.later(f"人质{hostage}<遗志>：可以选择一名角色（收到出局通知后30分钟内）", hostage, "人质出局后",
                ctx.clause("遗志"))
        b.tell(hostage, "遇难：你的英雄已出局，你随之出局；可以发动<遗志>选择一名角色")
        return
    act = mine[-1]
    ctx.used.add(act.index)
    t = act.targets[0]
    target = b.seat(t)
    if target.alive and target.faction == "狼人":
        b.note(f"遗志：人质{hostage}选择{t}，{t}存活且为狼人阵营 → 身份立即公示（{target.role}），失去所有技能")
        ctx.extra_lines.append(f"遗志：{t}的身份是{target.role}")
        for key in list(target.uses):
            ctx.lose_skill(target, key)
        if "狼群" in target.tags:
            target.tags.remove("狼群")
        target.fields["遗志"] = True
        b.result.state_after[f"{t}.技能"] = "已失去（遗志）"
    else:
        why = "已出局" if not target.alive else "不属于狼人阵营"
        b.note(f"遗志：人质{hostage}选择{t}，{t}{why} → 没有效果")


def _design(ctx: Ctx, seat: Seat) -> None:
    """设计: "当目标因任何原因出局时，可以重新选择目标"."""
    b = ctx.board
    for k in ctx.table.players.values():
        if k.role == "绑匪" and k.alive and k.fields.get("设计目标") == seat.name and "已失去设计" not in k.fields \
                and held(k, "设计"):
            text = f"目标{seat.name}已出局，可以重新选择"
            b.result.state_after[f"{k.name}.设计"] = text
            b.note(f"设计：绑匪{k.name}的{text}")
            b.tell(k.name, f"设计：{text}目标")
