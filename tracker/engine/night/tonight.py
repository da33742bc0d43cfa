"""What holds for one phase only, read by the generic engine and the game's hooks alike.

Posts settle many effects "今晚": a status that lasts the night (M160 面具 "他在今晚的【表面阵营】变为
【恶魔】", 明晰, 药剂's 醉酒/清醒), a skill voided while its user is 醉酒 unless a status cancels it
("【清醒】……优先级高于【醉酒】与【中毒】"), a target that may be replaced by another player (抗议 "所有指定
他们作为目标的技能，都可能替换你作为其中一个技能目标"), an effect that takes hold only on a target of a
kind ("当你选中【实际阵营】为【爪牙】的角色时"). They live in the phase's :class:`~.effects.Pool`, never on
the table: the state after the phase does not carry them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill, TargetIs
from tracker.engine.night.model import Action, Seat

if TYPE_CHECKING:
    from tracker.engine.night.effects import Pool

_OF = {"faction": "阵营", "role": "身份", "group": "类型", "tag": "标签"}


def give(pool: Pool, player: str, status: str) -> None:
    """A status for this phase only (``for_phase``)."""
    pool.tonight.setdefault(player, set()).add(status)


def cancelled(board: Board, pool: Pool, player: str, status: str) -> bool:
    """Whether a status the player holds cancels ``status`` (the night file's ``status_cancels``)."""
    return any(status in cancels and holds(board, pool, player, by, plain=True)
               for by, cancels in board.catalog.status_cancels.items())


def holds(board: Board, pool: Pool, player: str, status: str, *, plain: bool = False) -> bool:
    """The player has ``status`` now: on his seat or for this phase, and not cancelled (``plain``:
    whether cancelled or not)."""
    has = status in board.seat(player).status or status in pool.tonight.get(player, ())
    return has and (plain or not cancelled(board, pool, player, status))


def voiding(board: Board, pool: Pool, skill: Skill, members: Sequence[str]) -> tuple[str, str] | None:
    """(player, status): a status of the skill's user that voids it now (``voided_by``), or None."""
    for m in members:
        if board.has(m):
            for status in skill.voided_by:
                if holds(board, pool, m, status):
                    return m, status
    return None


def group(board: Board, seat: Seat, role: str) -> str:
    """A player's role group: his ``type`` (the shared field), else his role's ``group`` in the ruleset."""
    kind = seat.fields.get("type")
    if isinstance(kind, str) and role == seat.role:
        return kind
    found = board.ruleset.role(role) if board.ruleset is not None else None
    return (found.group if found is not None else None) or role


def matches(board: Board, pool: Pool, cond: TargetIs, target: str) -> bool:
    """``when_target``: the target's faction, role or group (actual or 表面) is one of ``values``, or he holds one
    of those statuses (``of`` status)."""
    from tracker.engine.night.effects import surface

    seat = board.seat(target)
    if cond.alive and not seat.alive:  # M19 遗志 "若该角色当时仍存活"
        return False
    if cond.of == "status":  # on the table, or for this phase only (``for_phase``; a game's hooks give them too),
        # and not cancelled by another (``status_cancels``: M160 "【清醒】……优先级高于【醉酒】与【中毒】")
        return any(holds(board, pool, target, v) for v in cond.values)
    if cond.of == "tag":  # on his seat, or on his role in the ruleset (213 狼人、觉醒狼王、恶魔[群内])
        kind = board.ruleset.role(seat.role) if board.ruleset is not None else None
        return any(v in seat.tags or (kind is not None and v in kind.tags) for v in cond.values)
    faction, role = surface(board, seat, pool) if cond.seen == "surface" else (seat.faction, seat.role)
    found = {"faction": faction, "role": role}.get(cond.of) or group(board, seat, role)
    return found in cond.values


def missed(cond: TargetIs, target: str, *, held: bool = False, gone: bool = False) -> str:
    """The log's words for a player the effect does not take hold on: not one of ``values`` (``held``: one of
    them, for ``unless_actor``), or (``gone``) out when ``alive`` asks for a player still in."""
    if gone and cond.alive:
        return f"{target}已出局，无效果"
    if cond.of == "status":
        return f"{target}{'有' if held else '没有'}{'/'.join(cond.values)}状态，无效果"
    if cond.of == "tag":
        return f"{target}{'有' if held else '没有'}{'/'.join(f'[{v}]' for v in cond.values)}标签，无效果"
    seen = "表面" if cond.seen == "surface" else "实际"
    return f"{target}的{seen}{_OF[cond.of]}{'是' if held else '不是'}{'/'.join(cond.values)}，无效果"


def redirect(pool: Pool, actor: str, target: str, skill: str) -> None:
    """``redirect``: later submissions naming ``target`` may name ``actor`` instead (by ``skill``)."""
    pool.redirects.append((actor, target, skill))


def targets(board: Board, pool: Pool, action: Action, answers: Sequence[Action] = ()) -> tuple[str, ...]:
    """A submission's targets once the redirects before its step have had their say: its first target
    that a redirect names may be replaced by the redirecting player (the director's question, seeded),
    or, for a redirect with ``substitute``, by the player the redirecting player's submission of that
    skill among ``answers`` names (107 诡辩替代). Decided once per submission, the first time its targets
    are read."""
    if action.index in pool.substituted:
        return pool.substituted[action.index]
    out = tuple(action.targets)
    me = action.members[0] if action.members else action.actor
    for by, skill in dict.fromkeys((b, s) for b, _, s in pool.redirects):
        marked = {t for b, t, s in pool.redirects if (b, s) == (by, skill)}
        t = next((x for x in out if x in marked), None)
        rule = next((e for e in board.catalog.skill(skill).effects if e.kind == "redirect"), None)
        if rule is not None and rule.moves and action.skill not in rule.moves:
            continue
        if rule is not None and rule.substitute is not None:
            if t is not None and me != by:
                out = _substitute(board, action, answers, out, t, by, skill, rule.substitute)
                break
            continue
        if me == by or t is None or by in out:
            continue
        yes = board.ask(f"{skill}.{me}.{action.skill}", f"<{skill}>：{me}<{action.skill}>的目标{t}是否被{by}替换",
                        ["否", "是"])
        if yes == "是":
            out = tuple(by if x == t else x for x in out)
            board.note(f"{skill}：{me}<{action.skill}>的目标{t}替换为{by}")
        break
    pool.substituted[action.index] = out
    return out


def _substitute(board: Board, action: Action, answers: Sequence[Action], out: tuple[str, ...], t: str, by: str,
                skill: str, substitute: str) -> tuple[str, ...]:
    """``substitute``: the redirecting player's last submission of that skill names who takes ``t``'s place
    (107 诡辩替代 "由学者选择一名其他角色，替代该角色被投票出局"); none, or ``t`` himself: nothing moves."""
    named = [a for a in answers if a.skill == substitute and a.members[:1] == (by,) and a.targets]
    new = named[-1].targets[0] if named else None
    if new is None or new == t:
        board.note(f"<{skill}>：{t}即将成为<{action.skill}>的目标，{by}未以<{substitute}>选择替代者")
        return out
    board.note(f"<{skill}>：{t}即将成为<{action.skill}>的目标 → {by}选择{new}替代之（<{substitute}>）")
    return tuple(new if x == t else x for x in out)
