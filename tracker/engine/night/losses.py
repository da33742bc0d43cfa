"""What a faction's loss sets off by itself: the skills whose ``trigger`` is ``on = "loss"``.

A post may give players a skill the moment another faction is judged lost (M19 寡妇刀 "若情侣属于【黑情侣阵营】，当【狼人
阵营】优先判负后，情侣获得技能<杀人>。此事件发生时会通知黑情侣阵营"). Every loss goes through the board's ``on_lost``
listeners — the win check's ``[[win]]``, a concession, the director's 判负 on a red card (:mod:`.win`) — so the trigger
listens there, whoever settled the loss. A loss recorded before the settlement (the table's ``判负阵营``, from an earlier
phase or written by hand) has set it off already: its holders who lack what its ``gain`` gives come to hold it at the
start, so the refusals see them holding it.
"""

from __future__ import annotations

from tracker.engine.night import effects, tonight
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Action
from tracker.engine.night.win import LOST


def _skills(board: Board) -> tuple[Skill, ...]:
    return tuple(s for s in board.catalog.skills.values() if s.trigger is not None and s.trigger.on == "loss")


def install(board: Board) -> None:
    """Listen for losses (before the settlement's first win check), then catch up with those already recorded."""
    if not _skills(board):
        return
    board.on_lost.append(lost)
    before = [str(f) for f in board.state.get(LOST) or []]
    for skill in _skills(board):
        assert skill.trigger is not None
        for faction in (f for f in before if f in skill.trigger.losers):
            for seat in [p for p in board.table.players.values() if p.alive and holds(p, skill)]:
                for e in skill.effects:
                    if e.kind != "gain" or e.again is None:
                        continue
                    gained = board.catalog.skill(e.again)
                    if (gained.uses or gained.name) in seat.uses:
                        continue
                    use = effects.Use("结算开始时", Action(seat.name, skill.name, index=-1), skill, seat.name)
                    if e.when_actor is not None and not tonight.matches(board, effects.Pool(), e.when_actor, seat.name):
                        continue
                    effects.hold(board, seat.name, e.again)
                    board.note(f"{use.step} {seat.name}<{skill.name}>：{faction}阵营已判负 → 持有<{gained.name}>")


def lost(board: Board, faction: str) -> None:
    """``faction`` newly judged lost: each ``loss`` skill naming it acts by itself, every living holder in table order
    acting with no target; an effect ``to = "factions"`` acts once, with the first of them."""
    for skill in _skills(board):
        assert skill.trigger is not None
        if faction not in skill.trigger.losers:
            continue
        holders = [p.name for p in board.table.players.values() if p.alive and holds(p, skill)]
        for i, holder in enumerate(holders):
            use = effects.Use(f"{faction}阵营判负后", Action(holder, skill.name, index=-1), skill, holder)
            for e in skill.effects:
                if e.to == "factions" and i > 0:
                    continue
                effects.apply(board, effects.Pool(), use, e, None, _out(board))


def _out(board: Board) -> effects.Out:
    def out(player: str, cause: str) -> None:
        board.kill(player, cause)
    return out
