"""潜水 penalties as reviewable findings: which of a day's lurk penalties are carded, and the card each makes.

`tracker lurkers` and the 潜水 report name the players who earn a yellow card; until now that card
had to be typed by hand, so the 公示 said 判罚黄牌 while the ledger held nothing. A lurk penalty is
identified by its day, its player and its clause: the card it makes carries all three (``day`` on
the entry, the clause as the card's clause), so the ledger itself says which penalties are done and
a second bulk run for the day issues nothing twice. A card the director revoked stays decided (a
pardon is a decision): it is not issued again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tracker.penalties.ledger import Entry, replay
from tracker.penalties.lurk import LurkPenalty
from tracker.penalties.review import short_clause


@dataclass(frozen=True, slots=True)
class LurkFinding:
    """One lurk penalty of one day and what the ledger says of it."""

    day: int
    penalty: LurkPenalty
    card: int | None = None
    """The ledger entry of the card it became (None: not carded yet)."""
    revoked: bool = False

    @property
    def clause(self) -> str:
        return short_clause(self.penalty.clause)

    @property
    def reason(self) -> str:
        """The card's reason, in the rule post's words: 潜水（未投票）：第 2 日，投票均无效."""
        detail = f"，{self.penalty.detail}" if self.penalty.detail else ""
        return f"潜水（{self.penalty.words}）：第 {self.day} 日{detail}"

    @property
    def status_words(self) -> str:
        if self.card is None:
            return "待判罚"
        return f"已撤销（第 {self.card} 条）" if self.revoked else f"已判罚（第 {self.card} 条）"


def lurk_findings(day: int, penalties: Sequence[LurkPenalty], ledger: Sequence[Entry]) -> list[LurkFinding]:
    """The day's penalties, each matched with the card already issued for it (same day, player, clause)."""
    st = replay(ledger)
    out: list[LurkFinding] = []
    for p in penalties:
        clause = short_clause(p.clause)
        card = next((c for c in st.cards.values()
                     if c.entry.action == "issue" and c.entry.day == day and c.player == p.player
                     and c.entry.clause == clause and c.entry.reason.startswith("潜水")), None)
        if card is None:
            out.append(LurkFinding(day, p))
        else:
            out.append(LurkFinding(day, p, card.id, revoked=card.revoked_by is not None))
    return out
