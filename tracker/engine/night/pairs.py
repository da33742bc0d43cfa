"""Two players bound to each other by marks (the night file's ``pairs``): M19's 情侣, 攻/受 and 主人/忠犬.

What the bond does is the skills' own data — the other end goes out at once (``to = "partner"``: 殉情), a cast
on one end lands on the other (``reacts`` ``then = "partner"``: 主人) — this only says who the other end is.
"""

from __future__ import annotations

from tracker.engine.night.board import Board


def partner(board: Board, player: str) -> str | None:
    """The living player bound to ``player`` by one of the night file's ``pairs`` — the living player carrying the
    other end's mark — or None (M19 情侣: 攻/受, 主人/忠犬)."""
    if not board.has(player):
        return None
    mine = board.seat(player).tags
    for a, b in board.catalog.pairs:
        other = b if a in mine else a if b in mine else None
        if other is None:
            continue
        # the living holder: marks stay on players out, and a director may bind a new pair later (M19 情侣 set anew)
        found = next((p.name for p in board.table.players.values() if p.name != player and p.alive and other in p.tags),
                     None)
        if found is not None:
            return found
    return None
