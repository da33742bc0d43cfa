"""Who sits next to whom: the players' ``seat`` numbers, a round table unless the state says otherwise.

Posts read the seating ("他们相邻玩家", "对一名与他相邻的玩家造成【致死伤害】"): a player's neighbours are
the nearest living player on each side, the dead skipped; the table is round (the last seat next to the
first) unless the ``state`` key ``座次环形`` is false. A player with no ``seat`` has no neighbours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.engine.night.board import Board

#: The state key that, false, makes the table a row (no wrap from the last seat to the first).
RING = "座次环形"


def neighbours(board: Board, name: str) -> list[str]:
    """The nearest living player on each side of ``name`` by ``seat`` (each once; none without a seat)."""
    seated = sorted((p for p in board.table.players.values() if isinstance(p.fields.get("seat"), int)),
                    key=lambda p: p.fields["seat"])
    names = [p.name for p in seated]
    if name not in names:
        return []
    ring = board.state.get(RING, True) is not False
    i = names.index(name)
    out: list[str] = []
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(names) or ring:
            j %= len(names)
            if j == i:
                break
            if board.seat(names[j]).alive:
                out.append(names[j])
                break
            j += step
            if not ring and not 0 <= j < len(names):
                break
    return list(dict.fromkeys(out))
