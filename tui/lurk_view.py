"""The 潜水 screen's values: each player's posts against the minimum, the three-day run, the vote.

Built in a worker from the service's LurkReport and the day's status (effective close, 加速), so the
screen only formats; who is "under the minimum right now" is decided here once, for the screen and
the sidebar badge alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tracker.engine.days import DayStatus
    from tracker.engine.ruleset import LurkRules
    from tracker.penalties.lurk import LurkReport


@dataclass(frozen=True, slots=True)
class LurkerRow:
    player: str
    posts: int
    voted: bool | None  # None: the day has no vote thread
    invalid_only: bool  # posted ballots, none valid
    streak: int  # consecutive judged days under the three-day minimum, this day included
    exempt: str | None  # why a rule is not applied (加速, 被绑架, 死亡未出局)
    penalties: tuple[str, ...] = ()  # the rules' words (发言不足, 未投票 …)


@dataclass(frozen=True, slots=True)
class PenaltyLine:
    player: str
    words: str
    clause: str
    detail: str
    card: str


@dataclass(frozen=True, slots=True)
class LurkView:
    day: int
    discussion: int | None
    opens: datetime
    closes: datetime
    accelerated: bool
    accelerated_cause: str | None
    min_posts: int        # 0: the ruleset has no 发言不足 rule
    three_day_min: int    # 0: no three-day rule
    three_day_span: int
    rows: tuple[LurkerRow, ...]
    penalties: tuple[PenaltyLine, ...]

    def under(self, row: LurkerRow) -> bool:
        """Under the day's minimum and judged for it (not exempt, the day not accelerated)."""
        return row.posts < self.min_posts and not row.exempt and not self.accelerated

    @property
    def under_count(self) -> int:
        return sum(1 for r in self.rows if self.under(r))


def lurk_view(rep: LurkReport, *, status: DayStatus, discussion: int | None, has_vote: bool,
              rules: LurkRules) -> LurkView:
    """The screen's rows from the service's report and the day as it stands."""
    by_player: dict[str, list[str]] = {}
    for p in rep.penalties:
        by_player.setdefault(p.player, []).append(p.words)
    rows = tuple(LurkerRow(player=name, posts=int(n), voted=bool(rep.voted.get(name)) if has_vote else None,
                           invalid_only=name in rep.invalid_only, streak=int(rep.streaks.get(name, 0)),
                           exempt=rep.exempt.get(name) or None, penalties=tuple(by_player.get(name, ())))
                 for name, n in rep.posts.items())
    pens = tuple(PenaltyLine(p.player, p.words, p.clause, p.detail, p.card) for p in rep.penalties)
    return LurkView(day=rep.day, discussion=discussion, opens=status.opens, closes=status.closes,
                    accelerated=bool(rep.accelerated), accelerated_cause=status.accelerated_cause,
                    min_posts=rules.min_posts or 0, three_day_min=rules.three_day_min or 0,
                    three_day_span=int(rules.three_day_span), rows=rows, penalties=pens)
