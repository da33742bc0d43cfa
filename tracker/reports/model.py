"""What a day's reports say, independent of how they are rendered (Markdown, HTML, BBCode).

The service fills these from the tally, the lurk report and the ledger; the renderers only format.
Names and wording are the rule posts' (投票对象, 潜水, 蓝牌/黄牌/红牌, 挂机, 出局).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class LurkRow:
    player: str
    posts: int
    minimum: int
    voted: bool | None          # None where the ruleset has no vote duty
    invalid_only: bool = False  # voted, but every ballot was invalid (the director's call)
    exempt: str | None = None   # why the player is exempt today (加速, 被绑架, 死亡未出局)


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    player: str
    rule: str
    clause: str
    card: str = "yellow"


@dataclass(frozen=True, slots=True)
class LurkSection:
    rows: tuple[LurkRow, ...]
    penalties: tuple[PenaltyRow, ...]
    accelerated: bool = False


@dataclass(frozen=True, slots=True)
class BallotRow:
    floor: int
    pid: int
    voter: str
    kind: str            # vote / change / proxy
    target: str | None
    valid: bool
    reason: str | None   # Chinese words for an invalid ballot
    posted_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class TallySection:
    public_totals: tuple[tuple[str, float], ...]
    true_totals: tuple[tuple[str, float], ...]
    ballots: tuple[BallotRow, ...]
    outcome: str
    purpose: str = "放逐投票"


@dataclass(frozen=True, slots=True)
class CardRow:
    id: int
    at: datetime
    player: str
    color: str          # blue / yellow / red
    clause: str
    reason: str
    issuer: str
    note: str = ""      # conversion, revocation …


@dataclass(frozen=True, slots=True)
class StandingRow:
    player: str
    blue: int
    yellow: int
    red: int
    status: str         # 存活 / 挂机 / 出局 …


@dataclass(frozen=True, slots=True)
class CardsSection:
    entries: tuple[CardRow, ...]
    standing: tuple[StandingRow, ...]


@dataclass(frozen=True, slots=True)
class DayReport:
    game: str
    ruleset: str
    day: int
    closes_at: datetime
    generated_at: datetime
    final: bool                      # after close (final) or a warning before close
    lurk: LurkSection | None = None
    tally: TallySection | None = None
    cards: CardsSection | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
