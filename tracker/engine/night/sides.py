"""Which faction a player counts in when a skill judges him, and whose faction dealt an exit.

A post's count of a faction reads the player's own and his role's ``also_factions`` (107 "夜行怪在结算时同时计入
亡灵阵营与守夜人所属阵营"); a game may also say that a skill judging by 实际阵营 takes a player for another side
(213 伪装（4）"在实际阵营为[村民阵营]的以[实际阵营]判断的技能中，以自己为村民阵营进行判定"): its ``judged`` hook.
A trigger's ``by_factions`` and an effect's ``to = "factions"`` read both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill
from tracker.engine.night.model import Seat

#: A team's members in this settlement: (skill, team) → the members of its submission, or None.
Members = Callable[[str, str], Sequence[str] | None]


def counts_in(board: Board, seat: Seat, factions: Sequence[str], skill: Skill | None = None) -> bool:
    """The player counts in one of ``factions``: his own (as the game's ``judged`` hook has ``skill`` judge it), or
    one his role's ``also_factions`` names."""
    role = board.ruleset.role(seat.role) if board.ruleset is not None else None
    hooks = board.hooks
    own = hooks.judged(board, seat, skill) if hooks is not None and hooks.judged is not None and skill is not None \
        else seat.faction
    mine = {own, *(role.also_factions if role is not None else ())}
    return not mine.isdisjoint(factions)


def dealt_by(board: Board, cause: str, factions: Sequence[str], skill: Skill | None = None,
             members: Members | None = None) -> bool:
    """The exit's ``cause`` is a skill used by a player of one of ``factions`` (a trigger's ``by_factions``: 107 神恩
    "被亡灵阵营角色击杀"), as ``skill`` (the trigger's) judges him: the user its detail names (``偷袭（P03）``, whatever
    follows the detail: 213 ``毒药（P04），[穿透]``); a detail naming a team (``啃咬（活尸）``), all the members of that
    team's submission (``members``), else every role holding the skill in the ruleset. A cause that is no skill: no
    one's. Several harms at once (their causes joined by ``；``, 213): any of them."""
    return any(_dealt(board, part, factions, skill, members) for part in cause.split("；"))


def _dealt(board: Board, cause: str, factions: Sequence[str], skill: Skill | None, members: Members | None) -> bool:
    name, _, rest = cause.partition("（")
    used = board.catalog.skills.get(name)
    if used is None:
        return False
    user = rest.split("）", 1)[0]
    if board.has(user):
        return counts_in(board, board.seat(user), factions, skill)
    team = members(used.name, user) if members is not None and user else None
    if team:
        return all(counts_in(board, board.seat(m), factions, skill) for m in team if board.has(m))
    roles = [board.ruleset.role(r) if board.ruleset is not None else None for r in used.roles]
    return bool(roles) and all(r is not None and r.faction in factions for r in roles)
