"""What every step of M19's settlement reads: who is a wolf, who the lovers are, who bears what.

Kept apart from the steps so the refusals (which see only the table) and the settlement (which
works on the board) read the lovers and the pack the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracker.engine.night import react
from tracker.engine.night.board import Board
from tracker.engine.night.effects import Pool
from tracker.engine.night.model import Action, Seat, Table

#: "三狼：公狼、老狼、幼狼" (1L). 绑匪 is 狼人阵营 but 群外 and no 狼人 in this sense.
WOLVES = ("公狼", "老狼", "幼狼")
#: "三大特：预言、女巫、医生"; 村民阵营负1 names the same three.
GODS = ("预言家", "女巫", "医生")
FACTIONS = ("狼人", "村民", "黑情侣")
LOVER_TAGS = ("情侣:攻", "情侣:受", "情侣:主人", "情侣:忠犬")


def lovers(table: Table) -> dict[str, Any] | None:
    lv = table.state.get("情侣")
    return lv if isinstance(lv, dict) else None


def is_lover(seat: Seat) -> bool:
    return any(t in seat.tags for t in LOVER_TAGS)


def lover_names(table: Table) -> tuple[str, ...]:
    lv = lovers(table)
    if lv is None:
        return tuple(p.name for p in table.players.values() if is_lover(p))
    if lv.get("类型") == "基佬情深":
        return (lv["攻"], lv["受"])
    return (lv["主人"], lv["忠犬"])


def role_in_pair(table: Table, name: str) -> str | None:
    """攻 / 受 / 主人 / 忠犬 for a lover, from ``state.情侣`` (or the player's tag)."""
    lv = lovers(table)
    if lv is not None:
        for key in ("攻", "受", "主人", "忠犬"):
            if lv.get(key) == name:
                return key
    seat = table.players.get(name)
    if seat is not None:
        for t in seat.tags:
            if t in LOVER_TAGS:
                return t.split(":", 1)[1]
    return None


def in_pack(seat: Seat) -> bool:
    """A member of the 狼群: a 狼人阵营 wolf, or whoever joined it (绑匪 via 恋爱) with the tag.

    A wolf whose lover is not a wolf "失去<杀人>技能，且不与其他狼人阵营的角色互知共群"; after
    私奔 it is 黑情侣 and so outside. "已经出局的狼群中的角色仍然留在狼群。"
    """
    if seat.faction != "狼人":
        return False
    return "狼群" in seat.tags or seat.role in WOLVES


def time_index(when: Any) -> int | None:
    """Day D then night D: a sortable index for an ``出局`` record."""
    if not isinstance(when, dict):
        return None
    if isinstance(when.get("day"), int):
        return 2 * int(when["day"])
    if isinstance(when.get("night"), int):
        return 2 * int(when["night"]) + 1
    return None


@dataclass
class Ctx:
    """One settlement of M19: the board and what its steps hand on to later steps."""

    board: Board
    actions: list[Action]
    dead_at_start: list[str] = field(default_factory=list)
    #: The generic engine's pending blocks (老狼<算计> is data: a ``block`` that ``refuses``).
    pool: Pool = field(default_factory=Pool)
    #: 指杀 of step (1): (effective target, who killed) in order.
    strikes: list[tuple[str, str]] = field(default_factory=list)
    treated: str | None = None      # 救治 target (after 主人 bears it)
    antidote: str | None = None     # 救药 target
    #: Set once the 公示 and the exit notices are written (at the 公示 step, or where a win stops it).
    finished: bool = False
    extra_lines: list[str] = field(default_factory=list)
    #: The day's exiles by the vote (the night file's <投票出局>, data), and where the out list goes among the
    #: 公示's extra lines: before what the exits set off ("白天因投票出局的所有角色将立即公示").
    exiled: list[str] = field(default_factory=list)
    exile_at: int = 0
    used: set[int] = field(default_factory=set)  # indexes of actions settled

    @property
    def table(self) -> Table:
        return self.board.table

    def clause(self, skill: str) -> str:
        return self.board.skill(skill).clause

    def of(self, skill: str) -> list[Action]:
        return [a for a in self.actions if a.skill == skill]

    def bearer(self, target: str, skill: str, source: str, label: str) -> str:
        """Where a hook step's cast lands: the 主人 bears what is used on the 忠犬 (the night file's <主人>,
        ``reacts`` ``then = "partner"``), asked as the generic engine asks for a data skill's targets."""
        landed = react.land(self.board, source, skill, target, (), label=label)
        return target if landed is None else landed

    def blocked(self, act: Action) -> tuple[str, str] | None:
        """Why a lone actor's submission is refused at its step, with the clause: blocked by <算计>
        (the reason the night file's ``refuses`` gives), or None."""
        if len(act.members) != 1 or act.team is not None or not self.pool.blocks(act.members[0], act.skill):
            return None
        m = act.members[0]
        return self.pool.refusal(m, act.skill) or (f"{m}被封锁，<{act.skill}>无效", "")
