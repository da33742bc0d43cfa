"""The five bundled rulesets through `rules_for_vote`: the demo's real day-2 ballots recounted under each.

The same thread gives different counts because the rule posts differ, clause by clause; each case
names the clause that makes the difference. Also the BBCode announcement of a count.
"""

from __future__ import annotations

import random

import pytest
from test_votes_scenario import DIRECTORS, PLAYERS, ballots_of, roster, window

from tracker.clock import SHANGHAI
from tracker.engine.ruleset import load_ruleset
from tracker.engine.tally import Tally, rules_for_vote, tally
from tracker.reports.announce_tally import announce_tally_bbcode

IDS = ["dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65"]
SUISUI_FREEZE_CHANGE = 195  # 碎碎's 改票 at 21:30, quoting the own floor, 30 min before close


def recount(ruleset_id: str, key: str = "d2vote", sheriff: str | None = None, day1: bool = False) -> Tally:
    rs = load_ruleset(ruleset_id)
    election = rs.voting.day1[0] if day1 and rs.voting.day1 else None
    ballots, _ = ballots_of(key)
    return tally(ballots, rules=rules_for_vote(rs.voting, election), roster=roster(2 if key == "d2vote" else 1,
                 sheriff), window=window(key))


def verdict(t: Tally, pid: int) -> str | None:
    cb = next(cb for cb in t.ballots if cb.ballot.pid == pid)
    return cb.verdict.code.value if cb.verdict else None


@pytest.mark.parametrize("ruleset_id,expected", [
    ("dnf-107", None),                       # "改票不限制次数，但以最后一次有效投票为准" — no freeze
    ("gourmet-m160", None),                  # "改票不限制次数，但以最后一次有效投票为准"
    ("sanguo-213", "change_in_freeze"),      # "关门前一小时不允许改票或代投"
    ("luoluo-m19", "change_in_freeze"),      # "白天结束前一个小时不得改票"
    ("accel-m65", "change_in_freeze"),       # "关门前一小时不允许改票或代投"
])
def test_the_last_hour_change_under_each_rule_post(ruleset_id: str, expected: str | None) -> None:
    assert verdict(recount(ruleset_id), SUISUI_FREEZE_CHANGE) == expected


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_ruleset_resolves_and_counts_every_ballot(ruleset_id: str) -> None:
    t = recount(ruleset_id)
    ballots, _ = ballots_of("d2vote")
    assert len(t.ballots) == len(ballots)
    assert all(cb.valid or cb.reason for cb in t.ballots)


def test_213_sheriff_and_m19_sheriff_weigh_the_same() -> None:
    """213 and M19 警长·带队: "计算投票数量时警长投出的票计为1.5票"."""
    for rid in ("sanguo-213", "luoluo-m19"):
        assert recount(rid, sheriff="饺子").totals == {"栗子": 6, "包子": 3.5}


def test_m19_day1_election_is_first_to_top_and_213_tie_is_nobody() -> None:
    m19 = rules_for_vote(load_ruleset("luoluo-m19").voting, load_ruleset("luoluo-m19").voting.day1[0])
    s213 = rules_for_vote(load_ruleset("sanguo-213").voting, load_ruleset("sanguo-213").voting.day1[0])
    assert (m19.tie, s213.tie) == ("first_to_top", "nobody")
    assert recount("luoluo-m19", "d1vote", day1=True).outcome.player == "饺子"


def test_m160_demo_day2_falls_short_of_half_of_the_living() -> None:
    """M160: "大于等于场上存活角色一半的出人票且是唯一最高票" — with no freeze 碎碎's late change counts,
    so 栗子 has 5 of 12 living: below half, nobody dies."""
    t = recount("gourmet-m160")
    assert t.totals == {"栗子": 5, "包子": 4}
    assert (t.outcome.kind, t.outcome.reason) == ("nobody", "threshold")
    assert "一半" in t.outcome.message


def test_m65_proxy_deadline_is_data() -> None:
    """M65 导演代投："导演至少在投票截至的30分钟前…发出代投信息"."""
    r = rules_for_vote(load_ruleset("accel-m65").voting)
    assert r.proxy_deadline_minutes == 30 and r.freeze_blocks_proxy


def test_order_of_stored_posts_does_not_matter_on_real_pages() -> None:
    rs = load_ruleset("luoluo-m19")
    ballots, _ = ballots_of("d1vote")
    rules = rules_for_vote(rs.voting, rs.voting.day1[0])
    base = tally(ballots, rules=rules, roster=roster(1), window=window("d1vote"))
    for seed in range(5):
        shuffled = list(ballots)
        random.Random(seed).shuffle(shuffled)
        assert tally(shuffled, rules=rules, roster=roster(1), window=window("d1vote")) == base


def test_announcement_lists_public_count_invalid_ballots_and_outcome() -> None:
    t = recount("luoluo-m19", sheriff="饺子")
    text = announce_tally_bbcode(t, tz=SHANGHAI)
    assert "栗子：6 票" in text and "包子：3.5 票" in text and "饺子×1.5" in text
    assert "[b]无效票[/b]" in text
    assert "14# 碎碎" in text and "关门前禁止改票" in text
    assert "15# 风行" in text and "关门之后" in text
    assert text.rstrip().endswith("栗子 票数最高（6 票），被投票出局。")
    secret = announce_tally_bbcode(t, tz=SHANGHAI, show_voters=False)
    assert "饺子×1.5" not in secret and "栗子：6 票" in secret


def test_hidden_modifiers_never_reach_the_announcement() -> None:
    from tracker.engine.tally import Roster, VoteModifier

    rs = load_ruleset("accel-m65")
    ballots, _ = ballots_of("d2vote")
    base = roster(2)
    hidden = Roster(players=base.players, modifiers=(VoteModifier("received_multiply", "包子", 2),))
    t = tally(ballots, rules=rules_for_vote(rs.voting), roster=hidden, window=window("d2vote"))
    assert t.totals == {"栗子": 6, "包子": 6} and t.outcome.kind == "nobody"
    assert t.public_totals == {"栗子": 6, "包子": 3}
    assert "包子：3 票" in announce_tally_bbcode(t, tz=SHANGHAI)


def test_helpers_are_real() -> None:
    assert "导演A" in DIRECTORS and len(PLAYERS) == 14
