"""胜负判定 of M65 at night: the ruleset's ``[[win]]`` by the one win check, plus what only this post says.

"某阵营满足其判负条件之一时，该阵营优先判负。已经判负的阵营无法再次获得胜利。" — a faction is
judged lost the moment its 负 condition holds (``[win_policy] losses_at = ["death"]``), without a
line in the 公示 and without taking its players out ("阵营被判负后，不予公示，且属于该阵营的角色并不
会出局。", :func:`stay_in`). The win check runs when the settled phase ends (``checks_at``), so that
wins reached by one phase's deaths are "同时" and the post's priority decides between them.

加速研究社 胜1 "成功完成对四个不同角色的技能掠夺" is a hook condition on the day's recorded actions
(``rulesets/hooks.py``); at night the 掠夺者's ``掠夺成功`` field holds the roles he guessed right,
which :func:`win_view` hands to the same condition as actions.
"""

from __future__ import annotations

from dataclasses import replace

from tracker.engine.night.board import Board
from tracker.engine.state import ActionRecord, GameState

from .rules import C_LOST

#: The recorded action the hook condition counts (``rulesets/hooks.py``, four_distinct_steals).
STEAL = "技能掠夺"


def steals(board: Board) -> set[str]:
    """The different roles the 掠夺者 guessed right (<技能掠夺>), from his 掠夺成功."""
    out: set[str] = set()
    for p in board.table.players.values():
        if p.role == "掠夺者":
            out.update(str(x) for x in p.fields.get("掠夺成功", []) or [])
    return out


def win_view(board: Board, state: GameState) -> GameState:
    """The night's 掠夺成功 as the successful <技能掠夺> actions the day's condition counts."""
    thief = next((p.name for p in board.table.players.values() if p.role == "掠夺者"), None)
    done = tuple(ActionRecord(name=STEAL, player=role, actor=thief, success=True, day=None, seq=0)
                 for role in sorted(steals(board)))
    return replace(state, actions=(*state.actions, *done)) if done else state


def stay_in(board: Board, faction: str) -> None:
    """A faction judged lost keeps its players in play, and the 公示 says nothing of it."""
    stay = [p.name for p in board.living() if p.faction == faction]
    board.note(f"{faction}优先判负；判负不予公示" + (f"；{'、'.join(stay)}不出局，仍在场" if stay else "")
               + f"（{C_LOST}）")
    for name in stay:
        board.result.state_after[name] = "存活，不出局（所属阵营已判负，无法再获胜）"
