"""What a new identity sets off by itself: the skills of a role whose ``trigger`` is ``on = "gain"``.

Posts give some roles a 强制/锁定 skill that acts the moment a player becomes that role, whatever made him
(107 灵能<强制> "恶灵诞生时，[亡灵圣物]的<诅咒>技能次数+1"; 夜之眼 "夜行怪加入游戏时，得知当前【亡灵圣物】持有者的
身份"). A flip (:func:`tracker.engine.night.flips.flip`) and a ``convert`` to a new role both ask here, so a
game's hook step and a data effect that make the same identity set off the same thing.
"""

from __future__ import annotations

from tracker.engine.night import effects
from tracker.engine.night.board import Board
from tracker.engine.night.model import Action, Seat


def gained(board: Board, seat: Seat) -> None:
    """The new role's ``gain`` skills act, the player himself acting with no target, in the night file's order."""
    for skill in board.catalog.skills_of(seat.role):
        if skill.trigger is None or skill.trigger.on != "gain":
            continue
        use = effects.Use(f"{seat.name}成为{seat.role}时", Action(seat.name, skill.name, index=-1), skill, seat.name)
        for e in skill.effects:
            effects.apply(board, effects.Pool(), use, e, None, _out(board))


def _out(board: Board) -> effects.Out:
    def out(player: str, cause: str) -> None:
        board.kill(player, cause)
    return out
