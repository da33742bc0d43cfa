"""A day of 107: (18) at its start, the day skills, the vote and (19)–(20) after it.

The vote's result comes in as a submission of 放逐投票 (投票出局 / 当选神眷者) so that what it
triggers — 诡辩 replacing the exiled player, 陷阱, 腐化, 虚体, 权术, 馈赠, 传承, 权势 — is settled
here in the post's order instead of in the order the director happens to type events. The night
skills that act on this day (陷阱, 诡辩 of the night before, and a 潜行 that voided them) are given
as submissions with ``phase = "night"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tracker.engine.night.board import Board, latest
from tracker.engine.night.games.dnf_107.common import (
    DAY_END,
    RELIC,
    check_win,
    exit_effects,
    move_relic,
)
from tracker.engine.night.games.dnf_107.flow import Flow, Guards, Hit
from tracker.engine.night.model import Action


@dataclass(slots=True)
class Day:
    """What a day's steps share: its submissions, and the vote's exile once (19)–(20) read it."""

    b: Board
    actions: list[Action]
    day: int
    exiled: str | None = None
    deaths_from: int = 0


def open_day(board: Board, actions: list[Action]) -> Day:
    return Day(board, actions, board.table.day or 0)


def dawn(d: Day) -> None:
    """On day 1 the 慰魂师's 灵魂链接 list (the (18) before it, 夜之心 and 追踪, is data)."""
    b, day = d.b, d.day
    if day == 1 and b.table.phase in (None, "晨曦"):
        temple = [s.name for s in b.living() if s.faction == "圣殿"]
        for s in b.living():
            if s.role == "慰魂师":  # 灵魂链接："游戏开始时，慰魂师得知其他圣殿阵营角色"
                b.tell(s.name, f"灵魂链接：其他圣殿阵营角色：{'、'.join(t for t in temple if t != s.name) or '无'}")


def day_skills(d: Day) -> None:
    """The day's own skills, in submission order: 牵制, 教化 (推选首领 and 当选神眷者 are the step before, 夜之躯
    the step after, data: ``mark``, ``convert``)."""
    b, day = d.b, d.day
    for a in d.actions:
        if a.skill == "牵制":
            b.set_state("牵制上次", {"target": a.targets[0], "day": day})
            b.note(f"第{day}天 牵制：民兵共同选择{a.targets[0]} → 其当晚发动的非团队的<普通>和<限定>技能无效")
            b.later("牵制", a.targets[0], f"第{day}夜", b.skill("牵制").clause)
        elif a.skill == "教化":
            teach(b, a, day)


def day_end(d: Day) -> None:
    """A 天谴者 born by day calls down judgement "于当夜结束时"; the win check (第一日白天结束时 藏匿 is the
    data step before)."""
    b, day = d.b, d.day
    pending = b.state.pop("_天谴待定", [])
    for name in pending:
        b.later("天谴", name, f"第{day}夜结束时", b.skill("天谴").clause)
    check_win(b, DAY_END)


def teach(b: Board, a: Action, day: int) -> None:
    t = a.targets[0]
    b.set_state("教化上次", {"target": t, "day": day})
    if b.seat(t).faction != "圣殿":
        b.note(f"第{day}天 教化：{t}不属于圣殿阵营 → 无效果")
        return
    b.note(f"第{day}天 教化：{t}属于圣殿阵营 → 当夜免疫诅咒")
    b.later("教化", t, f"第{day}夜：免疫诅咒", b.skill("教化").clause)
    m = re.search(r"P\d{2}", a.choice or "")
    if m and RELIC in b.seat(t).tags and b.has(m.group(0)) and m.group(0) != t and b.seat(m.group(0)).alive:
        b.note(f"第{day}天 教化：{t}将持有的[亡灵圣物]转交给{m.group(0)}")
        move_relic(b, m.group(0), "教化")
        b.tell(m.group(0), "教化：你获得了[亡灵圣物]")


def exiled(d: Day) -> None:
    """Who the vote put out — the data step before settled <投票出局> (and the <诡辩> that may have moved it,
    "替代该角色被投票出局"): its death, whose cause is the exile skill's, and where the deaths since begin."""
    b = d.b
    for i, x in enumerate(b.result.deaths):
        if x.cause == "投票出局":
            d.exiled, d.deaths_from = x.player, i
            return


def exile(d: Day) -> None:
    """After the vote's exile (and 虚体, its data trigger): the trap it springs."""
    exiled(d)
    b, actions, out = d.b, d.actions, d.exiled
    if out is None:
        return
    seat = b.seat(out)
    g = Guards()
    trap = latest(actions, "陷阱", "night")
    stealth = latest(actions, "潜行", "night")
    # a 潜行 entry of that night voids the trap even when refused here for its spent use
    hid = (stealth is not None and stealth.members == (out,)) or any(
        r.actor == out and r.skill == "潜行" for r in b.result.rejected)
    if trap is not None and trap.members == (out,) and seat.role != "游荡者" and "陷阱" not in seat.uses:
        b.note(f"陷阱：{out}已翻转身份，失去<陷阱>，其效果终止")
    elif trap is not None and trap.members == (out,):
        if hid:
            b.note(f"陷阱：{out}被投票出局，但其设置陷阱的夜晚发动了<潜行>，陷阱已失效")
        else:
            b.note(f"陷阱：{out}被投票出局 → {trap.targets[0]}受到一次致死伤害（白天结束时出局）")
            Flow(b, g).hit(Hit(trap.targets[0], "陷阱", out, "(19)"))


def last_words(d: Day) -> None:
    """(20) 被投票出局的角色可以遗言，得到通知馈赠以及传承 (and whoever went out with him)."""
    if d.exiled is None:
        return
    b = d.b
    for x in list(b.result.deaths[d.deaths_from:]):
        exit_effects(b, b.seat(x.player), x.cause)
        b.note(f"(20) {x.player}得到出局通知，可以遗言")
