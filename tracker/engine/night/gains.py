"""What a new identity or a new mark sets off by itself: the skills whose ``trigger`` is ``on = "gain"``.

Posts give some roles a 强制/锁定 skill that acts the moment a player becomes that role, whatever made him
(107 灵能<强制> "恶灵诞生时，[亡灵圣物]的<诅咒>技能次数+1"; 夜之眼 "夜行怪加入游戏时，得知当前【亡灵圣物】持有者的
身份"). A flip (:func:`tracker.engine.night.flips.flip`) and a ``convert`` to a new role both ask here, so a
game's hook step and a data effect that make the same identity set off the same thing. A skill whose trigger
names ``marks`` acts instead when its holder comes to carry one of them (M19 背叛 "当绑匪成为情侣时，失去<设计>
<灭口><绑架>，并得知人质马甲"): a ``mark`` effect and a game's hook step that gives the mark both ask
:func:`marked`.
"""

from __future__ import annotations

from tracker.engine.night import effects, joins
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Action, Seat


def gained(board: Board, seat: Seat) -> None:
    """The new role's ``gain`` skills act, the player himself acting with no target, in the night file's order; one
    that shares a team's group (``joins_team``) tells him and its players of each other ("互知")."""
    for skill in board.catalog.skills_of(seat.role):
        joins.known(board, seat, skill)
        if skill.trigger is None or skill.trigger.on != "gain" or skill.trigger.marks:
            continue
        _act(board, seat, skill, f"{seat.name}成为{seat.role}时")


def marked(board: Board, seat: Seat, mark: str) -> None:
    """The ``gain`` skills whose ``marks`` name ``mark``, held by the player who has just come to carry it, act,
    the player himself acting with no target, in the night file's order (M19 背叛, 逃脱 "当……成为情侣时")."""
    for skill in board.catalog.skills.values():
        if skill.trigger is not None and skill.trigger.on == "gain" and mark in skill.trigger.marks and holds(seat, skill):
            _act(board, seat, skill, f"{seat.name}获得{mark}时")


def lost_by_mark(board: Board, seat: Seat, key: str) -> str | None:
    """The ``gain`` skill (held) whose mark the player carries and whose ``lose`` takes the skill counted as ``key``: it
    acted when he came to carry the mark, so he has lost that skill, whatever a table written by hand records of his
    uses (M19 逃脱 "当人质成为情侣时，失去<遇难><遗志>": a 人质 carrying a lover's mark); None: no such skill."""
    for skill in board.catalog.skills.values():
        t = skill.trigger
        if (t is not None and t.on == "gain" and any(m in seat.tags for m in t.marks) and holds(seat, skill)
                and any(e.kind == "lose" and e.loses == key for e in skill.effects)):
            return skill.name
    return None


def _act(board: Board, seat: Seat, skill: Skill, step: str) -> None:
    use = effects.Use(step, Action(seat.name, skill.name, index=-1), skill, seat.name)
    for e in skill.effects:
        effects.apply(board, effects.Pool(), use, e, None, _out(board))


def _out(board: Board) -> effects.Out:
    def out(player: str, cause: str) -> None:
        board.kill(player, cause)
    return out
