"""胜负判定 of M65: 判负 first and silently on every death, then the win check in the post's order.

"某阵营满足其判负条件之一时，该阵营优先判负。已经判负的阵营无法再次获得胜利。" — a faction is
judged lost the moment its 负 condition holds (a death), without a line in the 公示 and without
taking its players out ("阵营被判负后，不予公示，且属于该阵营的角色并不会出局。"). The win check
runs when the settled phase ends, so that wins reached by one phase's deaths are "同时" and the
post's priority decides between them.
"""

from __future__ import annotations

from collections.abc import Callable

from tracker.engine.night.board import Board

from .rules import C_LOSE_FIRST, C_LOST, C_WIN, C_WIN_ORDER, FACTIONS


def _all_out(board: Board, *, faction: str | None = None, role: str | None = None) -> bool:
    return not any(p.alive and (p.faction == faction or p.role == role) for p in board.table.players.values())


def steals(board: Board) -> set[str]:
    """The different roles the 掠夺者 guessed right (<技能掠夺>), from his 掠夺成功."""
    out: set[str] = set()
    for p in board.table.players.values():
        if p.role == "掠夺者":
            out.update(str(x) for x in p.fields.get("掠夺成功", []) or [])
    return out


LOSSES: tuple[tuple[str, str, Callable[[Board], bool]], ...] = (
    ("黑暗星云", "负1、黑暗星云阵营的角色全部出局", lambda b: _all_out(b, faction="黑暗星云")),
    ("六色联军", "负1、六色联军阵营的角色全部出局", lambda b: _all_out(b, faction="六色联军")),
    ("加速研究社", "负1、掠夺者出局", lambda b: _all_out(b, role="掠夺者")),
)

#: "判定优先顺序为：加速研究社阵营1、黑暗星云阵营1/六色联军阵营1、加速研究社阵营2"
WINS: tuple[tuple[str, str, str, Callable[[Board], bool]], ...] = (
    ("加速研究社", "胜1、成功完成对四个不同角色的技能掠夺", "1、成功完成对四个不同角色的技能掠夺。",
     lambda b: len(steals(b)) >= 4),
    ("黑暗星云", "胜1、所有六色联军阵营的角色和掠夺者均出局", "1、所有六色联军阵营的角色和掠夺者均出局。",
     lambda b: _all_out(b, faction="六色联军") and _all_out(b, role="掠夺者")),
    ("六色联军", "胜1、所有黑暗星云阵营的角色和掠夺者均出局", "1、所有黑暗星云阵营的角色和掠夺者均出局。",
     lambda b: _all_out(b, faction="黑暗星云") and _all_out(b, role="掠夺者")),
    ("加速研究社", "胜2、所有六色联军阵营和黑暗星云阵营的角色均出局",
     "2、所有六色联军阵营阵营和黑暗星云阵营的角色均出局。",
     lambda b: _all_out(b, faction="六色联军") and _all_out(b, faction="黑暗星云")),
)


def lost(board: Board) -> list[str]:
    raw = board.state.get("判负阵营") or []
    return [str(f) for f in raw]


def judge_losses(board: Board) -> None:
    """Judge lost every faction whose 负 condition now holds; silent (no 公示 line)."""
    done = lost(board)
    for faction, reason, test in LOSSES:
        if faction in done or not test(board):
            continue
        done = [*done, faction]
        board.set_state("判负阵营", done)
        stay = [p.name for p in board.living() if p.faction == faction]
        board.note(f"{faction} {reason} → {faction}优先判负；判负不予公示"
                   + (f"；{'、'.join(stay)}不出局，仍在场" if stay else ""))
        for name in stay:
            board.result.state_after[name] = "存活，不出局（所属阵营已判负，无法再获胜）"


def check(board: Board) -> None:
    """The win check at the end of the phase, in the post's priority; "none" is logged too."""
    done = set(lost(board))
    for faction, reason, clause, test in WINS:
        if faction not in done and test(board):
            board.win(faction, reason, f"{clause}（{C_WIN_ORDER}）")
            return
    standing = [f for f in FACTIONS if f not in done]
    if len(standing) == 1:
        board.win(standing[0], "场上仅有一个阵营尚未被判负", C_WIN)
        return
    board.note(f"胜负：尚未判负的阵营有{len(standing)}个（{'、'.join(standing) or '无'}），"
               f"无阵营满足胜利条件 → 无人获胜（{C_LOSE_FIRST}{C_LOST}）")
