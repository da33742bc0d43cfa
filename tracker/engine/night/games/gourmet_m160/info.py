"""【迷失】's 村民 at the 寻觅 line: he believes he is 煤气灯人, and has no 【寻觅】 (the night file's ``learn``).

"你和一名村民均认为自己的身份是煤气灯人，并且这名村民不能使用他的技能": the 村民 still hands in a
【寻觅】, at its line of the order; the skill is not his, so the director answers him (``寻觅.迷失.<player>``,
seeded) — the real 煤气灯人's 寻觅 (清醒 and 表面身份 unless the 恶魔's victim, then the answer) is data.
"""

from __future__ import annotations

from tracker.engine.night.board import Board
from tracker.engine.night.games.gourmet_m160.skills import _say
from tracker.engine.night.games.gourmet_m160.table import Night
from tracker.engine.night.model import Action

GASLIGHTER = "煤气灯人"


def believed_only(board: Board, action: Action) -> bool:
    """A submission of a 煤气灯人 skill by a player who is not one: the 迷失 村民's, who only believes it."""
    if not board.has(action.actor) or board.seat(action.actor).role == GASLIGHTER:
        return False
    return action.skill in {s.name for s in board.catalog.skills_of(GASLIGHTER) if s.phase != "passive"}


def lost_seek(night: Night) -> None:
    """The 迷失 村民's 【寻觅】: not his skill, the director's answer, told as the skill would tell it."""
    for a in night.actions:
        if a.skill != "寻觅" or not believed_only(night.board, a):
            continue
        t = night.targets(a)[0]
        answer = night.board.ask(f"寻觅.迷失.{a.actor}", f"{a.actor}只是认为自己是煤气灯人，导演给他的答复",
                                 ["是", "不是"])
        _say(night, f"寻觅：{a.actor}并非煤气灯人（迷失），不是他的技能；导演答复“{answer}”")
        night.tell(a.actor, f"寻觅：{t}的表面身份{answer}煤气灯人")
