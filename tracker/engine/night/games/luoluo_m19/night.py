"""The night in the post's order, 总体流程第4步（1）–（7）, step numbers in every log line.

"以下身份如未出局、未失去技能，依次选择发动技能" — each step reads who is still in and what is still
held at that moment; 指杀 is only collected at (1) and settled at (6), 毒药 and 灭口 at (7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.engine.night import effects
from tracker.engine.night.effects import extra_uses
from tracker.engine.night.games.luoluo_m19.common import (
    Ctx,
    in_pack,
    role_in_pair,
)
from tracker.engine.night.model import Action

if TYPE_CHECKING:
    from tracker.engine.night.flow import Flow


def _live_actor(ctx: Ctx, act: Action, step: str) -> bool:
    """A single actor blocked by <算计> is refused (its skill cannot be used that night); one gone
    out earlier in the order simply does not act ("如未出局、未失去技能")."""
    b = ctx.board
    if act.index in ctx.used:
        return False
    ctx.used.add(act.index)
    blocked = ctx.blocked(act)
    if blocked is not None:
        b.reject(act, *blocked)
        return False
    gone = [m for m in act.members if not b.seat(m).alive]
    if gone and len(gone) == len(act.members):
        b.note(f"{step} {act.actor}已出局，<{act.skill}>不再发动")
        return False
    return True


def kills(ctx: Ctx) -> None:
    """（1）狼人/黑情侣/情侣行动。其中因为主人出局获得技能的忠犬可以行使<杀人> — after <算计> (data)."""
    _kills(ctx)


def _kills(ctx: Ctx) -> None:
    """Each killer's 指杀: the pack once (twice on its 激励 night), the 黑情侣 after 寡妇刀, the 忠犬
    on its night, the 丘比特 who 接刀; a later submission of the same killer replaces the earlier."""
    b = ctx.board
    by_killer: dict[str, list[Action]] = {}
    for act in ctx.of("杀人"):
        if not _live_actor(ctx, act, "(1)"):
            continue
        killer = "狼群" if act.team == "狼群" or all(in_pack(b.seat(m)) for m in act.members) else "+".join(act.members)
        by_killer.setdefault(killer, []).append(act)
    spur = extra_uses(b, "杀人")  # 激励 (data: an ``extra`` effect on the 幼狼's exit)
    for killer, acts in by_killer.items():
        n = 1 + spur if killer == "狼群" else 1
        if len(acts) > n:
            b.note(f"(1) {killer}提交了{len(acts)}次<杀人>，以最后{n}次为准")
        if n > 1:
            b.note("(1) 激励：本夜狼人可以再使用一次<杀人>")
        for act in acts[-n:]:
            t = ctx.bearer(act.targets[0], "杀人", act.actor, "(1)")
            who = _killer_word(ctx, killer)
            ctx.strikes.append((t, who))
            b.note(f"(1) {who}指杀{t}")
    # the targets struck, where they land: the night file's <通灵> tell at (3) reads them
    ctx.pool.targets["杀人"] = tuple(t for t, _ in ctx.strikes)


def _killer_word(ctx: Ctx, killer: str) -> str:
    if killer == "狼群":
        return "狼群"
    names = killer.split("+")
    if len(names) == 1 and role_in_pair(ctx.table, names[0]) == "忠犬":
        return f"忠犬{names[0]}"
    if len(names) == 1 and ctx.board.seat(names[0]).role == "变异丘比特":
        return f"丘比特{names[0]}"
    return f"黑情侣{killer}"


def gone_target(flow: Flow, action: Action, step: str) -> bool:
    """绑架 "夜晚行动中若绑匪选择的目标仍存活": a target out by step (5) takes no 绑架, the use still spent."""
    b = flow.board
    if action.skill != "绑架" or not action.targets or b.seat(action.targets[0]).alive:
        return False
    k = b.seat(action.members[0])
    b.use(k, b.skill("绑架"))
    b.note(f"{step} 绑匪{k.name}发动<绑架>：目标{action.targets[0]}已出局 → 没有效果")
    return True


def step6(ctx: Ctx) -> None:
    """（6）指杀结算 一、救治目标或攻：无效；二、救药目标：有效但不出局；三、出局. 受 dies through
    any protection. The 救治 target's 空救 is data (a ``counter`` that ``settles_at`` this step, once it is over)."""
    b = ctx.board
    # 救治 and 救药 are data (``protect`` of 杀人 settled at (2) and (3), on the 主人 for the 忠犬): read here
    ctx.treated = next((t for t, guards in ctx.pool.guards.items() if any(g.skill == "救治" for g in guards)), None)
    ctx.antidote = next((t for t, guards in ctx.pool.guards.items() if any(g.skill == "救药" for g in guards)), None)
    for t, who in ctx.strikes:
        seat = b.seat(t)
        if not seat.alive:
            b.note(f"(6) {t}已出局，{who}的指杀不再结算")
            continue
        # 弱受 and 强攻 are data: ``unprotected_from`` and a standing protect of 杀人 the lover's tag carries
        if effects.exposed(b, seat, "杀人") is not None:
            b.note(f"(6) 指杀结算：{t}是受 → 弱受：不论受到任何防卫性技能的保护都将立即出局")
            b.kill(t, f"杀人（{who}指杀）")
            continue
        held = effects.standing(b, seat, "杀人", 1, "", "night", ctx.pool)
        if t == ctx.treated or held is not None:
            why = "医生<救治>：指杀无效" if t == ctx.treated or held is None else (held[1].reason or held[0].name)
            b.note(f"(6) 指杀结算：一、{t}是{'救治目标' if t == ctx.treated else '攻'} → 指杀无效")
            b.survive(t, why)
            continue
        if t == ctx.antidote:
            b.note(f"(6) 指杀结算：一、{t}不是救治目标也不是攻 → 指杀有效；二、{t}是<救药>的目标 → "
                   "此次有效指杀不会导致其出局")
            b.survive(t, "女巫<救药>：有效指杀不导致出局")
            continue
        b.note(f"(6) 指杀结算：一、{t}不是救治目标、不是攻 → 有效；二、不是救药目标；三、{t}出局")
        b.kill(t, f"杀人（{who}指杀）")


def dusk(ctx: Ctx) -> None:
    """绑架: "执行上述效果直到下一个游戏日结束" — a 绑架 still on the table at nightfall is over."""
    b = ctx.board
    for p in ctx.table.players.values():
        if "绑架" in p.status:
            p.status.remove("绑架")
            b.result.state_after[f"{p.name}.status"] = list(p.status)
            b.note(f"{p.name}的绑架状态已于第{b.night}天结束时结束")


