"""A red card in the posts that bench instead of taking a player out (107, M160).

"玩家受到红牌判罚时进入挂机状态（称为“红牌罚下”）" — the shared vocabulary submits every red card as
``{"actor": "导演", "skill": "红牌罚下"}``; in these posts it puts the player in 挂机 (he stays in the
game, his submissions are refused from then on) and, where the director decides so ("判罚红牌时，
导演视情况决定是否判负该玩家所在阵营", ``choice = 判负``), judges his faction lost. The game's own win
check then runs as after any other change.
"""

from __future__ import annotations

from tracker.engine.night.board import Board
from tracker.engine.night.model import Action

BENCHED = "挂机"


def bench(board: Board, action: Action, clause: str) -> str:
    """Bench the red card's target; returns the player."""
    target = action.targets[0]
    seat = board.seat(target)
    if BENCHED not in seat.status:
        seat.status.append(BENCHED)
    board.result.state_after[f"{target}.status"] = list(seat.status)
    board.note(f"红牌罚下：{target}进入挂机状态（{clause}）")
    if "判负" in (action.choice or ""):
        lost = list(board.state.get("判负阵营") or [])
        if seat.faction not in lost:
            board.set_state("判负阵营", [*lost, seat.faction])
            board.note(f"红牌罚下：导演决定判负{target}所在的{seat.faction}阵营")
    return target
