"""``one_victim``: of the players a submission chose, ONE is struck (M160 【凶杀】 "你选择的玩家中会有一名存活的非
【群内】的玩家受到来源于你的【致死杀害】"), and ``shares_victim``: the holders of one skill share that one victim a
phase (双生暗影【镜像】 "你们不能杀害彼此，而且每晚只会有一名玩家被杀害").

The choice is made before the submissions are settled, over all of them at once, because one victim among several
players (or several submissions) is a question for the director, never the first name written; the settlement then
strikes that one player only, by the skill's own effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from tracker.engine.night.catalog import Effect, Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.effects import Use, takes_hold
from tracker.engine.night.model import Action

if TYPE_CHECKING:
    from tracker.engine.night.flow import Flow


def the_effect(skill: Skill) -> Effect | None:
    """The skill's ``damage`` with ``one_victim``, if it has one."""
    return next((e for e in skill.effects if e.kind == "damage" and e.one_victim), None)


def candidates(flow: Flow, skill: Skill, action: Action, step: str, among: Sequence[str] | None = None) -> list[str]:
    """The players ``action`` chose (after the redirects; ``among``: these instead, as they stand) who can be struck:
    alive, the effect taking hold on them (``when_target``, ``unless_target``), no protection of this phase stopping
    it ("你在当晚不会死亡")."""
    b, pool = flow.board, flow.pool
    effect = the_effect(skill)
    assert effect is not None
    use = Use(step, action, skill, action.members[0] if action.members else action.actor)
    out: list[str] = []
    for t in dict.fromkeys(flow.targets(action) if among is None else among):
        if not b.has(t) or not b.seat(t).alive or not takes_hold(b, pool, use, effect, t):
            continue
        if any((skill.name in g.stops or "*" in g.stops) and g.strength >= effect.strength
               for g in pool.guards.get(t, ())):
            continue
        out.append(t)
    return out


def pick(flow: Flow, skill: Skill, actions: Sequence[Action], step: str) -> list[Action]:
    """The submissions to settle, each narrowed to its one victim; the others strike nobody (logged)."""
    b = flow.board
    effect = the_effect(skill)
    assert effect is not None
    groups: dict[str, list[Action]] = {}
    shared: dict[str, Skill] = {}
    for a in actions:
        me = a.members[0] if a.members else a.actor
        share = next((s for s in b.catalog.skills.values() if s.shares_victim == skill.name
                      and b.has(me) and holds(b.seat(me), s)), None)
        key = share.name if share is not None else f"·{a.index}"
        if share is not None:
            shared[key] = share
        groups.setdefault(key, []).append(a)
    out: list[Action] = []
    for key, acts in groups.items():
        flow.done.update(a.index for a in acts)
        pairs: list[tuple[Action, str]] = []
        for a in acts:
            ok = candidates(flow, skill, a, step)
            chosen = "、".join(flow.targets(a)) or "无"
            b.note(f"{step} {_who(a)}<{skill.name}>：选择的玩家{chosen}，可受到<{skill.name}>的：{'、'.join(ok) or '无'}")
            pairs.extend((a, t) for t in ok)
        if not pairs:
            b.note(effect.empty.format(step=step))
            continue
        a, t = pairs[0]
        if len(pairs) > 1:
            share = shared.get(key)
            who = "、".join(dict.fromkeys(_who(x) for x, _ in pairs))
            why = f"<{share.name}>：{share.clause}" if share is not None else (effect.clause or skill.clause)
            taken = b.ask(skill.name, f"{who}选择的玩家中谁受到<{skill.name}>（{why}）",
                          [f"{_who(x)}:{y}" for x, y in pairs])
            a, t = next((x, y) for x, y in pairs if f"{_who(x)}:{y}" == taken)
        for other in acts:
            if other is not a and key in shared:
                b.note(f"{step} {_who(other)}<{skill.name}>：不再有人受到（<{key}>：{shared[key].clause}）")
        flow.pool.substituted[a.index] = (t,)
        out.append(replace(a, targets=(t,)))
    return out


def _who(action: Action) -> str:
    return action.members[0] if action.members else action.actor
