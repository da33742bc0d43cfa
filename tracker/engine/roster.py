"""A role assignment checked against the ruleset before the game starts (counts, groups, factions)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tracker.config import PlayerConfig
from tracker.engine.ruleset import Role, Ruleset


@dataclass(frozen=True, slots=True)
class RosterProblem:
    level: Literal["error", "warning"]
    message: str


def check_assignment(ruleset: Ruleset, roster: Sequence[PlayerConfig]) -> list[RosterProblem]:
    """Errors where the game file contradicts the rule post; warnings where a director may mean it."""
    out: list[RosterProblem] = []
    if len(roster) != ruleset.players:
        out.append(RosterProblem("error", f"玩家人数为 {len(roster)}，规则 {ruleset.id} 为 {ruleset.players} 人局"))
    unassigned = [p.name for p in roster if not p.role]
    if unassigned:
        out.append(RosterProblem("warning", f"未写身份的玩家：{'、'.join(unassigned)}（无法检查配置，也不判定胜负）"))
        if len(unassigned) == len(roster):
            return out
    roles: Counter[str] = Counter(p.role for p in roster if p.role)
    for name in roles:
        if ruleset.role(name) is None:
            out.append(RosterProblem("error", f"身份 {name!r} 不在规则 {ruleset.id} 中"))
    if unassigned:
        return out
    for r in ruleset.roles:
        n = roles.get(r.name, 0)
        if not r.count <= n <= r.upper:
            want = str(r.count) if r.max_count is None else f"{r.count}–{r.upper}"
            out.append(RosterProblem("error", f"{r.name} 有 {n} 人，规则为 {want} 人"))
        elif r.counts and n not in r.counts:
            out.append(RosterProblem("error", f"{r.name} 有 {n} 人，规则只允许 {' 或 '.join(map(str, r.counts))} 人"))
    for g in ruleset.role_groups:
        members = {name: c for name, c in roles.items()
                   if (name in g.roles if g.roles else (ruleset.role(name) or _NONE).group == g.name)}
        n = sum(members.values())
        if not g.min <= n <= g.max:
            out.append(RosterProblem("error", f"{g.name} 共 {n} 人，规则为 {g.min}–{g.max} 人"))
        if g.kinds_max is not None and len(members) > g.kinds_max:
            out.append(RosterProblem("error", f"{g.name} 有 {len(members)} 种身份（{'、'.join(sorted(members))}），"
                                              f"规则只选 {g.kinds_max} 种"))
    factions: Counter[str] = Counter()
    for p in roster:
        role = ruleset.role(p.role or "")
        faction = p.faction or (role.faction if role else None)
        if faction is None:
            continue
        try:
            faction = ruleset.faction(faction).name
        except Exception:
            out.append(RosterProblem("error", f"{p.name} 的阵营 {p.faction!r} 不在规则 {ruleset.id} 中"))
            continue
        factions[faction] += 1
        if role is not None and faction != role.faction:
            out.append(RosterProblem("warning", f"{p.name} 的身份 {role.name} 属于{role.faction}阵营，游戏文件写的是{faction}"))
    for f in ruleset.factions:
        if f.size is not None and factions.get(f.name, 0) != f.size:
            out.append(RosterProblem("error", f"{f.name}阵营 {factions.get(f.name, 0)} 人，规则为 {f.size} 人"))
    return out


_NONE = Role(name="", faction="")


def example_assignment(ruleset: Ruleset) -> list[str]:
    """A role list that satisfies the ruleset (for `tracker init`): exact counts, then ranges within limits."""
    chosen: list[str] = []
    for r in ruleset.roles:
        chosen += [r.name] * r.count
    groups = {g.name: g.max for g in ruleset.role_groups}
    sizes = {f.name: f.size for f in ruleset.factions}
    for r in ruleset.roles:
        while len(chosen) < ruleset.players and chosen.count(r.name) < r.upper:
            in_group = sum(1 for c in chosen if (ruleset.role(c) or _NONE).group == r.group) if r.group else 0
            in_faction = sum(1 for c in chosen if (ruleset.role(c) or _NONE).faction == r.faction)
            if r.group and in_group >= groups.get(r.group, 99):
                break
            size = sizes.get(r.faction)
            if size is not None and in_faction >= size:
                break
            chosen.append(r.name)
    return chosen
