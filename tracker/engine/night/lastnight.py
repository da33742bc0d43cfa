"""A bond whose survivor lives on for a while: ``trigger.on = "partner_exit"`` and its ``last_night`` effect.

M19 忠犬 "当主人出局时，忠犬可以存活至下一讨论日夜晚结束方发动<殉情>出局，并在下一讨论日夜晚获得<杀人>": the exit of the
player at the other end of a ``pairs`` mark (:mod:`.pairs`) records the survivor's last night in the table's ``state``
(:func:`begin`, inside that exit); as that night's settlement begins he holds the skill ``again`` (:func:`prepare`, which
also counts the night for a partner whose exit was recorded at the desk with no record of it); the step of the night
file listing the skill takes him out (:func:`end`).
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import effects
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Effect, Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Seat


def skills(board: Board) -> tuple[Skill, ...]:
    return tuple(s for s in board.catalog.skills.values() if s.trigger is not None and s.trigger.on == "partner_exit")


def _effect(skill: Skill) -> Effect:
    return next(e for e in skill.effects if e.kind == "last_night")


def bound(board: Board, holder: Seat) -> str | None:
    """The player, in or out, carrying the other end of a ``pairs`` mark ``holder`` carries."""
    for a, b in board.catalog.pairs:
        other = b if a in holder.tags else a if b in holder.tags else None
        if other is None:
            continue
        found = next((p.name for p in board.table.players.values() if p.name != holder.name and other in p.tags), None)
        if found is not None:
            return found
    return None


def _record(board: Board, e: Effect) -> dict[str, Any]:
    found = board.state.get(e.state or "")
    return dict(found) if isinstance(found, dict) else {}


def _words(holder: str, partner: str, night: int) -> dict[str, Any]:
    return {"actor": holder, "partner": partner, "night": night}


def begin(board: Board, seat: Seat, cause: str) -> None:
    """``seat`` went out: each living holder bound to him records his last night, is told, and the director's to-do
    is written (an ``on_death`` listener, inside the exit)."""
    for skill in skills(board):
        e = _effect(skill)
        for holder in [p for p in board.living() if holds(p, skill) and bound(board, p) == seat.name]:
            night = (board.night if board.night is not None else (board.table.day or 0)) + 1
            board.set_state(e.state or "", {**_record(board, e), holder.name: night})
            w = _words(holder.name, seat.name, night)
            if e.log:
                board.note(e.log.format(**w))
            if e.pending is not None:
                board.later(e.pending.format(**w), holder.name, e.until.format(**w), e.clause or skill.clause)
            if e.text:
                board.tell(holder.name, e.text.format(**w))


def prepare(board: Board) -> None:
    """As a settlement begins: a living holder whose partner is out with no record gets one — the night after the
    partner's exit (``出局``: night M → M+1, day D → D+1), or the director's answer — and on his last night he holds
    ``again``."""
    for skill in skills(board):
        e = _effect(skill)
        for holder in [p for p in board.living() if holds(p, skill)]:
            partner = bound(board, holder)
            if partner is None or board.seat(partner).alive:
                continue
            record = _record(board, e)
            if holder.name not in record:
                out = board.seat(partner).fields.get("出局")
                when = out.get("night", out.get("day")) if isinstance(out, dict) else None
                night = int(when) + 1 if isinstance(when, int) else int(board.ask(
                    f"{skill.name}.{e.state}", f"{partner}已出局（时间未记录）：{holder.name}在哪一夜结束时出局（<{skill.name}>）？",
                    [str(board.night or 0), str((board.night or 0) + 1)]))
                board.set_state(e.state or "", {**record, holder.name: night})
                board.note(f"{skill.name}：{partner}此前已出局，{holder.name}存活至第{night}夜结束")
            if e.again is not None and _record(board, e).get(holder.name) == board.night:
                effects.hold(board, holder.name, e.again)
                board.note(f"{skill.name}：{holder.name}第{board.night}夜持有<{e.again}>")


def end(board: Board, skill: Skill, out: effects.Out) -> None:
    """The step listing ``skill``: each living holder whose last night this is goes out as the effect's ``cause``."""
    e = _effect(skill)
    record = _record(board, e)
    for holder in [p for p in board.living() if holds(p, skill) and record.get(p.name) == board.night]:
        w = _words(holder.name, bound(board, holder) or "", board.night or 0)
        if e.out_log:
            board.note(e.out_log.format(**w))
        out(holder.name, (e.cause or skill.name).format(**w))
