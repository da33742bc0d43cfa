"""The information and conversion skills of a 107 night, and its morning.

Split from :mod:`.night` only for length: each function is one skill of steps (3)–(4), (17) or
the morning 公示, and reads the same :class:`~.night.Night` state (voids, stealth, guards).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tracker.engine.night.games.dnf_107.common import RELIC, UNDEAD, flip, is_undead, relic, relic_holder
from tracker.engine.night.model import Action

if TYPE_CHECKING:
    from tracker.engine.night.games.dnf_107.night import Night


def rubbing(nt: Night, a: Action) -> None:
    """拓印: two humans → learn and take one skill; human + 亡灵 → a skill or flip; two 亡灵 → flip."""
    b, me = nt.b, a.members[0]
    ts = nt.reach(a.targets, me, "(3)")
    humans = [t for t in ts if not is_undead(b.seat(t))]
    dead = [t for t in ts if is_undead(b.seat(t))]
    if not ts:
        return
    if humans:
        told = "；".join(f"{t}的身份技能：{'、'.join(skills_of(nt, b.seat(t).role))}" for t in humans)
        b.tell(me, f"拓印：{told}")
    offered = [s for t in humans for s in skills_of(nt, b.seat(t).role)]
    if dead and not humans:
        b.note(f"(3) 拓印：{'、'.join(ts)}均属于亡灵阵营 → 学者{me}翻转身份")
        flip(b, me, "拓印")
        return
    b.note(f"(3) 拓印：{me}选择{'、'.join(ts)}（人类：{'、'.join(humans) or '无'}；亡灵：{'、'.join(dead) or '无'}）")
    choice = picked(a.choice, offered)
    if dead and choice is None and "翻转" in (a.choice or ""):
        choice = "翻转"
    if dead and choice == "翻转":
        b.note(f"(4) 拓印：学者{me}选择翻转自身身份")
        flip(b, me, "拓印")
    elif choice in offered:
        sk = b.skill(choice)
        b.seat(me).uses[choice] = 1 if sk.kind == "限定" else True
        b.result.state_after[f"{me}.拓印获得"] = choice
        b.note(f"(4) 拓印：学者{me}选择获得<{choice}>（在原版之后结算）")
        b.tell(me, f"拓印：你获得了<{choice}>")
    else:
        b.note(f"(4) 拓印：学者{me}未选择可获得的技能（可选：{'、'.join(offered) or '无'}{'、翻转' if dead else ''}）")


def picked(choice: str | None, offered: list[str]) -> str | None:
    """The skill a choice names, as directors write it: "神启", "<神启>", "获得P12的<神启>" — a
    skill in angle brackets first, else the one offered skill the words contain; None if none or
    several do (the log then lists what could be chosen)."""
    text = (choice or "").strip()
    if text in offered:
        return text
    bracketed = [str(s) for s in re.findall(r"[<＜《]([^>＞》]+)[>＞》]", text) if s in offered]
    if len(set(bracketed)) == 1:
        return bracketed[0]
    named = {s for s in offered if s in text}
    return named.pop() if len(named) == 1 else None


def skills_of(nt: Night, role: str) -> list[str]:
    return [s.name for s in nt.b.catalog.skills_of(role) if s.team is None]


def deliver(nt: Night, a: Action) -> None:
    """超度: a dead non-亡灵 player's non-team skill, chosen by the 慰魂师."""
    b, t = nt.b, a.targets[0]
    seat = b.seat(t)
    if seat.faction == UNDEAD:
        b.note(f"(4) 超度：{t}属于亡灵阵营 → 不能获得技能")
        b.tell(a.actor, f"超度：{t}属于亡灵阵营，无法获得其技能")
        return
    offered = skills_of(nt, seat.role)
    choice = picked(a.choice, offered)
    if choice is not None:
        b.seat(a.members[0]).uses[choice] = 1 if b.skill(choice).kind == "限定" else True
        b.result.state_after[f"{a.actor}.超度获得"] = choice
        b.note(f"(4) 超度：{a.actor}选择{t}的<{choice}>获得之")
        b.tell(a.actor, f"超度：你获得了{t}的<{choice}>")
    else:
        b.note(f"(4) 超度：{a.actor}未选择{t}的技能（可选：{'、'.join(offered)}）")
        b.tell(a.actor, f"超度：{t}的非团队技能：{'、'.join(offered)}")


def mastery(nt: Night) -> None:
    b = nt.b
    r = relic(b)
    holder = relic_holder(b)
    if r is None or holder is None:
        return
    seat = b.seat(holder)
    if is_undead(seat) or not seat.alive:
        b.note(f"(17) 认主：持有者{holder}不是人类身份 → 不结算")
        return
    since = r.get("since") or {}
    if "night" in since:
        first_full = int(since["night"]) + 1
    elif "day" in since:
        first_full = int(since["day"])
    else:
        b.note(f"(17) 认主：[亡灵圣物]何时到{holder}手中未记录 → 不结算")
        return
    complete = nt.n - first_full + 1
    if complete >= 2:
        b.note(f"(17) 认主：{holder}以人类身份持有[亡灵圣物]连续度过两个完整的夜晚 → [亡灵圣物]认其为主")
        b.set_state("亡灵圣物认主", holder)
        if "亡灵圣物认主" not in seat.tags:
            seat.tags.append("亡灵圣物认主")
        b.tell(holder, "认主：[亡灵圣物]认你为主")
    else:
        b.note(f"(17) 认主：{holder}以人类身份持有[亡灵圣物]已度过{max(complete, 0)}个完整的夜晚 → 尚未认主")


def revelation(nt: Night) -> None:
    """神启: the target's non-team, non-锁定 skills of the night and their feedback."""
    b = nt.b
    for a in nt.of("神启"):
        if a.index in nt.void:
            continue
        t = a.targets[0]
        cast: list[str] = []
        for x in nt.actions:
            if x.members != (t,) or x.phase not in (None, "night"):
                continue
            sk = b.skill(x.skill)
            if sk.team is None and sk.kind != "锁定" and sk.name not in cast:
                cast.append(sk.name)
        fb = [f.content for f in b.result.feedback if f.to == t and f.content.split("：")[0] in cast]
        text = f"神启：{t}当晚发动的技能：{'、'.join(cast) or '无'}"
        if fb:
            text += f"；反馈：{' / '.join(fb)}"
        b.note(f"(3) 神启：{a.actor}获知{t}当晚发动的非团队且非锁定技能（{'、'.join(cast) or '无'}）及其反馈")
        b.tell(a.actor, text)


def rumours(nt: Night) -> list[str]:
    """The targets <流言> marked tonight (its ``vote`` effect), "如果学者拓印了流言/剑痕，则公示时原版在先":
    a target an original holder (贵族/血族 at night start) chose comes first."""
    b = nt.b
    holders = b.skill("流言").roles
    marks = [m.player for m in b.result.vote_marks if m.name == "流言"]

    def copied(t: str) -> bool:
        return not any(a.skill == "流言" and a.targets[:1] == (t,) and a.index not in nt.void
                       and nt.role_at_start.get(a.members[0] if a.members else "") in holders for a in nt.actions)

    return sorted(marks, key=copied)


def morning(nt: Night) -> None:
    b = nt.b
    day_out = [s.name for s in b.table.players.values()
               if isinstance(s.fields.get("出局"), dict) and s.fields["出局"].get("day") == nt.n]
    night_out = list(b.result.out_order)
    news = b.result.lines[nt.lines_from:]  # announced by the night's data skills (夜之语, 剑痕), in step order
    del b.result.lines[nt.lines_from:]
    b.announce(f"前一天白天出局：{'、'.join(day_out) or '无'}")
    b.announce(f"夜晚出局：{'、'.join(night_out) or '无'}", outs=True)
    god = b.state.get("神眷者")
    b.announce(f"神眷者：{god or '无'}")
    for line in news:
        b.announce(line)
    for t in rumours(nt):
        b.announce(f"流言：{t}被公告记有2票")
    words = night_out + day_out
    if words:
        b.announce(f"遗言：{'、'.join(words)}（若提交）")
    r = relic(b)
    if r is not None:
        b.result.state_after[RELIC] = dict(r)
