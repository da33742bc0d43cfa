"""The refusals every post states the same way, read from the skill's data keys.

One function, :func:`refusal`, decides whether a submission may enter settlement at all: a dead or
benched actor, a skill the day's tally settles (``tally``), a 强制 skill that acts by itself on its holder's exit
(``trigger.forced``), a skill the actor's role does not have, the wrong phase, no uses left, a "*" skill
on the first night, the same target twice running, a cooldown, a self-target the post forbids,
a target who is not in the game. Anything the post decides later in its order (a skill blocked by
another, an effect cancelled) is not a refusal: the game's hooks settle it and the log says why.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

from tracker.engine.night.catalog import Catalog, Form, Skill
from tracker.engine.night.model import PHASE_NAMES, Action, Seat, Table

#: The internal phase names in the director's words (model.PHASE_NAMES read backwards), for messages.
PHASE_WORDS = {**{name: word for word, name in PHASE_NAMES.items()}, "passive": "（被动）", "any": "任意时刻"}


def misdealt(catalog: Catalog, table: Table) -> str | None:
    """Why the table breaks a rule of the deal a skill states (``never_believed_by``: M160 觉醒 "你不可能是恶魔"),
    or None. Such a table cannot be settled: no step of the post's order is written for it."""
    for skill in catalog.skills.values():
        if not skill.never_believed_by:
            continue
        for seat in table.players.values():
            believes = seat.fields.get("believes")
            if seat.role in skill.never_believed_by and believes in skill.roles:
                return f"{seat.name}是{seat.role}，不能认为自己是{believes}（{skill.clause}）"
    return None


def holds(seat: Seat, skill: Skill) -> bool:
    """The role has it, a counter says the player got it (拓印, 超度 …), a mark carries it (107's
    亡灵圣物; M19 殉情: any of the lovers' marks, ``tags``), or it is a skill of the role the player ``believes`` he has (M160 附体 and 迷失: he
    submits them; the game's hooks decide their effect)."""
    return (seat.role in skill.roles or skill.name in seat.uses or (skill.tag is not None and skill.tag in seat.tags)
            or any(t in seat.tags for t in skill.tags) or seat.fields.get("believes") in skill.roles)


def spent_with(seat: Seat, skill: Skill) -> bool:
    """``lost_with``: every one of those counts of the seat is spent, so the skill is lost (M19 "当<灭口><绑架>技能都发动后，
    绑匪失去<设计>"), whatever its own count still says (a table written by hand)."""
    return bool(skill.lost_with) and all(
        (left := seat.uses.get(k)) is False or (isinstance(left, int) and not isinstance(left, bool) and left <= 0)
        for k in skill.lost_with)


def _phase_of(table: Table, action: Action) -> str:
    if action.phase:
        return action.phase
    return "night" if table.night is not None else (table.phase or "day")


def _out_after_cast(table: Table, action: Action, skill: Skill, seat: Seat, day: int | None) -> bool:
    """A ``tonight`` skill's day submission at night whose user went out later that same day: he cast it
    before going out, and it holds (M65 天璇紫后 "游戏日白天任意时刻……使得该玩家当晚无法使用任何技能")."""
    out = seat.fields.get("出局")
    return (skill.tonight and action.phase == "day" and table.night is not None and day is not None
            and isinstance(out, dict) and out.get("day") == day)


def refused_now(table: Table, player: str, skill: Skill, day: int | None,
                refuse: Callable[[Table, Action], str | None] | None) -> str | None:
    """Why a submission of ``skill`` by ``player`` would be refused at this point of the phase, its targets still
    to choose — the generic refusals, then the game's own (``GameHooks.refuse``) — or None: he could use it now.
    One question for whoever asks whether a player *can* act, whatever he submitted: M160【唆使】's ``locks``
    ("当你能发动此技能时") and 【哥谭】's ``idle`` ("需要操作的夜晚")."""
    probe = Action(player, skill.name)
    why = refusal(table, probe, replace(skill, min_targets=0), day=day)
    return why if why is not None or refuse is None else refuse(table, probe)


def refusal(table: Table, action: Action, skill: Skill, granted: Collection[str] = (), *,
            joined: bool = False, day: int | None = None) -> str | None:
    """Why this submission cannot be settled, in Chinese, or None if it may enter settlement.

    ``granted``: skills the actor may use this phase beyond his role's (the hook's ``grants``, e.g.
    M65 <技能掠夺>: "下一夜晚你可以使用该角色的任一非强制技能"). A lent skill skips the role and
    phase checks — the grant itself says when it may be used — and keeps every other check. ``joined``: the
    team skill is sent by players who are its team's members by another skill (``joins_team`` read ``acts``: 107
    统御), so their not holding it is no refusal. ``day``: the
    game day this phase belongs to (a night: the day before it), for the limits counted by days.
    """
    if skill.tally is not None:
        return f"<{skill.name}>由白天的计票结算（[voting] {skill.tally}），无需提交"
    if skill.trigger is not None and skill.trigger.forced:
        acts = ("出局时" if skill.trigger.on == "exit" else "在其结算步骤" if skill.trigger.on in ("step", "idle") else
                f"获得{'、'.join(skill.trigger.marks)}时" if skill.trigger.marks else "获得该身份时")
        return f"<{skill.name}>是强制技能，{acts}自行发动，无需提交"
    lent = skill.name in granted
    members = action.members
    team = action.team
    if not members and skill.team is None:
        return f"{action.actor}不是玩家，不能发动<{skill.name}>"
    if team is not None and skill.team is not None and team != skill.team:
        return f"{skill.name}是{skill.team}的团队技能"
    for m in members:
        if m not in table.players:
            return f"没有玩家 {m}"
        seat = table.players[m]
        if not seat.alive and not skill.actor_may_be_dead and not _out_after_cast(table, action, skill, seat, day):
            return f"{m}已{seat.life or '出局'}，不能发动技能"
        if seat.benched:
            return f"{m}处于挂机状态，不能发动技能"
        if skill.team is None and not skill.gained and not holds(seat, skill) and not lent:
            return f"{m}（{seat.role}）没有技能<{skill.name}>"
    if skill.team is not None and team is None and not skill.gained and not joined \
            and not any(holds(table.players[m], skill) for m in members):
        return f"<{skill.name}>是{skill.team}的团队行动，应以团队提交"
    phase = _phase_of(table, action)
    if skill.phase not in ("passive", "any") and phase not in skill.allowed_phases and not lent:
        want = "/".join(PHASE_WORDS.get(p, p) for p in skill.allowed_phases)
        return f"<{skill.name}>只能在{want}发动（本次为{PHASE_WORDS.get(phase, phase)}）"
    night = table.night
    if night is not None:
        if skill.not_first_night and night == 1:
            return f"<{skill.name}>首夜不能发动"
        if skill.first_night_only and night != 1:
            return f"<{skill.name}>只能在第一夜发动"
        if skill.from_night is not None and night < skill.from_night:
            return f"<{skill.name}>第{skill.from_night}夜起才能发动"
    if skill.uses is not None and members:
        left = table.players[members[0]].uses.get(skill.uses)
        if left is not None and (left is False or (not isinstance(left, bool) and left <= 0)):
            return f"<{skill.name}>已没有使用次数"
    if members and spent_with(table.players[members[0]], skill):
        return f"{''.join(f'<{k}>' for k in skill.lost_with)}技能都发动后，失去<{skill.name}>"
    goal = table.players[members[0]].fields.get(skill.only_kept) if skill.only_kept is not None and members else None
    if goal is not None and any(t != goal for t in action.targets):  # kept already: refused as submitted
        return f"<{skill.name}>只能对{skill.only_kept}（{goal}）发动"  # (none kept yet: asked at its step)
    n = len(action.targets)
    if not skill.min_targets <= n <= skill.max_targets:
        want = (str(skill.min_targets) if skill.min_targets == skill.max_targets
                else f"{skill.min_targets}–{skill.max_targets}")
        return f"<{skill.name}>需要 {want} 个目标（提交了 {n} 个）"
    if len(set(action.targets)) != n:
        return f"<{skill.name}>的目标重复"
    for t in action.targets:
        if t not in table.players:
            return f"没有玩家 {t}"
        target = table.players[t]
        if skill.target_dead and target.alive:
            return f"<{skill.name}>只能选择已出局的玩家（{t}仍存活）"
        if not skill.target_dead and not skill.target_alive_or_dead and not target.alive:
            return f"{t}已{target.life or '出局'}，不能成为<{skill.name}>的目标"
        if t in members:
            if skill.self_target == "never":
                return f"<{skill.name}>不能选择自己"
            if skill.self_target == "first_night" and night != 1:
                return f"<{skill.name}>仅第一晚可以选择自己"
        elif skill.self_target == "only":
            return f"<{skill.name}>只能选择自己"
    if skill.no_repeat and skill.phase == "day":  # counted by game days: {target, day}
        last = table.state.get(skill.no_repeat)
        if isinstance(last, dict) and day is not None and last.get("day") == day - 1 \
                and last.get("target") in action.targets:
            return f"<{skill.name}>不能连续两天选择同一名玩家（第{day - 1}天已选{last.get('target')}）"
    elif skill.no_repeat and night is not None:
        last = table.state.get(skill.no_repeat)
        if isinstance(last, dict) and last.get("night") == night - 1 and last.get("target") in action.targets:
            return f"<{skill.name}>不能连续两晚选择同一名玩家（第{night - 1}夜已选{last.get('target')}）"
    if skill.once_per_target:
        taken = table.state.get(skill.once_per_target)
        again = next((t for t in action.targets if isinstance(taken, list) and t in taken), None)
        if again is not None:
            return f"每名玩家仅可以被选择一次（{again}已被<{skill.name}>选择过）"
    if skill.cooldown and skill.cooldown_key:
        last = table.state.get(skill.cooldown_key)
        when = table.night if table.night is not None else table.day
        key = "night" if table.night is not None else "day"
        if isinstance(last, dict) and isinstance(last.get(key), int) and when is not None \
                and when - last[key] < skill.cooldown:
            return f"<{skill.name}>每{skill.cooldown}{'夜' if key == 'night' else '天'}只能发动一次（上次：第{last[key]}{'夜' if key == 'night' else '天'}）"
    for e in skill.effects:  # 投降: the choice names the faction that gives up (M19 狼人 / 黑情侣), or the only one
        if e.kind == "concede" and (action.choice or "").strip() not in (*e.factions, *([""] if len(e.factions) == 1 else [])):
            return f"只有{'、'.join(f + '阵营' for f in e.factions)}可以<{skill.name}>（choice 写阵营）"
    if ((skill.effects and all(e.standing for e in skill.effects))  # held by itself (213 主宰黑夜<强制>)
            or (skill.effects and all(e.while_alive is not None for e in skill.effects))  # 107 集群<强制>
            or skill.last_words):  # 213 绝笔: a right to 遗言, nothing to submit
        return f"<{skill.name}>无需发动：技能效果自动结算"
    form = chosen_form(table.players[members[0]], skill) if members else None
    if form is not None and form.targets is not None and n != form.targets:  # M65 空之瞭望 持续 1 个、枯竭 2 个
        return f"<{skill.name}>（{form.name}）需要选定{form.targets}个目标"
    return None


def chosen_form(seat: Seat, skill: Skill) -> Form | None:
    """The one of the skill's ``forms`` the seat chose (his ``choice`` starts with its name), when he holds it by role;
    None when he has not chosen, or holds every form (gained in play: M65 缥缈永恒 "抉择中的两种选项技能都将拥有")."""
    if seat.role not in skill.roles:
        return None
    choice = str(seat.fields.get("choice") or "")
    return next((f for f in skill.forms if choice.startswith(f.name)), None)
