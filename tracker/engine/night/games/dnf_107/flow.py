"""致死伤害结算流程: one lethal damage through the post's five checks, then 长寿/夜之隐, then 出局.

"（1）如果该角色是告死者，此次致死伤害无效。（2）……<祝福>……（3）……<防反>……（4）……<初拥>……
（5）……<死灵咒>……当角色出局后，如果该角色发动了<陷阱>，则<陷阱>的目标立即受到一次致死伤害。"

The same walk serves step (11) (a dry run, the hooks' ``preview``: who is still to go out after check (4),
the list the data's <告死> tells and <死灵咒> chooses from) and step (13) (the real one), so the list the
告死者 sees is computed by the very rules that settle the night. The checks ask the data: (1) 不朽 and (2) 祝福
are protections, (3) 防反 a cover, (4) 初拥 a damage's ``flips_instead``, (5) 死灵咒 a protection's. 长寿 and 夜之隐 ("免疫自身受到的第一次致死伤害") come after the five checks: a
damage the flow already cancelled was never suffered (the shared example N01 reads it so).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tracker.engine.night import tonight
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import TargetIs
from tracker.engine.night.effects import (
    Cover,
    Guard,
    Pool,
    saved,
    spend_guard,
    spend_standing,
    standing,
    take_cover,
    turns,
)
from tracker.engine.night.games.dnf_107.common import flip

CL_FLOW = "致死伤害结算流程："
CL_TRAP = "当角色出局后，如果该角色发动了<陷阱>，则<陷阱>的目标立即受到一次致死伤害。"


@dataclass(frozen=True, slots=True)
class Hit:
    """One [致死伤害]: on whom, by which skill, from whom (a player or a team's name)."""

    target: str
    skill: str
    source: str
    step: str = "(13)"
    #: The cause its effect names (``cause``: 啃咬（活尸）, a team's), else the skill and who dealt it.
    said: str | None = None
    #: Its effect's ``flips_instead`` and ``reason`` (初拥: a human it would take out flips instead, check (4)).
    flips_instead: TargetIs | None = None
    reason: str | None = None

    @property
    def cause(self) -> str:
        return self.said or f"{self.skill}（{self.source}）"


@dataclass(slots=True)
class Guards:
    """What stands between a hit and 出局 this phase; the dry run works on a copy."""

    shields: dict[str, list[Guard]] = field(default_factory=dict)  # <祝福>, <死灵咒>: protections spent by one hit
    counter: dict[str, Cover] = field(default_factory=dict)  # 剑士/学者 → <防反> (a cover)
    traps: dict[str, str] = field(default_factory=dict)     # 游荡者 → <陷阱> target
    stealth: str | None = None                                # the 游荡者 under <潜行>
    out: set[str] = field(default_factory=set)
    flipped: set[str] = field(default_factory=set)

    def copy(self) -> Guards:
        return Guards({t: list(gs) for t, gs in self.shields.items()}, dict(self.counter), dict(self.traps), self.stealth,
                      set(self.out), set(self.flipped))


class Flow:
    """Walks hits through the flow. ``dry``: only record who would go out (step (11))."""

    def __init__(self, board: Board, guards: Guards, *, dry: bool = False) -> None:
        self.board = board
        self.g = guards
        self.dry = dry
        self.would_go: list[str] = []

    def _note(self, line: str) -> None:
        if not self.dry:
            self.board.note(line)

    def hit(self, h: Hit) -> None:
        b, g, t = self.board, self.g, h.target
        seat = b.seat(t)
        if not seat.alive or t in g.out:
            self._note(f"{h.step} {t}已出局，{h.cause}不再生效")
            return
        if g.stealth == t and h.source != t:
            if not self.dry:
                b.survive(t, f"<潜行>：当晚不受任何其他角色的技能效果影响（{h.skill}无效）")
            return
        held = standing(b, seat, h.skill, 1, self._faction(h.source), self._phase())
        if held is not None:  # （1）告死者 <不朽>: a protection never spent (its ``reason`` says the clause)
            if not self.dry:
                b.survive(t, held[1].reason.format(skill=h.skill, actor=t, target=t) if held[1].reason
                          else f"{t}<{held[0].name}>")
            return
        stop = spend_guard(g.shields, t, h.skill, 1, lambda x: x.flips_instead is None)  # （2）<祝福>: spent by this hit
        if stop is not None:
            if not self.dry:
                b.survive(t, stop.saves(t, h.skill))
            return
        if t in g.counter:  # （3）<防反>: a cover, the hit passes on
            to = g.counter[t].target
            self._note(f"{h.step} 致死伤害结算流程（3）：{t}发动了<防反> → {h.skill}改为对{to}结算，<防反>消耗")
            if self.dry:
                g.counter.pop(t)
            else:
                b.survive(t, (take_cover(b, g.counter, t, h.skill) or (to, ""))[1])
            self.hit(replace(h, target=to))
            return
        if (h.flips_instead is not None and t not in g.flipped
                and tonight.matches(b, Pool(), h.flips_instead, t)):  # （4）<初拥>: the damage's flips_instead
            g.flipped.add(t)
            if not self.dry:
                b.note(f"{h.step} 致死伤害结算流程（4）：{t}属于人类，此次伤害为<{h.skill}>造成 → 不出局且翻转身份")
                b.survive(t, (h.reason or "<{skill}>使其不出局并翻转身份").format(skill=h.skill, actor=h.source, target=t))
                flip(b, t, h.skill)
            return
        if self.dry:
            self.would_go.append(t)
            g.out.add(t)
            trap = g.traps.pop(t, None)
            if trap is not None:
                self.hit(Hit(trap, "陷阱", t, h.step))
            return
        turn = spend_guard(g.shields, t, h.skill, 1, lambda x: turns(b, None, x, t) is True)
        if turn is not None:  # （5）<死灵咒>: a protection that turns a human it saves (``flips_instead``)
            g.flipped.add(t)
            b.note(f"{h.step} 致死伤害结算流程（5）：{t}属于人类且为当夜<{turn.skill}>目标 → 不出局且翻转身份")
            saved(b, turn, t, h.skill)
            return
        if self._spare(t, h):
            return
        self._out(h)

    def _phase(self) -> str:
        return "night" if self.board.night is not None else "day"

    def _faction(self, source: str) -> str:
        return self.board.seat(source).faction if self.board.has(source) else ""

    def _spare(self, t: str, h: Hit) -> bool:
        """After the five checks, a protection spent by the first hit it stops (长寿, 夜之隐: ``once``
        standing protections): a damage the flow already settled was never suffered."""
        b = self.board
        seat = b.seat(t)
        held = standing(b, seat, h.skill, 1, self._faction(h.source), self._phase(), once=True)
        if held is None:
            return False
        b.note(f"{h.step} {t}（{h.skill}）：致死伤害结算流程（1）–（5）均不适用；这是{seat.role}受到的第一次致死伤害 → "
               f"<{held[0].name}>免疫，就此用掉")
        b.survive(t, spend_standing(b, seat, *held, h.skill))
        return True

    def _out(self, h: Hit) -> None:
        b, t = self.board, h.target
        b.note(f"{h.step} {t}（{h.skill}）：非告死者、无祝福、非发动防反者、非初拥、非死灵咒目标 → 出局")
        self.g.out.add(t)
        b.kill(t, h.cause)
        trap = self.g.traps.pop(t, None)
        if trap is not None:
            b.note(f"{h.step} 陷阱：{t}出局 → <陷阱>目标{trap}立即受到一次致死伤害")
            self.hit(Hit(trap, "陷阱", t, h.step))

    def dry_run(self, hits: list[Hit]) -> list[str]:
        for h in hits:
            self.hit(h)
        return self.would_go
