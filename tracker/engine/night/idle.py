"""``trigger`` ``on = "idle"``: a rule that falls on whoever had to act this phase and submitted nothing.

M160 丑角【哥谭】 "若一名【实际角色】不是【丑角】的玩家在需要操作的夜晚没有行动，则他会变成【丑角】": the post judges the
night a player *believes* he has (恶魔【附体】 "你认为你是一名[]内的对应身份"; 【迷失】's 村民 "认为自己的身份是煤气灯人"),
so "需要操作" is asked of the skills of his believed role, by the same refusals a submission of them would meet now —
the game's own ``refuse`` included (a 丑角 "在夜晚不能进行任何操作") — and a skill the post lets him leave unused
(``may_skip``: 愚者 "你可以尝试操作两个玩家") never makes a night one he had to act in. A player the night took out
still had to act in it: he is asked about as if still in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tracker.engine.night import effects
from tracker.engine.night.checks import refused_now
from tracker.engine.night.model import Action

if TYPE_CHECKING:
    from tracker.engine.night.catalog import Skill
    from tracker.engine.night.flow import Flow


def act(flow: Flow, skill: Skill, step: str) -> None:
    """The skill's effects on every idle player, in table order, with no submission; the log says when nobody is."""
    board = flow.board
    idle = players(flow)
    if not idle:
        board.note(f"{step} {skill.name}：所有需要操作的玩家都已行动 → 无人触发".strip())
        return
    for player in idle:
        use = effects.Use(step, Action(player, skill.name, (player,), index=-1), skill, player)
        for e in skill.effects:
            effects.apply(board, flow.pool, use, e, player, flow.out)


def players(flow: Flow) -> list[str]:
    """Who was in the game as the phase began (the day's exits it settles aside), had to act, and did not."""
    board = flow.board
    acted = {m for a in flow.actions for m in a.members} | {r.actor for r in board.result.rejected}
    return [p for p in flow.at_start if p not in acted and p not in flow.day_exits and due(flow, p)]


def due(flow: Flow, player: str) -> bool:
    """Whether a skill of the role ``player`` believes he has is one he had to use this phase."""
    board = flow.board
    seat = board.seat(player)
    if not seat.alive:  # out during this phase: he had to act all the same
        seat = replace(seat, alive=True, life=None)
    table = replace(board.table, players={**board.table.players, player: seat})
    believes = seat.fields.get("believes")
    role = believes if isinstance(believes, str) else seat.role
    refuse = board.hooks.refuse if board.hooks is not None else None
    for skill in {id(s): s for s in board.catalog.skills.values()}.values():  # an alias names the same skill
        if (role not in skill.roles or skill.may_skip or skill.phase in ("passive", "setup")
                or skill.trigger is not None or skill.team is not None):
            continue
        if refused_now(table, player, skill, board.game_day, refuse) is None:
            return True
    return False
