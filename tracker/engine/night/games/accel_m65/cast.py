"""Casting a skill on a player: 绝对防御 (2) and the nested X step (劫火 净化之焰, 黄王 辐射炫惑).

"X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中。" — so every step that casts a skill on a player
goes through :func:`land`: the 绿王's <绝对防御> voids it (except <绝对切割>), then the target
perceives it (持续) or learns it was used (劫火 枯竭), and may reflect it (劫火 枯竭) or change its
target (黄王 枯竭). One hop only: a reflected or redirected skill is perceived by its new target
but not reflected again, so no two players can bounce a skill forever.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Catalog
from tracker.engine.night.model import Action

from .rules import (
    C_TIMEOUT,
    CUT,
    DEBUFFS,
    UNTOUCHABLE,
    exhaust_active,
    options,
    shield,
)


@dataclass(slots=True)
class Ctx:
    """One settlement of M65: the board, and what earlier steps decided for later ones."""

    board: Board
    cat: Catalog
    day: int                                   # the 游戏日 (night N follows day N)
    night: bool                                # a night, or a day phase
    blocked: dict[str, str] = field(default_factory=dict)     # player -> 天璇紫后 / 飞行头槌 (tonight)
    reactions: list[Action] = field(default_factory=list)     # 枯竭 answers: 反弹 / 更改目标
    guns: list[tuple[str, str, int]] = field(default_factory=list)  # (dead holder, cause, at index)
    gun_orders: dict[str, str] = field(default_factory=dict)  # 最后一枪 chosen in advance
    made_guns: dict[str, int] = field(default_factory=dict)   # 机械制造 submitted now: index
    death_at: dict[str, int] = field(default_factory=dict)    # who died at which submission
    extra: set[int] = field(default_factory=set)              # submissions that are a 时间回溯 extra use
    current: int = 10**6                                       # the submission being settled

    def stopped(self, player: str, skill: str, *, passive: bool = False) -> str | None:
        """The block (3) that stops ``player`` using ``skill`` tonight, or None.

        飞行头槌: "不包括被动技能和<绝对切割>"; 天璇紫后: "不包括强制技能和<绝对切割>";
        技能掠夺/票权掠夺 "不会受到任何干扰". ``passive``: a 持续 perception.
        """
        by = self.blocked.get(player) if self.night else None
        if by is None or skill == CUT or skill in UNTOUCHABLE:
            return None
        kind = self.cat.skills[skill].kind if skill in self.cat.skills else "普通"
        if by == "飞行头槌" and (passive or kind in ("被动", "强制")):
            return None
        if by == "天璇紫后" and kind == "强制":
            return None
        return by


def perceive(ctx: Ctx, source: str, skill: str, target: str, *, daytime: bool) -> None:
    """X: what the target learns when ``skill`` is cast on him (持续 / 枯竭 wordings of the post)."""
    b = ctx.board
    seat = b.seat(target)
    if not seat.alive or target == source:
        return
    on = exhaust_active(b.state, target, ctx.day)
    for name in ("净化之焰", "辐射炫惑"):
        opts = options(seat, name)
        if not opts:
            continue
        if "持续" in opts and (name == "净化之焰" or skill in DEBUFFS):
            by = None if daytime else ctx.stopped(target, name, passive=True)
            if by is not None:
                b.note(f"(X) {target}被<{by}>封锁，当晚<{name}>（持续）不能感知<{skill}>")
            elif name == "净化之焰":
                b.note(f"(X) {target}<净化之焰>（持续）：感知到<{skill}>，来源{source}")
                b.tell(target, f"被施放<{skill}>，来源{source}")
            else:
                b.note(f"(X) {target}<辐射炫惑>（持续）：感知到减益技能<{skill}>，来源{source}")
                b.tell(target, f"被施放减益技能<{skill}>，来源{source}")
        if "枯竭" in opts and on:
            if name == "净化之焰":
                b.note(f"(X) {target}<净化之焰>（枯竭）：得知自己被使用了技能（不知是哪种）")
                b.tell(target, "净化之焰：你被使用了技能（不知是哪种技能）")
            else:
                b.note(f"(X) {target}<辐射炫惑>（枯竭）：感知到<{skill}>，来源{source}")
                b.tell(target, f"被施放<{skill}>，来源{source}")


def _names_skill(ctx: Ctx, act: Action, skill: str) -> bool:
    """An answer that names a skill applies to that skill only; one that names none, to any."""
    text = act.choice or ""
    named = [s for s in ctx.cat.skills if s in text and s not in ("净化之焰", "辐射炫惑")]
    return not named or skill in named


def react(ctx: Ctx, source: str, skill: str, target: str, *, daytime: bool) -> str:
    """X: 劫火 枯竭 reflects (反弹) to the source, 黄王 枯竭 changes the target; else unchanged.

    Only an answer the player gave counts: "否则视为放弃发动技能". Never <绝对切割>, never
    <技能掠夺>/<票权掠夺>.
    """
    b = ctx.board
    seat = b.seat(target)
    if skill == CUT or skill in UNTOUCHABLE or not seat.alive or not exhaust_active(b.state, target, ctx.day):
        return target
    for act in ctx.reactions:
        if act.members[0] != target or not _names_skill(ctx, act, skill):
            continue
        by = None if daytime else ctx.stopped(target, act.skill)
        if by is not None:
            b.note(f"(X) {target}被<{by}>封锁，当晚不能以<{act.skill}>应对<{skill}>")
            continue
        if act.skill == "净化之焰" and "枯竭" in options(seat, "净化之焰") and "反弹" in (act.choice or ""):
            b.note(f"(X) {target}<净化之焰>（枯竭）：反弹<{skill}>，改由来源{source}承受")
            return source
        if act.skill == "辐射炫惑" and "枯竭" in options(seat, "辐射炫惑") and act.targets:
            new = act.targets[0]
            if not b.seat(new).alive:
                b.note(f"(X) {target}<辐射炫惑>：新目标{new}已出局，<{skill}>的目标不变")
                continue
            b.note(f"(X) {target}<辐射炫惑>（枯竭）：将<{skill}>的施放目标由{target}改为{new}")
            b.tell(target, f"辐射炫惑：已将<{skill}>的施放目标改为{new}")
            return new
    if any(o == "枯竭" for o in options(seat, "净化之焰") | options(seat, "辐射炫惑")):
        b.note(f"(X) {target}未答复是否反弹/更改<{skill}>：视为放弃（{C_TIMEOUT}）")
    return target


def land(ctx: Ctx, source: str, skill: str, target: str, *, daytime: bool = False) -> str | None:
    """The player ``skill`` cast by ``source`` on ``target`` finally takes effect on, or None (无效)."""
    b = ctx.board
    seat = b.seat(target)
    by = shield(b, seat, skill)
    if by is not None:
        b.note(f"(2) {target}<{by}>（强制）：对自己使用的<{skill}>无效")
        return None
    perceive(ctx, source, skill, target, daytime=daytime)
    new = react(ctx, source, skill, target, daytime=daytime)
    if new == target:
        return target
    by = shield(b, b.seat(new), skill)
    if by is not None:
        b.note(f"(2) {new}<{by}>（强制）：转到自己身上的<{skill}>无效")
        return None
    perceive(ctx, source, skill, new, daytime=daytime)
    return new
