"""The steps of an M65 settlement, one function per line of the 优先级判定 and per 增益 skill.

Each function takes the context and the submissions of its step; the order they are called in
is the post's (see :func:`tracker.engine.night.games.accel_m65.resolve`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.engine.night.checks import holds
from tracker.engine.night.model import Action

from .cast import Ctx, land, perceive
from .rules import (
    C_BUFF,
    C_NO_PRIVILEGE,
    named_skill,
    parse_role,
    role_skills,
    stealable,
)


def lent(ctx: Ctx, act: Action) -> bool:
    """A skill used through <技能掠夺> (the actor's role does not hold it)."""
    return not holds(ctx.board.seat(act.members[0]), ctx.cat.skill(act.skill))


def spend(ctx: Ctx, act: Action) -> None:
    """Count a use, unless it is the 时间回溯 extra ("不计入该技能原本的使用次数") or a stolen one."""
    skill = ctx.cat.skill(act.skill)
    if skill.uses and act.index not in ctx.extra and not lent(ctx, act):
        ctx.board.use(ctx.board.seat(act.members[0]), skill)


def can_act(ctx: Ctx, act: Action, step: str, *, buff: bool = False) -> bool:
    """The actor is still in the game and not blocked. A 增益 skill submitted before the actor's
    death still takes effect ("增益技能生效时间按照私聊导演的具体时间先后为准")."""
    b = ctx.board
    actor = act.members[0]
    if not b.seat(actor).alive:
        died = ctx.death_at.get(actor)
        if not (buff and died is not None and act.index < died):
            b.note(f"{step} {actor}已出局，<{act.skill}>不再生效（{C_NO_PRIVILEGE}）")
            return False
        b.note(f"{step} {actor}在出局前已提交<{act.skill}>，仍然生效（{C_BUFF}）")
    by = ctx.stopped(actor, act.skill)
    if by is not None:
        refuse_blocked(ctx, act, by, step)
        return False
    return True


def refuse_blocked(ctx: Ctx, act: Action, by: str, step: str) -> None:
    """An actor blocked before he acts is refused, with the blocker in the reason (the shared
    vocabulary's "a blocked actor is listed as refused in every game")."""
    ctx.board.note(f"{step} {act.members[0]}被<{by}>封锁")
    why = ctx.pool.refusal(act.members[0], act.skill)  # the (3) block's own ``refuses``, as the engine's walk says it
    ctx.board.reject(act, *(why or (f"{act.members[0]}被<{by}>封锁，当晚无法使用<{act.skill}>", ctx.cat.skill(by).clause)))


def armed(ctx: Ctx, player: str, at: int) -> bool:
    """<最后一枪> is unlocked and not yet expired: "该技能只保存到使用机械制造后的下一个夜晚，
    第二个游戏日白天往后技能失效" — made on night M, it holds through night M+1; made tonight, it
    holds for a death after the 机械制造 was submitted."""
    made = ctx.made_guns.get(player)
    if made is not None and made < at:
        return True
    last = ctx.board.state.get("机械制造上次")
    m = last.get("night") if isinstance(last, dict) else None
    return isinstance(m, int) and m == ctx.day - 1


def guns(ctx: Ctx) -> None:
    """(4) 红王<最后一枪>, for every holder who went out in this phase, cascades included."""
    b = ctx.board
    while ctx.guns:
        player, cause, at = ctx.guns.pop(0)
        if "红牌" in cause:
            b.note(f"(4) {player}因红牌出局，<最后一枪>不触发")
            continue
        if not armed(ctx, player, at if at >= 0 else -1):
            b.note(f"(4) {player}的<最后一枪>未解锁或已失效，不触发")
            continue
        by = ctx.stopped(player, "最后一枪") if at >= 0 else None
        if by is not None:
            b.note(f"(4) {player}被<{by}>封锁，当晚无法使用<最后一枪>")
            continue
        target = ctx.gun_orders.get(player)
        if target is None or not b.seat(target).alive:
            pool = [p.name for p in b.living()]
            if not pool:
                continue
            target = b.ask(f"最后一枪.{player}", f"{player}<最后一枪>：选择一名玩家带走（或放弃）", ["放弃", *pool])
        if target == "放弃":
            b.note(f"(4) {player}放弃<最后一枪>")
            continue
        b.note(f"(4) {player}<最后一枪>：选择{target}带走")
        ctx.current = at
        final = land(ctx, player, "最后一枪", target, daytime=not ctx.night)
        if final is None:
            continue
        seat = b.seat(final)
        if not seat.alive:
            b.note(f"(4) {final}已出局，<最后一枪>不再生效")
        else:  # <天罡护体> on game day 1: the night file's spares, which every exit asks (Board.kill)
            b.kill(final, f"最后一枪（{player}）")


def time_rewind(ctx: Ctx, act: Action) -> None:
    """<时间回溯>: the target's named skill may be used once more the next 游戏日."""
    b = ctx.board
    if not can_act(ctx, act, "(增益)", buff=True):
        return
    actor, target = act.members[0], act.targets[0]
    final = land(ctx, actor, "时间回溯", target)
    last: dict[str, object] = {"target": target, "night": ctx.day}
    if final is None:
        b.set_state("时间回溯上次", last)
        return
    seat = b.seat(final)
    named = None
    for s in role_skills(ctx.cat, seat.role) + [ctx.cat.skills[k] for k in seat.uses if k in ctx.cat.skills]:
        if s.name in (act.choice or ""):
            named = s.name
    if named is None:
        named = named_skill(ctx.cat, seat, act.choice)
    if seat.role == "掠夺者":
        b.note(f"(增益) <时间回溯>（{actor}→{final}）：对掠夺者无效")
    elif named is None or not holds(seat, ctx.cat.skill(named)):
        b.note(f"(增益) <时间回溯>（{actor}→{final}）：{final}没有所说明的技能（{act.choice}），不成立")
    else:
        last = {"target": final, "night": ctx.day, "技能": named}
        b.note(f"(增益) <时间回溯>（{actor}）：{final}次日<{named}>可以额外使用一次，不计入原本的使用次数")
        b.tell(final, f"时间回溯：次日<{named}>可以额外使用一次（限当天使用）")
    b.set_state("时间回溯上次", last)


def make_gun(ctx: Ctx, act: Action) -> None:
    """<机械制造>: unlocks <最后一枪> (until the next night; see :func:`armed`)."""
    b = ctx.board
    if not can_act(ctx, act, "(增益)", buff=True):
        return
    actor = act.members[0]
    spend(ctx, act)
    b.set_state("机械制造上次", {"night": ctx.day})
    b.note(f"(增益) <机械制造>（{actor}）：解锁<最后一枪>，保存到第{ctx.day + 1}夜，第{ctx.day + 2}天白天往后失效")
    b.tell(actor, f"机械制造：已解锁<最后一枪>（保存到第{ctx.day + 1}夜）")


def steal(ctx: Ctx, act: Action) -> None:
    """<技能掠夺>: guess a living player's role; right → his non-强制 skills usable the next night."""
    b = ctx.board
    actor, target = act.members[0], act.targets[0]
    if not b.seat(actor).alive:
        b.note(f"(增益) {actor}已出局，<技能掠夺>不再生效")
        return
    guess = parse_role(act.choice)
    seat = b.seat(target)
    before = b.state.get("技能掠夺上次")
    if isinstance(before, dict) and before.get("target"):
        b.note(f"(增益) <技能掠夺>：上次为第{before.get('night')}夜对{before.get('target')}，"
               f"本次对{target}，不违反“不可连续两日对同一个角色使用”")
    perceive(ctx, actor, "技能掠夺", target, daytime=False)
    ok = guess == seat.role and seat.role != "预知者" and target != actor
    b.set_state("技能掠夺上次", {"target": target, "night": ctx.day, "猜测": guess, "成功": ok})
    thief = b.seat(actor)
    won = [str(x) for x in thief.fields.get("掠夺成功", []) or []]
    if ok:
        won = [*won, target]
        thief.fields["掠夺成功"] = won
    b.result.state_after[f"{actor}.掠夺成功"] = won
    usable = list(stealable(ctx.cat, seat.role)) if ok else []
    b.result.state_after[f"{actor}.可用掠夺技能"] = usable
    why = "猜测正确" if ok else ("猜测对象为预知者" if seat.role == "预知者" and guess == seat.role
                                else ("猜测对象为自己" if target == actor else f"{target}实际为{seat.role}"))
    b.note(f"(增益) <技能掠夺>（{actor}）：猜测{target}为{guess} → {why}，反馈猜测{'成功' if ok else '失败'}；"
           f"成功掠夺的不同角色{len(won)}个")
    b.tell(actor, f"技能掠夺：猜测{'成功' if ok else '失败'}")


def passive(ctx: Ctx, acts: Sequence[Action]) -> None:
    for act in acts:
        ctx.board.note(f"<{act.skill}>（{act.members[0]}）是强制/被动技能，无需发动，按其触发条件结算")

