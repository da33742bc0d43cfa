"""Casting a skill on a player: 绝对防御 (2) and the nested X step (劫火 净化之焰, 黄王 辐射炫惑).

"X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中。" — so every step that casts a skill on a player
goes through :func:`land`: the 绿王's <绝对防御> voids it (except <绝对切割>), then the target
perceives it (持续) or learns it was used (劫火 枯竭), and may reflect it (劫火 枯竭) or change its
target (黄王 枯竭). Both are data (the skills' ``immune_to`` and ``reacts``), settled by the generic
:mod:`tracker.engine.night.react`; what stays here is which block stops a perception (:meth:`Ctx.stopped`).
One hop only: a reflected or redirected skill is perceived by its new target but not moved again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine.night import react
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Catalog
from tracker.engine.night.effects import Pool
from tracker.engine.night.model import Action
from tracker.engine.night.react import Stopped

from .rules import excepted, shield


@dataclass(slots=True)
class Ctx:
    """One settlement of M65: the board, and what earlier steps decided for later ones."""

    board: Board
    cat: Catalog
    day: int                                   # the 游戏日 (night N follows day N)
    night: bool                                # a night, or a day phase
    pool: Pool                                 # the settlement's pool: the (3) blocks cast on players tonight
    reactions: list[Action] = field(default_factory=list)     # 枯竭 answers: 反弹 / 更改目标
    guns: list[tuple[str, str, int]] = field(default_factory=list)  # (dead holder, cause, at index)
    gun_orders: dict[str, str] = field(default_factory=dict)  # 最后一枪 chosen in advance
    made_guns: dict[str, int] = field(default_factory=dict)   # 机械制造 submitted now: index
    death_at: dict[str, int] = field(default_factory=dict)    # who died at which submission
    extra: set[int] = field(default_factory=set)              # submissions that are a 时间回溯 extra use
    current: int = 10**6                                       # the submission being settled

    def stopped(self, player: str, skill: str, *, passive: bool = False) -> str | None:
        """The block (3) that stops ``player`` using ``skill`` tonight, or None: the blocks' data (``spares``,
        ``spares_kinds``, ``spares_passive``: 飞行头槌 "不包括被动技能和<绝对切割>", 天璇紫后 "不包括强制技能和
        <绝对切割>", 技能掠夺/票权掠夺 "不会受到任何干扰"), asked of the pool. ``passive``: a 持续 perception."""
        kind = self.cat.skills[skill].kind if skill in self.cat.skills else None
        return self.pool.sparing_block(player, skill, kind, passive=passive)


def _stopped(ctx: Ctx, daytime: bool) -> Stopped:
    """A (3) block on the reacting player tonight, as :mod:`tracker.engine.night.react` asks it: a cast of the
    day met its reactions before the night's blocks began."""

    def stop(holder: str, skill: str, passive: bool) -> str | None:
        by = None if daytime else ctx.stopped(holder, skill, passive=passive)
        return None if by is None else f"<{by}>"
    return stop


def perceive(ctx: Ctx, source: str, skill: str, target: str, *, daytime: bool) -> None:
    """X: what the target learns when ``skill`` is cast on him (the night file's ``reacts``)."""
    react.perceive(ctx.board, source, skill, target, label="(X)", stopped=_stopped(ctx, daytime))


def land(ctx: Ctx, source: str, skill: str, target: str, *, daytime: bool = False) -> str | None:
    """The player ``skill`` cast by ``source`` on ``target`` finally takes effect on, or None (无效): 2 first
    (<绝对防御>), then X (``reacts``: perceived, reflected or redirected), 2 again where X moved it."""
    b = ctx.board
    by = shield(b, b.seat(target), skill)
    if by is not None:
        b.note(f"(2) {target}<{by}>（强制）：对自己使用的<{skill}>无效")
        return None
    passed = excepted(b, b.seat(target), skill)
    if passed is not None:  # "不包括<绝对切割>": the step is passed, and the log says so
        b.note(f"(2) {target}<{passed}>不包括<{skill}>")

    def voided(new: str) -> bool:
        found = shield(b, b.seat(new), skill)
        if found is not None:
            b.note(f"(2) {new}<{found}>（强制）：转到自己身上的<{skill}>无效")
        return found is not None

    return react.land(b, source, skill, target, ctx.reactions, label="(X)", stopped=_stopped(ctx, daytime),
                      shield=voided)
