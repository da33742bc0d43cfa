"""``locks``: a skill that, while someone can use it, keeps another from being used.

M160 告死邪魔【唆使】 "当你能发动此技能时，【恶魔】的【凶杀】技能不能发动": the lock holds on whether the skill
*can* be used tonight, not on whether it was — so it is asked of its holders as they stand at the locked skill's
step (in play, on a night it may be used, uses left, not refused by the game's own rules, not blocked, not void),
before the locked skill settles or asks the director anything. One predicate for the generic engine (a locked
data skill) and for a game's hook step that settles a locked skill.
"""

from __future__ import annotations

from tracker.engine.night import tonight
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill
from tracker.engine.night.checks import holds, refused_now
from tracker.engine.night.effects import Pool
from tracker.engine.night.model import Seat


def locked(board: Board, pool: Pool, name: str) -> tuple[str, Skill] | None:
    """(holder, locking skill): a player who can use, now, a skill whose ``locks`` names ``name``; None if nobody can."""
    for skill in _locking(board, name):
        for seat in board.table.players.values():
            if holds(seat, skill) and why_not(board, pool, seat, skill) is None:
                return seat.name, skill
    return None


def unlocked(board: Board, pool: Pool, name: str) -> list[tuple[str, Skill, str]]:
    """(holder, locking skill, why he cannot use it now) for each holder of a skill locking ``name``: what the log
    tells the director when the lock does not hold (M160 "告死邪魔P13已死亡，失去技能")."""
    return [(seat.name, skill, why) for skill in _locking(board, name) for seat in board.table.players.values()
            if holds(seat, skill) and (why := why_not(board, pool, seat, skill)) is not None]


def _locking(board: Board, name: str) -> list[Skill]:
    return [s for s in board.catalog.skills.values() if name in s.locks]


def why_not(board: Board, pool: Pool, seat: Seat, skill: Skill) -> str | None:
    """Why ``seat``, who holds ``skill``, could not use it at this point of the phase, whatever he submitted — the
    refusals a submission would meet now (:func:`~tracker.engine.night.checks.refused_now`), then a block or a void
    this phase has put on him; None: he can."""
    hooks = board.hooks
    refused = refused_now(board.table, seat.name, skill, board.game_day, hooks.refuse if hooks is not None else None)
    if refused:  # the game's own rules too (M160: the dead lose their skills, a 丑角 acts only through 愚者)
        return refused
    if pool.blocks(seat.name, skill.name, skill.kind):
        return f"被{pool.blockers.get(seat.name, ('封锁',))[0]}封锁"
    void = tonight.voiding(board, pool, skill, (seat.name,))
    return None if void is None else f"{void[1]}，技能无效"
