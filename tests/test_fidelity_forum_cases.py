"""Issue 12's four real-forum cases, each against the Discuz behaviour (or the rule) it comes from."""

from __future__ import annotations

from datetime import datetime, timedelta

from tracker.clock import SHANGHAI
from tracker.engine.ballots import Ballot
from tracker.engine.tally import DayWindow, PlayerView, Roster, TallyRules, tally

OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
CLOSES = datetime(2025, 3, 2, 21, 0, tzinfo=SHANGHAI)
EXILE = DayWindow(day=2, opens=OPENS, closes=CLOSES)


def _vote(pid: int, voter: str, target: str, at: datetime) -> Ballot:
    return Ballot(pid=pid, tid=4, floor=pid - 98, author=voter, posted_at=at, voter=voter, kind="vote",
                  change=False, target=target, reason_text="理由")


# --------------------------------------------------------------------------- case 3: out at the close

def test_an_elimination_at_exactly_the_close_does_not_void_the_days_ballots() -> None:
    """A day decided before the tracker is entered as ``cause = "vote"`` at the close: the player is
    out *at* the close, not before it, so the votes that exiled them stay valid ("投票对象在关门前已出局"
    is for players out before the close)."""
    ballots = [_vote(100, "甲", "丙", OPENS + timedelta(hours=2)), _vote(101, "乙", "丙", OPENS + timedelta(hours=3)),
               _vote(102, "丙", "甲", OPENS + timedelta(hours=4))]
    players = (PlayerView("甲"), PlayerView("乙"), PlayerView("丙", out_at=CLOSES))
    result = tally(ballots, rules=TallyRules(), roster=Roster(players=players), window=EXILE)
    assert [cb.valid for cb in result.ballots] == [True, True, True]
    assert not any(f.code.value == "target_out_by_close" for cb in result.ballots for f in cb.flags)
    assert result.totals == {"丙": 2.0, "甲": 1.0}
    assert (result.outcome.kind, result.outcome.player) == ("exiled", "丙")


def test_an_elimination_a_second_before_the_close_still_voids_votes_on_them() -> None:
    """The other side of the boundary: out before the close (正午出局, a red card) → the votes on
    them do not count."""
    ballots = [_vote(100, "甲", "丙", OPENS + timedelta(hours=2)), _vote(101, "乙", "丙", OPENS + timedelta(hours=3))]
    players = (PlayerView("甲"), PlayerView("乙"), PlayerView("丙", out_at=CLOSES - timedelta(seconds=1)))
    result = tally(ballots, rules=TallyRules(), roster=Roster(players=players), window=EXILE)
    assert "丙" not in result.totals
    assert all(any(f.code.value == "target_out_by_close" for f in cb.flags) for cb in result.ballots)
